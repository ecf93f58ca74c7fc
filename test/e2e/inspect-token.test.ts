// The management listener from a container (docs/inspector.md#from-a-container): `--inspect-host` beyond loopback
// needs a token (exit 2 naming --inspect-token without one); with a token (on 127.0.0.1 here: tests bind loopback
// only, and a token turns the check on wherever the listener is bound) every management request carries it as a
// bearer token (401 without), any Host is accepted, and cross-origin browser writes are still refused.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { raw } from '../helpers/inspector-server.js';

const dirs: string[] = [];
const running: RunningMock[] = [];
after(async () => {
  for (const m of running) await m.stop();
  for (const d of dirs) await removeDir(d);
});

async function workspace(): Promise<string> {
  const dir = makeTempDir('mock-token-');
  dirs.push(dir);
  await writeTree(dir, { 'hello.json': '{"hi":1}' });
  return dir;
}

test('a non-loopback --inspect-host without a token exits 2 naming --inspect-token', async () => {
  const dir = await workspace();
  const r = await runMock(['--inspect', '--inspect-host', '0.0.0.0', '-p', '0'], {
    cwd: dir,
    env: { MOCK_INSPECT_TOKEN: '' },
  });
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /--inspect-host 0\.0\.0\.0 is beyond loopback: give --inspect-token <token> \(or set MOCK_INSPECT_TOKEN\)/,
  );
  assert.equal(r.stdout, '', 'nothing was started');

  const bad = await runMock(['--inspect', '--inspect-host', 'not-an-ip', '-p', '0'], { cwd: dir });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /invalid value for --inspect-host: 'not-an-ip'/);
  const alone = await runMock(['--inspect-token', 'x', '-p', '0'], { cwd: dir });
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--inspect-token goes with --inspect/);
});

for (const how of ['flag', 'env'] as const) {
  test(`with a token (${how}), every management request needs the bearer: 401 without, 200 with whatever the Host`, async () => {
    const dir = await workspace();
    const token = 's3cret-token';
    const mock = await spawnMock(
      how === 'flag' ? ['--inspect', '--inspect-host', '127.0.0.1', '--inspect-token', token] : ['--inspect'],
      { cwd: dir, env: how === 'env' ? { MOCK_INSPECT_TOKEN: token } : {} },
    );
    running.push(mock);
    const line = mock.stdoutLines.find((l) => l.startsWith('Inspector: '));
    const m = /^Inspector: http:\/\/127\.0\.0\.1:(\d+)\/ \(bearer token required\)$/.exec(line ?? '');
    assert.ok(m, mock.stdoutLines.join('\n'));
    const port = Number(m[1]);
    await fetch(`${mock.url}/hello`);

    let r = await raw(port, 'GET', '/__mock/api/requests');
    assert.equal(r.status, 401, r.text);
    assert.equal(r.headers['www-authenticate'], 'Bearer realm="mock"');
    assert.match((r.json as any).error.message, /authorization: Bearer <token>/);
    r = await raw(port, 'GET', '/__mock/api/requests', { authorization: 'Bearer wrong-token!' });
    assert.equal(r.status, 401);

    const auth = { authorization: `Bearer ${token}` };
    for (const host of [`127.0.0.1:${port}`, 'mock:4000', 'localhost:49999', 'rebound.example:80']) {
      r = await raw(port, 'GET', '/__mock/api/requests', { ...auth, host });
      assert.equal(r.status, 200, `${host}: ${r.text}`);
      assert.equal((r.json as any).result.entries.length, 1);
    }
    // the page itself carries no data and loads without the token (it asks for it)
    r = await raw(port, 'GET', '/', { host: 'mock:4000' });
    assert.equal(r.status, 200);
    // the event stream, which a browser opens without headers, takes the token in its query
    const events = await fetch(`http://127.0.0.1:${port}/__mock/api/events?access_token=${token}`);
    assert.equal(events.status, 200);
    await events.body?.cancel();

    // writes: the token and the client header; a browser's cross-origin write is still refused
    const write = (headers: Record<string, string>) =>
      raw(
        port,
        'POST',
        '/__mock/api/reset',
        { 'x-mock-client': 't', 'content-type': 'application/json', ...headers },
        '{}',
      );
    assert.equal((await write({ host: 'mock:4000' })).status, 401);
    assert.equal((await write({ ...auth, host: 'mock:4000' })).status, 204);
    assert.equal((await write({ ...auth, host: 'mock:4000', origin: 'http://mock:4000' })).status, 204);
    assert.equal((await write({ ...auth, host: 'mock:4000', origin: 'http://evil.example' })).status, 403);
    assert.equal((await write({ ...auth, host: 'mock:4000', 'sec-fetch-site': 'cross-site' })).status, 403);
  });
}
