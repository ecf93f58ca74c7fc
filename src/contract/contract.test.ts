import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Obj } from '../openapi/document.js';
import { answerViolations, compileContract, findOperation, requestViolations, type RequestView } from './contract.js';
import { problemJson } from './gate.js';

const enc = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

function doc(version: string, schema: unknown): Obj {
  return {
    openapi: version,
    info: { title: 't', version: '1' },
    servers: [{ url: 'https://example.test/v1' }],
    paths: {
      '/things/mine': { get: { responses: { '204': { description: 'none' } } } },
      '/things/{id}': {
        get: {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } },
          ],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema } } },
            '4XX': { description: 'client error', content: { 'application/problem+json': {} } },
          },
        },
      },
    },
  };
}

const view = (query: Record<string, string[]> = {}): RequestView => ({
  query: new Map(Object.entries(query)),
  headers: [],
  cookies: new Map(),
  body: { kind: 'none' },
});

test('paths: below the server path; a literal path wins over a template; HEAD falls under GET', () => {
  const c = compileContract(doc('3.0.3', {}));
  assert.equal(findOperation(c, 'GET', ['v1', 'things', 'mine']).match?.operation.path, '/things/mine');
  assert.equal(findOperation(c, 'HEAD', ['v1', 'things', '7']).match?.operation.path, '/things/{id}');
  assert.deepEqual(findOperation(c, 'POST', ['v1', 'things', '7']), { pathKnown: true });
  assert.deepEqual(findOperation(c, 'GET', ['things', '7']), { pathKnown: false });
});

test('parameters are read from text as their schema types; arrays from repeats or commas', () => {
  const c = compileContract(doc('3.0.3', {}));
  const m = findOperation(c, 'GET', ['v1', 'things', '7']).match!;
  assert.deepEqual(requestViolations(m, view({ tags: ['a', 'b'] })), []);
  assert.deepEqual(requestViolations(m, view({ tags: ['a,b'] })), []);
  assert.match(requestViolations(m, view({ tags: ['c'] }))[0]!, /^query\.tags\.0: must be equal to one of/);
  const bad = findOperation(c, 'GET', ['v1', 'things', 'x']).match!;
  assert.deepEqual(requestViolations(bad, view()), ['path.id: must be integer']);
});

test('3.0 dialect: nullable lets null through, a boolean exclusiveMinimum applies to minimum', () => {
  const schema = {
    type: 'object',
    properties: {
      tag: { type: 'string', nullable: true },
      n: { type: 'number', minimum: 0, exclusiveMinimum: true },
    },
  };
  const c = compileContract(doc('3.0.3', schema));
  const op = findOperation(c, 'GET', ['v1', 'things', '1']).match!.operation;
  assert.deepEqual(answerViolations(op, 200, 'application/json', enc({ tag: null, n: 1 })), []);
  const found = answerViolations(op, 200, 'application/json', enc({ tag: 1, n: 0 }));
  assert.equal(found.length, 1);
  assert.equal(found[0]!.kind, 'schema_mismatch');
  assert.match(found[0]!.message, /body\.tag: must be string/);
  assert.match(found[0]!.message, /body\.n: must be > 0/);
});

test('3.1 is JSON Schema 2020-12: type arrays and prefixItems', () => {
  const schema = { type: 'array', prefixItems: [{ type: 'integer' }, { type: ['string', 'null'] }], items: false };
  const c = compileContract(doc('3.1.0', schema));
  const op = findOperation(c, 'GET', ['v1', 'things', '1']).match!.operation;
  assert.deepEqual(answerViolations(op, 200, 'application/json', enc([1, null])), []);
  assert.equal(answerViolations(op, 200, 'application/json', enc([1, null, 3])).length, 1);
});

test('answers: a status by exact code, then 4XX; an undocumented status or media type', () => {
  const c = compileContract(doc('3.0.3', {}));
  const op = findOperation(c, 'GET', ['v1', 'things', '1']).match!.operation;
  assert.deepEqual(answerViolations(op, 404, 'application/problem+json', enc({})), []);
  assert.equal(answerViolations(op, 500, undefined, new Uint8Array(0))[0]!.kind, 'undocumented_status');
  const ct = answerViolations(op, 200, 'text/plain; charset=utf-8', enc('x'));
  assert.equal(ct[0]!.kind, 'undocumented_content_type');
  assert.equal(ct[0]!.pointer, '#/paths/~1things~1{id}/get/responses/200/content');
});

test('the problem body: RFC 9457 fields and each violation with its location', () => {
  const p = JSON.parse(problemJson({ operation: 'GET /pets', violations: ['query.limit: must be <= 100'] })) as Obj;
  assert.equal(p['status'], 400);
  assert.equal(p['type'], 'about:blank');
  assert.deepEqual(p['violations'], [{ location: 'query.limit', message: 'must be <= 100' }]);
});
