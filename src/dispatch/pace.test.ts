// Faults, delays, limits and streams as dispatch decides them (docs/faults.md): rule sets decoded by the real
// loader from TOML text, files from memory, the clock and the generator injected (no port, no sleeping).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memorySource } from '../files/memory-source.js';
import type { DelaySpec } from '../model/answer.js';
import type { Config } from '../model/config.js';
import type { Workspace } from '../model/workspace.js';
import { RotationState } from '../routing/rotation.js';
import { MemoryStore } from '../state/store.js';
import { dispatch, type DispatchEnv, type Outcome } from './dispatch.js';
import { PaceState, sampleDelay, seededUniform } from './pace.js';
import { ruleSet, workspace as sharedWorkspace } from './fixtures/workspace.js';
import { snapshotFrom } from './snapshot.js';

const ROOT = '/ws';

/** one rule set from TOML text, with `service` overrides */
function workspace(rules: string, service: Partial<Config['service']> = {}): Workspace {
  return sharedWorkspace([ruleSet(0, rules)], service);
}

const files = memorySource({
  [`${ROOT}/chat.sse`]: 'data: one\n\n: delay 120\ndata: two\n\n: delay 30\n\nevent: end\ndata: [DONE]\n\n',
  [`${ROOT}/rows.ndjson`]: '{"r":1}\n{"r":2}\n\n{"r":3}\n',
  [`${ROOT}/data/page.json`]: '{"page":1}',
});

function env(pace?: PaceState): DispatchEnv {
  return {
    files,
    rotation: new RotationState(),
    state: new MemoryStore(),
    random: Math.random,
    log: () => {},
    ...(pace !== undefined ? { pace } : {}),
  };
}

async function ask(ws: Workspace, e: DispatchEnv, path: string, method = 'GET'): Promise<Outcome> {
  return dispatch(
    ws,
    snapshotFrom({ method, target: path, headers: [], body: new Uint8Array(0), httpVersion: '1.1' }),
    e,
  );
}

const header = (o: Outcome, n: string): string | undefined => o.answer.headers.find(([k]) => k === n)?.[1];
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

function samples(spec: DelaySpec, seed: number, n = 1000): number[] {
  const u = seededUniform(seed);
  return Array.from({ length: n }, () => sampleDelay(spec, u));
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]): number => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

test('seeded delays: the same on two runs, different for another seed', () => {
  const spec: DelaySpec = { kind: 'uniform', min: 100, max: 300 };
  assert.deepEqual(samples(spec, 42), samples(spec, 42));
  assert.notDeepEqual(samples(spec, 42), samples(spec, 43));
  const ln: DelaySpec = { kind: 'lognormal', median: 200, sigma: 0.5 };
  assert.deepEqual(samples(ln, 7), samples(ln, 7));
});

test('uniform { min, max }: within bounds, mean (min+max)/2, spread (max-min)/√12, over 1,000 draws', () => {
  const xs = samples({ kind: 'uniform', min: 100, max: 300 }, 42);
  assert.ok(xs.every((x) => x >= 100 && x <= 300 && Number.isInteger(x)));
  assert.ok(Math.abs(mean(xs) - 200) < 8, `mean ${mean(xs)}`);
  assert.ok(Math.abs(sd(xs) - 200 / Math.sqrt(12)) < 5, `sd ${sd(xs)}`);
  assert.ok(Math.min(...xs) < 110 && Math.max(...xs) > 290, 'both ends reached');
});

test('log-normal { median, sigma }: median near `median`, the logs spread by sigma, over 1,000 draws', () => {
  const xs = samples({ kind: 'lognormal', median: 200, sigma: 0.5 }, 42);
  assert.ok(xs.every((x) => x >= 0));
  assert.ok(Math.abs(median(xs) - 200) < 15, `median ${median(xs)}`);
  const logs = xs.map((x) => Math.log(Math.max(1, x)));
  assert.ok(Math.abs(mean(logs) - Math.log(200)) < 0.06, `mean of logs ${mean(logs)}`);
  assert.ok(Math.abs(sd(logs) - 0.5) < 0.05, `sd of logs ${sd(logs)}`);
  // the mean of a log-normal is median · e^(σ²/2)
  assert.ok(Math.abs(mean(xs) - 200 * Math.exp(0.125)) < 15, `mean ${mean(xs)}`);
});

