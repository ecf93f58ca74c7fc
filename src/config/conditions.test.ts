import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Condition } from '../model/rule-set.js';
import { canonicalPath, decodeRequest, joinUrlPath, type DecodedRequest } from './conditions.js';
import type { DecodeContext } from './decode.js';
import { parseToml } from './toml.js';

/** Decode `[r]` (a when.request table) from TOML lines. */
function decode(lines: string, prefix?: string): { value: DecodedRequest | undefined; ctx: DecodeContext } {
  const text = `[r]\n${lines}\n`;
  const parsed = parseToml(text);
  assert.ok(parsed.ok, text);
  const ctx: DecodeContext = { file: '/w/rs.toml', text, diagnostics: [] };
  return {
    value: decodeRequest(parsed.value.entries.get('r')!.node, ['rules', 0, 'when', 'request'], ctx, prefix),
    ctx,
  };
}

function one(lines: string, prefix?: string): Condition {
  const { value, ctx } = decode(lines, prefix);
  assert.deepEqual(ctx.diagnostics, [], lines);
  assert.equal(value?.conditions.length, 1, lines);
  return value.conditions[0]!;
}

test('url_path compareTo: prefix joined, one leading slash, one trailing slash removed; contains raw', () => {
  const cases: [string | undefined, string, string, string][] = [
    // prefix, value, op, compareTo
    [undefined, '/a/b', 'equal', '/a/b'],
    [undefined, 'a/b', 'equal', '/a/b'],
    [undefined, '/a/b/', 'equal', '/a/b'],
    [undefined, '/a/b//', 'equal', '/a/b/'],
    [undefined, '', 'equal', '/'],
    [undefined, '/', 'equal', '/'],
    [undefined, 'x', 'ends_with', 'x'],
    [undefined, '/api', 'starts_with', '/api'],
    [undefined, '/api/', 'not_starts_with', '/api'],
    [undefined, 'users', 'not_equal', '/users'],
    [undefined, '.json', 'not_ends_with', '.json'],
    ['/api', '.json', 'ends_with', '.json'],
    [undefined, 'a/b/', 'contains', 'a/b/'],
    [undefined, 'x', 'not_contains', 'x'],
    ['/api', '/users', 'equal', '/api/users'],
    ['/api', 'users', 'equal', '/api/users'],
    ['/api', '', 'equal', '/api'],
    ['/api', '/', 'equal', '/api'],
    ['/widgets', '/create', 'ends_with', '/create'],
    ['/api', 'users', 'contains', 'users'],
    ['/', '/x', 'equal', '/x'],
    ['/', '', 'starts_with', '/'],
  ];
  for (const [prefix, value, op, compareTo] of cases) {
    const c = one(`url_path = { value = ${JSON.stringify(value)}, op = "${op}" }`, prefix);
    assert.equal(c.on, 'url_path');
    if (c.on !== 'url_path') continue;
    assert.equal(c.compareTo, compareTo, `${prefix} + ${value} (${op})`);
    assert.equal(c.op, op);
    assert.equal(c.value, value);
    assert.equal(c.bare, false);
    assert.equal(c.pattern, undefined);
  }
});

