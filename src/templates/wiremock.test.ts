// The `wiremock` dialect (docs/templates.md#wiremock-dialect) compiled and rendered by the real engine over a
// snapshot made by the one normaliser. Each expected text is what WireMock 3.13.2 answered for the same template and
// request (the same cases sit in compare/wiremock/corpus/templates/ for the side-by-side run); the load errors are
// ours: WireMock renders an unknown path as nothing and an unknown block as an empty section.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { TemplateRuntime } from '../model/template.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import { seededFloats } from '../shared/prng.js';
import { compileTemplate, loadEngine, templateData, type Handlebars } from './index.js';

let engine: Handlebars;
before(async () => {
  engine = await loadEngine();
});

const FIXED = new Date(Date.UTC(2026, 0, 31, 13, 4, 5, 6));
const runtime = (): TemplateRuntime => ({ random: seededFloats(3), now: () => FIXED });

const REQUEST = snapshotFrom({
  method: 'POST',
  target: '/probe/seg2?ids=1&ids=2&a=x',
  headers: [
    ['host', '127.0.0.1:18089'],
    ['x-a', 'v1'],
    ['cookie', 'c=cv'],
    ['content-type', 'application/json'],
  ],
  httpVersion: '1.1',
  body: new TextEncoder().encode('{"a":{"b":"c","n":12},"arr":[1,2,3]}'),
});

function render(source: string, params: Record<string, string> = {}): string {
  const c = compileTemplate(engine, source, 'text', 'wiremock');
  if (!c.ok) throw new Error(`${c.error.line}:${c.error.column} ${c.error.message}`);
  return c.value.render(templateData(REQUEST, params), runtime());
}

function loadError(source: string): string {
  const c = compileTemplate(engine, source, 'text', 'wiremock');
  assert.ok(!c.ok, `${source} compiled`);
  return `${c.error.line}:${c.error.column} ${c.error.message}`;
}

describe("WireMock's request model", () => {
  const cases: [string, string][] = [
    ['{{request.path}}|{{request.path.[0]}}|{{request.path.[1]}}|{{request.path.length}}', '/probe/seg2|probe|seg2|2'],
    ['{{request.url}}', '/probe/seg2?ids=1&ids=2&a=x'],
    ['{{request.query.ids}}|{{request.query.ids.[1]}}|{{request.query.a}}|{{size request.query.ids}}', '1|2|x|2'],
    ['{{#each request.query.ids}}{{this}},{{/each}}', '1,2,'],
    ['{{request.query}}', '{a=x, ids=1}'],
    ['{{request.headers.X-A}}|{{request.headers.x-a}}|{{request.cookies.c}}', 'v1|v1|cv'],
    [
      '{{request.method}}|{{request.host}}|{{request.port}}|{{request.scheme}}|{{request.baseUrl}}',
      'POST|127.0.0.1|18089|http|http://127.0.0.1:18089',
    ],
    ['{{request.bodyAsBase64}}', Buffer.from('{"a":{"b":"c","n":12},"arr":[1,2,3]}').toString('base64')],
    ['{{toJson request.query}}', '{\n  "a" : "x",\n  "ids" : [ "1", "2" ]\n}'],
    ['{{lookup request.query "ids"}}|{{lookup request.query "ids.1"}}', '1|2'],
    // a multi-value is not the text of its first value to `eq`, as in WireMock
    ['{{#if (eq request.query.a "x")}}yes{{else}}no{{/if}}', 'no'],
    ['{{#with request}}{{method}}{{/with}}', 'POST'],
  ];
  for (const [source, want] of cases) it(source, () => assert.equal(render(source), want));
  it('request.pathSegments names the captures of a urlPathTemplate', () => {
    assert.equal(render('{{request.pathSegments.id}}', { id: '42' }), '42');
  });
});