test('service.seed: one generator per workspace, advancing per request; a run reproduces', async () => {
  const rules =
    '[[rules]]\nwhen.request.url_path = "/x"\nrespond = { text = "x", delay_response_milliseconds = { min = 0, max = 10000 } }\n';
  const run = async (): Promise<number[]> => {
    const ws = workspace(rules, { seed: 42n });
    const e = env(new PaceState());
    const out: number[] = [];
    for (let i = 0; i < 20; i++) out.push((await ask(ws, e, '/x')).answer.delayMs);
    return out;
  };
  const a = await run();
  assert.deepEqual(a, await run());
  assert.ok(new Set(a).size > 10, 'the generator advances per request');
  assert.deepEqual(a, samples({ kind: 'uniform', min: 0, max: 10000 }, 42, 20));
});

test('service.delay applies to rule and file answers unless the rule sets its own; never to OPTIONS or a fault', async () => {
  const ws = workspace(
    `[[rules]]
when.request.url_path = "/plain"
respond = { text = "p" }
[[rules]]
when.request.url_path = "/own"
respond = { text = "o", delay_response_milliseconds = 5 }
[[rules]]
when.request.url_path = "/zero"
respond = { text = "z", delay_response_milliseconds = 0 }
[[rules]]
when.request.url_path = "/fault"
respond = { fault = "connection_reset" }
`,
    { delay: { kind: 'fixed', ms: 700 } },
  );
  const e = env(new PaceState());
  assert.equal((await ask(ws, e, '/plain')).answer.delayMs, 700);
  assert.equal((await ask(ws, e, '/own')).answer.delayMs, 5);
  assert.equal((await ask(ws, e, '/zero')).answer.delayMs, 0);
  assert.equal((await ask(ws, e, '/page.json')).answer.delayMs, 700, 'a file answer');
  assert.equal((await ask(ws, e, '/plain', 'OPTIONS')).answer.delayMs, 0);
  const fault = await ask(ws, e, '/fault');
  assert.deepEqual(fault.answer.delivery, { kind: 'fault', fault: 'connection_reset' });
  assert.equal(fault.answer.delayMs, 0);
});

test('a limit of 5 per second: the 6th is 429 with retry-after, then the next window answers (injected clock)', async () => {
  const ws = workspace(
    '[[rules]]\nwhen.request.url_path = "/l"\nlimit = { requests = 5, per_ms = 1000 }\nrespond = { text = "ok" }\n',
    {
      delay: { kind: 'fixed', ms: 50 },
    },
  );
  let now = 10_000;
  const e = env(new PaceState(() => now));
  for (let i = 0; i < 5; i++) {
    const o = await ask(ws, e, '/l');
    assert.equal(o.answer.status, 200, `request ${i + 1}`);
    now += 100;
  }
  const refused = await ask(ws, e, '/l');
  assert.equal(refused.answer.status, 429);
  assert.equal(header(refused, 'retry-after'), '1', '500 ms left, rounded up to a second');
  assert.equal(refused.answer.delayMs, 0, 'a 429 is not delayed');
  now += 499;
  assert.equal((await ask(ws, e, '/l')).answer.status, 429, 'still inside the window');
  now += 1;
  const back = await ask(ws, e, '/l');
  assert.equal(back.answer.status, 200);
  assert.equal(text(back.answer.body), 'ok');
});

test('a longer window: retry-after in whole seconds, rounded up', async () => {
  const ws = workspace(
    '[[rules]]\nwhen.request.url_path = "/l"\nlimit = { requests = 1, per_ms = 60000 }\nrespond = { text = "ok" }\n',
  );
  let now = 0;
  const e = env(new PaceState(() => now));
  await ask(ws, e, '/l');
  now = 1;
  assert.equal(header(await ask(ws, e, '/l'), 'retry-after'), '60');
  now = 59_001;
  assert.equal(header(await ask(ws, e, '/l'), 'retry-after'), '1');
});

