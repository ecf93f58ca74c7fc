// Templates compiled and rendered by the real engine, over a snapshot made by the one normaliser: escaping by kind,
// each helper under both names, the seeded generator, syntax errors with their place, unknown data roots.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { TemplateKind, TemplateRuntime } from '../model/template.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import { seededFloats } from '../shared/prng.js';
import {
  compileTemplate,
  headerValue,
  jsonPath,
  jsonProblem,
  loadEngine,
  loadFaker,
  templateData,
  unknownRoots,
  type Handlebars,
} from './index.js';
import { applyOffset, formatDate } from './now.js';

let engine: Handlebars;
let faker: unknown;
before(async () => {
  engine = await loadEngine();
  faker = await loadFaker();
});

const FIXED = new Date(Date.UTC(2026, 0, 31, 13, 4, 5, 6));
const runtime = (seed = 1): TemplateRuntime => ({ random: seededFloats(seed), now: () => FIXED, faker });

function req(target: string, headers: [string, string][] = [], body?: string) {
  return snapshotFrom({
    method: body === undefined ? 'GET' : 'POST',
    target,
    headers,
    httpVersion: '1.1',
    ...(body === undefined ? {} : { body: new TextEncoder().encode(body) }),
  });
}

function render(
  source: string,
  kind: TemplateKind = 'text',
  r = req('/x'),
  params: Record<string, string> = {},
  rt = runtime(),
): string {
  const c = compileTemplate(engine, source, kind);
  if (!c.ok) throw new Error(`${c.error.line}:${c.error.column} ${c.error.message}`);
  return c.value.render(templateData(r, params), rt);
}

describe('rendering straight from the request', () => {
  const direct = (
    source: string,
    kind: TemplateKind,
    r: ReturnType<typeof req>,
    params: Record<string, string> = {},
  ) => {
    const c = compileTemplate(engine, source, kind);
    if (!c.ok) throw new Error(c.error.message);
    assert.ok(c.value.direct !== undefined);
    return c.value.direct(r, params);
  };
  it('gives the text the view gives, for every kind of plain path', () => {
    const r = req('/u/7?page=3&tag=a&tag=b&q=%22x%22', [
      ['X-Id', 'h1'],
      ['cookie', 'c=1'],
    ]);
    const source =
      '{{request.method}} {{request.path}} {{request.params.id}} {{request.query.page}} {{request.query.tag}} {{request.query.tag.[1]}} {{request.query.q}} {{request.headers.x-id}} {{request.cookies.c}} {{request.query.constructor}} {{request.nope}}|{{request.query}}';
    assert.equal(direct(source, 'text', r, { id: '7' }), render(source, 'text', r, { id: '7' }));
  });
  it('json: known valid when every value outside a string is a number or a boolean, else left to the check', () => {
    const source = '{"id": "{{request.params.id}}", "page": {{request.query.page}} }';
    assert.equal(direct(source, 'json', req('/u?page=3'), { id: 'a"\n' }), '{"id": "a\\"\\n", "page": 3 }');
    assert.deepEqual(JSON.parse(direct(source, 'json', req('/u?page=-1.5e3'), { id: '4' })!), { id: '4', page: -1500 });
    assert.equal(direct(source, 'json', req('/u?page=x'), { id: '4' }), undefined);
    assert.equal(direct(source, 'json', req('/u'), { id: '4' }), undefined);
    // a value glued to other text, or a skeleton that does not parse, is never vouched for
    assert.equal(direct('{"n": 1{{request.query.page}} }', 'json', req('/u?page=2')), undefined);
    assert.equal(direct('{"n": {{request.query.page}} ,', 'json', req('/u?page=2')), undefined);
    assert.equal(direct('{"n": "{{request.query.page}}"}', 'json', req('/u?page=2')), '{"n": "2"}');
  });
});

