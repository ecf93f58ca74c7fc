#!/usr/bin/env node
// `npm run compare:json-server`: json-server 0.17.4 and `mock --db`, side by side, on the requests of table.mjs
// (compare/json-server/README.md). json-server is installed on demand outside the project, as the bench's peers
// are (bench/peers/README.md); it is never a dependency. Each group starts both on a fresh copy of its db file
// with the same flags, sends the same requests to each in order, and compares the status, the body (JSON, key
// order included), the headers json-server sets (x-total-count, link, location, access-control-*) with each
// side's own origin in them made the same, and, for a group run with --persist, the db file after the writes.
// Prints every difference and the agreement; exits 1 on a difference the table does not list.
//
//   npm run compare:json-server                  # the build in dist/ (npm run build first)
//   MOCK_BIN=/path/to/dist/bin/main.cjs node compare/json-server/run.mjs   # another build (a "before" figure)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, ensureInstalled } from '../../bench/lib/peers.mjs';
import { freePort, httpRequest } from '../../bench/lib/proc.mjs';
import { GROUPS } from './table.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MOCK = process.env.MOCK_BIN ?? path.join(root, 'dist', 'bin', 'main.cjs');
const VERSION = '0.17.4';
/** json-server 1.0's last beta (its query language is `--db-style v1`'s); it runs on Node.js 20 though it asks for 22 */
const VERSION_1 = '1.0.0-beta.15';
const COMPARED = ['x-total-count', 'link', 'location'];

const installed = ensureInstalled({ pkg: 'json-server', version: VERSION }, cacheRoot());
if (installed.skip !== undefined) {
  console.error(`compare: json-server ${VERSION} could not be installed: ${installed.skip}`);
  process.exit(2);
}
const JSON_SERVER = path.join(installed.dir, 'node_modules', 'json-server', 'lib', 'cli', 'bin.js');
const installed1 = ensureInstalled({ pkg: 'json-server', version: VERSION_1 }, cacheRoot());
if (installed1.skip !== undefined) {
  console.error(`compare: json-server ${VERSION_1} could not be installed: ${installed1.skip}`);
  process.exit(2);
}
const JSON_SERVER_1 = path.join(installed1.dir, 'node_modules', 'json-server', 'lib', 'bin.js');

/** A child server on a free port, once it answers; or how it ended when it does not start. */
async function start(argv, cwd, ready) {
  const port = await freePort();
  const child = spawn(process.execPath, [...argv(port)], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const exited = new Promise((r) => child.once('exit', (code) => r(code ?? 1)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (ready(out)) return { port, child, out: () => out };
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r(undefined), 50))]);
    if (code !== undefined) return { exited: code, out: () => out };
    if (Date.now() > deadline) {
      child.kill();
      return { exited: 'timeout', out: () => out };
    }
  }
}

function stop(s) {
  if (s.child === undefined || s.child.exitCode !== null) return Promise.resolve();
  return new Promise((r) => {
    s.child.once('exit', r);
    s.child.kill();
  });
}

function workspace(group) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-json-server-'));
  if (group.db !== null) fs.writeFileSync(path.join(dir, group.dbFile ?? 'db.json'), JSON.stringify(group.db, null, 2));
  for (const [name, text] of Object.entries(group.files ?? {})) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

async function send(port, r) {
  const headers = { ...(r.headers ?? {}) };
  const body = r.body === undefined ? null : JSON.stringify(r.body);
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  const res = await httpRequest(port, { method: r.method ?? 'GET', path: r.path, headers, body }, 10_000);
  return res;
}

