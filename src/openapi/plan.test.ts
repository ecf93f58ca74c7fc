import assert from 'node:assert/strict';
import { test } from 'node:test';
import { responseBody } from './bodies.js';
import { operationsOf, type Obj } from './document.js';
import { basePathOf, orderOperations, splitPathKey, urlPathCondition } from './paths.js';
import { planImport, type ImportOptions } from './plan.js';
import { securityRules } from './security.js';

/** A rule set's text without the `# openapi:` marker lines (update.test.ts tests them). */
function unmarked(text: string | Uint8Array): string {
  return String(text).replace(/^# openapi: .* sha256:[0-9a-f]+\n/gm, '');
}

const opts = (over: Partial<ImportOptions> = {}): ImportOptions => ({
  source: 'api.yaml',
  command: 'mock --init --from api.yaml',
  taken: () => false,
  ...over,
});

test('basePathOf: the path of servers[0].url, variables replaced by their defaults', () => {
  const cases: [unknown, string | undefined][] = [
    [undefined, undefined],
    [[{ url: '/' }], undefined],
    [[{ url: 'https://api.example.com' }], undefined],
    [[{ url: 'https://api.example.com/v1/' }], '/v1'],
    [[{ url: '/v2' }], '/v2'],
    [[{ url: 'v3/x' }], '/v3/x'],
    [[{ url: '//cdn.example/a' }], '/a'],
    [[{ url: '{s}://h/{b}', variables: { s: { default: 'https' }, b: { default: 'api/v9' } } }], '/api/v9'],
    [[{ url: 'http://h:8080/base?x=1' }, { url: '/ignored' }], '/base'],
  ];
  for (const [servers, want] of cases)
    assert.equal(basePathOf(servers === undefined ? {} : { servers }), want, JSON.stringify(servers));
});

test('urlPathCondition: literal paths are equal; whole-segment parameters a path_template; others an anchored regex over the whole path', () => {
  const cases: [string, string | undefined, string, string][] = [
    ['/users', '/v1', 'equal', '/users'],
    ['/users/{id}', undefined, 'path_template', '/users/{id}'],
    ['/users/{id}', '/v1', 'path_template', '/users/{id}'],
    ['/orgs/{org}/repos/{repo}', '/v1', 'path_template', '/orgs/{org}/repos/{repo}'],
    ['/a/{x}/b/{x}', undefined, 'regex', '^/a/[^/]+/b/[^/]+/?$'],
    ['/files/{name}.json', undefined, 'regex', '^/files/[^/]+\\.json/?$'],
    ['/a+b/{x}.{y}', '/v(1)', 'regex', '^/v\\(1\\)/a\\+b/[^/]+\\.[^/]+/?$'],
    // the server strips one trailing '/' from a request: a path's own trailing '/' is optional
    ['/maps/{id}/collaborators/', undefined, 'path_template', '/maps/{id}/collaborators/'],
    ['/files/{name}.json/', undefined, 'regex', '^/files/[^/]+\\.json/?$'],
  ];
  for (const [path, base, op, value] of cases) assert.deepEqual(urlPathCondition(path, base), { op, value }, path);
  const re = new RegExp(urlPathCondition('/orgs/{org}/repos/{repo}.{fmt}', '/v1').value, 'u');
  assert.ok(re.test('/v1/orgs/a/repos/b.json'));
  assert.ok(!re.test('/v1/orgs/a/repos/b/c.json'));
  assert.ok(!re.test('/orgs/a/repos/b.json'));
  const slash = new RegExp(urlPathCondition('/files/{name}.json/', undefined).value, 'u');
  assert.ok(slash.test('/files/a.json') && slash.test('/files/a.json/'));
  assert.deepEqual(urlPathCondition('/users/{id}/', '/v1', true), { op: 'path_template', value: '/v1/users/{id}' });
});

test('splitPathKey: the fragment of a path key is its name[=value] parts', () => {
  assert.deepEqual(splitPathKey('/pets'), { path: '/pets' });
  assert.deepEqual(splitPathKey('/#X-Amz-Target=Kinesis_20131202.AddTagsToStream'), {
    path: '/',
    fragment: [{ name: 'X-Amz-Target', value: 'Kinesis_20131202.AddTagsToStream' }],
  });
  assert.deepEqual(splitPathKey('/accounts/{id}/users#operation=create'), {
    path: '/accounts/{id}/users',
    fragment: [{ name: 'operation', value: 'create' }],
  });
  assert.deepEqual(splitPathKey('/tags/{arn}#tagKeys'), { path: '/tags/{arn}', fragment: [{ name: 'tagKeys' }] });
  assert.deepEqual(splitPathKey('/#Action=A&Version=1'), {
    path: '/',
    fragment: [
      { name: 'Action', value: 'A' },
      { name: 'Version', value: '1' },
    ],
  });
});

test('orderOperations: literal paths first, then a concrete segment before a parameter, document order otherwise', () => {
  const doc = {
    paths: {
      '/users/{id}': { get: {}, delete: {} },
      '/a/{x}/{y}': { get: {} },
      '/users/me': { get: {} },
      '/a/{x}/b': { get: {} },
      '/{any}': { get: {} },
      '/health': { get: {} },
    },
  };
  const order = orderOperations(operationsOf(doc)).map((o) => `${o.method} ${o.path}`);
  assert.deepEqual(order, [
    'GET /users/me',
    'GET /health',
    'GET /users/{id}',
    'DELETE /users/{id}',
    'GET /a/{x}/b',
    'GET /a/{x}/{y}',
    'GET /{any}',
  ]);
});

const schemes = {
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      basic: { type: 'http', scheme: 'basic' },
      key: { type: 'apiKey', in: 'header', name: 'X-Key' },
      other: { type: 'apiKey', in: 'header', name: 'X-Other' },
      cookie: { type: 'apiKey', in: 'cookie', name: 's' },
      query: { type: 'apiKey', in: 'query', name: 'k' },
      oauth: { type: 'oauth2', flows: {} },
    },
  },
  info: { title: 'Shop' },
};

