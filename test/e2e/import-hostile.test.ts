// `mock --init --from` on odd and hostile documents, through the real program: a Postman request whose examples
// mix JSON and HTML imports; a 1 MiB request name gives file names that fit a file system (shortened by bytes,
// kept apart by a short hash) and output that quotes an excerpt, not the name; and for every format, small
// documents mutated at random (a fixed seed, a bounded number of runs) never make the import say "a bug in mock":
// each is imported or refused with a message naming the problem.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { makeTempDir, removeDir, runMock, writeTree } from '../helpers/mock-cli.js';

const root = makeTempDir('mock-import-hostile-');
after(() => removeDir(root));
let n = 0;

/** imports `doc` (written as JSON) into a fresh folder */
async function importDoc(doc: unknown, extra: readonly string[] = []) {
  const at = join(root, String(n++));
  mkdirSync(join(at, 'ws'), { recursive: true });
  await writeTree(at, { 'source.json': typeof doc === 'string' ? doc : JSON.stringify(doc) });
  const r = await runMock(['--init', '--from', '../source.json', '--yes', ...extra], { cwd: join(at, 'ws') });
  return { ...r, ws: join(at, 'ws') };
}

/** A Mockoon environment (the keys of `env` first) of one GET route with one default response (`response` over the defaults). */
function mockoonEnv(env: Record<string, unknown>, endpoint: string, response: Record<string, unknown>): unknown {
  const answer = { uuid: 'q', statusCode: 200, body: '{"id":1}', ...response, default: true, rules: [] };
  const { uuid, ...rest } = env;
  return {
    uuid,
    lastMigration: 32,
    name: 'm',
    ...rest,
    routes: [{ uuid: 'r', type: 'http', method: 'get', endpoint, responses: [answer] }],
  };
}

function names(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    out.push(name);
    if (statSync(join(dir, name)).isDirectory()) names(join(dir, name), out);
  }
  return out;
}

const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const json = (code: number, body: string, name: string) => ({
  name,
  code,
  header: [{ key: 'Content-Type', value: 'application/json' }],
  body,
});

test('a Postman request with a JSON example and a text/html example imports, each to its own file', async () => {
  const r = await importDoc({
    info: { name: 'c', schema: POSTMAN_SCHEMA },
    item: [
      {
        name: 'get thing',
        request: { method: 'GET', url: 'http://x/thing' },
        response: [
          json(200, '{"a":1}', 'ok json'),
          { name: 'html', code: 200, header: [{ key: 'Content-Type', value: 'text/html' }], body: '<p>hi</p>' },
        ],
      },
    ],
  });
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.doesNotMatch(r.stderr + r.stdout, /a bug in mock/);
  assert.deepEqual(readdirSync(join(r.ws, 'responses')).sort(), ['get-thing-200.html', 'get-thing-200.json']);
  const v = await runMock(['validate'], { cwd: r.ws });
  assert.equal(v.code, 0, v.stderr + v.stdout);
});

test('a 1 MiB request name: file names are shortened by bytes and kept apart, the output quotes an excerpt', async () => {
  const long = 'é'.repeat(512 * 1024);
  const r = await importDoc({
    info: { name: 'c', schema: POSTMAN_SCHEMA },
    item: [
      {
        name: long,
        request: { method: 'GET', url: 'http://x/a' },
        response: [json(200, '{}', long), json(404, '{"e":1}', `${long}2`), json(200, '[]', `${long}3`)],
      },
      { name: `${long}b`, request: { method: long, url: 'http://x/b' }, response: [json(200, '{}', 'x')] },
    ],
  });
  assert.equal(r.code, 0, r.stderr.slice(0, 2000) + r.stdout.slice(0, 2000));
  assert.ok(r.stdout.length + r.stderr.length < 16 * 1024, `${r.stdout.length + r.stderr.length} bytes of output`);
  const written = names(r.ws);
  for (const name of written) assert.ok(Buffer.byteLength(name) <= 255, `${Buffer.byteLength(name)} bytes: ${name}`);
  // four rules (the default, two examples by name, one by status), each with its own body file
  assert.equal(readdirSync(join(r.ws, 'responses')).length, 4);
  const v = await runMock(['validate'], { cwd: r.ws });
  assert.equal(v.code, 0, v.stderr + v.stdout);
  // the JSON envelope quotes the same excerpts (its left_out places were the whole name)
  const asJson = await importDoc(
    {
      info: { name: 'c', schema: POSTMAN_SCHEMA },
      item: [{ name: `${long}b`, request: { method: long, url: 'http://x/b' }, response: [json(200, '{}', 'x')] }],
    },
    ['--format', 'json'],
  );
  assert.ok(asJson.stdout.length + asJson.stderr.length < 16 * 1024, `${asJson.stdout.length} bytes of JSON output`);
  assert.match(asJson.stdout, /left_out/);
});

test('what the random documents found: a JSON-declared body that is not JSON, a pattern the regex engine refuses, a header name HTTP does not allow', async () => {
  const docs = [
    {
      info: { name: 'p', schema: POSTMAN_SCHEMA },
      item: [
        { name: 'one', request: { method: 'GET', url: 'http://x/a' }, response: [json(201, '../etc/passwd', 'x')] },
      ],
    },
    {
      mappings: [
        { request: { method: 'GET', urlPath: '/a' }, response: { status: 200, jsonBody: [] } },
        { request: { method: 'POST', urlPattern: '{{undefined}}' }, response: { status: 201, body: 'made' } },
      ],
    },
    mockoonEnv({ uuid: 'u' }, 'users/:id', { headers: [{ key: '/a/../../b', value: 'application/json' }] }),
  ];
  for (const doc of docs) {
    const r = await importDoc(doc);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const v = await runMock(['validate'], { cwd: r.ws });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  }
});

