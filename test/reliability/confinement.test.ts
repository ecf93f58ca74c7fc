// Reliability figure 1 (docs/reliability.md): confinement under fuzz. Thousands of generated hostile paths against the real server with a
// secret file just outside the fallback directory and symlinks inside it pointing out: no response reveals anything
// outside the fallback directory, the server never answers 5xx and never falls over. A path that goes through a
// file (`/ok.json/x`) is a 404. (The property-based test of the resolver itself lives in src/node/ and src/files/.)
import assert from 'node:assert/strict';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  getRequest,
  LONG,
  makeTempDir,
  pick,
  pool,
  prng,
  RawConnection,
  removeDir,
  scale,
  spawnServer,
  writeTree,
  type Exchange,
  type Server,
} from './harness.js';

const PATHS = scale(2_000, 20_000);
const CONNECTIONS = 16;
const SEED = Number(process.env['RELIABILITY_SEED'] ?? 0x5eed) >>> 0;
const MARKER = `OUTSIDE-SECRET-${SEED.toString(16)}-7f3a`;

/** Every body a 200 may carry: the files inside the root, byte for byte. */
const INSIDE: Readonly<Record<string, string>> = {
  'ok.json': '{"ok": true}\n',
  'index.json': '{"index": true}\n',
  'sub/inner.json': '{"inner": true}\n',
  'sub/deeper/x.json': '{"deeper": true}\n',
  'Straße/ü.json': '{"unicode": true}\n',
};

// ---- the generator -----------------------------------------------------------------------------------------

const utf8 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

/** `..` in its many spellings (raw Unicode pieces are sent as UTF-8 bytes). */
const UPS = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%2E.',
  '%252e%252e',
  '%25%32%65%25%32%65',
  '%c0%ae%c0%ae',
  '%C0%AE.',
  '%e0%80%ae%e0%80%ae',
  '%f0%80%80%ae%f0%80%80%ae',
  '%c0%2e%c0%2e',
  utf8('．．'),
  '%ef%bc%8e%ef%bc%8e',
  utf8('‥'),
  '%e2%80%a5',
  '...',
  '....',
  '..;',
  '..%00',
  '%00..',
  '..%20',
  '%20..',
  '..%09',
  '.%00.',
  '%u002e%u002e',
  '%uff0e%uff0e',
] as const;

/** `/` and `\` in their many spellings. */
const SEPS = [
  '/',
  '//',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '\\',
  '%252f',
  '%255c',
  '%25%32%66',
  '%c0%af',
  '%e0%80%af',
  '%c1%9c',
  '%c1%1c',
  '%ef%bc%8f',
  utf8('／'),
  '%e2%88%95',
  utf8('∕'),
  utf8('⁄'),
  '/./',
  '/%2e/',
  ';/',
  '%u2215',
  '%u002f',
  '%00/',
  '/%00',
] as const;

/** Where a request starts. */
const PREFIXES = [
  '/',
  '//',
  '/sub/',
  '/sub/deeper/',
  '/link-dir/',
  '/link-etc/',
  '/./',
  '/%2e/',
  '/nope/',
  '/ok.json/',
  '/%00/',
  '/;/',
] as const;

/** What it is after. `{base}` is replaced by the outside directory, `{root}` by the fallback directory. */
const TARGETS = [
  'secret.json',
  'secret',
  'SECRET.JSON',
  'Secret',
  'secret.JSON',
  'secret%2ejson',
  'secret%00.json',
  'secret.json%00',
  'secret.json%00.html',
  'rootx/secret.json',
  'rootx/secret',
  'etc/passwd',
  'etc%2fpasswd',
  'proc/self/environ',
  'proc/self/cmdline',
  'link-out.json',
  'link-out',
  'LINK-OUT.JSON',
  'link-abs.json',
  'link-abs',
  'link-dir/secret.json',
  'link-dir/secret',
  'link-dir/rootx/secret.json',
  'link-etc/passwd',
  'link-etc/hostname',
  'sub/up.json',
  'sub/up',
  'loop.json',
  'loop',
  'a.json',
  'ok.json',
  'ok',
  'ok.json/x',
  'ok.json/..',
  'in-link.json',
  'C:',
  'C:%5cWindows%5cwin.ini',
  'c:/windows/win.ini',
  '%00',
  utf8('ſecret.json'),
  utf8('ＳＥＣＲＥＴ.json'),
  '{base}/secret.json',
  '{root}/../secret.json',
  'root/../secret.json',
  'sub/deeper/x.json',
  utf8('Straße/ü.json'),
  'strasse/%C3%9C.json',
] as const;

