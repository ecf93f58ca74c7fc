// `npm run compare:mockoon`: the real Mockoon CLI and `mock` side by side on our corpus of Mockoon environments
// (compare/mockoon/corpus/, written by us from Mockoon's public documentation). Each environment is served by
// Mockoon CLI as it is and by `mock` after `mock --init --from`; each request of its list goes to both, in order
// (so sequences, counters and global state are compared too), and every difference in status, media type or body
// is reported. A difference listed in known.json (each with its reason, also in docs/import.md) is expected; any
// other one makes the script exit 1.
//
// Mockoon CLI is never a dependency of the project: it is installed by exact version into the bench's cache folder
// outside the project ($XDG_CACHE_HOME/folder-mock-bench, else ~/.cache/folder-mock-bench), with
// `npm install --ignore-scripts` (bench/lib/peers.mjs). Loopback only; each server is a child stopped by its PID.
//
//   npm run compare:mockoon                      build first, then compare every environment
//   node compare/mockoon/run.mjs [--env name] [--mock path/to/main.cjs] [--json out.json]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PEERS, cacheRoot, resolvePeer } from '../../bench/lib/peers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const mockBin = path.resolve(opt('--mock') ?? path.join(repo, 'dist/bin/main.cjs'));
const only = opt('--env');
const jsonOut = opt('--json');

/** how long a server may take to say it listens (a loaded machine: wide) */
const READY_MS = 60_000;
/** how long one request may take */
const REQUEST_MS = 15_000;

const children = new Set();
const stopAll = () => {
  for (const c of children) c.kill('SIGKILL');
};
process.on('exit', stopAll);
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    stopAll();
    process.exit(130);
  });

/** starts a child and resolves with its port once a stdout line matches `ready` */
function start(argv, { cwd, env, ready }) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${argv.join(' ')}: no ready line within ${READY_MS / 1000} s\n${out}`));
    }, READY_MS);
    const seen = (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]) });
      }
    };
    child.stdout.setEncoding('utf8').on('data', seen);
    child.stderr.setEncoding('utf8').on('data', seen);
    child.on('exit', (code) => {
      children.delete(child);
      clearTimeout(timer);
      reject(new Error(`${argv.join(' ')} exited ${code}\n${out}`));
    });
  });
}

async function stop(s) {
  if (s === undefined || s.child.exitCode !== null) return;
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  const killer = setTimeout(() => s.child.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(killer);
}

function freePortSync() {
  // a port the system picks, freed at once: Mockoon CLI needs one given to it
  const r = spawnSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ]);
  return Number(String(r.stdout).trim());
}

/** one request to one server: status, media type (before any `;`), body text */
async function ask(port, req) {
  const headers = { ...(req.headers ?? {}) };
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers['content-type'] ??= 'application/json';
  }
  if (req.form !== undefined) {
    body = new URLSearchParams(req.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  const ctl = AbortSignal.timeout(REQUEST_MS);
  try {
    const r = await fetch(`http://127.0.0.1:${port}${req.path}`, {
      method: req.method ?? 'GET',
      headers,
      body,
      signal: ctl,
    });
    const type = (r.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    const picked = Object.fromEntries((req.compareHeaders ?? []).map((h) => [h, r.headers.get(h)]));
    return { status: r.status, type, body: await r.text(), headers: picked };
  } catch (e) {
    return { status: 0, type: '', body: `no answer: ${e.message}`, headers: {} };
  }
}

/** JSON's shape: types and keys, not the values (for answers drawn at random) */
function shape(v) {
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape(v[k])]),
    );
  return typeof v;
}

const parse = (t) => {
  try {
    return { ok: true, v: JSON.parse(t) };
  } catch {
    return { ok: false };
  }
};

/** why two answers differ, or undefined; `how`: 'exact' (the default), 'json', 'shape', 'status', 'regex' */
function differ(a, b, req) {
  if (a.status !== b.status) return `status ${a.status} vs ${b.status}`;
  const how = req.compare ?? 'exact';
  if (how === 'status') return undefined;
  if (req.ignoreType !== true && a.type !== b.type) return `media type ${a.type || '(none)'} vs ${b.type || '(none)'}`;
  for (const h of req.compareHeaders ?? [])
    if (a.headers[h] !== b.headers[h]) return `header ${h}: ${a.headers[h]} vs ${b.headers[h]}`;
  if (how === 'regex') {
    const re = new RegExp(req.pattern, 's');
    return re.test(a.body) && re.test(b.body) ? undefined : `body does not match ${req.pattern}`;
  }
  if (how === 'json' || how === 'shape') {
    const x = parse(a.body);
    const y = parse(b.body);
    if (!x.ok || !y.ok) return a.body === b.body ? undefined : 'body (not JSON on one side)';
    const l = how === 'shape' ? shape(x.v) : x.v;
    const r = how === 'shape' ? shape(y.v) : y.v;
    return JSON.stringify(l) === JSON.stringify(r) ? undefined : `body (${how})`;
  }
  return a.body === b.body ? undefined : 'body';
}

