import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { raw, startInspectorServer, type InspectorServer } from '../../test/helpers/inspector-server.js';
import { DEFAULTS, type Config } from '../model/config.js';
import { fileTreeRoute, listFiles, MAX_ENTRIES } from './file-tree.js';
import { BUILTIN_EXCLUDES, compileTreeFilter } from './tree-filter.js';

type View = Config['fileTreeView'];
const base: View = DEFAULTS.fileTreeView;

let top: string;
let root: string;
let view: View = base;
let srv: InspectorServer;

before(async () => {
  top = mkdtempSync(join(tmpdir(), 'mock-tree-'));
  mkdirSync(join(top, '.git'));
  writeFileSync(join(top, '.gitignore'), 'secret.json\n*.tmp\n');
  root = join(top, 'data');
  mkdirSync(root);
  writeFileSync(join(root, '.gitignore'), '!keep.tmp\nlogs/\n');
  for (const f of ['users.json', 'notes.txt', 'x.log', 'secret.json', 'drop.tmp', 'keep.tmp', '.env', 'build'])
    writeFileSync(join(root, f), 'x'.repeat(3));
  for (const d of ['api', 'logs', 'node_modules', '.idea', 'target']) mkdirSync(join(root, d));
  writeFileSync(join(root, 'api', 'orders.json'), '[]');
  writeFileSync(join(root, 'api', 'a b.json'), '[]');
  mkdirSync(join(top, 'outside'));
  symlinkSync(join(top, 'outside'), join(root, 'out-link'));
  symlinkSync(join(root, 'users.json'), join(root, 'me.json'));
  srv = await startInspectorServer([
    fileTreeRoute({ fallbackDir: () => root, view: () => view, mockUrl: () => 'http://127.0.0.1:3001' }),
  ]);
});
after(async () => {
  await srv.close();
  rmSync(top, { recursive: true, force: true });
});

async function names(v: Partial<View>, dir = ''): Promise<string[]> {
  view = { ...base, ...v };
  const r = await raw(srv.port, 'GET', `/__mock/api/files?dir=${encodeURIComponent(dir)}`);
  assert.equal(r.status, 200, r.text);
  return (r.json as { result: { entries: { name: string }[] } }).result.entries.map((e) => e.name);
}

test('defaults: no dotfiles, no built-in excludes; folders first; links listed', async () => {
  assert.deepEqual(await names({}), [
    'api',
    'logs',
    'drop.tmp',
    'keep.tmp',
    'me.json',
    'notes.txt',
    'out-link',
    'secret.json',
    'users.json',
    'x.log',
  ]);
});

test('each file_tree_view key on and off', async () => {
  const all = await names({ showHidden: true, builtinExcludes: false });
  for (const n of ['.env', '.gitignore', '.idea', 'node_modules', 'target', 'build']) assert.ok(all.includes(n), n);
  assert.ok((await names({ showHidden: true })).includes('.env'));
  assert.ok(!(await names({ showHidden: true })).includes('.idea'), 'a built-in exclude even when hidden files show');
  assert.ok((await names({ builtinExcludes: false })).includes('node_modules'));
  assert.ok(!(await names({ builtinExcludes: false })).includes('.idea'), 'still hidden');
  const ex = await names({ extraExcludes: ['*.log', 'logs/', 'notes.*', 'users.json/'] });
  assert.ok(!ex.includes('x.log') && !ex.includes('logs') && !ex.includes('notes.txt'));
  assert.ok(ex.includes('users.json'), 'a trailing / limits a glob to folders');
  assert.deepEqual(await names({ include: ['*.json'] }), ['api', 'logs', 'me.json', 'secret.json', 'users.json']);
  assert.deepEqual(await names({ include: ['*.txt', 'x.*'] }), ['api', 'logs', 'notes.txt', 'x.log']);
  const gi = await names({ respectGitignore: true });
  assert.ok(!gi.includes('secret.json') && !gi.includes('drop.tmp') && !gi.includes('logs'), gi.join());
  assert.ok(gi.includes('keep.tmp'), 'a deeper .gitignore re-includes');
  assert.ok((await names({ respectGitignore: false })).includes('secret.json'));
});

test('entries: name, kind, size, mtime, url (the path that serves it) and mock_url', async () => {
  view = base;
  const r = await raw(srv.port, 'GET', '/__mock/api/files?dir=api');
  const res = (
    r.json as { result: { dir: string; mock_url: string; truncated: boolean; entries: Record<string, unknown>[] } }
  ).result;
  assert.equal(res.dir, 'api');
  assert.equal(res.mock_url, 'http://127.0.0.1:3001');
  assert.equal(res.truncated, false);
  assert.deepEqual(
    res.entries.map((e) => [e['name'], e['kind'], e['size'], e['url']]),
    [
      ['a b.json', 'file', 2, '/api/a%20b.json'],
      ['orders.json', 'file', 2, '/api/orders.json'],
    ],
  );
  assert.ok(!Number.isNaN(Date.parse(String(res.entries[0]!['mtime']))));
  const top = (await raw(srv.port, 'GET', '/__mock/api/files')).json as {
    result: { entries: Record<string, unknown>[] };
  };
  const kinds = Object.fromEntries(top.result.entries.map((e) => [e['name'], [e['kind'], e['url']]]));
  assert.deepEqual(kinds['api'], ['dir', '/api/']);
  assert.deepEqual(kinds['out-link'], ['link', '/out-link']);
  assert.deepEqual(kinds['me.json'], ['link', '/me.json']);
});

test('dir is confined: ../ 400, a link leading outside 400, missing 404, a file 400', async () => {
  view = base;
  for (const [dir, status] of [
    ['../', 400],
    ['..', 400],
    ['api/../..', 400],
    ['out-link', 400],
    ['nope', 404],
    ['users.json', 400],
    ['a\\..\\..', 400],
  ] as const) {
    const r = await raw(srv.port, 'GET', `/__mock/api/files?dir=${encodeURIComponent(dir)}`);
    assert.equal(r.status, status, `${dir}: ${r.text}`);
    assert.equal((r.json as { error: { kind: string } }).error.kind, 'usage');
  }
});

test(`at most ${MAX_ENTRIES} entries, then truncated`, async () => {
  const many = mkdtempSync(join(tmpdir(), 'mock-tree-many-'));
  try {
    for (let i = 0; i < MAX_ENTRIES + 3; i++) writeFileSync(join(many, `f${i}.json`), '');
    const a = await listFiles('', { fallbackDir: () => many, view: () => base });
    assert.equal(a.kind, 'result');
    const res = (a as unknown as { result: { entries: unknown[]; truncated: boolean } }).result;
    assert.equal(res.entries.length, MAX_ENTRIES);
    assert.equal(res.truncated, true);
  } finally {
    rmSync(many, { recursive: true, force: true });
  }
});

test('tree filter: the twelve built-in names', () => {
  assert.equal(BUILTIN_EXCLUDES.length, 12);
  const keep = compileTreeFilter({ ...base, showHidden: true });
  for (const n of BUILTIN_EXCLUDES) assert.equal(keep(n, true, '/r/' + n), false, n);
  assert.equal(
    compileTreeFilter({ ...base, showHidden: true, builtinExcludes: false })('vendor', true, '/r/vendor'),
    true,
  );
});
