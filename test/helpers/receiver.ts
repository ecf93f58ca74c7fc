// A real HTTP(S) server a test starts to receive callbacks (docs/callbacks.md): it records every request it gets,
// answers each path as the test scripts it (a status list played in order, then the last one again), and lets the
// test wait for the n-th request to a path, from an event, never a poll.
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  /** Date.now() when its body was read */
  readonly at: number;
}

export interface Receiver {
  /** http://127.0.0.1:<port> (https with TLS) */
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** the statuses a path answers, in order (the last one repeats); default 200 */
  script(path: string, statuses: readonly number[]): void;
  /** resolves with the `count`-th request to `path` (1: the first), already received or arriving within `timeoutMs` */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

export async function startReceiver(tls?: { readonly cert: string; readonly key: string }): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, number[]>();
  const waiters = new Set<() => void>();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      received.push({
        method: req.method ?? '',
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      const list = scripts.get(path);
      const status = list === undefined ? 200 : list.length > 1 ? list.shift()! : list[0]!;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status < 300 }));
      for (const w of [...waiters]) w();
    });
  };
  const server: Server = tls === undefined ? createHttp(handle) : createHttps({ cert: tls.cert, key: tls.key }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`,
    port,
    received,
    script: (path, statuses) => void scripts.set(path, [...statuses]),
    waitFor: (path, count = 1, timeoutMs = 10_000) =>
      new Promise<Received>((resolve, reject) => {
        const check = (): void => {
          const hits = received.filter((r) => r.path === path);
          if (hits.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hits[count - 1]!);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `the receiver got no request #${count} to ${path} within ${timeoutMs} ms: ${JSON.stringify(received.map((r) => r.path))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
