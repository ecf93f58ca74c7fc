// Callbacks (docs/callbacks.md) through the library as users import it and a real receiving server the test
// starts: templates over the request and the answer, a delay, retries with back-off, a failure for good, the
// scenario moves of a delivery, the host allow-list, the journal link, reset cancelling, service.callback_max,
// and `mock serve` sending to an HTTPS receiver with the test's own CA, and saying so at shutdown.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { startMock } from 'folder-mock';
import { makeTempDir, removeDir, spawnMock, writeTree } from '../helpers/mock-cli.js';
import { selfSignedPair } from '../helpers/harness.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

const dirs: string[] = [];
const closers: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
  for (const d of dirs) await removeDir(d);
});

async function receiver(tls?: { cert: string; key: string }): Promise<Receiver> {
  const r = await startReceiver(tls);
  closers.push(() => r.close());
  return r;
}

async function workspace(rules: string, service = ''): Promise<string> {
  const dir = makeTempDir('mock-callbacks-');
  dirs.push(dir);
  await writeTree(dir, {
    'mock.toml': `[service]\nrule_sets = ["rules.toml"]\n${service}`,
    'rules.toml': rules,
  });
  return dir;
}

async function mock(rules: string, service = ''): Promise<Awaited<ReturnType<typeof startMock>>> {
  const m = await startMock({ root: await workspace(rules, service) });
  closers.push(() => m.close());
  return m;
}

const post = (url: string, body: unknown): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const PAYMENTS = `
[[rules]]
when.request = { url_path = "/payments", method = "POST" }
[rules.respond]
status = 202
json = '{ "id": "{{uuid}}", "status": "pending" }'
template = true
[[rules.respond.callbacks]]
url = "{{request.body.callbackUrl}}"
json = '{ "id": "{{response.body.id}}", "amount": {{request.body.amount}}, "status": "succeeded" }'
headers = { "x-event" = "payment.{{response.status}}" }
delay_ms = 300
on_success = { set_state = { payment = "captured" } }

[[rules]]
when.request = { url_path = "/payments/state" }
when.state.payment = "captured"
respond.text = "captured"

[[rules]]
when.request = { url_path = "/payments/state" }
respond.text = "pending"
`;

test('a templated callback: sent after its delay, built from the request and the answer, moving a scenario', async () => {
  const r = await receiver();
  const m = await mock(PAYMENTS);
  const answered = await post(`${m.url}/payments`, { callbackUrl: `${r.url}/hooks/pay`, amount: 42 });
  const at = Date.now();
  assert.equal(answered.status, 202);
  const { id } = (await answered.json()) as { id: string };
  assert.match(id, /^[0-9a-f-]{36}$/);
  assert.equal(await (await fetch(`${m.url}/payments/state`)).text(), 'pending');

  const got = await r.waitFor('/hooks/pay');
  assert.ok(got.at - at >= 250, `sent ${got.at - at} ms after the answer, before its 300 ms delay`);
  assert.equal(got.method, 'POST');
  assert.deepEqual(JSON.parse(got.body), { id, amount: 42, status: 'succeeded' });
  assert.equal(got.headers['content-type'], 'application/json');
  assert.equal(got.headers['x-event'], 'payment.202');

  const record = await m.waitForCallback({ url: '/hooks/pay' });
  assert.equal(record.state, 'delivered');
  assert.equal(record.attempts.length, 1);
  assert.equal(record.attempts[0]!.status, 200);
  assert.deepEqual(record.moved, { payment: 'captured' });
  assert.equal(record.response?.status, 200);
  // linked to the request that caused it
  const entry = m.requests({ path: '/payments' })[0]!;
  assert.equal(record.requestId, entry.id);
  assert.deepEqual(record.trigger, { method: 'POST', path: '/payments' });
  assert.equal(await (await fetch(`${m.url}/payments/state`)).text(), 'captured');
});

test('GET /__mock/api/callbacks on the management listener: the records of one request, in snake_case', async () => {
  const r = await receiver();
  const m = await startMock({ root: await workspace(PAYMENTS), inspect: true });
  closers.push(() => m.close());
  await post(`${m.url}/payments`, { callbackUrl: `${r.url}/hooks/http`, amount: 1 });
  const rec = await m.waitForCallback({ url: '/hooks/http' });
  const get = async (q: string): Promise<{ status: number; json: any }> => {
    const res = await fetch(new URL(`/__mock/api/callbacks${q}`, m.inspectUrl));
    return { status: res.status, json: await res.json() };
  };
  const one = await get(`?request=${rec.requestId}`);
  assert.equal(one.status, 200);
  assert.equal(one.json.result.callbacks.length, 1);
  const wire = one.json.result.callbacks[0];
  assert.equal(wire.state, 'delivered');
  assert.equal(wire.request_id, rec.requestId);
  assert.equal(wire.delay_ms, rec.delayMs);
  assert.equal(wire.attempts[0].status, 200);
  assert.deepEqual(wire.moved, { payment: 'captured' });
  assert.deepEqual((await get(`?request=${rec.requestId! + 1}`)).json.result.callbacks, []);
  assert.equal((await get('?state=lost')).status, 400);
  assert.equal((await get('?colour=red')).status, 400);
});