const excerpt = (t) => (t.length > 160 ? `${t.slice(0, 160)}… (${t.length} chars)` : t).replace(/\n/g, '\\n');

async function compareOne(file, cli, known) {
  const name = path.basename(file, '.json');
  const { environment, requests } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `compare-mockoon-${name}-`));
  const results = [];
  let mockoon;
  let mock;
  try {
    fs.writeFileSync(path.join(dir, 'environment.json'), JSON.stringify(environment, null, 2));
    const ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    const imported = spawnSync(process.execPath, [mockBin, '--init', '--from', '../environment.json', '--yes'], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (imported.status !== 0) {
      // every request of an environment `mock` cannot import differs
      const failed = `mock --init --from exited ${imported.status}: ${excerpt(imported.stdout + imported.stderr)}`;
      const results = requests.map((req, i) => ({
        id: `${name}#${i} ${req.method ?? 'GET'} ${req.path}`,
        why: 'the import failed',
        listed: known.find((k) => k.env === name && k.request === i)?.reason,
        mockoon: { status: 0, type: '', body: '' },
        mock: { status: 0, type: '', body: failed },
      }));
      return { name, results, summary: failed };
    }
    const port = freePortSync();
    const env = { HOME: dir, ...(environment.__env ?? {}) };
    mockoon = await start(
      [process.execPath, cli, 'start', '--data', 'environment.json', '--port', String(port), '--hostname', '127.0.0.1'],
      { cwd: dir, env, ready: new RegExp(`Server started on port (${port})`) },
    );
    mock = await start([process.execPath, mockBin, '-p', '0'], {
      cwd: ws,
      env: { NO_COLOR: '1', ...(environment.__env ?? {}) },
      ready: /Listening on https?:\/\/[^\s:]+:(\d+)/,
    });
    for (const [i, req] of requests.entries()) {
      const a = await ask(mockoon.port, req);
      const b = await ask(mock.port, req);
      const why = differ(a, b, req);
      const id = `${name}#${i} ${req.method ?? 'GET'} ${req.path}`;
      const listed = known.find((k) => k.env === name && k.request === i);
      results.push({ id, why, listed: listed?.reason, mockoon: a, mock: b, note: req.note });
    }
    const summary = imported.stdout.split('\n')[0];
    return { name, results, summary };
  } finally {
    await stop(mock);
    await stop(mockoon);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!fs.existsSync(mockBin)) {
    console.error(`compare:mockoon: ${mockBin} is missing: run \`npm run build\` first`);
    process.exit(2);
  }
  const peer = PEERS.find((p) => p.id === 'mockoon');
  const resolved = resolvePeer(peer, { root: cacheRoot(), log: (l) => console.error(l) });
  if (resolved.skip) {
    console.error(`compare:mockoon: ${resolved.skip}`);
    process.exit(2);
  }
  const known = JSON.parse(fs.readFileSync(path.join(here, 'known.json'), 'utf8'));
  const corpus = path.join(here, 'corpus');
  const files = fs
    .readdirSync(corpus)
    .filter((f) => f.endsWith('.json') && (only === undefined || f === `${only}.json`))
    .sort()
    .map((f) => path.join(corpus, f));
  let total = 0;
  let agreed = 0;
  const unlisted = [];
  const all = [];
  for (const file of files) {
    const r = await compareOne(file, resolved.run.entry, known);
    all.push(r);
    console.log(`${r.name}: ${r.summary}`);
    for (const x of r.results) {
      total++;
      if (x.why === undefined) {
        agreed++;
        continue;
      }
      const line = `  ${x.listed === undefined ? 'DIFF ' : 'known'} ${x.id}: ${x.why}${x.listed === undefined ? '' : ` (${x.listed})`}`;
      console.log(line);
      if (x.listed === undefined) {
        console.log(`        mockoon: ${x.mockoon.status} ${x.mockoon.type} ${excerpt(x.mockoon.body)}`);
        console.log(`        mock:    ${x.mock.status} ${x.mock.type} ${excerpt(x.mock.body)}`);
        unlisted.push(x.id);
      }
    }
  }
  const pct = total === 0 ? 100 : (100 * agreed) / total;
  console.log(
    `\nagreement: ${agreed} of ${total} requests (${pct.toFixed(1)}%); ${total - agreed - unlisted.length} known differences, ${unlisted.length} unlisted`,
  );
  if (jsonOut !== undefined) fs.writeFileSync(jsonOut, JSON.stringify({ agreed, total, unlisted, envs: all }, null, 2));
  process.exit(unlisted.length === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(`compare:mockoon: ${e.stack ?? e}`);
  stopAll();
  process.exit(2);
});
