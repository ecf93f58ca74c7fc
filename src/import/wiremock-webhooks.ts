// WireMock's webhooks → `respond.callbacks` (docs/callbacks.md#imports): a mapping's `serveEventListeners` entries
// named `webhook` (and the older `postServeActions`, as an array or as `{ "webhook": {…} }`) with their method,
// URL, headers, body (`body` or `base64Body`) and delay (fixed, uniform or log-normal). WireMock renders a
// webhook's URL, headers and body as templates over `originalRequest`; they become our templates over `request`
// (`originalRequest.body` the text, a header name in lower case). Pure: the peer's JSON object in, our shape out.
import type { CallbackText } from '../openapi/render.js';
import { callbackBody, callbackMethod, isObj, type Obj } from './callback-parts.js';
import type { LeftOut, SourceRule } from './plan.js';

export interface Translated {
  readonly callbacks: CallbackText[];
  /** what could not be translated: `what` (the key) and why */
  readonly leftOut: { readonly what: string; readonly reason: string }[];
}

/** The webhooks of one WireMock stub mapping. */
export function wiremockWebhooks(mapping: Obj): Translated {
  const out: Translated = { callbacks: [], leftOut: [] };
  const listeners: [string, unknown][] = [];
  const sel = mapping['serveEventListeners'];
  if (Array.isArray(sel)) sel.forEach((l, i) => listeners.push([`serveEventListeners[${i}]`, l]));
  const psa = mapping['postServeActions'];
  if (Array.isArray(psa)) psa.forEach((l, i) => listeners.push([`postServeActions[${i}]`, l]));
  else if (isObj(psa))
    for (const [name, parameters] of Object.entries(psa))
      listeners.push([`postServeActions.${name}`, { name, parameters }]);
  for (const [what, l] of listeners) {
    if (!isObj(l) || l['name'] !== 'webhook') {
      out.leftOut.push({ what, reason: `the listener ${JSON.stringify(isObj(l) ? l['name'] : l)} is not a webhook` });
      continue;
    }
    const r = webhook(isObj(l['parameters']) ? l['parameters'] : {});
    if (typeof r === 'string') out.leftOut.push({ what, reason: r });
    else out.callbacks.push(r);
  }
  return out;
}

/** One webhook's parameters → a callback, or why not. */
export function webhook(p: Obj): CallbackText | string {
  const method = callbackMethod(p['method']);
  if (method === undefined) return `the method ${String(p['method'])} is not one a callback can use`;
  const url = typeof p['url'] === 'string' ? p['url'] : undefined;
  if (url === undefined || url === '') return 'a webhook without a `url`';
  const headers: [string, string][] = [];
  if (isObj(p['headers']))
    for (const [k, v] of Object.entries(p['headers'])) {
      if (typeof v === 'string') headers.push([k.toLowerCase(), templated(v)]);
      else if (Array.isArray(v)) headers.push([k.toLowerCase(), v.map(String).map(templated).join(', ')]);
    }
  let text = '';
  if (typeof p['body'] === 'string') text = p['body'];
  else if (typeof p['base64Body'] === 'string') {
    const bytes = Buffer.from(p['base64Body'], 'base64');
    text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes)) return 'a `base64Body` that is not UTF-8 text';
  }
  const delay = delayOf(p['delay']);
  if (typeof delay === 'string') return delay;
  const body = callbackBody(templated(text), headers);
  const u = templated(url);
  const template = [u, text, ...headers.map(([, v]) => v)].some((s) => s.includes('{{'));
  return {
    url: u,
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(delay === undefined ? {} : { delay }),
    template,
  };
}

/** WireMock's `originalRequest.…` model as our request data. */
export function templated(s: string): string {
  if (!s.includes('{{')) return s;
  return s
    .replace(/originalRequest\.headers\.([A-Za-z0-9_-]+)/g, (_m, h: string) => `request.headers.${h.toLowerCase()}`)
    .replace(/originalRequest\.body\b(?!\.)/g, 'request.text')
    .replace(/originalRequest\.url\b/g, 'request.path')
    .replace(/originalRequest\.(query|path|method|params|cookies|body)\b/g, 'request.$1');
}

function delayOf(d: unknown): CallbackText['delay'] | string | undefined {
  if (d === undefined) return undefined;
  if (!isObj(d)) return 'a `delay` that is not an object';
  const n = (k: string): number | undefined =>
    typeof d[k] === 'number' && Number.isFinite(d[k]) && d[k] >= 0 ? Math.round(d[k]) : undefined;
  if (d['type'] === 'fixed' && n('milliseconds') !== undefined) return n('milliseconds');
  if (d['type'] === 'uniform' && n('lower') !== undefined && n('upper') !== undefined)
    return { min: n('lower')!, max: n('upper')! };
  if (d['type'] === 'lognormal' && n('median') !== undefined && typeof d['sigma'] === 'number')
    return { median: n('median')!, sigma: d['sigma'] };
  return `the delay ${JSON.stringify(d)} is not fixed, uniform or log-normal`;
}

/** A decoded rule with its mapping's webhooks; what could not be translated goes to `leftOut` at `place`. */
export function withWebhooks(rule: SourceRule, mapping: Obj, place: string, leftOut: LeftOut[]): SourceRule {
  const t = wiremockWebhooks(mapping);
  for (const l of t.leftOut) leftOut.push({ place, ...l });
  return t.callbacks.length === 0 ? rule : { ...rule, callbacks: t.callbacks };
}
