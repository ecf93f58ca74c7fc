// Sending a proxied answer to the client: the upstream's status, end-to-end headers and body (whole, or the
// buffered head and then the rest as it streams; a stream that breaks ends the client's connection).
import type { ServerResponse } from 'node:http';
import type { HeaderList } from '../../shared/headers.js';
import type { ProxyResult } from './proxy.js';

export function writeProxied(res: ServerResponse, result: ProxyResult): void {
  const headers = headerObject(result.headers);
  if (result.kind !== 'stream') {
    const bodyless = result.status < 200 || result.status === 204 || result.status === 304;
    if (!bodyless && headers['content-length'] === undefined)
      headers['content-length'] = String(result.body.byteLength);
    res.writeHead(result.status, headers);
    res.end(result.body);
    return;
  }
  res.writeHead(result.status, headers);
  for (const chunk of result.head) res.write(chunk);
  result.rest.on('error', () => res.destroy());
  result.rest.pipe(res);
}

function headerObject(list: HeaderList): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of list) {
    const had = out[k];
    out[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return out;
}
