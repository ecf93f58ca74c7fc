// WireMock's request matching through the real program: the operators it needed (JSON documents, dates,
// multi-valued names, the path and query as sent) in a hand-written rule set, and WireMock mappings that the import
// used to refuse or loosen, imported with `mock --init --from` and served. Every request answers as WireMock
// answers it (each case here was checked against WireMock 3.13.2; compare/wiremock runs the corpus against it).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { send } from './server-harness.js';

interface Case {
  readonly name: string;
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** the body of the rule that answers, or 404 */
  readonly want: string | 404;
}

async function check(server: RunningMock, cases: readonly Case[]): Promise<void> {
  for (const c of cases) {
    const r = await send(server.port, {
      method: c.method ?? (c.body === undefined ? 'GET' : 'POST'),
      path: c.path,
      headers: { ...(c.body?.startsWith('{') ? { 'content-type': 'application/json' } : {}), ...(c.headers ?? {}) },
      ...(c.body === undefined ? {} : { body: c.body }),
    });
    if (c.want === 404) assert.equal(r.status, 404, `${c.name}: ${r.body.toString()}`);
    else assert.equal(`${r.status} ${r.body.toString()}`, `200 ${c.want}`, c.name);
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();
const DAY = 86_400_000;

const ANY_NUMBER = '$' + '{json-unit.any-number}';

const RULES = String.raw`
[[rules]]
when.request.url_path = "/doc/strict"
when.request.body.json."" = { value = '{ "total": 1, "items": [1, 2] }', op = "equal_json" }
respond.text = "strict"

[[rules]]
when.request.url_path = "/doc/loose"
when.request.body.json."order" = { value = '{ "id": "${ANY_NUMBER}", "tags": ["b", "a"] }', op = "contains_json_any_order" }
respond.text = "loose"

[[rules]]
when.request.url = { value = '^/search\?q=[a-z]+$', op = "regex" }
respond.text = "url"

[[rules]]
when.request.url_path = "/when"
when.request.headers.x-when = { value = "now +3 days", op = "before" }
when.request.query.since = { value = "2021-01-01T00:00:00Z -1 days", op = "after" }
respond.text = "dates"

[[rules]]
when.request.url_path = "/day"
when.request.headers.x-day = { value = "2021-06-01T00:00:00Z", op = "equal_date_time", truncate_actual = "first day of month", format = "dd/MM/yyyy" }
respond.text = "same month"

[[rules]]
when.request.url_path = "/schema"
when.request.body.json."" = { value = '{ "type": "object", "required": ["name"], "properties": { "name": { "type": "string" } } }', op = "json_schema" }
respond.text = "schema"

[[rules]]
when.request.url_path = "/ids"
when.request.query.id = { value = '["1", "2"]', op = "has_exactly" }
when.request.headers.x-tag = { value = '["b"]', op = "includes" }
respond.text = "ids"
`;

describe('the operators WireMock mappings need, in a hand-written rule set', () => {
  let root = '';
  let server: RunningMock;
  before(async () => {
    root = makeTempDir('mock-wm-ops-');
    await writeTree(root, { 'mock.toml': '[service]\nrule_sets = ["rules.toml"]\n', 'rules.toml': RULES });
    server = await spawnMock([], { cwd: root });
  });
  after(async () => {
    await server?.stop();
    await removeDir(root);
  });

  it('equal_json: the whole body, numbers by value, keys in any order, nothing more', async () => {
    await check(server, [
      { name: 'same document', path: '/doc/strict', body: '{"items":[1,2],"total":1.0}', want: 'strict' },
      { name: 'a field more', path: '/doc/strict', body: '{"items":[1,2],"total":1,"x":0}', want: 404 },
      { name: 'an item more', path: '/doc/strict', body: '{"items":[1,2,3],"total":1}', want: 404 },
      { name: 'items reordered', path: '/doc/strict', body: '{"items":[2,1],"total":1}', want: 404 },
      { name: 'not JSON', path: '/doc/strict', body: 'total=1', want: 404 },
    ]);
  });

  it('contains_json_any_order at a path, with a json-unit placeholder', async () => {
    await check(server, [
      {
        name: 'more, reordered',
        path: '/doc/loose',
        body: '{"order":{"id":7,"tags":["a","c","b"],"x":1}}',
        want: 'loose',
      },
      { name: 'id a string', path: '/doc/loose', body: '{"order":{"id":"7","tags":["a","b"]}}', want: 404 },
      { name: 'a tag missing', path: '/doc/loose', body: '{"order":{"id":7,"tags":["a"]}}', want: 404 },
    ]);
  });

  it('url: the path and query as sent', async () => {
    await check(server, [
      { name: 'matches', path: '/search?q=abc', want: 'url' },
      { name: 'another query', path: '/search?q=abc&x=1', want: 404 },
      { name: 'no query', path: '/search', want: 404 },
    ]);
  });

  it('before / after: now with an offset, a written moment with one', async () => {
    const now = Date.now();
    await check(server, [
      {
        name: 'both hold',
        path: '/when?since=2021-01-01T00:00:00Z',
        headers: { 'x-when': iso(now + DAY) },
        want: 'dates',
      },
      {
        name: 'an HTTP date',
        path: '/when?since=2020-12-31T12:00:00%2B01:00',
        headers: { 'x-when': new Date(now).toUTCString() },
        want: 'dates',
      },
      {
        name: 'too late',
        path: '/when?since=2021-01-01T00:00:00Z',
        headers: { 'x-when': iso(now + 4 * DAY) },
        want: 404,
      },
      { name: 'too early', path: '/when?since=2020-12-30T00:00:00Z', headers: { 'x-when': iso(now) }, want: 404 },
      { name: 'not a date', path: '/when?since=2021-01-01T00:00:00Z', headers: { 'x-when': 'soon' }, want: 404 },
    ]);
  });

  it('equal_date_time with the request truncated and read in its own format', async () => {
    await check(server, [
      { name: 'same month', path: '/day', headers: { 'x-day': '14/06/2021' }, want: 'same month' },
      { name: 'next month', path: '/day', headers: { 'x-day': '01/07/2021' }, want: 404 },
      { name: 'ISO is not the format', path: '/day', headers: { 'x-day': '2021-06-14' }, want: 404 },
    ]);
  });

  it('json_schema: the body is valid against the schema', async () => {
    await check(server, [
      { name: 'valid', path: '/schema', body: '{"name":"a","more":1}', want: 'schema' },
      { name: 'a number name', path: '/schema', body: '{"name":1}', want: 404 },
      { name: 'no name', path: '/schema', body: '{}', want: 404 },
    ]);
  });

  it('has_exactly and includes look at every value of a name', async () => {
    await check(server, [
      { name: 'exactly, any order', path: '/ids?id=2&id=1', headers: { 'x-tag': 'b' }, want: 'ids' },
      { name: 'one more id', path: '/ids?id=2&id=1&id=3', headers: { 'x-tag': 'b' }, want: 404 },
      { name: 'one id short', path: '/ids?id=1', headers: { 'x-tag': 'b' }, want: 404 },
      { name: 'tag missing', path: '/ids?id=1&id=2', headers: { 'x-tag': 'a' }, want: 404 },
    ]);
  });

  it('a wrong value is a load error naming the file, the line and what was expected', async () => {
    const bad = makeTempDir('mock-wm-bad-');
    try {
      await writeTree(bad, {
        'mock.toml': '[service]\nrule_sets = ["bad.toml"]\n',
        'bad.toml': [
          '[[rules]]',
          'when.request.headers.x-when = { value = "soon", op = "before" }',
          'when.request.query.id = { value = "1", op = "has_exactly" }',
          'when.request.body.json."" = { value = "{ oops", op = "equal_json" }',
          'respond.text = "x"',
          '',
        ].join('\n'),
      });
      const r = await runMock(['validate'], { cwd: bad });
      assert.notEqual(r.code, 0);
      const out = r.stdout + r.stderr;
      assert.match(out, /bad\.toml:2:\d+.*`soon` is not a date/);
      assert.match(out, /bad\.toml:3:\d+.*`has_exactly` needs a JSON array of strings/);
      assert.match(out, /bad\.toml:4:\d+.*`equal_json` needs a JSON document/);
    } finally {
      await removeDir(bad);
    }
  });
});

const mapping = (request: object, body: string, more: object = {}): string =>
  JSON.stringify({ request, response: { status: 200, body }, ...more });

const MAPPINGS: Record<string, string> = {
  'mappings/comments.json': `// WireMock reads comments\n{ "request": { "urlPath": "/comments" /* here too */ }, "response": { "body": "comments" } }\n`,
  'mappings/xml-options.json': mapping(
    {
      urlPath: '/xml',
      bodyPatterns: [{ equalToXml: '<a/>', ignoreOrderOfSameNode: true, namespaceAwareness: 'LEGACY' }],
    },
    'xml',
  ),
  'mappings/auth.json': mapping({ urlPath: '/auth', basicAuth: { username: 'u', password: 'p' } }, 'auth'),
  'mappings/form.json': mapping(
    { method: 'POST', urlPath: '/form', formParameters: { user: { equalTo: 'alice' } } },
    'form',
  ),
  'mappings/template.json': mapping(
    { urlPathTemplate: '/users/{id}', pathParameters: { id: { matches: '[0-9]+' } } },
    'user',
  ),
  'mappings/json.json': JSON.stringify({
    mappings: [
      {
        request: { method: 'POST', urlPath: '/json/strict', bodyPatterns: [{ equalToJson: { a: 1 } }] },
        response: { body: 'strict' },
      },
      {
        request: {
          method: 'POST',
          urlPath: '/json/placeholders',
          bodyPatterns: [{ equalToJson: { id: '${json-unit.any-number}', name: '${json-unit.any-string}' } }],
        },
        response: { body: 'placeholders' },
      },
      {
        request: {
          method: 'POST',
          urlPath: '/json/schema',
          bodyPatterns: [{ matchesJsonSchema: '{"type":"object","required":["id"]}', schemaVersion: 'V7' }],
        },
        response: { body: 'schema' },
      },
      {
        request: {
          method: 'POST',
          urlPath: '/json/both',
          bodyPatterns: [{ equalToJson: { name: 'a' }, ignoreExtraElements: true }, { matchesJsonPath: '$.name' }],
        },
        response: { body: 'both' },
      },
    ],
  }),
  'mappings/query.json': mapping(
    { urlPattern: '/q/[a-z]+\\?.*', queryParameters: { id: { hasExactly: [{ equalTo: '1' }] } } },
    'query',
  ),
  'mappings/dates.json': mapping(
    { urlPath: '/dates', headers: { 'X-When': { after: 'now', expectedOffset: -1, expectedOffsetUnit: 'days' } } },
    'dates',
  ),
  'mappings/logic.json': mapping(
    {
      urlPath: '/logic',
      headers: { A: { or: [{ equalTo: 'x' }, { matches: 'y+' }] }, B: { not: { contains: 'bad' } } },
    },
    'logic',
  ),
  'mappings/multipart.json': mapping(
    {
      method: 'POST',
      urlPath: '/upload',
      multipartPatterns: [
        { headers: { 'Content-Disposition': { contains: 'name="info"' } }, bodyPatterns: [{ contains: 'hello' }] },
      ],
    },
    'multipart',
  ),
  'mappings/ties.json': JSON.stringify({
    mappings: [
      { request: { urlPath: '/tie' }, response: { body: 'first' } },
      { request: { urlPath: '/tie' }, response: { body: 'last' } },
    ],
  }),
  'mappings/zz-catch-all.json': JSON.stringify({
    priority: 10,
    request: { method: 'ANY' },
    response: { status: 404, body: 'none' },
  }),
};

describe('WireMock mappings the import used to refuse or loosen, imported and served', () => {
  let root = '';
  let ws = '';
  let server: RunningMock;
  let summary = '';
  before(async () => {
    root = makeTempDir('mock-wm-import-');
    await writeTree(join(root, 'wiremock'), MAPPINGS);
    ws = join(root, 'ws');
    mkdirSync(ws);
    const r = await runMock(['--init', '--from', join(root, 'wiremock'), '--yes'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr + r.stdout);
    summary = r.stdout + r.stderr;
    server = await spawnMock([], { cwd: ws });
  });
  after(async () => {
    await server?.stop();
    await removeDir(root);
  });

  it('imports every mapping; what it cannot state is named in the summary', () => {
    assert.match(summary, /Imported 16 mappings/);
    assert.match(summary, /xml-options\.json: request\.bodyPatterns\[0\]\.equalToXml: XML comparison is not supported/);
    assert.doesNotMatch(summary, /json\.json/);
  });

  it('answers as WireMock does', async () => {
    const now = Date.now();
    const form = 'application/x-www-form-urlencoded';
    const mp = '--B\r\nContent-Disposition: form-data; name="info"\r\n\r\nsay hello\r\n--B--\r\n';
    await check(server, [
      { name: 'a file with comments', path: '/comments', want: 'comments' },
      { name: 'basicAuth', path: '/auth', headers: { authorization: 'Basic dTpw' }, want: 'auth' },
      { name: 'basicAuth wrong', path: '/auth', headers: { authorization: 'Basic eDp5' }, want: 404 },
      { name: 'formParameters', path: '/form', headers: { 'content-type': form }, body: 'user=alice', want: 'form' },
      { name: 'formParameters miss', path: '/form', headers: { 'content-type': form }, body: 'user=bob', want: 404 },
      { name: 'pathParameters', path: '/users/12', want: 'user' },
      { name: 'pathParameters miss', path: '/users/ab', want: 404 },
      { name: 'strict equalToJson', path: '/json/strict', body: '{"a":1.0}', want: 'strict' },
      { name: 'strict equalToJson, a field more', path: '/json/strict', body: '{"a":1,"b":2}', want: 404 },
      { name: 'placeholders', path: '/json/placeholders', body: '{"id":3,"name":"n"}', want: 'placeholders' },
      { name: 'placeholders, a string id', path: '/json/placeholders', body: '{"id":"3","name":"n"}', want: 404 },
      { name: 'matchesJsonSchema', path: '/json/schema', body: '{"id":1}', want: 'schema' },
      { name: 'matchesJsonSchema miss', path: '/json/schema', body: '{"no":1}', want: 404 },
      { name: 'equalToJson beside matchesJsonPath', path: '/json/both', body: '{"name":"a","x":1}', want: 'both' },
      { name: 'urlPattern with a query and hasExactly', path: '/q/abc?id=1', want: 'query' },
      { name: 'hasExactly, one more', path: '/q/abc?id=1&id=1', want: 404 },
      { name: 'after now -1 days', path: '/dates', headers: { 'x-when': iso(now) }, want: 'dates' },
      { name: 'after, too early', path: '/dates', headers: { 'x-when': iso(now - 2 * DAY) }, want: 404 },
      { name: 'or / not', path: '/logic', headers: { a: 'yyy', b: 'good' }, want: 'logic' },
      { name: 'not, miss', path: '/logic', headers: { a: 'x', b: 'so bad' }, want: 404 },
      {
        name: 'multipart',
        path: '/upload',
        headers: { 'content-type': 'multipart/form-data; boundary=B' },
        body: mp,
        want: 'multipart',
      },
      { name: 'the later of two ties', path: '/tie', want: 'last' },
    ]);
    const miss = await send(server.port, { path: '/nothing' });
    assert.equal(`${miss.status} ${miss.body.toString()}`, '404 none', 'the catch-all answers last');
  });
});