test('securityRules: 401 rules for header credentials; requirements that cannot be checked are left out with the reason', () => {
  const cases: [unknown, unknown, unknown, RegExp | undefined][] = [
    ['no security', undefined, [], undefined],
    ['bearer', [{ bearer: [] }], [{ absent: ['authorization'], challenge: 'Bearer' }], undefined],
    ['basic', [{ basic: [] }], [{ absent: ['authorization'], challenge: 'Basic realm="Shop"' }], undefined],
    ['header key', [{ key: [] }], [{ absent: ['x-key'] }], undefined],
    [
      'oauth2 is a bearer token',
      [{ oauth: ['read'] }],
      [{ absent: ['authorization'], challenge: 'Bearer' }],
      undefined,
    ],
    [
      'either bearer or basic',
      [{ bearer: [] }, { basic: [] }],
      [{ absent: ['authorization'], challenge: 'Bearer, Basic realm="Shop"' }],
      undefined,
    ],
    [
      'either a bearer or a key',
      [{ bearer: [] }, { key: [] }],
      [{ absent: ['authorization', 'x-key'], challenge: 'Bearer' }],
      undefined,
    ],
    [
      'both a bearer and a key',
      [{ bearer: [], key: [] }],
      [{ absent: ['authorization'], challenge: 'Bearer' }, { absent: ['x-key'] }],
      undefined,
    ],
    ['anonymous allowed', [{ bearer: [] }, {}], [], undefined],
    ['cookie key', [{ cookie: [] }], [{ absent: [], elsewhere: [{ in: 'cookie', name: 's' }] }], undefined],
    [
      'query key beside a bearer',
      [{ bearer: [] }, { query: [] }],
      [{ absent: ['authorization'], elsewhere: [{ in: 'query', name: 'k' }], challenge: 'Bearer' }],
      undefined,
    ],
    ['undeclared', [{ nope: [] }], [], /`nope` left out: not declared/],
    [
      'alternatives of pairs',
      [
        { bearer: [], key: [] },
        { basic: [], other: [] },
      ],
      [],
      /alternatives that each need several credentials/,
    ],
  ];
  for (const [name, security, rules, skipped] of cases) {
    const doc: Obj = { ...schemes, ...(security === undefined ? {} : { security }) };
    const r = securityRules({ method: 'GET', path: '/x', op: {}, order: 0 }, doc);
    assert.deepEqual(r.rules, rules, String(name));
    if (skipped === undefined) assert.deepEqual(r.skipped, [], String(name));
    else assert.match(r.skipped.join('\n'), skipped, String(name));
  }
  // the operation's own requirement wins over the document's; [] opens it
  const open = securityRules(
    { method: 'GET', path: '/x', op: { security: [] }, order: 0 },
    { ...schemes, security: [{ bearer: [] }] },
  );
  assert.deepEqual(open.rules, []);
});