test('url_path: a bare string is equal; regex and wild_card compile once; a wild card not starting with / * ? is rooted', () => {
  const bare = one('url_path = "users/"', '/api');
  assert.deepEqual(bare, { on: 'url_path', op: 'equal', value: 'users/', bare: true, compareTo: '/api/users' });

  const cases: [string, string, [string, boolean][]][] = [
    [
      'regex',
      '^/api/\\\\d+$',
      [
        ['/api/123', true],
        ['/api/x', false],
      ],
    ],
    ['regex', '(?i)^/USERS$', [['/users', true]]],
    ['not_regex', '\\\\d', [['/abc', false]]],
    [
      'wild_card',
      '/api/*',
      [
        ['/api/1/2', true],
        ['/apix', false],
      ],
    ],
    [
      'wild_card',
      '*.json',
      [
        ['/a/b.json', true],
        ['/a/b.csv', false],
      ],
    ],
    ['wild_card', '?x', [['/x', true]]],
    [
      'wild_card',
      'api/*',
      [
        ['/api/1', true],
        ['api/1', false],
        ['/x/api/1', false],
      ],
    ],
    [
      'wild_card',
      'wild-card/???/*',
      [
        ['/wild-card/abc/x', true],
        ['/wild-card/ab/x', false],
      ],
    ],
  ];
  for (const [op, value, probes] of cases) {
    const c = one(`url_path = { value = "${value}", op = "${op}" }`, '/');
    assert.ok(c.on === 'url_path' && c.pattern instanceof RegExp, value);
    for (const [s, want] of probes) assert.equal(c.pattern.test(s), want, `${value} on ${s}`);
  }
  // under a prefix, a slash-less wild card is joined to it (apimock-rs's own rule_op example); one written with
  // its '/' (or starting with * or ?) is a pattern as written
  const prefixed: [string, string, [string, boolean][]][] = [
    [
      'wild-card/???/*',
      '/rule-op/',
      [
        ['/rule-op/wild-card/aaa/x', true],
        ['/wild-card/aaa/x', false],
      ],
    ],
    [
      'api/*',
      '/v1',
      [
        ['/v1/api/1', true],
        ['/api/1', false],
      ],
    ],
    [
      '/api/*',
      '/v1',
      [
        ['/api/1', true],
        ['/v1/api/1', false],
      ],
    ],
    ['*.json', '/v1', [['/x/a.json', true]]],
  ];
  for (const [value, prefix, probes] of prefixed) {
    const c = one(`url_path = { value = "${value}", op = "wild_card" }`, prefix);
    assert.ok(c.on === 'url_path' && c.pattern instanceof RegExp, value);
    for (const [s, want] of probes) assert.equal(c.pattern.test(s), want, `${value} under ${prefix} on ${s}`);
  }
});