/** a small valid document of each format */
const BASES: Readonly<Record<string, unknown>> = {
  postman: {
    info: { name: 'p', schema: POSTMAN_SCHEMA },
    variable: [{ key: 'baseUrl', value: 'http://x/api' }],
    item: [
      {
        name: 'folder',
        item: [
          {
            name: 'one',
            request: { method: 'POST', url: { raw: '{{baseUrl}}/users/:id?q=1', query: [{ key: 'q', value: '1' }] } },
            response: [
              json(201, '{"id":1}', 'made'),
              { name: 'html', code: 500, body: '<b>x</b>', header: 'Content-Type: text/html' },
            ],
          },
        ],
      },
    ],
  },
  har: {
    log: {
      version: '1.2',
      creator: { name: 't', version: '1' },
      entries: [
        {
          request: { method: 'GET', url: 'http://x/a?b=1', headers: [], queryString: [{ name: 'b', value: '1' }] },
          response: {
            status: 200,
            headers: [{ name: 'Content-Type', value: 'application/json' }],
            content: { mimeType: 'application/json', text: '{"a":1}' },
          },
        },
      ],
    },
  },
  wiremock: {
    mappings: [
      {
        request: { method: 'GET', urlPath: '/a', queryParameters: { q: { equalTo: '1' } } },
        response: { status: 200, jsonBody: { a: 1 }, headers: { 'Content-Type': 'application/json' } },
      },
      { request: { method: 'POST', urlPattern: '/b/.*' }, response: { status: 201, body: 'made' } },
    ],
  },
  mockoon: mockoonEnv({ uuid: 'e', endpointPrefix: 'api' }, 'users/:id', {
    headers: [{ key: 'Content-Type', value: 'application/json' }],
  }),
  openapi: {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/a/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { example: { a: 1 } } } } },
        },
      },
    },
  },
};

/** values a careless or hostile document holds where a sane one holds something else */
const HOSTILE: readonly unknown[] = [
  null,
  0,
  -1,
  1e308,
  true,
  '',
  ' ',
  'x'.repeat(70_000),
  'é'.repeat(300),
  '../../../etc/passwd',
  '/a/../../b',
  '{{undefined}}',
  ':id',
  '<html>',
  'a\u0000b',
  '\ud800',
  'text/html',
  'application/json',
  [],
  {},
  [null],
  { '': '' },
  { __proto__: 1 },
  JSON.parse('{"__proto__":{"polluted":1}}'),
];

type Path = readonly (string | number)[];

function pathsOf(v: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

function replaced(v: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (i === head ? replaced(x, rest, value) : x));
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === head ? replaced(x, rest, value) : x]));
  return v;
}

for (const [format, base] of Object.entries(BASES)) {
  test(`${format}: mutated documents never make the import report a bug in mock`, async () => {
    const paths = pathsOf(base).filter((p) => p.length > 0);
    const mutation = fc.record({
      at: fc.nat({ max: paths.length - 1 }),
      value: fc.oneof(fc.constantFrom(...HOSTILE), fc.jsonValue({ maxDepth: 2 })),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (ms) => {
        let doc = base;
        for (const m of ms) doc = replaced(doc, paths[m.at]!, m.value);
        const r = await importDoc(doc, ['--format', 'json']);
        const out = r.stdout + r.stderr;
        assert.doesNotMatch(out, /a bug in mock/, out.slice(0, 3000));
        assert.doesNotMatch(out, /internal error|TypeError|RangeError|at .*\.js:\d+/, out.slice(0, 3000));
        assert.ok(r.code === 0 || r.code === 1 || r.code === 2, `exit ${r.code}: ${out.slice(0, 3000)}`);
        assert.ok(out.length < 64 * 1024, `${out.length} bytes of output`);
      }),
      { seed: 43, numRuns: 8, endOnFailure: true },
    );
  });
}

test('what reached "a bug in mock" after the fuzzing: two conditions on one JSON field, a parameter inside a segment, a status under 100 (written as Mockoon serves it: 200)', async () => {
  const docs: [unknown, RegExp][] = [
    [
      {
        mappings: [
          {
            request: {
              method: 'POST',
              url: '/a',
              bodyPatterns: [{ equalToJson: { name: 'x' } }, { matchesJsonPath: '$.name' }],
            },
            response: { status: 200, body: 'ok' },
          },
        ],
      },
      // the document is one condition on the whole body, the JSONPath one on its field: both kept
      /when\.request\.body\.json\."" = \{ value = "\{\\"name\\":\\"x\\"\}", op = "equal_json" \}\nwhen\.request\.body\.json\."name" = \{ value = "", op = "exists" \}/,
    ],
    ...(
      [
        ['compare/:baseId...:headId', 200, /value = '\/compare\/\{baseId\}\.\.\.\{headId\}', op = "path_template"/],
        ['docket', 99, /url_path = "\/docket"\n(?!respond\.status)/],
      ] as const
    ).map(([endpoint, statusCode, why]): [unknown, RegExp] => [
      mockoonEnv({ uuid: 'e', port: 3000, endpointPrefix: '', rootChildren: [], folders: [], data: [] }, endpoint, {
        statusCode,
        body: 'hi',
        headers: [],
      }),
      why,
    ]),
  ];
  for (const [doc, why] of docs) {
    const r = await importDoc(doc);
    assert.doesNotMatch(r.stdout + r.stderr, /a bug in mock/);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const written = readdirSync(r.ws)
      .filter((f) => f.endsWith('.toml') && f !== 'mock.toml')
      .map((f) => readFileSync(join(r.ws, f), 'utf8'))
      .join('\n');
    assert.match(written, why);
    const v = await runMock(['validate'], { cwd: r.ws });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  }
});
