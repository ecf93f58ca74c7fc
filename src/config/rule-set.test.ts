import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Rule, RuleSet } from '../model/rule-set.js';
import type { RespondFileStatus } from './respond-files.js';
import { decodeRuleSetText, type FileFacts } from './rule-set.js';

const FILE = '/w/cfg/rs/rules.toml';
const BASE = '/w/cfg';

/** files that exist, by absolute path (a directory maps to its index file status) */
function facts(files: Readonly<Record<string, RespondFileStatus>>, dirs: readonly string[] = []): FileFacts {
  return { respondFile: (abs) => files[abs] ?? { kind: 'missing' }, isDir: (abs) => dirs.includes(abs) };
}

function load(text: string, f?: FileFacts): { ruleSet?: RuleSet; diagnostics: readonly Diagnostic[] } {
  const r = decodeRuleSetText(text, FILE, {
    index: 2,
    entry: 'rs/rules.toml',
    baseDir: BASE,
    defaultStrategy: { kind: 'round_robin' },
    ...(f === undefined ? {} : { facts: f }),
  });
  return r.ok ? { ruleSet: r.value.ruleSet, diagnostics: r.value.warnings } : { diagnostics: r.error };
}

function ruleOf(respond: string, extra = ''): Rule {
  const r = load(
    `[[rules]]\nwhen.request.url_path = "/a"\n${extra}\n[rules.respond]\n${respond}\n`,
    facts({ '/w/cfg/d.json': { kind: 'file', path: '/w/cfg/d.json', text: '{}' } }),
  );
  assert.deepEqual(
    r.diagnostics.map((d) => d.message),
    [],
    respond,
  );
  return r.ruleSet!.rules[0]!;
}

function errors(text: string, f?: FileFacts): string[] {
  const r = load(text, f);
  assert.equal(r.ruleSet, undefined, text);
  return r.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
}

test('a rule set: prefix canonical, own strategy over the default, guard ignored, default.delay accepted', () => {
  const r = load(`strategy = { priority = {} }
[prefix]
url_path = "api/"
[default]
delay_response_milliseconds = 500
[guard]
anything = "goes"
[[rules]]
when.request.url_path = "users"
respond.text = "u"
`);
  assert.deepEqual(r.diagnostics, []);
  const rs = r.ruleSet!;
  assert.equal(rs.index, 2);
  assert.equal(rs.file, FILE);
  assert.equal(rs.entry, 'rs/rules.toml');
  assert.equal(rs.prefix, '/api');
  assert.deepEqual(rs.strategy, { kind: 'priority', tiebreaker: 'first_match' });
  assert.equal(rs.rules.length, 1);
  assert.equal(rs.rules[0]!.respond.delayMs, 0, '[default] delay has no effect');
  const c = rs.rules[0]!.conditions[0]!;
  assert.ok(c.on === 'url_path' && c.compareTo === '/api/users');
});

test('no strategy → the service default; no prefix → none; an empty file has no rules', () => {
  const r = load('');
  assert.deepEqual(r.ruleSet, {
    index: 2,
    file: FILE,
    entry: 'rs/rules.toml',
    strategy: { kind: 'round_robin' },
    rules: [],
  });
});

test('respond shapes', () => {
  const cases: [string, Partial<Rule['respond']>][] = [
    ['text = "hi"', { body: { kind: 'text', text: 'hi' }, headers: [], delayMs: 0 }],
    ['text = \'{"a":1}\'', { body: { kind: 'text', text: '{"a":1}' } }],
    ['json = \'{ "z": 1, "a": [1, 2] }\'', { body: { kind: 'json', text: '{"z":1,"a":[1,2]}' } }],
    ['status = 204', { body: { kind: 'empty' }, status: 204 }],
    ['status = 503\ntext = "down"', { body: { kind: 'text', text: 'down' }, status: 503 }],
    ['status = 201\njson = "{}"', { body: { kind: 'json', text: '{}' }, status: 201 }],
    [
      'status = 301\nheaders = { Location = "/elsewhere", X-Custom = "yes" }',
      {
        status: 301,
        headers: [
          ['location', '/elsewhere'],
          ['x-custom', 'yes'],
        ],
      },
    ],
    ['text = "x"\ndelay_response_milliseconds = 700', { delayMs: 700 }],
    ['file_path = "d.json"', { body: { kind: 'file', path: '/w/cfg/d.json', confineTo: '/w/cfg' } }],
    ['file_path = "/w/cfg/d.json"', { body: { kind: 'file', path: '/w/cfg/d.json', confineTo: '/w/cfg' } }],
    ['status = 100\ntext = "x"', { status: 100 }],
    ['status = 999\ntext = "x"', { status: 999 }],
  ];
  for (const [respond, want] of cases) {
    const got = ruleOf(respond).respond;
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got[k as keyof typeof got], v, `${respond}: ${k}`);
  }
  assert.equal(ruleOf('text = "x"').respond.status, undefined, 'status default is left to dispatch (200)');
});