test('responseBody: example, named examples, schema examples, a generated value; text only from string examples', () => {
  const schema = {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'integer' }, pw: { type: 'string', writeOnly: true } },
  };
  const cases: [string, Obj, unknown][] = [
    ['no content', {}, { kind: 'none' }],
    [
      'example',
      { content: { 'application/json': { schema, example: { id: 5 } } } },
      { kind: 'json', mediaType: 'application/json', variants: [{ value: { id: 5 } }] },
    ],
    [
      'named examples',
      { content: { 'application/json': { examples: { a: { value: 1 }, b: { value: 2 } } } } },
      {
        kind: 'json',
        mediaType: 'application/json',
        variants: [
          { name: 'a', value: 1 },
          { name: 'b', value: 2 },
        ],
      },
    ],
    [
      'schema example',
      { content: { 'application/json': { schema: { ...schema, example: { id: 9 } } } } },
      { kind: 'json', mediaType: 'application/json', variants: [{ value: { id: 9 } }] },
    ],
    [
      '3.1 schema examples',
      { content: { 'application/json': { schema: { ...schema, examples: [{ id: 3 }] } } } },
      { kind: 'json', mediaType: 'application/json', variants: [{ value: { id: 3 } }] },
    ],
    [
      'generated, writeOnly left out',
      { content: { 'application/hal+json': { schema } } },
      { kind: 'json', mediaType: 'application/hal+json', variants: [{ generated: true, value: { id: 0 } }] },
    ],
    [
      'text example',
      { content: { 'text/csv': { example: 'a,b\n1,2\n' } } },
      { kind: 'text', mediaType: 'text/csv', variants: [{ value: 'a,b\n1,2\n' }] },
    ],
    [
      'generated text',
      { content: { 'text/plain': { schema: { type: 'string' } } } },
      { kind: 'text', mediaType: 'text/plain', variants: [{ generated: true, value: 'string' }] },
    ],
    [
      'JSON chosen over XML',
      { content: { 'application/xml': { example: '<a/>' }, 'application/json': { example: [] } } },
      { kind: 'json', mediaType: 'application/json', variants: [{ value: [] }] },
    ],
  ];
  for (const [name, response, body] of cases) assert.deepEqual(responseBody(response, {}).body, body, name);

  // binary media types: a small valid body of the type
  const binary = (type: string): unknown =>
    responseBody({ content: { [type]: { schema: { type: 'string', format: 'binary' } } } }, {}).body;
  assert.deepEqual(binary('application/octet-stream'), {
    kind: 'binary',
    mediaType: 'application/octet-stream',
    bytes: new Uint8Array(0),
    ext: '.bin',
  });
  const pdf = binary('application/pdf') as { bytes: Uint8Array; ext: string };
  assert.equal(pdf.ext, '.pdf');
  assert.match(Buffer.from(pdf.bytes).toString('latin1'), /^%PDF-1\.4\n[\s\S]*\/Type \/Page [\s\S]*%%EOF\n$/);
  const png = binary('image/png') as { bytes: Uint8Array; ext: string };
  assert.deepEqual([...png.bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  // an example that contradicts its schema is served, and named by its pointer
  const bad = responseBody(
    { content: { 'application/json': { schema: { type: 'object', required: ['id'] }, example: { name: 'x' } } } },
    {},
    ['paths', '/a', 'get', 'responses', '200'],
  );
  assert.deepEqual(bad.body, { kind: 'json', mediaType: 'application/json', variants: [{ value: { name: 'x' } }] });
  assert.deepEqual(bad.contradictions, ['#/paths/~1a/get/responses/200/content/application~1json/example']);
  const xml = responseBody(
    { content: { 'application/json': { example: 1 }, 'application/xml': { example: '<a/>' } } },
    {},
  );
  assert.match(xml.skipped.join('\n'), /media type `application\/xml` left out: only `application\/json` is answered/);
  const external = responseBody(
    { content: { 'application/json': { examples: { far: { externalValue: 'https://x/y.json' } } } } },
    {},
  );
  assert.match(external.skipped.join('\n'), /example `far` left out: its value is external/);
});

