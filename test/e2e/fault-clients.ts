// A client process for test/e2e/faults.test.ts: asks `<base-url>/<path>` with node's http(s) and with fetch
// (undici), and prints what each saw as one JSON line per path. Run with NODE_EXTRA_CA_CERTS for HTTPS.
// (Without arguments, as the test runner starts every file under test/, it does nothing.)
import http from 'node:http';
import https from 'node:https';

export interface Seen {
  readonly path: string;
  /** node's http: `status <n> complete|incomplete` or the error's code */
  readonly node: string;
  /** fetch: `status <n>` or the failure's cause code */
  readonly fetch: string;
  /** how many body bytes node's client received */
  readonly nodeBytes: number;
}

function viaNode(base: string, path: string): Promise<{ seen: string; bytes: number }> {
  const url = new URL(path, base);
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve) => {
    let bytes = 0;
    let done = false;
    const finish = (seen: string): void => {
      if (done) return;
      done = true;
      resolve({ seen, bytes });
    };
    const req = get(url, { agent: false }, (res) => {
      res.on('data', (d: Buffer) => (bytes += d.byteLength));
      res.on('end', () => finish(`status ${res.statusCode} ${res.complete ? 'complete' : 'incomplete'}`));
      res.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
      res.on('aborted', () => finish('aborted'));
    });
    req.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
  });
}

async function viaFetch(base: string, path: string): Promise<string> {
  try {
    const r = await fetch(new URL(path, base));
    await r.arrayBuffer();
    return `status ${r.status}`;
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? String(e);
  }
}

const [base, ...paths] = process.argv.slice(2);
if (base !== undefined) {
  for (const path of paths) {
    const n = await viaNode(base, path);
    const f = await viaFetch(base, path);
    const seen: Seen = { path, node: n.seen, fetch: f, nodeBytes: n.bytes };
    process.stdout.write(JSON.stringify(seen) + '\n');
  }
}
