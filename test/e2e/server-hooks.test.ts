// Request hooks on the real listener (createListener, real dispatch, real HTTP on 127.0.0.1): the points run in
// the documented order, a before-dispatch answer skips dispatch, onOutcome hooks nest (the first listed outermost),
// a hook that writes the answer itself hands it to every afterWrite hook, and dispatch explains only when a hook
// asks for it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, describe, it } from 'node:test';
import { dispatch, type Outcome } from '../../src/dispatch/dispatch.js';
import { createFsSource } from '../../src/node/file-cache/fs-source.js';
import { RotationState } from '../../src/routing/rotation.js';
import { MemoryStore } from '../../src/state/store.js';
import { SocketActivity } from '../../src/server/activity.js';
import { composeHooks, type RequestHook, type Sent } from '../../src/server/hooks.js';
import { createListener, type DispatchFunction } from '../../src/server/listener.js';
import { LiveWorkspace } from '../../src/server/live.js';
import { makeWorkspace, send } from './server-harness.js';

const text = (status: number, body: string): Outcome => {
  const bytes = new TextEncoder().encode(body);
  return {
    answer: {
      status,
      headers: [
        ['content-type', 'text/plain'],
        ['content-length', String(bytes.byteLength)],
      ],
      body: bytes,
      delayMs: 0,
    },
    stage: { kind: 'miss' },
  };
};

const servers: Server[] = [];
after(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

const CAP = 16;

async function serve(hooks: readonly RequestHook[], seen: string[]): Promise<number> {
  const log = (): void => undefined;
  const counted: DispatchFunction = (ws, req, env, opts) => {
    seen.push(`dispatch explain=${opts?.explain === true}`);
    return dispatch(ws, req, env, opts);
  };
  const listener = createListener({
    live: new LiveWorkspace(makeWorkspace({ maxRequestBodyBytes: CAP })),
    env: { files: createFsSource(), rotation: new RotationState(), state: new MemoryStore(), random: Math.random, log },
    dispatch: counted,
    log,
    now: () => new Date(),
    activity: new SocketActivity(),
    hooks,
  });
  const server = createServer(listener.onRequest);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

describe('request hooks', () => {
  it('no hook at all: no chain, and dispatch is not asked to explain', async () => {
    assert.equal(composeHooks([]), undefined);
    const seen: string[] = [];
    const port = await serve([], seen);
    assert.equal((await send(port, { path: '/nothing' })).status, 404);
    assert.deepEqual(seen, ['dispatch explain=false']);
  });

  it('before dispatch, on the outcome (nested, first outermost), after the last byte: in that order', async () => {
    const seen: string[] = [];
    const hook = (name: string): RequestHook => ({
      name,
      beforeDispatch: (x) => void seen.push(`${name} before ${x.snapshot.path}`),
      onOutcome: (o, _x, next) => {
        seen.push(`${name} outcome ${o.answer.status}`);
        // each hook changes the answer on its way in: the inner one's change is what gets written
        return next(text(o.answer.status + 1, name));
      },
      afterWrite: (_x, sent) => void seen.push(`${name} written ${sent.kind} ${sent.response.status}`),
    });
    const port = await serve([hook('a'), { ...hook('b'), explain: true }], seen);
    const r = await send(port, { path: '/x' });
    assert.equal(r.status, 406);
    assert.equal(r.body.toString(), 'b');
    assert.deepEqual(seen, [
      'a before /x',
      'b before /x',
      'dispatch explain=true',
      'a outcome 404',
      'b outcome 405',
      'a written dispatch 406',
      'b written dispatch 406',
    ]);
  });

  it('an answer before dispatch skips dispatch (and the hooks after it) and is written like a dispatched one', async () => {
    const seen: string[] = [];
    const port = await serve(
      [
        { name: 'limit', beforeDispatch: () => text(429, 'slow down') },
        { name: 'later', beforeDispatch: () => void seen.push('later before') },
        { name: 'watch', afterWrite: (_x, sent) => void seen.push(`written ${sent.kind} ${sent.response.status}`) },
      ],
      seen,
    );
    const r = await send(port, { path: '/y' });
    assert.equal(r.status, 429);
    assert.equal(r.body.toString(), 'slow down');
    assert.deepEqual(seen, ['written dispatch 429']);
  });

  it('a hook that writes the answer itself hands it to every afterWrite hook, outer ones included', async () => {
    const seen: string[] = [];
    const sent: Sent[] = [];
    const port = await serve(
      [
        { name: 'observer', afterWrite: (_x, s) => void sent.push(s) },
        {
          name: 'taker',
          onOutcome: (outcome, x, _next, written) => {
            x.res.writeHead(299, { 'content-length': '2' }).end('ok');
            written(x, {
              kind: 'proxied',
              response: { status: 299, headers: [], body: new Uint8Array(0) },
              outcome,
              target: 'up',
              saved: null,
            });
          },
        },
      ],
      seen,
    );
    const r = await send(port, { path: '/z' });
    assert.equal(r.status, 299);
    assert.deepEqual(
      sent.map((s) => [s.kind, s.response.status, s.kind === 'proxied' ? s.outcome.stage.kind : '']),
      [['proxied', 299, 'miss']],
    );
  });

  it('a body over the cap is refused 413 before dispatch; afterWrite hears it with the declared length', async () => {
    const seen: string[] = [];
    const refused: Sent[] = [];
    const port = await serve([{ name: 'watch', afterWrite: (_x, s) => void refused.push(s) }], seen);
    const r = await send(port, { method: 'POST', path: '/big', body: Buffer.alloc(CAP + 1) });
    assert.equal(r.status, 413);
    assert.deepEqual(seen, []);
    assert.deepEqual(
      refused.map((s) => [s.kind, s.response.status, s.kind === 'refused' ? s.declaredLength : undefined]),
      [['refused', 413, CAP + 1]],
    );
  });
});
