// A HAR 1.2 file (a browser's network panel, Playwright's recordHar) → the exchanges record mode would have seen,
// in the order they started, for record mode's own recorder to plan and save (record/plan.ts): so a HAR import
// and a live recording of the same traffic give the same workspace. Pure.
//
// Kept: the entries for one host (`--har-host`, by default the host with the most API entries), without images,
// fonts, scripts and style sheets unless `includeStatic`. Bodies come from `response.content.text` (base64 where
// `encoding` says so); a `location` on the same origin becomes a path, as the recording proxy makes it. Every entry
// left out is counted with its reason; one that cannot be read (no body text, a failed request) is named.
import { snapshotFrom } from '../dispatch/snapshot.js';
import type { Exchange } from '../record/plan.js';
import { err, ok, type Result } from '../shared/result.js';
import type { LeftOut } from './plan.js';

export interface HarOptions {
  /** only this host (`api.example.com`, or with its port); default: the host with the most non-static entries */
  readonly host?: string;
  readonly includeStatic?: boolean;
}

export interface HarEntry {
  /** `log.entries[3]` */
  readonly place: string;
  readonly exchange: Exchange;
}

export interface HarImport {
  readonly host: string | undefined;
  /** the imported host's origin (`http://127.0.0.1:8080`): the upstream the recording index names */
  readonly origin: string | undefined;
  readonly hosts: readonly string[];
  readonly entries: readonly HarEntry[];
  readonly leftOut: readonly LeftOut[];
  readonly read: number;
}

export interface HarError {
  readonly place: string;
  readonly message: string;
}

type Obj = { readonly [k: string]: unknown };
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const STATIC_TYPES =
  /^(image\/|font\/|text\/css|(text|application)\/(x-)?javascript|application\/(x-)?font|application\/vnd\.ms-fontobject)/i;
const STATIC_EXT = /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|woff2?|ttf|otf|eot|css|m?js|map)$/i;
const STATIC_RESOURCES = new Set(['image', 'font', 'script', 'stylesheet']);

/** an image, font, script or style sheet: by the browser's resource type, the content type, else the extension */
function isStatic(e: Obj, url: URL, type: string): boolean {
  const resource = e['_resourceType'];
  if (typeof resource === 'string') return STATIC_RESOURCES.has(resource);
  if (type !== '') return STATIC_TYPES.test(type);
  return STATIC_EXT.test(url.pathname);
}

function pairs(v: unknown): [string, string][] {
  if (!Array.isArray(v)) return [];
  const out: [string, string][] = [];
  for (const h of v)
    if (isObj(h) && typeof h['name'] === 'string' && typeof h['value'] === 'string' && !h['name'].startsWith(':'))
      out.push([h['name'].toLowerCase(), h['value']]);
  return out;
}

const REASONS = {
  otherHost: (n: number, host: string) =>
    `${n} entr${n === 1 ? 'y' : 'ies'} for another host (${host}); --har-host picks the host to import`,
  static: (n: number) =>
    `${n} image, font, script or style sheet entr${n === 1 ? 'y' : 'ies'} skipped; --include-static keeps them`,
  failed: 'the request failed (no response in the HAR)',
  noBody: 'the HAR holds no body for it (export the HAR with content)',
  badUrl: 'the URL does not parse',
} as const;

/** `location` on the entry's own origin, as a path (the recording proxy answers the client so) */
function relativeLocation(value: string, origin: string): string {
  try {
    const u = new URL(value, origin + '/');
    const absolute = value.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(value);
    return absolute && u.origin === origin ? u.pathname + u.search + u.hash : value;
  } catch {
    return value;
  }
}