test('priority and weight: defaults, negatives, and refusals', () => {
  const r = ruleOf('text = "x"');
  assert.equal(r.priority, 0);
  assert.equal(r.weight, 1);
  assert.equal(ruleOf('text = "x"', 'priority = -3\nweight = 0').priority, -3);
  assert.equal(ruleOf('text = "x"', 'weight = 9').weight, 9);
  for (const [line, message] of [
    ['weight = 1.5', /rule #1: `weight` must be an integer, found a float/],
    ['weight = -1', /rule #1: `weight` must be an integer from 0 to 4294967295, found -1/],
    ['priority = "high"', /rule #1: `priority` must be an integer, found a string/],
    ['priority = 3000000000', /from -2147483648 to 2147483647/],
  ] as const) {
    const e = errors(`[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "x"\n${line}\n`);
    assert.equal(e.length, 1, line);
    assert.match(e[0]!, message);
  }
});

test('respond refusals', () => {
  const cases: [string, RegExp][] = [
    ['text = "a"\njson = "{}"', /rule #1: `text`, `json` are mutually exclusive/],
    ['text = "a"\njson = "{}"\nfile_path = "d.json"', /`file_path`, `text`, `json` are mutually exclusive/],
    ['headers = { a = "b" }', /rule #1: `respond` needs one of `file_path`, `text`, `json` or `status`/],
    ['status = 99', /must be an integer from 100 to 999, found 99/],
    ['status = 1000', /found 1000/],
    ['status = -1', /found -1/],
    ['status = "200"', /must be an integer, found a string/],
    ['json = "{ bad"', /rule #1: `respond\.json` is not valid JSON/],
    ['json = "[12345678901234567890123]"', /out of range/],
    ['text = 1', /rule #1: `respond\.text` must be a string, found an integer/],
    ['text = "x"\ndelay_response_milliseconds = -1', /must be an integer from 0 to 2147483647/],
    [
      'text = "x"\ndelay_response_milliseconds = 1.5',
      /must be milliseconds, `\{ min, max \}` or `\{ median, sigma \}`, found a float/,
    ],
    ['text = "x"\ndelay_response_milliseconds = { median = 5 }', /missing required key `sigma`/],
    ['fault = "explode"', /has an unknown value `explode`; expected one of/],
    ['stream = { file_path = "a.txt" }', /must end in `\.sse` \(Server-Sent Events\) or `\.ndjson`/],
    ['text = "x"\nheaders = { x-a = 1 }', /rule #1: `respond\.headers\.x-a` must be a string/],
    ['text = "x"\nheaders = { "x a" = "1" }', /`x a` is not a valid HTTP header name/],
    ['text = "x"\nheaders = { x-a = "a\\nb" }', /header `x-a` contains characters not allowed in HTTP/],
    ['text = "x"\nheaders = "x"', /must be a table of header names to strings/],
    ['text = "x"\nbody = "y"', /rule #1: unknown key `body` in `respond`/],
    ['file_path = "../outside.json"', /respond file `\.\.\/outside\.json` is outside the respond directory `\/w\/cfg`/],
    ['file_path = "/etc/passwd"', /is outside the respond directory/],
  ];
  for (const [respond, message] of cases) {
    const e = errors(`[[rules]]\nwhen.request.url_path = "/a"\n[rules.respond]\n${respond}\n`);
    assert.equal(e.length, 1, `${respond}: ${e.join(' | ')}`);
    assert.match(e[0]!, message, respond);
  }
});

test('respond files: existence, directory index and JSON validity are checked through the injected facts', () => {
  const text = (p: string): string => `[[rules]]\nwhen.request.url_path = "/a"\nrespond.file_path = "${p}"\n`;
  const f = facts({
    '/w/cfg/ok.json': { kind: 'file', path: '/w/cfg/ok.json', text: '{"a":1}' },
    '/w/cfg/bad.json': { kind: 'file', path: '/w/cfg/bad.json', text: '{"a": }' },
    '/w/cfg/bad.json5': { kind: 'file', path: '/w/cfg/bad.json5', text: '{a: }' },
    '/w/cfg/ok.json5': { kind: 'file', path: '/w/cfg/ok.json5', text: '{a: 1, // c\n}' },
    // deeper than the transcoder that serves .json5 files reads: the json5 package once passed it at load
    '/w/cfg/deep.json5': { kind: 'file', path: '/w/cfg/deep.json5', text: '['.repeat(1002) + ']'.repeat(1002) },
    '/w/cfg/page.html': { kind: 'file', path: '/w/cfg/page.html' },
    '/w/cfg/dir': { kind: 'file', path: '/w/cfg/dir/index.json', text: '[]' },
    '/w/cfg/baddir': { kind: 'file', path: '/w/cfg/baddir/index.json', text: '[' },
    '/w/cfg/empty': { kind: 'dir_without_index' },
    '/w/cfg/locked.json': { kind: 'unreadable', path: '/w/cfg/locked.json', reason: 'EACCES' },
  });
  for (const ok of ['ok.json', 'ok.json5', 'page.html', 'dir', './ok.json'])
    assert.deepEqual(load(text(ok), f).diagnostics, [], ok);
  const cases: [string, string][] = [
    ['nope.json', '3:21 file_not_found rule #1: respond file `nope.json` does not exist'],
    [
      'bad.json',
      "3:21 invalid_json_file rule #1: respond file `bad.json` is not valid JSON: unexpected character '}' at line 1 column 7",
    ],
    [
      'bad.json5',
      "3:21 invalid_json_file rule #1: respond file `bad.json5` is not valid JSON: unexpected character '}' at line 1 column 5",
    ],
    [
      'deep.json5',
      '3:21 invalid_json_file rule #1: respond file `deep.json5` is not valid JSON: nesting too deep at line 1 column 1002',
    ],
    [
      'baddir',
      '3:21 invalid_json_file rule #1: respond file `baddir` is not valid JSON: unexpected end of JSON input at line 1 column 2',
    ],
    [
      'empty',
      '3:21 file_not_found rule #1: respond file `empty` is a directory without index.json, index.json5, index.csv or index.html',
    ],
    ['locked.json', '3:21 file_unreadable rule #1: respond file `locked.json` cannot be read: EACCES'],
  ];
  for (const [p, want] of cases) assert.deepEqual(errors(text(p), f), [want], p);
  // without facts nothing is checked
  assert.deepEqual(load(text('nope.json')).diagnostics, []);
});

test('prefix.respond_dir: file_path resolves below it (config-dir relative) and the directory must exist', () => {
  const text =
    '[prefix]\nrespond_dir = "resp"\n[[rules]]\nwhen.request.url_path = "/a"\nrespond.file_path = "r.json"\n';
  const present = facts({ '/w/cfg/resp/r.json': { kind: 'file', path: '/w/cfg/resp/r.json', text: '{}' } }, [
    '/w/cfg/resp',
  ]);
  const r = load(text, present);
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.ruleSet!.rules[0]!.respond.body, {
    kind: 'file',
    path: '/w/cfg/resp/r.json',
    confineTo: '/w/cfg/resp',
  });
  assert.deepEqual(errors(text, facts({})), [
    '2:15 file_not_found `prefix.respond_dir` `resp` does not exist or is not a directory',
    '5:21 file_not_found rule #1: respond file `r.json` does not exist',
  ]);
});

test('rule structure refusals', () => {
  const cases: [string, string[]][] = [
    ['[[rules]]\nrespond.text = "x"\n', ['1:1 missing_key rule #1: missing required key `when`']],
    ['[[rules]]\nwhen.request.url_path = "/a"\n', ['1:1 missing_key rule #1: missing required key `respond`']],
    [
      '[[rules]]\nwhen.request = {}\nrespond.text = "x"\n',
      ['2:16 invalid_value rule #1 has an empty `when.request`; give at least one condition'],
    ],
    [
      '[[rules]]\nwhen = {}\nrespond.text = "x"\n',
      ['2:8 missing_key rule #1: missing required key `request` in `when`'],
    ],
    ['[[rules]]\nwhen = "x"\nrespond.text = "x"\n', ['2:8 wrong_type rule #1: `when` must be a table, found a string']],
    ['rules = "x"\n', ['1:9 wrong_type `rules` must be an array of tables ([[rules]]), found a string']],
    ['rules = [1]\n', ['1:10 wrong_type rule #1 must be a table, found an integer']],
    ['prefix = "/api"\n', ['1:10 wrong_type `prefix` must be a table, found a string']],
    ['[prefix]\nurl_path = 1\n', ['2:12 wrong_type `prefix.url_path` must be a string, found an integer']],
    [
      '[default]\ndelay_response_milliseconds = -1\n',
      ['2:31 invalid_value `default.delay_response_milliseconds` must be an integer from 0 to 2147483647, found -1'],
    ],
    [
      'strategy = "priority"\n',
      ['1:12 invalid_value strategy `priority` needs the table form, e.g. priority = { tiebreaker = "first_match" }'],
    ],
    [
      '[[rules]\n',
      ['1:9 toml_syntax invalid TOML: missing "]" to close [[rules] (an array of tables is written [[rules]])'],
    ],
  ];
  for (const [text, want] of cases) assert.deepEqual(errors(text), want, text);
});

test('unknown keys at every level of a rule-set file carry position, allowed keys and did-you-mean', () => {
  const text = `rulez = 1
[prefix]
url_pth = "/a"
[default]
delay = 1
[[rules]]
when.request.url_path = "/a"
when.reqest = {}
wen = 1
respond.text = "x"
respond.stauts = 200
`;
  const r = load(text);
  assert.equal(r.ruleSet, undefined);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.line, d.column, d.keyPath?.join('.'), d.suggestion, d.allowed?.length]),
    [
      [1, 1, 'rulez', 'rules', 8],
      [3, 1, 'prefix.url_pth', 'url_path', 2],
      [5, 1, 'default.delay', 'delay_response_milliseconds', 1],
      [8, 6, 'rules.0.when.reqest', 'request', 2],
      [9, 1, 'rules.0.wen', 'when', 5],
      [11, 9, 'rules.0.respond.stauts', 'status', 15],
    ],
  );
  for (const d of r.diagnostics) {
    assert.equal(d.code, 'unknown_key');
    assert.equal(d.file, FILE);
  }
});

test('every problem in a file is reported: two unknown keys and a bad regex give three diagnostics', () => {
  const e = errors(`[[rules]]
when.request.url_pth = "/a"
when.request.url_path = { value = "(", op = "regex" }
respond.text = "x"
[[rules]]
when.request.url_path = "/b"
respond.txt = "y"
`);
  assert.deepEqual(e, [
    '2:14 unknown_key rule #1: unknown key `url_pth` in `when.request`',
    '3:35 invalid_regex invalid regex `(`: unterminated group',
    '7:9 unknown_key rule #2: unknown key `txt` in `respond`',
  ]);
});

test('warnings do not fail the rule set', () => {
  const r = load('[[rules]]\nwhen.request.body.json."$.a" = { value = "1" }\nrespond.text = "x"\n');
  assert.ok(r.ruleSet);
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0]!.severity, 'warning');
});

test('when.state and respond.set_state: scenario conditions after the request ones, the moves on the respond', () => {
  const rule = ruleOf(
    'text = "x"\nset_state = { cart = "paid", "audit.log" = "on" }',
    'when.state.cart = "item_added"\nwhen.state.session = { value = "out", op = "not_equal" }',
  );
  assert.deepEqual(
    rule.conditions.map((c) => c.on),
    ['url_path', 'state', 'state'],
  );
  assert.deepEqual(rule.conditions.slice(1), [
    { on: 'state', name: 'cart', op: 'equal', value: 'item_added', key: 'scenario:cart' },
    { on: 'state', name: 'session', op: 'not_equal', value: 'out', key: 'scenario:session' },
  ]);
  assert.deepEqual(rule.scenarios, ['cart', 'session']);
  assert.deepEqual(rule.respond.setState, { cart: 'paid', 'audit.log': 'on' });
  const plain = ruleOf('text = "x"');
  assert.equal(plain.scenarios, undefined);
  assert.equal(plain.respond.setState, undefined);
});

test('when.state and set_state mistakes are load errors at their line', () => {
  const at = (state: string, respond = 'text = "x"'): string[] =>
    errors(`[[rules]]\nwhen.request.url_path = "/a"\n${state}\n[rules.respond]\n${respond}\n`);
  assert.match(at('when.state."a b" = "x"')[0]!, /^3:\d+ invalid_value `a b` is not a valid scenario name/);
  assert.match(at('when.state.cart = 3')[0]!, /^3:\d+ .*a string or a table/);
  assert.match(at('when.state.cart = { value = "x", op = "contains" }')[0]!, /^3:\d+ .*contains/);
  assert.match(at('when.state.cart = { op = "equal" }')[0]!, /^3:\d+ missing_key/);
  assert.match(at('', 'text = "x"\nset_state = { cart = 1 }')[0]!, /^6:\d+ .*non-empty string/);
  assert.match(
    at('', 'text = "x"\nset_state = { "a/b" = "x" }')[0]!,
    /^6:\d+ invalid_value `a\/b` is not a valid scenario name/,
  );
});