/** a created item's random string id (7 characters from 0.17, 11 from 1.0), if it has one */
function idOf(res) {
  try {
    const id = JSON.parse(res.body.toString('utf8')).id;
    return typeof id === 'string' && /^[A-Za-z0-9_-]{7}$|^[A-Za-z0-9_-]{11}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** What is compared of an answer, with the server's own origin replaced by one marker. */
function view(res, port, r, jsHeaders) {
  if (res.error !== undefined) return { error: String(res.error) };
  const origin = `http://127.0.0.1:${port}`;
  const same = (v) => (v === undefined ? undefined : String(v).split(origin).join('<origin>'));
  const text = Buffer.isBuffer(res.body) ? res.body.toString('utf8') : String(res.body ?? '');
  if (r.compare === 'status') return { status: res.status };
  let body;
  try {
    body = text === '' ? '' : JSON.parse(same(text));
  } catch {
    body = { text: text.split('\n')[0] };
  }
  const headers = {};
  const names = new Set([...COMPARED, ...jsHeaders.filter((h) => h.startsWith('access-control-'))]);
  for (const h of [...names].sort()) headers[h] = same(res.headers[h]);
  return { status: res.status, body, headers };
}

const blank = () => ({ same: 0, listed: 0, unlisted: 0, sameBody: 0 });
const sums = { [VERSION]: blank(), [`${VERSION_1} (--db-style v1)`]: blank() };
let summary = sums[VERSION];
const lines = [];
for (const group of GROUPS) {
  const jsDir = workspace(group);
  const mockDir = workspace(group);
  const db = group.dbFile ?? 'db.json';
  const js = await start(
    (port) => [
      group.v1 ? JSON_SERVER_1 : JSON_SERVER,
      db,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      ...(group.flags ?? []),
    ],
    jsDir,
    (out) => out.includes(group.v1 ? 'Endpoints' : 'Home'),
  );
  const mock = await start(
    (port) => [
      MOCK,
      '--db',
      db,
      '-p',
      String(port),
      '--no-watch',
      ...(group.persist ? ['--persist'] : []),
      ...(group.v1 ? ['--db-style', 'v1'] : []),
      ...(group.flags ?? []),
    ],
    mockDir,
    (out) => out.includes('Listening on'),
  );
  lines.push(`## ${group.name}`);
  summary = group.v1 ? sums[`${VERSION_1} (--db-style v1)`] : sums[VERSION];
  try {
    if (group.startFails) {
      const ok = js.exited !== undefined && mock.exited !== undefined;
      if (ok) summary.same++, summary.sameBody++;
      else summary.unlisted++;
      lines.push(
        ok
          ? '  same: both refuse to start'
          : `  DIFFERENT: json-server ${js.exited ?? 'started'}, mock ${mock.exited ?? 'started'}\n${mock.out()}`,
      );
      continue;
    }
    if (js.exited !== undefined || mock.exited !== undefined) {
      summary.unlisted += group.requests.length;
      lines.push(
        `  DIFFERENT: did not start: json-server ${js.exited ?? 'ok'}, mock ${mock.exited ?? 'ok'}\n${js.out()}\n${mock.out()}`,
      );
      continue;
    }
    // a new item's random id (json-server 1.0's, or 0.17's for string ids) is the same marker on both sides
    const marked = [];
    for (const r of group.requests) {
      const a = await send(js.port, r);
      const b = await send(mock.port, r);
      if ((r.method ?? 'GET') === 'POST') {
        const ida = idOf(a);
        const idb = idOf(b);
        if (ida !== undefined && idb !== undefined && ida !== idb)
          marked.push([ida, idb, `<random id ${marked.length + 1}>`]);
      }
      for (const [ida, idb, mark] of marked) {
        a.body = Buffer.from(a.body.toString('utf8').split(JSON.stringify(ida)).join(JSON.stringify(mark)));
        b.body = Buffer.from(b.body.toString('utf8').split(JSON.stringify(idb)).join(JSON.stringify(mark)));
      }
      const jsHeaders = Object.keys(a.headers ?? {});
      const va = JSON.stringify(view(a, js.port, r, jsHeaders));
      const vb = JSON.stringify(view(b, mock.port, r, jsHeaders));
      const what = `${r.method ?? 'GET'} ${r.path}`;
      const { headers: _ha, ...ba } = JSON.parse(va);
      const { headers: _hb, ...bb } = JSON.parse(vb);
      if (JSON.stringify(ba) === JSON.stringify(bb)) summary.sameBody++;
      if (va === vb) {
        summary.same++;
        if (r.differs !== undefined) lines.push(`  same now (the table still lists a difference): ${what}`);
      } else if (r.differs !== undefined) {
        summary.listed++;
        lines.push(`  listed: ${what}: ${r.differs}`);
      } else {
        summary.unlisted++;
        lines.push(`  DIFFERENT: ${what}\n    json-server: ${va}\n    mock:        ${vb}`);
      }
    }
    if (group.persist) {
      // json-server writes its file as each answer goes; mock --persist before each answer goes
      let ta = fs.readFileSync(path.join(jsDir, db), 'utf8');
      let tb = fs.readFileSync(path.join(mockDir, db), 'utf8');
      for (const [ida, idb, mark] of marked) {
        ta = ta.split(JSON.stringify(ida)).join(JSON.stringify(mark));
        tb = tb.split(JSON.stringify(idb)).join(JSON.stringify(mark));
      }
      const fa = JSON.parse(ta);
      const fb = JSON.parse(tb);
      const same = JSON.stringify(fa) === JSON.stringify(fb);
      if (same) summary.same++, summary.sameBody++;
      else if (group.fileDiffers !== undefined) summary.listed++;
      else summary.unlisted++;
      lines.push(
        same
          ? '  same: the db file after the writes'
          : group.fileDiffers !== undefined
            ? `  listed: the db file: ${group.fileDiffers}`
            : `  DIFFERENT: the db file\n    json-server: ${JSON.stringify(fa)}\n    mock:        ${JSON.stringify(fb)}`,
      );
    }
  } finally {
    await Promise.all([stop(js), stop(mock)]);
    fs.rmSync(jsDir, { recursive: true, force: true });
    fs.rmSync(mockDir, { recursive: true, force: true });
  }
}

console.log(lines.join('\n'));
let unlisted = 0;
for (const [version, sum] of Object.entries(sums)) {
  const total = sum.same + sum.listed + sum.unlisted;
  unlisted += sum.unlisted;
  console.log(
    `json-server ${version} and mock --db: ${sum.same} of ${total} answers the same ` +
      `(${((100 * sum.same) / total).toFixed(1)}%), ${sum.listed} listed differences, ${sum.unlisted} unlisted; ` +
      `status and body alone: ${sum.sameBody} of ${total}`,
  );
}
process.exit(unlisted === 0 ? 0 : 1);
