// Mockoon callbacks → callbacks, table-tested: a route response's references looked up in the environment's
// callback definitions (the shape Mockoon's environment files document), our callback or the reason out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mockoonCallbacks } from './mockoon-callbacks.js';

const ENV = {
  callbacks: [
    {
      uuid: 'c1',
      id: 'x1',
      name: 'Payment done',
      uri: "{{body 'callbackUrl'}}",
      method: 'post',
      headers: [{ key: 'Content-Type', value: 'application/json' }],
      bodyType: 'INLINE',
      body: '{ "id": "{{urlParam \'id\'}}", "status": "paid" }',
    },
    {
      uuid: 'c2',
      name: 'Ping',
      uri: 'http://localhost:4000/ping',
      method: 'get',
      headers: [],
      bodyType: 'INLINE',
      body: '',
    },
    { uuid: 'c3', name: 'File', uri: 'http://h.test/', method: 'post', bodyType: 'FILE', filePath: 'a.json' },
    { uuid: 'c4', name: 'Bucket', uri: 'http://h.test/', method: 'post', bodyType: 'DATABUCKET', databucketID: 'b' },
    { uuid: 'c5', name: 'Odd', uri: 'http://h.test/', method: 'options', bodyType: 'INLINE' },
  ],
};

test("a response's callbacks: each definition with its latency", () => {
  const t = mockoonCallbacks(ENV, {
    callbacks: [
      { uuid: 'c1', latency: 500 },
      { uuid: 'c2', latency: 0 },
    ],
  });
  assert.deepEqual(t.leftOut, []);
  assert.deepEqual(t.callbacks, [
    {
      url: "{{body 'callbackUrl'}}",
      method: 'POST',
      headers: [['content-type', 'application/json']],
      body: { kind: 'json', text: '{ "id": "{{urlParam \'id\'}}", "status": "paid" }' },
      delay: 500,
      template: true,
    },
    { url: 'http://localhost:4000/ping', method: 'GET', headers: [], template: false },
  ]);
});

test('file and data-bucket bodies, unknown methods and dangling references are left out with their reasons', () => {
  const t = mockoonCallbacks(ENV, {
    callbacks: [{ uuid: 'c3' }, { uuid: 'c4' }, { uuid: 'c5' }, { uuid: 'nope' }],
  });
  assert.equal(t.callbacks.length, 0);
  assert.deepEqual(
    t.leftOut.map((l) => l.what),
    ['callbacks[0]', 'callbacks[1]', 'callbacks[2]', 'callbacks[3]'],
  );
  assert.match(t.leftOut[0]!.reason, /"File"'s body is a file/);
  assert.match(t.leftOut[1]!.reason, /data bucket/);
  assert.match(t.leftOut[2]!.reason, /OPTIONS/);
  assert.match(t.leftOut[3]!.reason, /names no callback/);
});

test('a response without callbacks has none', () => {
  assert.deepEqual(mockoonCallbacks(ENV, {}), { callbacks: [], leftOut: [] });
  assert.deepEqual(mockoonCallbacks({}, { callbacks: [] }), { callbacks: [], leftOut: [] });
});