const SUFFIXES = [
  '',
  '',
  '',
  '?x=1',
  '?../../secret.json',
  '#frag',
  '%00',
  '.json',
  '/',
  '%2f',
  ';',
  '%20',
  '/.',
  '/..',
  '%3f',
] as const;

const SOUP = [
  '%',
  '2',
  'e',
  'E',
  'f',
  '5',
  'c',
  '.',
  '/',
  '\\',
  '0',
  'a',
  ':',
  ';',
  's',
  '%2e',
  '%2f',
  '%5c',
  '%00',
  '..',
  '~',
  '|',
] as const;

function generate(random: () => number, base: string, root: string): string {
  const fill = (t: string): string => t.replace('{base}', base.slice(1)).replace('{root}', root.slice(1));
  const ups = (k: number): string => {
    let s = '';
    for (let i = 0; i < k; i++) s += pick(random, UPS) + pick(random, SEPS);
    return s;
  };
  const shape = Math.floor(random() * 8);
  switch (shape) {
    case 0:
    case 1:
      // prefix, a climb, the target
      return (
        pick(random, PREFIXES) +
        ups(1 + Math.floor(random() * 12)) +
        fill(pick(random, TARGETS)) +
        pick(random, SUFFIXES)
      );
    case 2: {
      // the target with its separators respelled
      const sep = pick(random, SEPS);
      return pick(random, PREFIXES) + fill(pick(random, TARGETS)).split('/').join(sep) + pick(random, SUFFIXES);
    }
    case 3: {
      // absolute and drive-letter forms
      const forms = [
        `/${base}/secret.json`,
        `/%2f${base.slice(1).split('/').join('%2f')}%2fsecret.json`,
        `//${base.slice(1)}/secret`,
        '//etc/passwd',
        '/%2fetc%2fpasswd',
        '/C:/secret.json',
        '/C:%5C..%5Csecret.json',
        '/c:\\..\\secret.json',
        '/\\\\server\\share\\secret.json',
        '/file:%2f%2f%2fetc%2fpasswd',
        `http://127.0.0.1/..${pick(random, SEPS)}secret.json`,
        `http://127.0.0.1${base}/secret.json`,
        `http://[::1]/${ups(3)}secret.json`,
        '*',
        'secret.json',
        '../secret.json',
        `/${root.slice(1)}/../secret.json`,
        `/../${root.split('/').pop()!}x/secret.json`,
      ];
      return pick(random, forms) + pick(random, SUFFIXES);
    }
    case 4: {
      // very long: a long climb, a long segment, or a long path
      const kind = Math.floor(random() * 3);
      if (kind === 0) return '/' + ups(50 + Math.floor(random() * 2000)) + 'secret.json';
      if (kind === 1)
        return (
          '/' +
          'a'.repeat(200 + Math.floor(random() * 5000)) +
          pick(random, SEPS) +
          '..' +
          pick(random, SEPS) +
          'secret.json'
        );
      return (
        '/' +
        Array.from({ length: 10 + Math.floor(random() * 3000) }, () =>
          pick(random, ['sub', '.', 'x', '%2e', 'ok.json']),
        ).join('/')
      );
    }
    case 5: {
      // byte soup
      let s = '/';
      const n = 1 + Math.floor(random() * 40);
      for (let i = 0; i < n; i++) s += pick(random, SOUP);
      return s + pick(random, ['', 'secret.json', 'secret', 'ok.json']);
    }
    case 6: {
      // raw bytes that a client may never send (NUL, controls, high bytes, spaces) inside an otherwise plain climb
      const raw = pick(random, ['\0', '\x01', '\x7f', '\xff', '\xc0\xae', '\t', ' ', '\r', '\x1b', '\xe2\x80\xa8']);
      return pick(random, PREFIXES) + ups(1 + Math.floor(random() * 4)) + raw + fill(pick(random, TARGETS));
    }
    default: {
      // case and Unicode look-alike variants of an in-root or out-of-root name
      const t = fill(pick(random, TARGETS));
      const cased = Array.from(t, (c) => (random() < 0.5 ? c.toUpperCase() : c)).join('');
      return pick(random, PREFIXES) + (random() < 0.5 ? ups(1 + Math.floor(random() * 5)) : '') + utf8(cased);
    }
  }
}