const DOC: Obj = {
  openapi: '3.0.3',
  info: { title: 'Tiny API', version: '1.0' },
  servers: [{ url: 'https://tiny.example/v1' }],
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'getThing',
        summary: 'One thing',
        security: [{ bearer: [] }],
        responses: {
          '404': { description: 'none', content: { 'application/json': { example: { error: 'no' } } } },
          '200': {
            description: 'ok',
            content: {
              'application/json': { examples: { small: { value: { id: 1 } }, big: { value: { id: 2, size: 9 } } } },
            },
          },
          default: { description: 'error' },
        },
      },
      options: { responses: { '200': { description: 'x' } } },
    },
    '/things': {
      post: { responses: { '201': { description: 'made' } } },
      trace: { responses: { '200': { description: 'x' } } },
    },
  },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
};

test('planImport: the rule set, the files and one report per operation', () => {
  const plan = planImport(DOC, opts());
  assert.equal(plan.ruleSets[0]!.path, 'tiny-api.toml');
  assert.equal(plan.basePath, '/v1');
  assert.deepEqual(
    plan.files.map((f) => f.path),
    ['responses/getThing/200-small.json', 'responses/getThing/200-big.json', 'responses/getThing/404.json'],
  );
  assert.equal(plan.files[1]!.text, '{\n  "id": 2,\n  "size": 9\n}\n');
  assert.deepEqual(
    plan.operations.map((o) => [o.operation, o.outcome, o.rules]),
    [
      ['POST /things', 'written', 2],
      ['TRACE /things', 'skipped', 0],
      ['getThing', 'written', 5],
      ['OPTIONS /things/{id}', 'skipped', 0],
    ],
  );
  assert.match(plan.operations[2]!.notes.join('\n'), /the `default` response has no status code/);
  const t = unmarked(plan.ruleSets[0]!.text);
  assert.match(
    t,
    /^# Tiny API 1\.0: imported from api\.yaml \(OpenAPI 3\.0\.3\)\n# by `mock --init --from api\.yaml`\.\n/,
  );
  assert.match(t, /\nstrategy = "first_match"\nprefix\.url_path = "\/v1"\n/);
  // the literal path first; per operation: 401, Prefer code, Prefer example, an undocumented code, the default answer
  const all = t.split('\n\n').filter((b) => b.includes('[[rules]]'));
  assert.equal(all.length, 7);
  const undocumented = all.filter((b) => b.includes('for any other Prefer: code='));
  assert.equal(undocumented.length, 2);
  assert.match(
    undocumented[1]!,
    /# 400 for any other Prefer: code=… \(documented: 200, 404\)\n[\s\S]*respond\.status = 400\nrespond\.text = "Prefer: code=… asks for a status GET \/things\/\{id\} does not document; documented: 200, 404/,
  );
  const rules = all.filter((b) => !undocumented.includes(b));
  assert.equal(
    rules[0],
    '# POST /things\n# 201 (the default answer)\n[[rules]]\nwhen.request.method = "POST"\nwhen.request.url_path = "/things"\nrespond.status = 201',
  );
  assert.match(
    rules[1]!,
    /^# getThing: One thing\n# 401 when `authorization` is absent\n\[\[rules\]\]\n.*url_path = \{ value = '\/things\/\{id\}', op = "path_template" \}\nwhen\.request\.headers\.authorization = \{ value = "", op = "absent" \}\nrespond\.status = 401\nrespond\.headers = \{ www-authenticate = "Bearer" \}$/s,
  );
  assert.match(
    rules[2]!,
    /# 404 \(Prefer: code=404\)\n[\s\S]*prefer = \{ value = '\(\?:\^\|\[\\s,;\]\)code=404\(\?:\[\\s,;\]\|\$\)', op = "regex" \}\nrespond\.status = 404\nrespond\.file_path = "responses\/getThing\/404\.json"$/,
  );
  assert.match(
    rules[3]!,
    /# 200, example big \(Prefer: example=big\)\n[\s\S]*example=big[\s\S]*respond\.file_path = "responses\/getThing\/200-big\.json"$/,
  );
  assert.match(
    rules[4]!,
    /# 200, example small \(the default answer\)\n[\s\S]*respond\.file_path = "responses\/getThing\/200-small\.json"\n?$/,
  );
  assert.ok(!rules[4]!.includes('respond.status'), 'status 200 is not written');
  // deterministic: the same document gives the same bytes
  assert.deepEqual(planImport(DOC, opts()), plan);
});

