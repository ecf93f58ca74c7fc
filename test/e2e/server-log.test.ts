// The request log (docs/output.md#the-request-log) and the mock:trace channel, seen from a running server.
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Outcome } from '../../src/dispatch/dispatch.js';
import { finalize } from '../../src/dispatch/finalize.js';
import { snapshotFrom } from '../../src/dispatch/snapshot.js';
import { TRACE_CHANNEL_NAME } from '../../src/server/trace.js';
import { channelEvents, makeWorkspace, send, startTestServer, tempDir, type TestServer } from './server-harness.js';

const AT = new Date(Date.UTC(2024, 5, 1, 23, 51, 1));
const RECEIVED = '(at 23:51:01 UTC)';

const dir = tempDir('mock-server-log-');
before(() => writeFileSync(join(dir.path, 'users.json'), '[]'));
after(() => dir.cleanup());

describe('request log, default', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(makeWorkspace({ fallbackDir: dir.path }), { now: () => AT });
  });
  after(() => server.close());

  test('two lines per request, then its answer; ORIGIN only when sent; decoded path without the query', async () => {
    server.logs.length = 0;
    await send(server.port, { method: 'POST', path: '/echo?x=1', body: 'a' });
    await send(server.port, { path: '/users' });
    await send(server.port, { path: '/caf%C3%A9/./a/../b', headers: { Origin: 'http://localhost:5173' } });
    assert.deepEqual(server.logs, [
      '<- /echo',
      `   [POST] [HTTP/1.1] request received ${RECEIVED}`,
      '-> 404 /echo',
      '<- /users',
      `   [GET] [HTTP/1.1] request received ${RECEIVED}`,
      '-> 200 /users',
      '<- /café/b',
      `   [GET] [ORIGIN http://localhost:5173] [HTTP/1.1] request received ${RECEIVED}`,
      '-> 404 /caf%C3%A9/./a/../b',
    ]);
  });

  test('not logged: OPTIONS and a declared-JSON body that does not parse', async () => {
    server.logs.length = 0;
    await send(server.port, { method: 'OPTIONS', path: '/pre' });
    await send(server.port, {
      method: 'POST',
      path: '/json',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    assert.deepEqual(server.logs, []);
  });
});

describe('request log, verbose', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(makeWorkspace({ fallbackDir: dir.path, verbose: { header: true, body: true } }), {
      now: () => AT,
    });
  });
  after(() => server.close());

  test('headers, query and JSON body, redacted, with a closing blank line', async () => {
    server.logs.length = 0;
    await send(server.port, {
      method: 'POST',
      path: '/login?user=u&Access_Token=abc',
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'Bearer s3cret',
        'X-Api-Key': 'k',
        'X-Trace': 't1',
      },
      body: JSON.stringify({ user: 'u', password: 'hunter2', nested: [{ client_secret: 'cs', keep: 1 }] }),
    });
    const logged = server.logs.join('\n');
    for (const secret of ['s3cret', 'hunter2', '"cs"', 'abc']) assert.ok(!logged.includes(secret), `leaked ${secret}`);
    const headerStart = server.logs.indexOf('   [request.headers]');
    assert.ok(headerStart === 2, logged);
    const headerLines = server.logs.slice(3, server.logs.indexOf('   [request.query] user=u&Access_Token=[redacted]'));
    assert.deepEqual(
      headerLines.filter(
        (l) => !l.startsWith('host:') && !l.startsWith('connection:') && !l.startsWith('content-length:'),
      ),
      ['content-type: application/json', 'authorization: [redacted]', 'x-api-key: [redacted]', 'x-trace: t1'],
    );
    const bodyAt = server.logs.indexOf('   [request.body.json]');
    assert.deepEqual(server.logs.slice(bodyAt + 1), [
      '{',
      '  "user": "u",',
      '  "password": "[redacted]",',
      '  "nested": [',
      '    {',
      '      "client_secret": "[redacted]",',
      '      "keep": 1',
      '    }',
      '  ]',
      '}',
      '',
      '-> 404 /login',
    ]);
  });
});

describe('trace channel', () => {
  /** the trace events published while `requests` run against `server` (closed after), once `count` are out */
  const traced = async (server: TestServer, count: number, requests: () => Promise<void>): Promise<unknown[]> => {
    const seen: unknown[] = [];
    const onEvent = (m: unknown): void => void seen.push(m);
    subscribe(TRACE_CHANNEL_NAME, onEvent);
    const published = channelEvents(TRACE_CHANNEL_NAME);
    try {
      await requests();
      await published.reached(count);
    } finally {
      published.stop();
      unsubscribe(TRACE_CHANNEL_NAME, onEvent);
      await server.close();
    }
    return seen;
  };

  test('real pipeline: fallback and miss events; nothing for OPTIONS', async () => {
    const server = await startTestServer(makeWorkspace({ fallbackDir: dir.path }));
    const seen = await traced(server, 2, async () => {
      // OPTIONS first: an event for it would come before the two awaited below
      await send(server.port, { method: 'OPTIONS', path: '/users' });
      await send(server.port, { path: '/users' });
      await send(server.port, { path: '/missing' });
    });
    assert.deepEqual(seen, [
      { kind: 'fallback', file_path: join(dir.path, 'users.json'), status: 200 },
      { kind: 'miss', status: 404 },
    ]);
  });

  test('rule and middleware stages', async () => {
    const ws = makeWorkspace();
    const answer = (status: number): Outcome['answer'] =>
      finalize(
        { status, body: new Uint8Array(0), headers: [], delayMs: 0 },
        snapshotFrom({ method: 'GET', target: '/', headers: [] }),
        ws.cors,
      );
    const server = await startTestServer(ws, {
      dispatch: async (_w, req) =>
        req.path === '/rule'
          ? { answer: answer(201), stage: { kind: 'rule_set', ruleSetIndex: 1, ruleIndex: 4 } }
          : {
              answer: answer(200),
              stage: { kind: 'middleware', index: 0, file: '/w/mock-middleware.rhai' },
              file: '/w/x.json',
            },
    });
    const seen = await traced(server, 2, async () => {
      await send(server.port, { path: '/rule' });
      await send(server.port, { path: '/script' });
    });
    assert.deepEqual(seen, [
      { kind: 'matched', rule_set_index: 1, rule_index: 4 },
      { kind: 'middleware', file_path: '/w/mock-middleware.rhai', status: 200 },
    ]);
  });
});