test('method: one of GET POST PUT DELETE PATCH HEAD, exactly', () => {
  for (const m of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'])
    assert.deepEqual(one(`method = "${m}"`), { on: 'method', value: m });
  const cases: [string, RegExp, string | undefined][] = [
    ['method = "get"', /unknown value `get`; expected one of `GET`, `POST`, `PUT`, `DELETE`, `PATCH`, `HEAD`/, 'GET'],
    ['method = "TRACE"', /unknown value `TRACE`/, undefined],
    ['method = ["GET"]', /must be a string, found an array/, undefined],
    ['method = { value = "GET" }', /must be a string, found a table/, undefined],
  ];
  for (const [line, message, suggestion] of cases) {
    const { value, ctx } = decode(line);
    assert.deepEqual(value?.conditions, [], line);
    assert.equal(ctx.diagnostics.length, 1, line);
    assert.match(ctx.diagnostics[0]!.message, message);
    assert.equal(ctx.diagnostics[0]!.suggestion, suggestion);
  }
});

test('headers: names lower-cased, value defaults to "", op to equal; patterns compiled', () => {
  const { value, ctx } = decode(
    [
      'headers.Authorization = { value = "Bearer ", op = "starts_with" }',
      'headers.X-Api-Key = { op = "exists" }',
      'headers.x-gone = { op = "absent" }',
      'headers.x-e = {}',
      'headers.x-re = { value = "^a\\\\d$", op = "regex" }',
      'headers.x-wc = { value = "[Bb]earer *", op = "wild_card" }',
    ].join('\n'),
  );
  assert.deepEqual(ctx.diagnostics, []);
  const cs = value!.conditions;
  assert.deepEqual(
    cs.map((c) => (c.on === 'header' ? [c.name, c.op, c.value, c.pattern?.source] : undefined)),
    [
      ['authorization', 'starts_with', 'Bearer ', undefined],
      ['x-api-key', 'exists', '', undefined],
      ['x-gone', 'absent', '', undefined],
      ['x-e', 'equal', '', undefined],
      ['x-re', 'regex', '^a\\d$', '^a\\d$'],
      ['x-wc', 'wild_card', '[Bb]earer *', '^\\[Bb\\]earer [\\s\\S]*$'],
    ],
  );
  const wc = cs[5];
  assert.ok(wc?.on === 'header' && wc.pattern?.test('[Bb]earer x') && !wc.pattern.test('Bearer x'));
});

test('headers: wrong shapes and values are reported', () => {
  const cases: [string, RegExp][] = [
    ['headers.x-k = "v"', /rule #1: `when\.request\.headers\.x-k` must be a table such as/],
    ['headers.x-k = { value = "v", op = "greater_than" }', /unknown value `greater_than`.*`exists`, `absent`/],
    ['headers.x-k = { value = 1 }', /rule #1: `when\.request\.headers\.x-k\.value` must be a string, found an integer/],
    ['headers.x-k = { valu = "v" }', /unknown key `valu`/],
    ['headers."x k" = { value = "v" }', /`x k` is not a valid HTTP header name/],
    ['headers.x-k = { value = "(", op = "regex" }', /invalid regex `\(`: unterminated group/],
    ['headers = "x"', /must be a table of header names, found a string/],
  ];
  for (const [line, message] of cases) {
    const { value, ctx } = decode(line);
    assert.deepEqual(value?.conditions, [], line);
    assert.equal(ctx.diagnostics.length, 1, `${line}: ${ctx.diagnostics.map((d) => d.message).join(' | ')}`);
    assert.match(ctx.diagnostics[0]!.message, message, line);
  }
});

test('body.json: dotted paths split on every dot, value kept as written and parsed when JSON', () => {
  const { value, ctx } = decode(
    [
      'body.json."customer.tier" = { value = "gold" }',
      'body.json."items.0.sku" = { value = "A-1", op = "equal_string" }',
      'body.json.n = { value = "42", op = "greater_than" }',
      'body.json.o = { value = \'{"k":1}\', op = "structural_contains" }',
      'body.json.big = { value = "12345678901234567890", op = "equal_integer" }',
      'body.json.r = { value = "^g", op = "regex" }',
      'body.json."a." = { value = "x", op = "exists" }',
    ].join('\n'),
  );
  assert.deepEqual(ctx.diagnostics, []);
  const got = value!.conditions.map((c) =>
    c.on === 'body' ? [c.path, c.segments, c.op, c.value, c.parsed, c.pattern !== undefined] : undefined,
  );
  assert.deepEqual(got, [
    ['customer.tier', ['customer', 'tier'], 'equal', 'gold', undefined, false],
    ['items.0.sku', ['items', '0', 'sku'], 'equal_string', 'A-1', undefined, false],
    ['n', ['n'], 'greater_than', '42', 42, false],
    ['o', ['o'], 'structural_contains', '{"k":1}', { k: 1 }, false],
    ['big', ['big'], 'equal_integer', '12345678901234567890', 12345678901234567890n, false],
    ['r', ['r'], 'regex', '^g', undefined, true],
    ['a.', ['a', ''], 'exists', 'x', undefined, false],
  ]);
});

test('body.json: a path starting with $ loads with a warning', () => {
  for (const path of ['$.a.b', '$']) {
    const { value, ctx } = decode(`body.json."${path}" = { value = "1" }`);
    assert.equal(value?.conditions.length, 1);
    assert.equal(ctx.diagnostics.length, 1);
    const d = ctx.diagnostics[0]!;
    assert.equal(d.severity, 'warning');
    assert.equal(d.code, 'body_path');
    assert.match(d.message, /not JSONPath|plain dotted paths/);
    assert.equal(d.line, 2);
  }
});

test('body: wrong shapes are reported', () => {
  const cases: [string, RegExp][] = [
    ['body.json.a = { op = "exists" }', /rule #1: missing required key `value` in `when\.request\.body\.json\.a`/],
    [
      'body.json.a = { value = 42 }',
      /rule #1: `when\.request\.body\.json\.a\.value` must be a string, found an integer/,
    ],
    ['body.json.a = { value = true }', /must be a string, found a boolean/],
    ['body.json.a = "gold"', /must be a table such as \{ value = "gold", op = "equal" \}, found a string/],
    ['body.json.a = { value = "1", op = "greater" }', /unknown value `greater`/],
    ['body.json.a = { value = "1", opp = "equal" }', /unknown key `opp`/],
    [
      'body.json.customer.tier = { value = "gold" }',
      /body condition `customer` holds a nested table `tier`; quote a dotted path/,
    ],
    ['body.xml.a = { value = "1" }', /rule #1: unknown key `xml` in `when\.request\.body`/],
    ['body.text = { op = "contains" }', /rule #1: missing required key `value` in `when\.request\.body\.text`/],
    ['body.text = { value = "x", op = "exists" }', /unknown value `exists`/],
    ['body.form.a = 1', /must be a string or a table such as/],
    ['body.json = "x"', /rule #1: `when\.request\.body\.json` must be a table of dotted paths/],
    ['body = "x"', /must be a table with a `json`, `form` or `text` table inside/],
    ['body.json.a = { value = "[", op = "not_regex" }', /invalid regex `\[`/],
  ];
  for (const [line, message] of cases) {
    const { value, ctx } = decode(line);
    assert.deepEqual(value?.conditions, [], line);
    assert.equal(ctx.diagnostics.length, 1, `${line}: ${ctx.diagnostics.map((d) => d.message).join(' | ')}`);
    assert.match(ctx.diagnostics[0]!.message, message, line);
  }
});

test('url_path: wrong shapes, unknown ops and invalid patterns are reported', () => {
  const cases: [string, RegExp][] = [
    [
      'url_path = { value = "/a", op = "exists" }',
      /unknown value `exists`; expected one of `equal`.*`not_regex`, `path_template`$/,
    ],
    ['url_path = { value = "/a/{b", op = "path_template" }', /invalid path template "\/a\/\{b": unbalanced braces/],
    ['url_path = { op = "equal" }', /rule #1: missing required key `value` in `when\.request\.url_path`/],
    ['url_path = { value = 1 }', /rule #1: `when\.request\.url_path\.value` must be a string, found an integer/],
    ['url_path = 1', /must be a string or a table such as/],
    ['url_path = { value = "/a", opp = "equal" }', /unknown key `opp`/],
    ['url_path = { value = "(?P<x", op = "regex" }', /invalid regex/],
  ];
  for (const [line, message] of cases) {
    const { value, ctx } = decode(line);
    assert.deepEqual(value?.conditions, [], line);
    assert.equal(ctx.diagnostics.length, 1, `${line}: ${ctx.diagnostics.map((d) => d.message).join(' | ')}`);
    assert.match(ctx.diagnostics[0]!.message, message, line);
  }
});

test('an unknown key under when.request names the key and the allowed keys, with did-you-mean', () => {
  const { ctx } = decode('url_path = "/a"\nbdy.json.a = { value = "1" }\nquerry.a = "x"');
  assert.deepEqual(
    ctx.diagnostics.map((d) => [d.code, d.line, d.column, d.message, d.allowed, d.suggestion]),
    [
      [
        'unknown_key',
        3,
        1,
        'rule #1: unknown key `bdy` in `when.request`',
        ['url_path', 'method', 'headers', 'query', 'cookies', 'params', 'body', 'url'],
        'body',
      ],
      [
        'unknown_key',
        4,
        1,
        'rule #1: unknown key `querry` in `when.request`',
        ['url_path', 'method', 'headers', 'query', 'cookies', 'params', 'body', 'url'],
        'query',
      ],
    ],
  );
});

test('conditions keep the order written, and the label is the url_path value or (any path)', () => {
  const { value } = decode(
    'method = "POST"\nheaders.b = {}\nurl_path = "/x/"\nheaders.a = {}\nbody.json.z = { value = "1" }',
  );
  assert.deepEqual(
    value!.conditions.map((c) => c.on + (c.on === 'header' ? ':' + c.name : '')),
    // headers.b and headers.a share one `headers` table, placed where it first appears
    ['method', 'header:b', 'header:a', 'url_path', 'body'],
  );
  assert.equal(value!.label, '/x/');
  assert.equal(decode('method = "GET"').value!.label, '(any path)');
  assert.equal(decode('url_path = { value = "^/a", op = "regex" }').value!.label, '^/a');
  assert.equal(decode('').value!.nonEmpty, false);
});

test('query, cookies, params and body.form: a string is equal, a table any header operator; params carry the template', () => {
  const { value, ctx } = decode(
    'url_path = { value = "/u/{id}", op = "path_template" }\nparams.id = { value = "^[0-9]+$", op = "regex" }\nquery.page = "2"\nquery.debug = { op = "absent" }\ncookies.s = { op = "exists" }\nbody.form.user = "ann"\nbody.text = { value = "<x>", op = "contains" }',
  );
  assert.deepEqual(ctx.diagnostics, []);
  const got = value!.conditions.map((c) => [
    c.on,
    'name' in c ? c.name : '',
    'op' in c ? c.op : '',
    'value' in c ? c.value : '',
  ]);
  assert.deepEqual(got, [
    ['url_path', '', 'path_template', '/u/{id}'],
    ['param', 'id', 'regex', '^[0-9]+$'],
    ['query', 'page', 'equal', '2'],
    ['query', 'debug', 'absent', ''],
    ['cookie', 's', 'exists', ''],
    ['form', 'user', 'equal', 'ann'],
    ['body_text', '', 'contains', '<x>'],
  ]);
  const param = value!.conditions[1]!;
  assert.ok(param.on === 'param' && param.template !== undefined && param.pattern !== undefined);
});

test('canonicalPath and joinUrlPath', () => {
  assert.equal(canonicalPath(''), '/');
  assert.equal(canonicalPath('api/'), '/api');
  assert.equal(joinUrlPath('/api', '/'), '/api');
  assert.equal(joinUrlPath(undefined, '//'), '/');
});