test('planImport: names already taken get -2, -3, …; mock.toml is never a rule-set name', () => {
  const taken = new Set(['tiny-api.toml', 'tiny-api-2.toml', 'responses/getThing/404.json']);
  const plan = planImport(DOC, opts({ taken: (p) => taken.has(p) }));
  assert.equal(plan.ruleSets[0]!.path, 'tiny-api-3.toml');
  assert.deepEqual(
    plan.files.map((f) => f.path),
    ['responses/getThing/200-small.json', 'responses/getThing/200-big.json', 'responses/getThing/404-2.json'],
  );
  assert.match(unmarked(plan.ruleSets[0]!.text), /respond\.file_path = "responses\/getThing\/404-2\.json"/);
  assert.equal(planImport({ ...DOC, info: { title: 'Mock', version: '1' } }, opts()).ruleSets[0]!.path, 'mock-2.toml');
  assert.equal(planImport(DOC, opts({ ruleSetName: 'mine', basePath: '' })).ruleSets[0]!.path, 'mine.toml');
  assert.equal(planImport(DOC, opts({ basePath: '' })).basePath, undefined);
});

test('planImport: documented response headers with a value are answered; others are noted', () => {
  const plan = planImport(
    {
      openapi: '3.0.3',
      info: { title: 'H', version: '1' },
      paths: {
        '/h': {
          post: {
            responses: {
              '201': {
                description: 'made',
                headers: {
                  Location: { example: '/h/1' },
                  'X-Count': { schema: { type: 'integer' } },
                  'Content-Type': { example: 'text/html' },
                  'X-Obj': { schema: { type: 'object' } },
                  'X-Named': { examples: { a: { value: true } } },
                },
              },
            },
          },
        },
      },
    },
    opts(),
  );
  assert.match(
    unmarked(plan.ruleSets[0]!.text),
    /respond\.status = 201\nrespond\.headers = \{ location = "\/h\/1", x-count = "0", x-named = "true" \}\n/,
  );
  assert.deepEqual(plan.operations[0]!.notes, [
    'response `201`: response header `X-Obj` left out: no example or schema gives it a single text value',
  ]);
});

test('planImport: the Prefer regexes select exactly their token', () => {
  const plan = planImport(
    {
      openapi: '3.1.0',
      info: { title: 'P', version: '1' },
      paths: {
        '/p': {
          get: {
            responses: {
              '200': { description: 'ok' },
              '404': {
                description: 'no',
                content: { 'application/json': { examples: { a: { value: 1 }, 'b.c': { value: 2 } } } },
              },
            },
          },
        },
      },
    },
    opts(),
  );
  const prefers = [...unmarked(plan.ruleSets[0]!.text).matchAll(/prefer = \{ value = '([^']*)'/g)].map(
    (m) => new RegExp(m[1]!, 'u'),
  );
  assert.equal(prefers.length, 3); // code and example together, then code alone, then any undocumented code
  const [both, code, other] = prefers as [RegExp, RegExp, RegExp];
  assert.ok(
    other.test('code=500') && other.test('code=2000') && other.test('wait=1, code=20') && other.test('code=201'),
  );
  assert.ok(!other.test('code=200') && !other.test('code=200, example=a') && !other.test('example=a'));
  assert.ok(
    both.test('code=404, example=b.c') && both.test('example=b.c;code=404') && both.test('code=404,example=b.c'),
  );
  assert.ok(!both.test('code=404, example=bxc') && !both.test('example=b.c') && !both.test('code=4040, example=b.c'));
  assert.ok(
    code.test('code=404') && code.test('wait=1, code=404') && !code.test('code=4041') && !code.test('xcode=404'),
  );
});