const RETRIES = (r: Receiver): string => `
[[rules]]
when.request = { url_path = "/flaky" }
respond.status = 202
respond.callbacks = [{ url = "${r.url}/flaky", body = "hello", retries = 3, retry_delay_ms = 50 }]

[[rules]]
when.request = { url_path = "/down" }
respond.status = 202
[[rules.respond.callbacks]]
url = "${r.url}/down"
retries = 1
retry_delay_ms = 50
on_failure = { set_state = { hook = "failed" } }
on_success = { set_state = { hook = "ok" } }

[[rules]]
when.request = { url_path = "/teapot" }
respond.status = 202
respond.callbacks = [{ url = "${r.url}/teapot", retries = 5, retry_delay_ms = 50 }]
`;

test('a failed delivery is retried with back-off; the retries run out, or a status not retried fails at once', async () => {
  const r = await receiver();
  r.script('/flaky', [503, 503, 200]);
  r.script('/down', [500]);
  r.script('/teapot', [418]);
  const m = await mock(RETRIES(r));
  await fetch(`${m.url}/flaky`);
  await fetch(`${m.url}/down`);
  await fetch(`${m.url}/teapot`);

  const flaky = await m.waitForCallback({ url: '/flaky' });
  assert.equal(flaky.state, 'delivered');
  assert.deepEqual(
    flaky.attempts.map((a) => a.status),
    [503, 503, 200],
  );
  // the pauses double: 50 ms, then 100 ms
  const starts = flaky.attempts.map((a) => Date.parse(a.at));
  assert.ok(starts[1]! - starts[0]! >= 45 && starts[2]! - starts[1]! >= 95, JSON.stringify(flaky.attempts));
  assert.equal((await r.waitFor('/flaky', 3)).body, 'hello');

  const down = await m.waitForCallback({ url: '/down' });
  assert.equal(down.state, 'failed');
  assert.equal(down.attempts.length, 2);
  assert.match(down.error ?? '', /500/);
  assert.deepEqual(down.moved, { hook: 'failed' });
  assert.equal(m.state()['hook'], 'failed');

  const teapot = await m.waitForCallback({ url: '/teapot' });
  assert.equal(teapot.state, 'failed');
  assert.equal(teapot.attempts.length, 1);
});

test('a connection refused is retried, then fails with its error', async () => {
  const r = await receiver();
  const gone = r.url;
  await r.close();
  const m = await mock(`
[[rules]]
when.request = { url_path = "/x" }
respond.status = 202
respond.callbacks = [{ url = "${gone}/nobody", retries = 1, retry_delay_ms = 20 }]
`);
  await fetch(`${m.url}/x`);
  const rec = await m.waitForCallback({ url: '/nobody' });
  assert.equal(rec.state, 'failed');
  assert.equal(rec.attempts.length, 2);
  assert.match(rec.attempts[0]!.error ?? '', /ECONNREFUSED/);
});

const ECHO_URL = `
[[rules]]
when.request = { url_path = "/subscribe" }
respond.status = 202
respond.callbacks = [{ url = "{{request.body.callbackUrl}}", json = '{ "ok": true }', template = true }]
`;