describe('escaping by kind', () => {
  it('json: a value inside a JSON string is escaped; outside, inserted as it reads', () => {
    const r = req('/u?note=' + encodeURIComponent('a "q"\nb\\c') + '&n=3');
    const out = render(
      '{"note": "{{request.query.note}}", "n": {{request.query.n}}, "t": "{{{request.query.note}}}"}',
      'json',
      r,
    );
    assert.deepEqual(JSON.parse(out), { note: 'a "q"\nb\\c', n: 3, t: 'a "q"\nb\\c' });
  });
  it('json: an escaped quote in the literal text does not end the string', () => {
    assert.equal(render('{"a": "x\\"{{request.path}}"}', 'json', req('/p"q')), '{"a": "x\\"/p\\"q"}');
  });
  it('json: toJson inserts a value; objects render as JSON', () => {
    const r = req('/e', [['content-type', 'application/json']], '{"a":[1,{"b":"c"}]}');
    assert.equal(render('{{toJson request.body}}', 'json', r), '{"a":[1,{"b":"c"}]}');
    assert.equal(render('{{request.body.a}}', 'text', r), '[1,{"b":"c"}]');
  });
  it('text: nothing is escaped; header values lose CR and LF', () => {
    assert.equal(render('<{{request.query.x}}>', 'text', req('/t?x=%22%26%3C')), '<"&<>');
    assert.equal(headerValue('a\r\nset-cookie: x\u0000\u2028'), 'aset-cookie: x');
  });
  it('a rendered json that does not parse is told with its place', () => {
    assert.match(jsonProblem('{"a": }') ?? '', /line 1 column 7 of the rendered text/);
    assert.equal(jsonProblem('{"a": 1}'), undefined);
  });
});

describe('the data', () => {
  it('params, headers in any case, cookies, form and text', () => {
    const r = req('/users/7?tag=a&tag=b', [
      ['x-request-id', 'r1'],
      ['cookie', 'sid=s9'],
    ]);
    assert.equal(
      render(
        '{{request.method}} {{request.path}} {{request.params.id}} {{request.headers.X-Request-Id}} {{request.cookies.sid}} {{request.query.tag}}',
        'text',
        r,
        { id: '7' },
      ),
      'GET /users/7 7 r1 s9 ["a","b"]',
    );
    const f = req('/f', [['content-type', 'application/x-www-form-urlencoded']], 'user=ann&x=1');
    assert.equal(render('{{request.form.user}} {{request.text}}', 'text', f), 'ann user=ann&x=1');
  });
  it('prototype access stays refused', () => {
    assert.equal(
      render('[{{request.constructor}}][{{request.__proto__}}][{{lookup request "constructor"}}]'),
      '[][][]',
    );
  });
});