test('planImport: more than 200 operations give one rule set per tag (else first segment), without a prefix', () => {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 101; i++) {
    paths[`/a${i}`] = { get: { tags: ['alpha'], responses: { '204': { description: 'ok' } } } };
    paths[`/b/{id}/x${i}`] = { get: { responses: { '204': { description: 'ok' } } } };
  }
  const plan = planImport(
    { openapi: '3.0.3', info: { title: 'Many', version: '1' }, servers: [{ url: '/v1' }], paths },
    opts(),
  );
  assert.deepEqual(
    plan.ruleSets.map((r) => r.path),
    ['many/alpha.toml', 'many/b.toml'],
  );
  assert.equal(plan.basePath, undefined);
  const alpha = unmarked(plan.ruleSets[0]!.text);
  assert.doesNotMatch(alpha, /prefix\.url_path/);
  assert.match(alpha, /# Part 1 of 2: the operations tagged alpha\./);
  assert.match(alpha, /when\.request\.url_path = "\/v1\/a0"\n/);
  assert.match(
    unmarked(plan.ruleSets[1]!.text),
    /url_path = \{ value = '\/v1\/b\/\{id\}\/x0', op = "path_template" \}/,
  );
  // 200 operations stay in one rule set
  const fewer = Object.fromEntries(Object.entries(paths).slice(0, 200));
  assert.equal(planImport({ openapi: '3.0.3', info: { title: 'Many' }, paths: fewer }, opts()).ruleSets.length, 1);
});

test('planImport: fragments become header conditions, or a reason', () => {
  const doc: Obj = {
    openapi: '3.0.3',
    info: { title: 'Frag' },
    paths: {
      '/#X-Amz-Target=S.A': {
        post: {
          operationId: 'A',
          parameters: [{ name: 'X-Amz-Target', in: 'header', schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
      '/u#operation=create': {
        post: {
          operationId: 'B',
          parameters: [{ name: 'operation', in: 'query', schema: { type: 'string' } }],
          responses: { '200': { description: 'ok' } },
        },
      },
      '/t#keys': { delete: { operationId: 'C', responses: { '204': { description: 'ok' } } } },
      '/j#Action=Go': { post: { operationId: 'D', responses: { '200': { description: 'ok' } } } },
    },
  };
  const plan = planImport(doc, opts());
  assert.match(
    unmarked(plan.ruleSets[0]!.text),
    /# A\n# 200 \(the default answer\)\n\[\[rules\]\]\nwhen\.request\.method = "POST"\nwhen\.request\.url_path = "\/"\nwhen\.request\.headers\.x-amz-target = \{ value = "S\.A", op = "equal" \}\n/,
  );
  const notes = Object.fromEntries(plan.operations.map((o) => [o.operation, `${o.outcome}: ${o.notes.join(' ')}`]));
  // the query cases become query conditions: `#Name=Value` an equal one, a bare `#name` an exists one
  assert.equal(notes['B'], 'written: ');
  assert.equal(notes['C'], 'written: ');
  assert.match(
    unmarked(plan.ruleSets[0]!.text),
    /url_path = "\/u"\nwhen\.request\.query\.operation = \{ value = "create", op = "equal" \}\n/,
  );
  assert.match(
    unmarked(plan.ruleSets[0]!.text),
    /url_path = "\/t"\nwhen\.request\.query\.keys = \{ value = "", op = "exists" \}\n/,
  );
  assert.match(notes['D']!, /^skipped: the path's fragment names `Action`/);
});

test('planImport: a split without tags and a segment per resource packs neighbouring groups into at most 100 rule sets', () => {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 500; i++)
    paths[`/r${i}`] = {
      get: { responses: { '204': { description: 'ok' } } },
      post: { responses: { '204': { description: 'ok' } } },
    };
  const plan = planImport({ openapi: '3.0.3', info: { title: 'Flat' }, paths }, opts());
  assert.equal(plan.ruleSets.length, 100);
  assert.equal(plan.ruleSets[0]!.path, 'flat/r0--r4.toml');
  assert.match(
    unmarked(plan.ruleSets[0]!.text),
    /# Part 1 of 100: the operations under \/r0 to under \/r4 \(5 groups\)\./,
  );
  const rules = plan.ruleSets.reduce((n, r) => n + String(r.text).split('[[rules]]').length - 1, 0);
  assert.equal(rules, 2000); // the default answer and the undocumented-code error for each operation
});