// ---- the test ----------------------------------------------------------------------------------------------

interface Tally {
  sent: number;
  byStatus: Map<number, number>;
  closed: number;
  timeouts: number;
  fiveXX: string[];
  leaks: string[];
  strange: string[];
}

describe(`confinement under fuzz (${PATHS} hostile paths, seed ${SEED})`, () => {
  let base = '';
  let root = '';
  let server: Server;
  const handlerFailed = /request handling failed|internal error|Unhandled|ERR_/;

  before(async () => {
    base = makeTempDir('mock-rel-confine-');
    root = join(base, 'root');
    await writeTree(base, {
      'secret.json': `{"secret": "${MARKER}"}\n`,
      secret: `${MARKER}\n`,
      'rootx/secret.json': `{"sibling": "${MARKER}"}\n`,
      'rootx/secret': `${MARKER}\n`,
      ...Object.fromEntries(Object.entries(INSIDE).map(([k, v]) => [`root/${k}`, v])),
    });
    await symlink('../secret.json', join(root, 'link-out.json'));
    await symlink(join(base, 'secret.json'), join(root, 'link-abs.json'));
    await symlink('..', join(root, 'link-dir'));
    await symlink('/etc', join(root, 'link-etc'));
    await symlink('../../secret.json', join(root, 'sub', 'up.json'));
    await symlink('loop.json', join(root, 'loop.json'));
    await symlink('b.json', join(root, 'a.json'));
    await symlink('a.json', join(root, 'b.json'));
    await symlink('ok.json', join(root, 'in-link.json'));
    server = await spawnServer([], root, [handlerFailed]);
  });

  after(async () => {
    await server?.stop();
    await removeDir(base);
  });

  it('a path through a file is a 404; the sanity paths answer', async () => {
    const c = new RawConnection(server.port);
    const cases: readonly (readonly [string, number, string?])[] = [
      ['/ok.json/x', 404],
      ['/ok.json/x/y', 404],
      ['/ok/x', 404],
      ['/ok.json/..%2fsecret.json', 404],
      ['/sub/inner.json/deeper', 404],
      ['/link-out.json', 404],
      ['/link-abs.json', 404],
      ['/link-dir/secret.json', 404],
      ['/link-etc/passwd', 404],
      ['/sub/up.json', 404],
      ['/loop.json', 404],
      ['/a.json', 404],
      ['/../secret.json', 404],
      ['/%2e%2e/secret.json', 404],
      ['/%2e%2e%2fsecret.json', 404],
      ['/ok.json', 200, INSIDE['ok.json']!],
      ['/OK', 200, INSIDE['ok.json']!],
      ['/sub/../ok.json', 200, INSIDE['ok.json']!],
      ['/sub/%2e%2e/ok.json', 200, INSIDE['ok.json']!],
      ['/../ok.json', 200, INSIDE['ok.json']!],
      ['/%2e%2e/%2E%2E/ok', 200, INSIDE['ok.json']!],
      ['/sub/../../../ok.json', 200, INSIDE['ok.json']!],
      ['/', 200, INSIDE['index.json']!],
      ['/sub/deeper/x', 200, INSIDE['sub/deeper/x.json']!],
      [`/${encodeURIComponent('Straße')}/${encodeURIComponent('ü')}.json`, 200, INSIDE['Straße/ü.json']!],
    ];
    try {
      for (const [path, status, body] of cases) {
        const r = await c.request(getRequest(path));
        assert.equal(r.kind, 'response', `${path}: ${r.kind}`);
        if (r.kind !== 'response') continue;
        assert.equal(r.response.status, status, `${path}: status`);
        if (body !== undefined) assert.equal(r.response.body.toString('utf8'), body, `${path}: body`);
      }
    } finally {
      c.close();
    }
  });

  it(`${PATHS} generated hostile paths: nothing from outside, no 5xx, no crash`, {
    timeout: scale(120_000, 600_000),
  }, async (t) => {
    const random = prng(SEED);
    const targets: Buffer[] = [];
    for (let i = 0; i < PATHS; i++) targets.push(Buffer.from(generate(random, base, root), 'latin1'));
    const allowed = new Set(Object.values(INSIDE));
    const tally: Tally = { sent: 0, byStatus: new Map(), closed: 0, timeouts: 0, fiveXX: [], leaks: [], strange: [] };
    const show = (b: Buffer): string =>
      JSON.stringify(
        b.length > 160 ? b.subarray(0, 160).toString('latin1') + `…(${b.length} bytes)` : b.toString('latin1'),
      );
    const conns = Array.from({ length: CONNECTIONS }, () => new RawConnection(server.port));
    const started = performance.now();
    const judge = (target: Buffer, r: Exchange): void => {
      tally.sent++;
      if (r.kind === 'closed') {
        tally.closed++;
        if (r.partial.includes(MARKER)) tally.leaks.push(`${show(target)} → partial response with the secret`);
        return;
      }
      if (r.kind === 'timeout') {
        tally.timeouts++;
        if (tally.strange.length < 20) tally.strange.push(`${show(target)} → no answer within 10 s`);
        return;
      }
      const { status, body } = r.response;
      tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
      const text = body.toString('latin1');
      if (status >= 500 && tally.fiveXX.length < 20)
        tally.fiveXX.push(`${show(target)} → ${status} ${JSON.stringify(text.slice(0, 200))}`);
      if (text.includes(MARKER) || /root:.*:0:0:/.test(text) || text.includes('PATH=')) {
        tally.leaks.push(`${show(target)} → ${status} with outside content`);
      } else if (status === 200 && !allowed.has(body.toString('utf8'))) {
        tally.leaks.push(
          `${show(target)} → 200 with a body from no file in the root: ${JSON.stringify(text.slice(0, 120))}`,
        );
      } else if (status !== 200 && status !== 404 && (status < 400 || status >= 500) && tally.strange.length < 20) {
        tally.strange.push(`${show(target)} → ${status}`);
      }
    };
    try {
      await pool(CONNECTIONS, CONNECTIONS, async (lane) => {
        const conn = conns[lane]!;
        for (let i = lane; i < targets.length; i += CONNECTIONS) {
          const target = targets[i]!;
          judge(target, await conn.request(getRequest(target), 10_000));
        }
      });
    } finally {
      for (const c of conns) c.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const statuses = [...tally.byStatus]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(', ');
    const fiveXX = [...tally.byStatus].filter(([s]) => s >= 500).reduce((n, [, k]) => n + k, 0);
    t.diagnostic(
      `figure 1: ${tally.sent} hostile paths in ${seconds.toFixed(1)} s over ${CONNECTIONS} connections ` +
        `(${conns.reduce((n, c) => n + c.opened, 0)} opened): ${statuses}; closed without answer ${tally.closed}; ` +
        `leaks ${tally.leaks.length}; 5xx ${fiveXX}; timeouts ${tally.timeouts}; handler failures logged ${server.count(handlerFailed)}`,
    );
    assert.equal(tally.sent, PATHS);
    assert.deepEqual(tally.leaks.slice(0, 20), [], 'responses that reveal something outside the fallback directory');
    assert.deepEqual(tally.fiveXX, [], '5xx answers');
    assert.equal(fiveXX, 0);
    assert.deepEqual(tally.strange, [], 'statuses other than 200, 404 and 4xx refusals, or no answer');
    assert.equal(tally.timeouts, 0);
    // the fuzz must exercise both outcomes, or it proves nothing
    assert.ok((tally.byStatus.get(404) ?? 0) > PATHS / 4, 'most hostile paths are 404s');
    assert.ok((tally.byStatus.get(200) ?? 0) > 0, 'some paths legitimately reach a file inside the root');
    if (LONG) assert.ok(tally.byStatus.size >= 3, 'the parser refusals (4xx) are exercised too');
  });

  it('the server is still up, answering, and logged no handler failure', async () => {
    assert.ok(server.alive(), 'server process alive');
    const c = new RawConnection(server.port);
    const r = await c.request(getRequest('/ok.json'));
    c.close();
    assert.equal(r.kind, 'response');
    if (r.kind === 'response') assert.equal(r.response.status, 200);
    assert.equal(server.count(handlerFailed), 0, server.tail().slice(-20).join('\n'));
    assert.doesNotMatch(server.stderr(), /\n\s+at .+:\d+:\d+/, 'no stack trace on stderr');
  });
});
