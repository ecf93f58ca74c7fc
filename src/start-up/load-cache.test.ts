import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadWorkspace } from '../config/load.js';
import type { Workspace } from '../model/workspace.js';
import { decodeFailure, undecoded } from './lazy-rule-set.js';
import { dispatch, prepareWorkspace } from '../dispatch/dispatch.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import { offlineEnv } from '../launch/offline.js';
import { pathSummary } from '../routing/path-index.js';
import { loadCache, loadCacheOff } from './load-cache.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'mock-load-cache-'));
  dirs.push(d);
  return d;
}

test('MOCK_LOAD_CACHE: on unless off, 0, false or no', () => {
  for (const v of [undefined, '', 'on', '1', 'yes']) assert.equal(loadCacheOff({ MOCK_LOAD_CACHE: v }), false, v);
  for (const v of ['off', 'OFF', '0', 'false', 'no', ' off '])
    assert.equal(loadCacheOff({ MOCK_LOAD_CACHE: v }), true, v);
  assert.equal(loadCache({ version: 'v', env: { MOCK_LOAD_CACHE: 'off' }, summarise: pathSummary }), undefined);
});

const SIG = { size: 10, mtimeMs: 1_000_000, ctimeMs: 1_000_000, ino: 42 };
/** a cache entry of a rule set with no rules */
const entry = {
  strategy: { kind: 'first_match' },
  summary: pathSummary([]),
  respondFiles: [],
  stamps: [],
  warnings: [],
};

test('a rule-set file is vouched for by its signature only once it had been still when it was read: 2 s for whole-second times, else 100 ms', async () => {
  const home = temp();
  const cache = loadCache({ version: 'v', env: { XDG_CACHE_HOME: home }, summarise: pathSummary })!;
  const store = await cache.open('/w/mock.toml');
  store.put('/w/settled.toml', 'k1', entry as never);
  store.seen('/w/settled.toml', SIG, 'D1', SIG.ctimeMs + 2_001);
  store.put('/w/fine.toml', 'k3', entry as never);
  store.seen('/w/fine.toml', { ...SIG, ctimeMs: SIG.ctimeMs + 0.5 }, 'D3', SIG.ctimeMs + 101);
  store.put('/w/racy.toml', 'k2', entry as never);
  store.seen('/w/racy.toml', SIG, 'D2', SIG.ctimeMs + 1_999);
  await store.save();
  const again = await cache.open('/w/mock.toml');
  assert.equal(again.digestIfUnchanged('/w/settled.toml', SIG), 'D1');
  assert.equal(again.digestIfUnchanged('/w/racy.toml', SIG), undefined);
  // a file system with finer times than seconds: 100 ms
  assert.equal(again.digestIfUnchanged('/w/fine.toml', { ...SIG, ctimeMs: SIG.ctimeMs + 0.5 }), 'D3');
  for (const field of ['size', 'mtimeMs', 'ctimeMs', 'ino'] as const)
    assert.equal(again.digestIfUnchanged('/w/settled.toml', { ...SIG, [field]: SIG[field] + 1 }), undefined, field);
  assert.equal(again.digestIfUnchanged('/w/other.toml', SIG), undefined);
  // the key is the context and the digest, compared whole
  assert.notEqual(again.key('D1', 'a'), again.key('D1', 'b'));
  assert.notEqual(again.key('D1', 'a'), again.key('D2', 'a'));
});

/**
 * A workspace of one rule-set file r.toml, loaded cold (filling the cache), then warm with the file vouched for by
 * its signature (as if it had been still for a while when the cold load read it).
 */
