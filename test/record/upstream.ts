// The record-mode tests' own upstream: a real node:http (or node:https) server on 127.0.0.1 port 0, under the
// base path /v2, answering the exchanges the issue names. Not a test file itself.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { selfSignedPair } from '../e2e/server-harness.js';
import { makeTempDir, removeDir } from '../helpers/mock-cli.js';

export const BASE = '/v2';
export const ODD_JSON = '{ "z" : 1,\n   "a":[1.0, 2e0],  "m": {"y":true ,"b":null}\n}\n';
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 11) & 0xff)),
]);
export const HTML = '<!doctype html>\n<title>Home</title>\n<p>Hello, recorder.</p>\n';
export const BIG_BYTES = 40 * 1024 * 1024;

export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export interface Upstream {
  readonly port: number;
  readonly origin: string;
  /** `origin` + BASE: what --record is given */
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One deterministic 1 MiB block, repeated for the big body. */
const BLOCK = Buffer.from(Array.from({ length: 1024 * 1024 }, (_, i) => (i * 131 + 7) & 0xff));

export function bigBody(): Buffer {
  return Buffer.concat(Array.from({ length: BIG_BYTES / BLOCK.length }, () => BLOCK));
}

export async function startUpstream(tls?: { cert: string; key: string }): Promise<Upstream> {
  const seen: Seen[] = [];
  const hanging = new Set<ServerResponse>();
  let origin = '';
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, res, body);
    });
  };
  const answer = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) || '/' : '(outside base)';
    const json = (status: number, text: string, extra: Record<string, string> = {}): void => {
      res.writeHead(status, {
        'content-type': 'application/json',
        date: 'Wed, 25 Nov 2026 00:00:00 GMT',
        'set-cookie': 'session=s3cret',
        ...extra,
      });
      res.end(text);
    };
    const key = `${req.method} ${path}`;
    switch (key) {
      case 'GET /api/users':
        return json(200, ODD_JSON, { 'access-control-allow-origin': '*', vary: 'Accept' });
      case 'HEAD /api/users':
        return json(200, '');
      case 'PATCH /api/users/7':
        return json(200, '{"patched":true}');
      case 'GET /logo.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(PNG);
      case 'GET /':
      case 'GET /about':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(HTML);
      case 'GET /gz':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return void res.end(gzipSync(ODD_JSON));
      case 'GET /br':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
        return void res.end(brotliCompressSync(ODD_JSON));
      case 'GET /deflate':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
        return void res.end(deflateSync(ODD_JSON));
      case 'GET /deflate-raw':
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' });
        return void res.end(deflateRawSync(ODD_JSON));
      case 'POST /api/users':
        return json(201, `{"id":7,"name":${JSON.stringify(JSON.parse(body.toString() || '{}').name ?? null)}}`, {
          location: `${origin}${BASE}/api/users/7`,
        });
      case 'DELETE /api/users/7':
        res.writeHead(204, { 'x-request-id': 'r-1' });
        return void res.end();
      case 'GET /teapot':
        res.writeHead(418, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end("I'm a teapot\n");
      case 'GET /old':
        res.writeHead(302, { location: `${origin}${BASE}/new`, 'content-length': '0' });
        return void res.end();
      case 'GET /elsewhere':
        res.writeHead(302, { location: 'https://example.org/x' });
        return void res.end();
      case 'GET /page':
        return json(200, '[{"id":1}]', { link: `<${origin}${BASE}/page?p=2>; rel="next"`, 'x-total-count': '2' });
      case 'GET /search':
        return json(200, JSON.stringify({ q: url.searchParams.get('q') }));
      case 'GET /echo':
        return json(200, JSON.stringify({ url: req.url, headers: req.headers, body: body.toString() }));
      case 'GET /hang':
        hanging.add(res);
        return;
      case 'GET /big':
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return void res.end(bigBody());
      default:
        // anything else under the base answers JSON naming the path (the confinement probes)
        return json(200, JSON.stringify({ path }));
    }
  };
  const server: Server = tls ? createHttps({ cert: tls.cert, key: tls.key }, handler) : createHttp(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    port,
    origin,
    url: origin + BASE,
    seen,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface UpstreamFixture {
  readonly up: Upstream;
  /** temp folders the tests make; removed after the describe */
  readonly dirs: string[];
  /** with `tls`: the upstream's self-signed certificate, as a CA file */
  readonly caFile: string;
}

/**
 * An upstream for the enclosing describe: started before its tests and closed after them, with `dirs` removed. With
 * `tls` (a temp-folder prefix), it serves HTTPS with a fresh self-signed pair whose certificate is in `caFile`.
 */
export function useUpstream(tls?: string): UpstreamFixture {
  let up: Upstream | undefined;
  let caFile = '';
  const dirs: string[] = [];
  before(async () => {
    if (tls === undefined) {
      up = await startUpstream();
      return;
    }
    const pair = await selfSignedPair();
    up = await startUpstream(pair);
    const dir = makeTempDir(tls);
    dirs.push(dir);
    caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, pair.cert);
  });
  after(async () => {
    await up?.close();
    for (const d of dirs) await removeDir(d);
  });
  return {
    get up(): Upstream {
      if (up === undefined) throw new Error('the upstream starts in before()');
      return up;
    },
    dirs,
    get caFile(): string {
      return caFile;
    },
  };
}