test('an SSE file becomes events with their declared pauses; no content-length', async () => {
  const ws = workspace(
    '[[rules]]\nwhen.request.url_path = "/chat"\nrespond = { stream = { file_path = "chat.sse", interval_ms = 10 } }\n',
  );
  const o = await ask(ws, env(), '/chat');
  assert.equal(header(o, 'content-type'), 'text/event-stream; charset=utf-8');
  assert.equal(header(o, 'content-length'), undefined);
  assert.equal(o.answer.delivery?.kind, 'stream');
  const events = o.answer.delivery.kind === 'stream' ? o.answer.delivery.events : [];
  assert.deepEqual(
    events.map((e) => [e.pauseMs, text(e.bytes)]),
    [
      [0, 'data: one\n\n'],
      [120, 'data: two\n\n'],
      [30, 'event: end\ndata: [DONE]\n\n'],
    ],
  );
  assert.equal(
    text(o.answer.body),
    'data: one\n\ndata: two\n\nevent: end\ndata: [DONE]\n\n',
    'the body get shows: the events as sent',
  );
});

test('an NDJSON file: one line per event, interval_ms apart', async () => {
  const ws = workspace(
    '[[rules]]\nwhen.request.url_path = "/rows"\nrespond = { stream = { file_path = "rows.ndjson", interval_ms = 250 } }\n',
  );
  const o = await ask(ws, env(), '/rows');
  assert.equal(header(o, 'content-type'), 'application/x-ndjson');
  const events = o.answer.delivery?.kind === 'stream' ? o.answer.delivery.events : [];
  assert.deepEqual(
    events.map((e) => [e.pauseMs, text(e.bytes)]),
    [
      [0, '{"r":1}\n'],
      [250, '{"r":2}\n'],
      [250, '{"r":3}\n'],
    ],
  );
});

test('chunks: the body with its content-length, to be sent in pieces', async () => {
  const ws = workspace(
    '[[rules]]\nwhen.request.url_path = "/c"\nrespond = { text = "abcdefgh", chunks = { count = 4, interval_ms = 100 } }\n',
  );
  const o = await ask(ws, env(), '/c');
  assert.equal(header(o, 'content-length'), '8');
  assert.deepEqual(o.answer.delivery, { kind: 'chunks', count: 4, intervalMs: 100 });
});

test('rules without faults, limits or streams answer as before: no delivery, the same Answer object reused', async () => {
  const ws = workspace('[[rules]]\nwhen.request.url_path = "/p"\nrespond = { text = "p" }\n');
  const e = env(new PaceState());
  const a = await ask(ws, e, '/p');
  const b = await ask(ws, e, '/p');
  assert.equal(a.answer.delivery, undefined);
  assert.equal(a.answer, b.answer);
  assert.equal(Object.keys(a.answer).join(','), 'status,headers,body,delayMs');
});

test("a script's `fault` key answers with that fault; an unknown fault name falls through", async () => {
  const { compile } = await import('../interpreter/index.js');
  const base = workspace('[[rules]]\nwhen.request.url_path = "/x"\nrespond = { text = "rule" }\n');
  const mw = (source: string) => ({
    file: `${ROOT}/mw.rhai`,
    entry: 'mw.rhai',
    dir: ROOT,
    script: compile(source, `${ROOT}/mw.rhai`),
  });
  const ws = {
    ...base,
    middlewares: [mw('if url_path == "/x" { return #{ fault: "partial_body", text: "ignored" }; }')],
  };
  const o = await ask(ws, env(), '/x');
  assert.equal(o.stage.kind, 'middleware');
  assert.deepEqual(o.answer.delivery, { kind: 'fault', fault: 'partial_body' });
  const other = { ...base, middlewares: [mw('#{ fault: "explode" }')] };
  assert.equal(text((await ask(other, env(), '/x')).answer.body), 'rule');
});