export function decodeHar(data: unknown, o: HarOptions = {}): Result<HarImport, HarError> {
  const log = isObj(data) ? data['log'] : undefined;
  if (!isObj(log)) return err({ place: 'log', message: 'a HAR file needs a `log` object' });
  const list = log['entries'];
  if (!Array.isArray(list)) return err({ place: 'log.entries', message: 'a HAR file needs `log.entries`, an array' });

  interface Read {
    readonly i: number;
    readonly e: Obj;
    readonly url: URL;
    readonly started: string;
    readonly type: string;
    readonly isStatic: boolean;
  }
  const leftOut: LeftOut[] = [];
  const read: Read[] = [];
  for (const [i, e] of list.entries()) {
    const place = `log.entries[${i}]`;
    if (!isObj(e) || !isObj(e['request']) || !isObj(e['response']))
      return err({ place, message: 'an entry needs `request` and `response` objects' });
    let url: URL;
    try {
      url = new URL(String(e['request']['url']));
    } catch {
      leftOut.push({ place, what: 'request.url', reason: REASONS.badUrl });
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const content = isObj(e['response']['content']) ? e['response']['content'] : {};
    const type = typeof content['mimeType'] === 'string' ? content['mimeType'] : '';
    const started = typeof e['startedDateTime'] === 'string' ? e['startedDateTime'] : '';
    read.push({ i, e, url, started, type, isStatic: isStatic(e, url, type) });
  }
  // the order the requests started (a HAR is usually in that order already; the sort is stable for ties)
  read.sort((a, b) => (a.started < b.started ? -1 : a.started > b.started ? 1 : a.i - b.i));

  const count = new Map<string, number>();
  for (const r of read) if (!r.isStatic) count.set(r.url.host, (count.get(r.url.host) ?? 0) + 1);
  for (const r of read) if (!count.has(r.url.host)) count.set(r.url.host, 0);
  const hosts = [...count.keys()];
  let host = o.host;
  if (host === undefined) {
    let best = -1;
    for (const [h, n] of count) if (n > best) [host, best] = [h, n];
  } else if (!count.has(host)) {
    const byName = hosts.filter((h) => h.split(':')[0] === host);
    if (byName.length === 1) host = byName[0];
    else
      return err({
        place: 'log.entries',
        message: `no entry for the host ${host} (the HAR has ${hosts.length === 0 ? 'none' : hosts.join(', ')})`,
      });
  }

  const others = new Map<string, number>();
  let statics = 0;
  const entries: HarEntry[] = [];
  for (const r of read) {
    const place = `log.entries[${r.i}]`;
    if (r.url.host !== host) {
      others.set(r.url.host, (others.get(r.url.host) ?? 0) + 1);
      continue;
    }
    if (r.isStatic && o.includeStatic !== true) {
      statics++;
      continue;
    }
    const req = r.e['request'] as Obj;
    const res = r.e['response'] as Obj;
    const status = typeof res['status'] === 'number' ? res['status'] : 0;
    if (status <= 0) {
      leftOut.push({ place, what: '', reason: REASONS.failed });
      continue;
    }
    const content = isObj(res['content']) ? res['content'] : {};
    const text = content['text'];
    const size = typeof content['size'] === 'number' ? content['size'] : 0;
    let bytes: Uint8Array;
    if (typeof text === 'string')
      bytes = content['encoding'] === 'base64' ? Buffer.from(text, 'base64') : new TextEncoder().encode(text);
    else if (size > 0 && status !== 304 && req['method'] !== 'HEAD') {
      leftOut.push({ place, what: 'response.content.text', reason: REASONS.noBody });
      continue;
    } else bytes = new Uint8Array(0);
    const headers = pairs(res['headers'])
      // the body is decoded in the HAR: its length and encoding no longer apply
      .filter(([k]) => k !== 'content-encoding' && k !== 'content-length')
      .map(([k, v]): [string, string] => (k === 'location' ? [k, relativeLocation(v, r.url.origin)] : [k, v]));
    if (!headers.some(([k]) => k === 'content-type') && r.type !== '' && bytes.byteLength > 0)
      headers.push(['content-type', r.type]);
    const request = snapshotFrom({
      method: typeof req['method'] === 'string' ? req['method'] : 'GET',
      target: r.url.pathname + r.url.search,
      headers: pairs(req['headers']),
    });
    entries.push({ place, exchange: { request, response: { status, headers, body: { kind: 'bytes', bytes } } } });
  }
  if (statics > 0) leftOut.push({ place: 'log.entries', what: '', reason: REASONS.static(statics) });
  for (const [h, n] of others) leftOut.push({ place: 'log.entries', what: '', reason: REASONS.otherHost(n, h) });
  const origin = read.find((r) => r.url.host === host)?.url.origin;
  return ok({ host, origin, hosts, entries, leftOut, read: list.length });
}
