// Mockoon's helpers compiled and rendered by the real engine over a real snapshot, each as Mockoon's documentation
// shows it (compare/mockoon/ asks the real Mockoon CLI the same).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { TemplateKind, TemplateRuntime } from '../../model/template.js';
import { snapshotFrom } from '../../dispatch/snapshot.js';
import { seededFloats } from '../../shared/prng.js';
import { MemoryStore } from '../../state/store.js';
import { compileTemplate, loadEngine, loadFaker, templateData, type Handlebars } from '../index.js';
import { qsQuery, valueAt } from './mockoon.js';

let engine: Handlebars;
let faker: unknown;
before(async () => {
  engine = await loadEngine();
  faker = await loadFaker();
});

const FIXED = new Date(Date.UTC(2026, 0, 31, 13, 4, 5, 6));
const state = new MemoryStore();
const runtime = (): TemplateRuntime => ({ random: seededFloats(7), now: () => FIXED, faker, state });

function render(
  source: string,
  o: { target?: string; headers?: [string, string][]; body?: string; kind?: TemplateKind } = {},
): string {
  const c = compileTemplate(engine, source, o.kind ?? 'text');
  if (!c.ok) throw new Error(c.error.message);
  const req = snapshotFrom({
    method: o.body === undefined ? 'GET' : 'POST',
    target: o.target ?? '/',
    headers: o.headers ?? [['host', 'api.example.test:3000']],
    httpVersion: '1.1',
    ...(o.body === undefined ? {} : { body: new TextEncoder().encode(o.body) }),
  });
  return c.value.render(templateData(req, { id: '42' }), runtime());
}

const json: [string, string][] = [['content-type', 'application/json']];

describe("Mockoon's request helpers", () => {
  it('body: a path, JSONPath, a default, objects and null as JSON, escaped dots in a key', () => {
    const body = JSON.stringify({ user: { name: 'Ada', tags: ['a', 'b'] }, 'a.b': 1, gone: null });
    assert.equal(render("{{body 'user.name'}}", { headers: json, body }), 'Ada');
    assert.equal(render("{{body '$.user.tags[1]'}}", { headers: json, body }), 'b');
    assert.equal(render("{{body 'user'}}", { headers: json, body }), '{"name":"Ada","tags":["a","b"]}');
    assert.equal(render("{{body 'gone'}}", { headers: json, body }), 'null');
    assert.equal(render("{{body 'missing' 'none'}}", { headers: json, body }), 'none');
    assert.equal(render("{{body 'a\\.b'}}", { headers: json, body }), '1');
    assert.equal(render('{{body}}', { headers: json, body }), body);
  });

  it('body reads form fields (urlencoded)', () => {
    const headers: [string, string][] = [['content-type', 'application/x-www-form-urlencoded']];
    assert.equal(render("{{body 'name'}}", { headers, body: 'name=Ada&x=1' }), 'Ada');
  });

  it('queryParam, queryParamRaw, urlParam, header, cookie, hostname, baseUrl, method', () => {
    assert.equal(render("{{queryParam 'page' '1'}}", { target: '/?page=3' }), '3');
    assert.equal(render("{{queryParam 'page' '1'}}", { target: '/' }), '1');
    assert.equal(render("{{#each (queryParamRaw 'tag')}}[{{this}}]{{/each}}", { target: '/?tag=a&tag=b' }), '[a][b]');
    assert.equal(render("{{urlParam 'id'}}"), '42');
    assert.equal(render("{{header 'X-Trace' 'none'}}"), 'none');
    assert.equal(render("{{cookie 'sid'}}", { headers: [['cookie', 'sid=abc']] }), 'abc');
    assert.equal(render('{{hostname}}'), 'api.example.test');
    assert.equal(render('{{baseUrl}}'), 'http://api.example.test:3000');
    assert.equal(render('{{method}}'), 'GET');
  });
});