describe('helpers', () => {
  it('both names of each', () => {
    assert.equal(
      render('{{randomInt lower=4 upper=4}} {{int 4 4}} {{randomDecimal lower=2 upper=2}} {{float 2 2}}'),
      '4 4 2 2',
    );
    assert.equal(
      render('{{pickRandom "a"}} {{oneOf "b"}} {{size "abc"}} {{len "abcd"}} {{toJson "x"}} {{stringify 1}}'),
      'a b 3 4 "x" 1',
    );
    assert.equal(
      render(
        '{{base64 "hi"}} {{base64 "aGk=" decode=true}} {{urlEncode "a b"}} {{urlEncode "a%20b" decode=true}} {{default "" "d"}} {{default "v" "d"}}',
      ),
      'aGk= hi a%20b a b d v',
    );
    assert.equal(
      render(
        '{{#if (eq 2 "2")}}eq{{/if}} {{#if (ne 1 2)}}ne{{/if}} {{#if (neq 1 2)}}neq{{/if}} {{#gt 3 2}}gt{{else}}no{{/gt}} {{#if (and 1 (not ""))}}and{{/if}} {{#if (contains "abc" "b")}}has{{/if}}',
      ),
      'eq ne neq gt and has',
    );
    assert.match(render('{{randomValue length=10 type="HEXADECIMAL"}}'), /^[0-9a-f]{10}$/);
    assert.match(render('{{uuid}}|{{randomValue type="UUID"}}'), /^[0-9a-f-]{36}\|[0-9a-f-]{36}$/);
  });
  it('jsonPath over a value or JSON text', () => {
    const doc = { a: { b: [{ c: 1 }, { c: 2 }] } };
    assert.equal(jsonPath(doc, '$.a.b[1].c'), 2);
    assert.equal(jsonPath(JSON.stringify(doc), "$['a'].b[-1].c"), 2);
    assert.deepEqual(jsonPath(doc, '$.a.b[*].c'), [1, 2]);
    assert.equal(jsonPath(doc, '$.nope'), undefined);
  });
  it('now: offsets, formats, time zones', () => {
    assert.equal(render('{{now}}'), '2026-01-31T13:04:05Z');
    assert.equal(render("{{now offset='7 days' format='yyyy-MM-dd'}}"), '2026-02-07');
    assert.equal(render("{{now offset='1 months' format='yyyy-MM-dd HH:mm:ss.SSS'}}"), '2026-03-03 13:04:05.006');
    assert.equal(render("{{now 'YYYY-MM-DD'}}"), '2026-01-31');
    assert.equal(render("{{now format='epoch'}}"), String(FIXED.getTime()));
    assert.equal(formatDate(FIXED, 'HH:mm XXX', 'Asia/Tokyo'), '22:04 +09:00');
    assert.throws(() => applyOffset(FIXED, 'soon'), /offset/);
  });
  it('faker by its method path, with arguments', () => {
    assert.match(render("{{faker 'string.numeric' 4}}"), /^[0-9]{4}$/);
    assert.match(render("{{faker 'number.int' min=5 max=5}}"), /^5$/);
    assert.throws(() => render("{{faker 'constructor'}}"), /faker/);
  });
  it('the seeded generator repeats; another seed does not', () => {
    const t = "{{randomInt lower=0 upper=1000000}} {{uuid}} {{faker 'person.fullName'}}";
    assert.equal(render(t, 'text', req('/'), {}, runtime(42)), render(t, 'text', req('/'), {}, runtime(42)));
    assert.notEqual(render(t, 'text', req('/'), {}, runtime(42)), render(t, 'text', req('/'), {}, runtime(43)));
  });
});

describe('compile errors and data roots', () => {
  it('a syntax error has its line and column in the template', () => {
    const c = compileTemplate(engine, 'line one\n  {{request.path}', 'text');
    assert.ok(!c.ok);
    assert.deepEqual([c.error.line, c.error.column], [2, 17]);
    assert.match(c.error.message, /expected `}}`/);
  });
  it('an unknown helper is a compile error with a did-you-mean', () => {
    const c = compileTemplate(engine, 'x {{randomIn 1 2}}', 'text');
    assert.ok(!c.ok);
    assert.match(c.error.message, /unknown helper `randomIn` \(did you mean `randomInt`\?\)/);
  });
  it('`}}}` right after an expression ends the JSON object (the expression, then `}`)', () => {
    const out = render('{"a": {"b": {{request.query.n}}}, "c": {{{request.query.n}}} }', 'json', req('/u?n=3'));
    assert.deepEqual(JSON.parse(out), { a: { b: 3 }, c: 3 });
  });
  it('`}}}` after an expression inside a block, and a real triple-stash beside it', () => {
    const out = render(
      '{{#if request.query.n}}{"n": {{request.query.n}}}{{/if}}{{{request.query.m}}}',
      'text',
      req('/u?n=4&m=5'),
    );
    assert.equal(out, '{"n": 4}5');
  });
  it('the data roots a template names, with did-you-means for unknown ones', () => {
    const c = compileTemplate(
      engine,
      '{{reqest.path}} {{request.paht}} {{#each request.query.tag}}{{this}}{{x}}{{/each}} {{request.body.a}}',
      'text',
    );
    assert.ok(c.ok);
    assert.deepEqual(unknownRoots(c.value.paths), [
      { path: 'reqest.path', suggestion: 'request.path' },
      { path: 'request.paht', suggestion: 'request.path' },
    ]);
  });
});
