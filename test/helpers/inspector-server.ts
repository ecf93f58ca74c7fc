// A real node:http server on 127.0.0.1 port 0 running the inspector's router with the given routes, and a raw
// HTTP client that sets any Host/Origin header (fetch would refuse to), and a reader of the event stream, for the
// inspector's tests.
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { createManagementHandler, type Route } from '../../src/inspector/router.js';

export interface InspectorServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

export function startInspectorServer(
  routes: readonly Route[],
  extra: { readonly uiDir?: string } = {},
): Promise<InspectorServer> {
  return startHandlerServer(createManagementHandler({ version: '9.9.9', routes, ...extra }));
}

/** A server for any request handler (createInspector's), on 127.0.0.1 port 0. */
export async function startHandlerServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<InspectorServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  /** the parsed JSON body, or undefined */
  readonly json: unknown;
}

/** One request; Host defaults to 127.0.0.1:<port>. */
export function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text === '' ? undefined : JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** POST/DELETE as the page sends them: the client header, JSON typed. */
export function post(port: number, path: string, body: unknown, method = 'POST'): Promise<RawResponse> {
  const text = JSON.stringify(body);
  return raw(
    port,
    method,
    path,
    { 'x-mock-client': 'test', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
    text,
  );
}

/** An event stream reader: every chunk as text, and the response. */
export function events(
  port: number,
  headers: Record<string, string> = {},
): Promise<{
  res: IncomingMessage;
  text: () => string;
  arrived: (needle: string) => number | undefined;
  close: () => void;
}> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/__mock/api/events', headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let text = '';
        const at: { readonly t: number; readonly upTo: number }[] = [];
        res.setEncoding('utf8').on('data', (d: string) => {
          text += d;
          at.push({ t: performance.now(), upTo: text.length });
        });
        res.on('error', () => undefined);
        // when the chunk that completed `needle` arrived
        const arrived = (needle: string): number | undefined => {
          const i = text.indexOf(needle);
          return i < 0 ? undefined : at.find((c) => c.upTo >= i + needle.length)?.t;
        };
        resolve({ res, text: () => text, arrived, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
