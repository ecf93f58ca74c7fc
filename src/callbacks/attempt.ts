// One attempt of a callback: an HTTP(S) request over keep-alive agents, bounded by the callback's timeout, with the
// answer's first bytes kept for the record. An HTTPS target is checked against Node's trusted certificates
// (`NODE_EXTRA_CA_CERTS` adds a test's own CA; docs/callbacks.md). node:https is loaded with the first HTTPS callback.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import type { PlannedCallback } from '../model/callback.js';

/** How much of an answer's body a record keeps. */
export const KEPT_BODY_BYTES = 64 * 1024;

export interface AttemptResult {
  readonly ms: number;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** a connection failure, a timeout, a refused TLS certificate */
  readonly error?: string;
}

type RequestFn = typeof httpRequest;

/** The agents and the request functions, kept for the sender's life (one pool of connections per scheme). */
export class Transport {
  private readonly http = new HttpAgent({ keepAlive: true, maxSockets: 256 });
  private https?: { readonly agent: HttpAgent; readonly request: RequestFn };
  private httpsLoading?: Promise<{ readonly agent: HttpAgent; readonly request: RequestFn }>;
  /** the requests in flight, aborted by `abortAll` */
  private readonly inFlight = new Set<ClientRequest>();

  async attempt(cb: PlannedCallback, now: () => number): Promise<AttemptResult> {
    const url = new URL(cb.url);
    const tls = url.protocol === 'https:';
    const via = tls ? (this.https ?? (await this.loadHttps())) : { agent: this.http, request: httpRequest };
    const start = now();
    return new Promise<AttemptResult>((resolve) => {
      let done = false;
      const finish = (r: Omit<AttemptResult, 'ms'>): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.inFlight.delete(req);
        resolve({ ms: now() - start, ...r });
      };
      const headers: Record<string, string> = {};
      for (const [name, value] of cb.headers) headers[name] = value;
      if (cb.body.byteLength > 0 || cb.method === 'POST' || cb.method === 'PUT' || cb.method === 'PATCH')
        headers['content-length'] = String(cb.body.byteLength);
      const req = via.request(url, { method: cb.method, headers, agent: via.agent }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < KEPT_BODY_BYTES) chunks.push(c.subarray(0, KEPT_BODY_BYTES - kept));
          kept += c.byteLength;
        });
        res.on('end', () =>
          finish({
            status: res.statusCode ?? 0,
            headers: headerRecord(res),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (e) => finish({ error: e.message }));
      });
      this.inFlight.add(req);
      const timer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${cb.timeoutMs} ms`));
      }, cb.timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) =>
        finish({ error: e.code !== undefined && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message }),
      );
      req.end(cb.body.byteLength > 0 ? cb.body : undefined);
    });
  }

  /** Ends every request in flight (each attempt then reports its error) and every idle connection. */
  abortAll(reason: string): void {
    for (const req of this.inFlight) req.destroy(new Error(reason));
    this.inFlight.clear();
  }

  close(): void {
    this.abortAll('the server is shutting down');
    this.http.destroy();
    this.https?.agent.destroy();
  }

  private loadHttps(): Promise<{ readonly agent: HttpAgent; readonly request: RequestFn }> {
    this.httpsLoading ??= import('node:https').then((m) => {
      const loaded = { agent: new m.Agent({ keepAlive: true, maxSockets: 256 }), request: m.request };
      this.https = loaded;
      return loaded;
    });
    return this.httpsLoading;
  }
}

function headerRecord(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}
