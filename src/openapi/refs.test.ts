import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveRef } from './document.js';
import { firstRefProblem, refSites } from './refs.js';
import { planImport } from './plan.js';

test('refSites: every $ref once, in document order, with the pointer of the object holding it; no $ref followed', () => {
  const doc = {
    paths: { '/a/{id}': { get: { responses: { '200': { $ref: '#/components/responses/ok' } } } } },
    components: {
      responses: {
        ok: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } },
      },
      // a cycle: a walk that followed $refs would not end
      schemas: {
        A: { properties: { next: { $ref: '#/components/schemas/A' } }, allOf: [{ $ref: '#/components/schemas/B~1c' }] },
        'B/c': {},
      },
    },
  };
  assert.deepEqual(refSites(doc), [
    { ref: '#/components/responses/ok', pointer: '/paths/~1a~1{id}/get/responses/200' },
    { ref: '#/components/schemas/A', pointer: '/components/responses/ok/content/application~1json/schema' },
    { ref: '#/components/schemas/A', pointer: '/components/schemas/A/properties/next' },
    { ref: '#/components/schemas/B~1c', pointer: '/components/schemas/A/allOf/0' },
  ]);
  assert.equal(firstRefProblem(doc, refSites(doc)), undefined);
  assert.equal(resolveRef(doc, '#/components/schemas/B~1c'), doc.components.schemas['B/c']);
});

test('firstRefProblem: a network address, then another file, then a local pointer that does not resolve', () => {
  const missing = { a: { $ref: '#/components/schemas/Nope' }, components: { schemas: {} } };
  assert.deepEqual(firstRefProblem(missing, refSites(missing)), {
    kind: 'missing',
    site: { ref: '#/components/schemas/Nope', pointer: '/a' },
    why: 'Missing $ref pointer "#/components/schemas/Nope". Token "Nope" does not exist.',
  });
  const both = { a: { $ref: 'defs.yaml#/X' }, b: { $ref: 'https://example.com/x.yaml' }, c: { $ref: '#/nope' } };
  assert.equal(firstRefProblem(both, refSites(both))?.kind, 'network');
  const file = { a: { $ref: 'defs.yaml#/X' }, c: { $ref: '#/nope' } };
  assert.equal(firstRefProblem(file, refSites(file))?.kind, 'external');
  // an inherited name is not a token of the document; a lone % is taken as written
  const odd = { a: { $ref: '#/constructor' }, b: { $ref: '#/x%' }, 'x%': {} };
  assert.deepEqual(
    refSites(odd).map((s) => resolveRef(odd, s.ref)),
    [undefined, odd['x%']],
  );
});

test('planImport on a document as written: responses, media types, examples and headers behind $refs are followed', () => {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Refs', version: '1' },
    paths: {
      '/things': { $ref: '#/components/pathItems/things' },
      '/count': { get: { responses: { '2XX': { $ref: '#/components/responses/count' } } } },
    },
    components: {
      pathItems: {
        things: { get: { operationId: 'list', responses: { '200': { $ref: '#/components/responses/list' } } } },
      },
      responses: {
        list: {
          description: 'ok',
          headers: { 'x-total': { $ref: '#/components/headers/total' } },
          content: { 'application/json': { examples: { one: { $ref: '#/components/examples/one' } } } },
        },
        count: { description: 'n', content: { 'text/plain': { schema: { type: 'integer', minimum: 3 } } } },
      },
      headers: { total: { schema: { type: 'integer', example: 7 } } },
      examples: { one: { value: [{ id: 1 }] } },
    },
  };
  const plan = planImport(doc, { source: 'r.json', command: 'mock --init --from r.json', taken: () => false });
  assert.deepEqual(
    plan.operations.map((o) => [o.operation, o.outcome]),
    [
      ['list', 'written'],
      ['GET /count', 'written'],
    ],
  );
  assert.deepEqual(
    plan.files.map((f) => [f.path, String(f.text)]),
    [['responses/list/200-one.json', '[\n  {\n    "id": 1\n  }\n]\n']],
  );
  const text = String(plan.ruleSets[0]!.text);
  assert.match(text, /respond\.headers = \{ x-total = "7" \}/);
  // OData's $count: a number made for text/plain is its text
  assert.match(text, /respond\.text = "3"/);
});
