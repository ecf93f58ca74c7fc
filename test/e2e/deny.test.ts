// File routing never serves secrets: the default service.deny list, a configured one, `deny = []`, and the
// why that names the pattern (docs/files-and-rules.md, "Never served"). Through the real program and real HTTP.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { send } from './server-harness.js';

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
    symlinkSync('.env', join(dir, 'notes.txt'));
    symlinkSync('.git', join(dir, 'vcs'));
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

  test('a symlink to a denied file, or into a denied folder, is denied too', async () => {
    for (const path of ['/notes.txt', '/vcs/config']) {
      const res = await fetch(`${mock.url}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(await res.text(), '', path);
    }
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

// A rule whose file_path is rendered from the request names a file as a request would: the deny list and the
// confinement to the rule's folder apply to it as they apply to file routing.
async function logged(m: RunningMock, want: RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!want.test(m.stdoutLines.join('\n') + m.stderr())) {
    if (Date.now() > deadline) assert.fail(`no line matching ${want} in:\n${m.stdoutLines.join('\n')}\n${m.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const TEMPLATED_RULES = `[[rules]]
when.request.url_path = { value = "/files/{rest*}", op = "path_template" }
respond = { template = true, file_path = "{{request.params.rest}}" }
`;

describe('a templated file_path, and a file a script answers with', () => {
  let top: string;
  let dir: string;
  let mock: RunningMock;
  before(async () => {
    top = makeTempDir();
    dir = join(top, 'ws');
    await writeTree(dir, {
      'mock.toml': '[service]\nrule_sets = ["rules.toml"]\nmiddlewares = ["pick.rhai"]\n',
      'rules.toml': TEMPLATED_RULES,
      'pick.rhai': 'if !url_path.starts_with("/script/") { return; }\n#{ file_path: url_path[8..] }\n',
      'tls.toml': '[listener.tls]\ncert = "tls/cert.txt"\nkey = "tls/key.txt"\n[service]\nrule_sets = ["rules.toml"]\n',
      '.env': 'API_KEY=1\n',
      '.git/config': '[core]\n',
      'certs/server.key': 'KEY\n',
      'tls/cert.txt': 'CERT\n',
      'tls/key.txt': 'TLSKEY\n',
      'data/ok.json': '{"ok":true}\n',
    });
    mkdirSync(join(top, 'outside'));
    writeFileSync(join(top, 'outside', 'secret.json'), '{"secret":true}\n');
    symlinkSync('.env', join(dir, 'env-link.txt'));
    symlinkSync('../outside/secret.json', join(dir, 'out-link.json'));
    symlinkSync('../outside', join(dir, 'out-dir'));
    mock = await spawnMock([], { cwd: dir });
  });
  after(async () => {
    await mock.stop();
    await removeDir(top);
  });

  const raw = async (path: string): Promise<{ status: number; text: string }> => {
    const r = await send(mock.port, { path });
    return { status: r.status, text: r.body.toString() };
  };

  test('serves an ordinary file it names', async () => {
    assert.deepEqual(await raw('/files/data/ok.json'), { status: 200, text: '{"ok":true}\n' });
  });

  test('never serves a denied file, nor a symlink to one: 404 and empty, as file routing answers', async () => {
    for (const path of ['/files/.env', '/files/.git/config', '/files/certs/server.key', '/files/env-link.txt'])
      assert.deepEqual(await raw(path), { status: 404, text: '' }, path);
    // the log line may follow its answer by a moment: wait for each (up to 10 s)
    for (const want of [
      /the rendered file_path "\.env" names .*\.env, which is never served \(denied by the pattern \.env of service\.deny\); answered 404/,
      /"\.git\/config" names .* \(denied by the pattern \*\*\/\.git\/\*\* of service\.deny\)/,
      /"certs\/server\.key" names .* \(denied by the pattern \*\.key of service\.deny\)/,
      /"env-link\.txt" names .* \(denied by the pattern \.env of service\.deny\)/,
    ])
      await logged(mock, want);
  });

  test('never leaves the workspace: .., %2e%2e, an encoded separator, an absolute path, a symlink out', async () => {
    for (const path of [
      '/files/../outside/secret.json',
      '/files/%2e%2e/outside/secret.json',
      '/files/..%2foutside%2fsecret.json',
      '/files/..%5coutside%5csecret.json',
      '/files/%2Fetc%2Fpasswd',
      '/files/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/files/out-link.json',
      '/files/out-dir/secret.json',
    ]) {
      const got = await raw(path);
      assert.equal(got.status, 404, path);
      assert.doesNotMatch(got.text, /secret|root:/, path);
    }
  });

  test('a script answering with a file the request named passes the same check', async () => {
    assert.deepEqual(await raw('/script/data/ok.json'), { status: 200, text: '{"ok":true}\n' });
    for (const path of ['/script/.env', '/script/.git/config', '/script/env-link.txt', '/script/out-link.json'])
      assert.deepEqual(await raw(path), { status: 404, text: '' }, path);
    await logged(
      mock,
      /middleware .*pick\.rhai: the file .*\.env it answered with is never served \(denied by the pattern \.env of service\.deny\); answered 404/,
    );
  });

  test('the TLS files the config names are denied to it too (mock get: the same dispatch, no listener)', async () => {
    const r = await runMock(['get', '/files/tls/key.txt', '-c', 'tls.toml'], { cwd: dir });
    assert.match(r.stdout, /^Status: 404$/m, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout, /TLSKEY/);
    const ok = await runMock(['get', '/files/tls/cert.txt', '-c', 'mock.toml'], { cwd: dir });
    assert.match(ok.stdout, /^Status: 200$/m, 'without a TLS config the same file is served');
  });
});

describe('a collection whose data file service.deny never serves', () => {
  let dir: string;
  before(async () => {
    dir = makeTempDir('mock-deny-collection-');
    await writeTree(dir, {
      'mock.toml': '[service]\ndb = ".env.json"\n',
      '.env.json': JSON.stringify({ secrets: [{ id: 1, token: 'SECRET' }] }),
      'open.toml': '[service]\ndb = "db.json"\ndeny = ["private/**"]\n',
      'db.json': JSON.stringify({ items: [] }),
    });
  });
  after(() => removeDir(dir));

  test('is refused at load, naming the collection and the pattern; a data file the list does not cover loads', async () => {
    const v = await runMock(['validate'], { cwd: dir });
    assert.equal(v.code, 2, v.stdout + v.stderr);
    assert.match(v.stdout + v.stderr, /collection at \/secrets .*service\.deny never serves \(the pattern \.env\.\*\)/);
    // zero-config with --db, as `mock get` and the server load it
    const db = await runMock(['get', '/secrets', '--db', '.env.json'], { cwd: dir });
    assert.equal(db.code, 2, db.stdout + db.stderr);
    assert.doesNotMatch(db.stdout, /SECRET/);
    assert.match(db.stderr, /service\.deny never serves/);
    const open = await runMock(['validate', '-c', 'open.toml'], { cwd: dir });
    assert.equal(open.code, 0, open.stdout + open.stderr);
  });
});