describe("WireMock's helpers", () => {
  const cases: [string, string][] = [
    ['{{jsonPath request.body "$.a.b"}}|{{jsonPath request.body "$.zz" default="dflt"}}', 'c|dflt'],
    ['{{jsonPath request.body "$.arr"}}|{{jsonPath request.body "$.arr[1]"}}', '[1,2,3]|2'],
    ['{{jsonPath request.body "$.a"}}', '{\n  "b" : "c",\n  "n" : 12\n}'],
    ['{{regexExtract request.body "[0-9]+"}}', '12'],
    ['{{#formatJson}}{"a":1,"b":[1,2]}{{/formatJson}}', '{\n  "a" : 1,\n  "b" : [ 1, 2 ]\n}'],
    ['{{formatJson request.body format="compact"}}', '{"a":{"b":"c","n":12},"arr":[1,2,3]}'],
    ['{{#formatXml}}<a><b>x</b></a>{{/formatXml}}', '<a>\n  <b>x</b>\n</a>\n'],
    [
      '{{upper "abc"}}|{{lower "ABC"}}|{{capitalize "hello world"}}|{{abbreviate "hello world" 6}}',
      'ABC|abc|Hello World|hel...',
    ],
    [
      '{{trim "  x  "}}|{{replace "a-b" "-" "+"}}|{{capitalizeFirst "abc def"}}|{{substring "abcdef" 1 3}}',
      'x|a+b|Abc def|bc',
    ],
    ['{{join (array 1 2 3) ","}}|{{#each (range 1 3)}}{{this}};{{/each}}', '1,2,3|1;2;3;'],
    [
      '{{arrayAdd (array 1 2) 3}}|{{arrayRemove (array 1 2 3) 0}}|{{arrayRemove (array 1 2 3) position="start"}}',
      '[1, 2, 3]|[1, 2]|[2, 3]',
    ],
    ['{{toJson (array 1 "b")}}', '[ 1, "b" ]'],
    ['{{val request.query.x default="d"}}|{{val request.query.x or="d2"}}|{{defaultIfEmpty "" "d"}}', 'd|d2|d'],
    ['{{size "abc"}}|{{base64 "hi"}}|{{base64 "aGk=" decode=true}}', '3|aGk=|hi'],
    ['{{urlEncode "a b&c"}}|{{urlEncode "a+b%20c" decode=true}}', 'a+b%26c|a b c'],
    ['{{formData "a=1&b=x%20y" "f" urlDecode=true}}{{f.a}}|{{f.b}}', '1|x y'],
    ['{{#assign "x"}}v{{/assign}}{{x}}', 'v'],
    ['{{math 1 "+" 2}}', '3'],
    ['{{now format="yyyy-MM-dd"}}|{{now}}', '2026-01-31|2026-01-31T13:04:05Z'],
    ['{{now offset="3 days" format="yyyy-MM-dd HH"}}', '2026-02-03 13'],
    [
      '{{parseDate "2024-01-02T03:04:05Z"}}|{{dateFormat (parseDate "2024-01-02T03:04:05Z") format="yyyy"}}',
      '2024-01-02T03:04:05Z|2024',
    ],
    ['{{date (parseDate "2024-01-02T03:04:05Z") offset="1 months"}}', '2024-02-02T03:04:05Z'],
    ['{{truncateDate (parseDate "2024-05-17T10:11:12Z") "first day of month"}}', '2024-05-01T00:00:00Z'],
    ['{{systemValue type="ENVIRONMENT" key="HOME"}}', '[ERROR: Access to HOME is denied]'],
    ['{{#contains "abc" "b"}}y{{else}}n{{/contains}}|{{#matches "abc" "a.c"}}y{{/matches}}', 'y|y'],
    ['{{#eq 1 1}}e{{/eq}}|{{#gt 3 2}}g{{/gt}}', 'e|g'],
    ['{{jsonPath (parseJson "{\\"a\\":[{\\"b\\":1},{\\"b\\":2}]}") "$.a[1].b"}}', '2'],
  ];
  for (const [source, want] of cases) it(source, () => assert.equal(render(source), want));

  it('randomInt leaves its upper bound out, randomValue is lower case unless uppercase=true', () => {
    for (let i = 0; i < 50; i++) assert.match(render('{{randomInt lower=1 upper=3}}'), /^[12]$/);
    assert.match(render('{{randomValue length=12}}'), /^[a-z0-9]{12}$/);
    assert.match(render('{{randomValue length=12 uppercase=true}}'), /^[A-Z0-9]{12}$/);
    assert.match(render('{{pickRandom 1 2 3 count=2}}'), /^\[[123], [123]\]$/);
  });
});

describe('load errors, never an empty render', () => {
  it('an unknown block helper is an error naming it, in both dialects', () => {
    assert.match(
      loadError('{{#formatJsn}}{}{{/formatJsn}}'),
      /^1:1 unknown block helper `formatJsn` \(did you mean `formatJson`\?\)/,
    );
    const mock = compileTemplate(engine, 'x{{#formatJson}}{}{{/formatJson}}', 'text');
    assert.ok(!mock.ok);
    assert.match(mock.error.message, /unknown block helper `formatJson`/);
  });
  it('a path outside the request model, and a helper WireMock has that mock lacks, are errors naming them', () => {
    assert.match(loadError('{{request.nope}}'), /`request\.nope` is not in WireMock's request model/);
    assert.match(loadError('{{request.paht.[0]}}'), /did you mean `request\.path`\?/);
    assert.match(loadError('{{xPath request.body "/a"}}'), /WireMock's helper `xPath` is not supported yet/);
    assert.match(loadError('{{nothing 1}}'), /`nothing` is neither a WireMock helper nor in its request model/);
  });
});
