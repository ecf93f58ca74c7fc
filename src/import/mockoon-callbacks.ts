// Mockoon's callbacks → `respond.callbacks` (docs/callbacks.md#imports): a route response's `callbacks` list
// (`{ uuid, latency }`) names the environment's callback definitions (`{ uuid, uri, method, headers, body,
// bodyType }`). Mockoon renders a callback's URI, headers and body as templates with its request helpers
// (`{{body 'callbackUrl'}}`, `{{urlParam 'id'}}`), which ours share; a file or data-bucket body is left out.
// Pure: the peer's JSON objects in, our shape out.
import type { CallbackText } from '../openapi/render.js';
import { callbackBody, callbackMethod, isObj, type Obj } from './callback-parts.js';
import type { LeftOut, SourceRule } from './plan.js';
import type { Translated } from './wiremock-webhooks.js';

/** The callbacks one route response makes, looked up in its environment. */
export function mockoonCallbacks(environment: Obj, response: Obj): Translated {
  const out: Translated = { callbacks: [], leftOut: [] };
  const refs = response['callbacks'];
  if (!Array.isArray(refs)) return out;
  const defs = Array.isArray(environment['callbacks']) ? environment['callbacks'].filter(isObj) : [];
  refs.forEach((ref, i) => {
    const what = `callbacks[${i}]`;
    const def = isObj(ref) ? defs.find((d) => d['uuid'] === ref['uuid']) : undefined;
    if (!isObj(ref) || def === undefined) {
      out.leftOut.push({ what, reason: 'it names no callback of the environment' });
      return;
    }
    const r = callbackOf(def, typeof ref['latency'] === 'number' && ref['latency'] > 0 ? ref['latency'] : 0);
    if (typeof r === 'string') out.leftOut.push({ what, reason: r });
    else out.callbacks.push(r);
  });
  return out;
}

/** One environment callback → a callback, or why not. */
export function callbackOf(def: Obj, latency: number): CallbackText | string {
  const name = typeof def['name'] === 'string' && def['name'] !== '' ? ` "${def['name']}"` : '';
  const method = callbackMethod(def['method']);
  if (method === undefined)
    return `the callback${name}'s method ${String(def['method']).toUpperCase()} is not one a callback can use`;
  const url = typeof def['uri'] === 'string' ? def['uri'].trim() : '';
  if (url === '') return `the callback${name} has no URI`;
  const bodyType = typeof def['bodyType'] === 'string' ? def['bodyType'] : 'INLINE';
  if (bodyType !== 'INLINE')
    return `the callback${name}'s body is a ${bodyType === 'FILE' ? 'file' : 'data bucket'}, which callbacks cannot send (only an inline body)`;
  const headers: [string, string][] = [];
  if (Array.isArray(def['headers']))
    for (const h of def['headers'])
      if (isObj(h) && typeof h['key'] === 'string' && h['key'] !== '' && typeof h['value'] === 'string')
        headers.push([h['key'].toLowerCase(), h['value']]);
  const text = typeof def['body'] === 'string' ? def['body'] : '';
  const body = callbackBody(text, headers);
  const template = [url, text, ...headers.map(([, v]) => v)].some((s) => s.includes('{{'));
  return {
    url,
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(latency > 0 ? { delay: Math.round(latency) } : {}),
    template,
  };
}

/** A decoded answer with its response's callbacks; what could not be translated goes to `leftOut` at `place`. */
export function withCallbacks<R extends Partial<SourceRule>>(
  answer: R,
  environment: Obj,
  response: Obj,
  place: string,
  at: string,
  leftOut: LeftOut[],
): R {
  const t = mockoonCallbacks(environment, response);
  for (const l of t.leftOut) leftOut.push({ place, what: `${at}.${l.what}`, reason: l.reason });
  return t.callbacks.length === 0 ? answer : { ...answer, callbacks: t.callbacks };
}
