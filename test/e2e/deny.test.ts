// File routing never serves secrets: the default service.deny list, a configured one, `deny = []`, and the
// why that names the pattern (docs/files-and-rules.md, "Never served"). Through the real program and real HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const SECRETS: Readonly<Record<string, string>> = {
  '.env': 'API_KEY=1\n',
  '.env.local': 'API_KEY=2\n',
  '.npmrc': '//registry/:_authToken=x\n',
  '.netrc': 'machine x login y password z\n',
  '.pgpass': 'h:5432:*:u:p\n',
  '.git/config': '[core]\n',
  'sub/.hg/hgrc': '[ui]\n',
  '.svn/entries': '12\n',
  'home/.ssh/id_ed25519': 'KEY\n',
  'certs/server.pem': 'PEM\n',
  'certs/server.key': 'KEY\n',
  'certs/server.crt': 'CRT\n',
  'certs/a.p12': 'P12\n',
  'certs/a.pfx': 'PFX\n',
};
const SERVED: Readonly<Record<string, string>> = {
  'api/user.json': '{"id":1}\n',
  '.hidden.json': '{"hidden":true}\n',
  'node_modules/pkg.json': '{"pkg":true}\n',
  'package.json': '{"name":"app"}\n',
};

async function status(url: string, path: string): Promise<number> {
  const res = await fetch(url + path);
  await res.arrayBuffer();
  return res.status;
}

describe('zero-config in a project folder', () => {
  let dir: string;
  let mock: RunningMock;
  before(async () => {
    dir = makeTempDir();
    await writeTree(dir, { ...SECRETS, ...SERVED });
    mock = await spawnMock([], { cwd: dir });
  });
  after(async () => {
    await mock.stop();
    await removeDir(dir);
  });

  test('secrets answer 404, exactly like a missing file; hidden and excluded data files keep answering', async () => {
    for (const path of Object.keys(SECRETS)) {
      const res = await fetch(`${mock.url}/${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(await res.text(), '', path);
    }
    assert.equal(await status(mock.url, '/.ENV'), 404, 'case-folded too');
    assert.equal(await status(mock.url, '/.git/'), 404);
    for (const path of Object.keys(SERVED)) assert.equal(await status(mock.url, `/${path}`), 200, path);
  });

  test('start-up says what is served and what is denied, in one line', () => {
    const lines = mock.stdoutLines.filter((l) => l.startsWith('[deny] '));
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!,
      /^\[deny\] serving every file under .* except \.env \.env\.\* .* \*\.pem .*\(service\.deny in a mock\.toml changes this\)$/,
    );
  });

  test('get --why names the pattern; the JSON carries the file and denied_by', async () => {
    const r = await runMock(['get', '/.env', '--why'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Status: 404$/m);
    assert.match(
      r.stdout,
      /the file \.env is never served: denied by the pattern \.env \(the default service\.deny list\)/,
    );
    const j = await runMock(['get', '/certs/server.key', '--format', 'json'], { cwd: dir });
    const why = (JSON.parse(j.stdout) as { result: { why: Record<string, unknown> } }).result.why;
    assert.equal(why['file'], 'certs/server.key');
    assert.equal(why['denied_by'], '*.key');
  });
});

describe('service.deny', () => {
  let dir: string;
  before(async () => {
    dir = makeTempDir();
    await writeTree(dir, {
      ...SECRETS,
      'private/notes.json': '{"n":1}\n',
      'tls/cert.txt': 'CERT\n',
      'tls/key.txt': 'KEY\n',
      'custom/mock.toml': '[service]\nfallback_respond_dir = ".."\ndeny = ["private/**"]\n',
      'open/mock.toml': '[service]\nfallback_respond_dir = ".."\ndeny = []\n',
      'tlscfg/mock.toml':
        '[listener.tls]\ncert = "tls/cert.txt"\nkey = "tls/key.txt"\n[service]\nfallback_respond_dir = ".."\n',
    });
  });
  after(() => removeDir(dir));

  const statusOf = async (config: string, path: string): Promise<number> => {
    const r = await runMock(['get', path, '-c', config, '--format', 'json'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { result: { response: { status: number } } }).result.response.status;
  };

  test('a list replaces the default one', async () => {
    assert.equal(await statusOf('custom/mock.toml', '/private/notes.json'), 404);
    assert.equal(await statusOf('custom/mock.toml', '/.env'), 200);
  });

  test('deny = [] serves everything as before', async () => {
    for (const path of ['/.env', '/.git/config', '/certs/server.pem'])
      assert.equal(await statusOf('open/mock.toml', path), 200, path);
  });

  test('the TLS files the config names are denied by default, resolved against the current directory', async () => {
    // validate would refuse the fake PEM files; `get` never binds, so it loads them by path only
    const r = await runMock(['get', '/tls/key.txt', '-c', 'tlscfg/mock.toml', '--why'], { cwd: dir });
    assert.match(r.stdout, /^Status: 404$/m);
    assert.match(r.stdout, /denied by the TLS files this config names/);
  });

  test('the schema and reference list the key', async () => {
    const r = await runMock(['validate', '-c', 'custom/mock.toml'], { cwd: dir });
    assert.equal(r.code, 0, r.stderr + r.stdout);
  });
});