test('a URL built from the request goes only to an allowed host: loopback by default', async () => {
  const r = await receiver();
  const m = await mock(ECHO_URL);
  await post(`${m.url}/subscribe`, { callbackUrl: 'http://attacker.example/steal' });
  const refused = await m.waitForCallback({ url: 'attacker' });
  assert.equal(refused.state, 'refused');
  assert.match(refused.error ?? '', /attacker\.example is not allowed \(service\.callback_hosts\)/);
  assert.equal(refused.attempts.length, 0);
  await post(`${m.url}/subscribe`, { callbackUrl: 'file:///etc/passwd' });
  assert.match((await m.waitForCallback({ url: 'file:' })).error ?? '', /not http:\/\/ or https:\/\//);
  await post(`${m.url}/subscribe`, { callbackUrl: `${r.url}/ok` });
  assert.equal((await m.waitForCallback({ url: '/ok' })).state, 'delivered');
});

test('service.callback_hosts replaces the default list; a URL the config wrote literally is not checked', async () => {
  const r = await receiver();
  const m = await mock(
    `${ECHO_URL}
[[rules]]
when.request = { url_path = "/literal" }
respond.status = 202
respond.callbacks = [{ url = "http://localhost:${r.port}/literal" }]
`,
    'callback_hosts = ["127.0.0.1"]\n',
  );
  await post(`${m.url}/subscribe`, { callbackUrl: `http://localhost:${r.port}/named` });
  assert.equal((await m.waitForCallback({ url: '/named' })).state, 'refused');
  await post(`${m.url}/subscribe`, { callbackUrl: `http://127.0.0.1:${r.port}/ip` });
  assert.equal((await m.waitForCallback({ url: '/ip' })).state, 'delivered');
  await fetch(`${m.url}/literal`);
  assert.equal((await m.waitForCallback({ url: '/literal' })).state, 'delivered');
});

test('reset() cancels the pending callbacks; service.callback_max refuses the oldest waiting one', async () => {
  const r = await receiver();
  const m = await mock(
    `
[[rules]]
when.request = { url_path = "/soon" }
respond.status = 202
respond.callbacks = [{ url = "${r.url}/soon", delay_ms = 300 }]

[[rules]]
when.request = { url_path = "/later" }
respond.status = 202
respond.callbacks = [{ url = "${r.url}/later", delay_ms = 900 }]

[[rules]]
when.request = { url_path = "/slow", method = "POST" }
respond.status = 202
respond.callbacks = [{ url = "${r.url}/slow/{{request.body.n}}", delay_ms = 60000, template = true }]
`,
    'callback_max = 2\n',
  );
  await fetch(`${m.url}/soon`);
  assert.equal(m.callbacks({ state: 'pending' }).length, 1);
  m.reset();
  assert.deepEqual(m.callbacks(), []);
  await fetch(`${m.url}/later`);
  await r.waitFor('/later');
  // had the reset not cancelled it, /soon (300 ms) would have come before /later (900 ms)
  assert.deepEqual(
    r.received.map((x) => x.path),
    ['/later'],
  );

  for (const n of [1, 2, 3]) await post(`${m.url}/slow`, { n });
  const pushed = await m.waitForCallback({ state: 'refused' });
  assert.match(pushed.request.url, /\/slow\/1$/);
  assert.match(pushed.error ?? '', /service\.callback_max \(2\)/);
  assert.deepEqual(
    m.callbacks({ state: 'pending' }).map((c) => c.request.url.slice(-7)),
    ['/slow/2', '/slow/3'],
  );
});

test('a bad callback is a load error naming its place', async () => {
  const dir = await workspace(`
[[rules]]
when.request = { url_path = "/x" }
respond.status = 202
respond.callbacks = [{ url = "/relative", retries = 1 }, { url = "http://h.test/", json = "{ nope" }, { url = "http://h.test/", body = "a", json = "{}" }]
`);
  await assert.rejects(startMock({ root: dir }), (e: Error) => {
    assert.match(e.message, /rules\.toml:5:\d+.*callback 1 of rule 1.*absolute http:\/\/ or https:\/\/ URL/);
    assert.match(e.message, /callback 2 of rule 1 .*`json` is not valid JSON/);
    assert.match(e.message, /callback 3 of rule 1 .*mutually exclusive/);
    return true;
  });
});

test('mock serve: an HTTPS receiver trusted through NODE_EXTRA_CA_CERTS; the shutdown says what it waits for', async () => {
  const pair = await selfSignedPair();
  const r = await receiver(pair);
  const dir = await workspace(`
[[rules]]
when.request = { url_path = "/pay", method = "POST" }
respond.status = 202
respond.callbacks = [{ url = "https://localhost:${r.port}/hooks", json = '{ "paid": true }' }]

[[rules]]
when.request = { url_path = "/slow" }
respond.status = 202
respond.callbacks = [{ url = "https://localhost:${r.port}/slow", delay_ms = 1500 }]
`);
  const ca = join(dir, 'ca.pem');
  writeFileSync(ca, pair.cert);
  const served = await spawnMock([], { cwd: dir, env: { NODE_EXTRA_CA_CERTS: ca } });
  closers.push(() => served.stop());
  assert.equal((await fetch(`${served.url}/pay`, { method: 'POST' })).status, 202);
  assert.equal((await r.waitFor('/hooks')).body, '{"paid":true}');
  const answered = await fetch(`${served.url}/slow`);
  assert.equal(answered.status, 202);
  const exited = served.stop();
  await r.waitFor('/slow', 1, 15_000);
  assert.equal(await exited, 0);
  assert.ok(
    served.stdoutLines.some((l) =>
      /shutdown: waiting for 1 pending callback \(service\.callback_shutdown = "wait"\)/.test(l),
    ),
    served.stdoutLines.join('\n'),
  );
});

test('examples/payment-webhook/webhook.test.js passes under node --test', () => {
  const file = fileURLToPath(new URL('../../../examples/payment-webhook/webhook.test.js', import.meta.url));
  const r = spawnSync(process.execPath, ['--test', file], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