describe("Mockoon's logic, arrays, strings, numbers and dates", () => {
  it('switch/case, repeat (with commas), array, includes, concat, len, indexOf', () => {
    assert.equal(
      render("{{#switch (queryParam 'k')}}{{#case 'a'}}A{{/case}}{{#case 'b'}}B{{/case}}{{/switch}}", {
        target: '/?k=b',
      }),
      'B',
    );
    assert.equal(render('{{#repeat 3}}{"i": {{@index}}}{{/repeat}}'), '{"i": 0},\n{"i": 1},\n{"i": 2}\n');
    assert.equal(render('{{#repeat 2 comma=false}}x{{/repeat}}'), 'xx');
    assert.equal(render("{{#each (array 'a' 'b')}}{{this}}{{/each}}"), 'ab');
    assert.equal(render("{{includes 'hello' 'ell'}}"), 'true');
    assert.equal(render("{{concat 'a' 1 'b'}}"), 'a1b');
    assert.equal(render('{{len (array 1 2 3)}}'), '3');
    assert.equal(render("{{indexOf 'abc' 'c'}}"), '2');
  });

  it('strings and numbers', () => {
    assert.equal(render("{{lowercase 'AbC'}}{{uppercase 'x'}}"), 'abcX');
    assert.equal(render("{{padStart '7' 3 '0'}}"), '007');
    assert.equal(render("{{#each (split 'a,b' ',')}}<{{this}}>{{/each}}"), '<a><b>');
    assert.equal(render('{{add 1 2 3}} {{subtract 10 4}} {{multiply 2 3}} {{divide 9 3}} {{modulo 7 4}}'), '6 6 6 3 3');
    assert.equal(render('{{ceil 1.2}} {{floor 1.8}} {{round 1.5}} {{toFixed 3.14159 2}}'), '2 1 2 3.14');
    assert.equal(render('a{{newline}}b'), 'a\nb');
  });

  it('jsonParse, stringify of an objectMerge, filter, sort', () => {
    assert.equal(
      render('{{stringify (objectMerge (jsonParse \'{"a":1}\') (jsonParse \'{"b":2}\'))}}'),
      '{\n  "a": 1,\n  "b": 2\n}',
    );
    assert.equal(render('{{#each (sort (array 3 1 2))}}{{this}}{{/each}}'), '123');
    assert.equal(render('{{len (filter (jsonParse \'[{"t":1},{"t":2},{"t":1}]\') (object t=1))}}'), '2');
  });

  it('dates: dateTimeShift, dateFormat, isValidDate, now with a format', () => {
    assert.equal(render("{{dateTimeShift date='2026-01-31T00:00:00.000Z' days=2 format='yyyy-MM-dd'}}"), '2026-02-02');
    assert.equal(render("{{dateFormat '2026-03-04T05:06:07Z' 'yyyy/MM/dd'}}"), '2026/03/04');
    assert.equal(render("{{isValidDate '2026-01-01'}} {{isValidDate 'nope'}}"), 'true false');
    assert.equal(render("{{now 'yyyy-MM-dd'}}"), '2026-01-31');
  });

  it('objectId, guid and the faker shortcuts render (from the seeded generator)', () => {
    assert.match(render('{{objectId}}'), /^[0-9a-f]{24}$/);
    assert.match(render('{{guid}}'), /^[0-9a-f-]{36}$/);
    assert.match(render('{{firstName}}'), /^\S+$/);
  });

  it('jwtPayload and jwtHeader read a bearer token', () => {
    const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = `${part({ alg: 'HS256' })}.${part({ sub: 'u1' })}.sig`;
    const headers: [string, string][] = [['authorization', `Bearer ${token}`]];
    assert.equal(render("{{jwtPayload (header 'Authorization') 'sub'}}", { headers }), 'u1');
    assert.equal(render("{{jwtHeader (header 'Authorization') 'alg'}}", { headers }), 'HS256');
  });
});

describe("Mockoon's global and environment variables", () => {
  it('setGlobalVar then getGlobalVar, across renders (on the state store)', () => {
    assert.equal(render("{{setGlobalVar 'token' 'abc'}}"), '');
    assert.equal(render("{{getGlobalVar 'token'}}"), 'abc');
  });

  it('getEnvVar reads MOCKOON_-prefixed variables only', () => {
    process.env['MOCKOON_REGION'] = 'eu';
    process.env['SECRET_NOT_SHOWN'] = 'x';
    assert.equal(render("{{getEnvVar 'REGION'}} {{getEnvVar 'MOCKOON_REGION'}}"), 'eu eu');
    assert.equal(render("{{getEnvVar 'SECRET_NOT_SHOWN'}}"), '');
  });
});

it('valueAt: dotted paths with array items, JSONPath, defaults', () => {
  const v = { items: [{ id: 1 }, { id: 2 }] };
  assert.equal(valueAt(v, 'items.1.id', 'd'), 2);
  assert.deepEqual(valueAt(v, '$.items[*].id', 'd'), [1, 2]);
  assert.equal(valueAt(v, 'items.9.id', 'd'), 'd');
});

it('qsQuery: brackets make objects and arrays, as Mockoon reads a query', () => {
  assert.deepEqual(qsQuery({ 'obj[prop]': '1', 'arr[]': ['a', 'b'], plain: 'p', 'a[0]': 'x', '__proto__[x]': 'no' }), {
    obj: { prop: '1' },
    arr: ['a', 'b'],
    plain: 'p',
    a: ['x'],
  });
});