async function vouchedWarmLoad(): Promise<{ warm: Workspace; r: string; coldDecoded: boolean }> {
  const home = temp();
  const ws = temp();
  writeFileSync(join(ws, 'mock.toml'), '[service]\nrule_sets = ["r.toml"]\n');
  writeFileSync(join(ws, 'r.toml'), '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "one"\n');
  const cache = loadCache({ version: 'v', env: { XDG_CACHE_HOME: home }, summarise: pathSummary })!;
  const cold = await loadWorkspace({ cwd: ws, cache });
  assert.ok(cold.ok);
  const file = join(home, 'mock', readdirSync(join(home, 'mock'))[0]!);
  const stored = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { bytes: { readAt: number } }> };
  const r = join(ws, 'r.toml');
  stored.entries[r]!.bytes.readAt = statSync(r).ctimeMs + 10_000;
  writeFileSync(file, JSON.stringify(stored));
  const warm = await loadWorkspace({ cwd: ws, cache });
  assert.ok(warm.ok);
  return { warm: warm.value, r, coldDecoded: !undecoded(cold.value.ruleSets[0]!) };
}

test('a vouched-for rule set is not decoded at load; its rules are decoded from the file as it is when first needed', async () => {
  const { warm, r, coldDecoded } = await vouchedWarmLoad();
  assert.equal(coldDecoded, true);
  const rs = warm.ruleSets[0]!;
  assert.equal(undecoded(rs), true);
  // changed after the load trusted it (same size): what is decoded is the file as it is now
  writeFileSync(r, '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "two"\n');
  const rule = rs.rules[0]! as unknown as { respond: { body?: unknown; text?: unknown } };
  assert.match(JSON.stringify(rule.respond), /two/);
});

test('a vouched-for rule set that no longer decodes when first needed throws into no request: it answers nothing, and dispatch says why once', async () => {
  const { warm, r } = await vouchedWarmLoad();
  assert.equal(undecoded(warm.ruleSets[0]!), true);
  // broken after the load vouched for it, before any request needed it
  writeFileSync(r, '[[rules]]\nwhen.request.url_path = \n');
  prepareWorkspace(warm);
  const lines: string[] = [];
  const env = offlineEnv({ log: (line) => lines.push(line) });
  for (let i = 0; i < 2; i++) {
    const o = await dispatch(warm, snapshotFrom({ method: 'GET', target: '/a', headers: [] }), env);
    assert.equal(o.answer.status, 404);
  }
  assert.equal(decodeFailure(warm.ruleSets[0]!)?.includes('no longer decodes'), true);
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0]!, /r\.toml.*no longer decodes.*until the live reload/);
});

test('the cache folder stays bounded: no file for a workspace without rule sets; old files go when one is written', async () => {
  const home = temp();
  const cache = loadCache({ version: 'v', env: { XDG_CACHE_HOME: home }, summarise: pathSummary })!;
  const dir = join(home, 'mock');
  await (await cache.open('/empty/mock.toml')).save();
  assert.deepEqual(readdirSync(join(home)), [], 'nothing written for a workspace without rule sets');

  const write = async (config: string): Promise<void> => {
    const store = await cache.open(config);
    store.put('/w/a.toml', 'k', entry as never);
    await store.save();
  };
  await write('/old/mock.toml');
  await write('/recent/mock.toml');
  const [oldFile, recentFile] = readdirSync(dir).sort(
    (a, b) => statSync(join(dir, a)).mtimeMs - statSync(join(dir, b)).mtimeMs,
  );
  const day = 24 * 3600 * 1000;
  utimesSync(join(dir, oldFile!), new Date(Date.now() - 31 * day), new Date(Date.now() - 31 * day));
  utimesSync(join(dir, recentFile!), new Date(Date.now() - 29 * day), new Date(Date.now() - 29 * day));
  writeFileSync(join(dir, 'x.json.1.ab.tmp'), '{');
  utimesSync(join(dir, 'x.json.1.ab.tmp'), new Date(Date.now() - 2 * day), new Date(Date.now() - 2 * day));
  await write('/new/mock.toml');
  const left = readdirSync(dir);
  assert.ok(!left.includes(oldFile!), 'a file not written for 31 days is removed');
  assert.ok(left.includes(recentFile!), 'one written 29 days ago stays');
  assert.ok(!left.includes('x.json.1.ab.tmp'), 'a day-old temporary file is removed');
  assert.equal(left.length, 2);

  // a workspace whose rule sets are all gone: its file goes too
  const store = await cache.open('/new/mock.toml');
  await store.save();
  assert.equal(readdirSync(dir).length, 1);
});
