// The middleware stage: run the configured Rhai scripts in order; the first one whose return value
// maps to a response answers the request (docs/middleware.md).
//
//   a string / #{ file_path: "…" }  → that file, resolved against the script's own folder and
//                                     confined to it
//   #{ json: "<JSON5 text>" }        → the JSON re-serialised minified, key order and integers kept
//                                     (files/json5.ts); invalid: 500 `invalid json content`
//   #{ text: "…" }                   → plain text
//   #{ fault: "connection_reset" }   → that fault (docs/faults.md), before any body key
//   precedence file_path > json > text; `status` and `headers` keys are ignored
//   anything else (number, bool, array, `()`, other maps) → the next script
//
// A runtime error is logged and counts as "no answer". Scripts see `url_path` and, when the request
// carries a JSON body, `body`; nothing else.

import { json5ToJson } from '../files/json5.js';
import { fromJson, run, type Value } from '../interpreter/index.js';
import { isFaultKind, type Respond } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type { MiddlewareScript } from '../model/workspace.js';

export interface MiddlewareAnswer {
  readonly respond: Respond;
  readonly index: number;
  readonly file: string;
}

export interface MiddlewareOptions {
  readonly maxOperations: number;
  readonly timeLimitMs: number;
  readonly log: (line: string) => void;
}

export function answerFromMiddleware(
  middlewares: readonly MiddlewareScript[],
  req: RequestSnapshot,
  opts: MiddlewareOptions,
): MiddlewareAnswer | undefined {
  if (middlewares.length === 0) return undefined;
  const globals: Record<string, Value> = { url_path: req.path };
  if (req.body.kind === 'json') globals['body'] = fromJson(req.body.typed ?? req.body.value); // `5.0` an f64, `5` an i64
  for (let index = 0; index < middlewares.length; index++) {
    const mw = middlewares[index] as MiddlewareScript;
    const prefix = `middleware \`${mw.entry}\``;
    const done = run(mw.script, globals, {
      maxOperations: opts.maxOperations,
      timeLimitMs: opts.timeLimitMs,
      print: (text) => opts.log(`${prefix}: ${text}`),
      debug: (text) => opts.log(`${prefix} debug: ${text}`),
    });
    if (!done.ok) {
      const e = done.error;
      opts.log(`${prefix}: script evaluation failed: ${e.message} (${mw.file}:${e.line}:${e.column})`);
      continue;
    }
    const respond = respondFrom(done.value, mw, (line) => opts.log(`${prefix}: ${line}`));
    if (respond !== undefined) return { respond, index, file: mw.file };
  }
  return undefined;
}

function respondFrom(value: Value, mw: MiddlewareScript, log: (line: string) => void): Respond | undefined {
  if (typeof value === 'string') return remembered(mw, 'file', value, () => fileRespond(mw.dir, value));
  if (!(value instanceof Map)) return undefined;
  const fault = value.get('fault');
  if (typeof fault === 'string' && isFaultKind(fault)) return remembered(mw, 'fault', fault, () => ({ body: { kind: 'empty' }, headers: [], delayMs: 0, fault }));
  const filePath = value.get('file_path');
  if (typeof filePath === 'string') return remembered(mw, 'file', filePath, () => fileRespond(mw.dir, filePath));
  const json = value.get('json');
  if (typeof json === 'string') return remembered(mw, 'json', json, () => jsonRespond(json, mw, log));
  const text = value.get('text');
  if (typeof text === 'string') return remembered(mw, 'text', text, () => ({ body: { kind: 'text', text }, headers: [], delayMs: 0 }));
  return undefined;
}

function fileRespond(dir: string, path: string): Respond {
  return { body: { kind: 'file', path: resolvePath(dir, path), confineTo: dir }, headers: [], delayMs: 0 };
}

/**
 * Responds per script, by what the script returned: a script usually returns the same few values request after
 * request, and handing back the very same (immutable) Respond lets every later stage reuse its work (the `#{json}`
 * conversion, the encoded body, the finished Answer). A failed conversion is not kept: it is logged each time.
 */
const responds = new WeakMap<MiddlewareScript, Map<string, Respond>>();
const RESPONDS_PER_SCRIPT = 64;
const RESPOND_KEY_MAX = 64 * 1024;

function remembered(mw: MiddlewareScript, kind: string, value: string, make: () => Respond | undefined): Respond | undefined {
  if (value.length > RESPOND_KEY_MAX) return make(); // memory stays bounded: 64 entries of at most this much
  const key = kind + '\0' + value;
  let cache = responds.get(mw);
  const hit = cache?.get(key);
  if (hit !== undefined) return hit;
  const respond = make();
  if (respond === undefined || respond.status === 500) return respond;
  if (cache === undefined) responds.set(mw, (cache = new Map<string, Respond>()));
  if (cache.size >= RESPONDS_PER_SCRIPT) cache.delete(cache.keys().next().value!);
  cache.set(key, respond);
  return respond;
}

function jsonRespond(source: string, mw: MiddlewareScript, log: (line: string) => void): Respond {
  try {
    return { body: { kind: 'json', text: json5ToJson(source) }, headers: [], delayMs: 0 };
  } catch (e) {
    log(`invalid json content returned by ${mw.file}: ${e instanceof Error ? e.message : String(e)}`);
    return { status: 500, body: { kind: 'text', text: 'invalid json content' }, headers: [], delayMs: 0 };
  }
}

/** POSIX path resolution: `path` against `dir` unless absolute, with `.` and `..` segments removed. */
export function resolvePath(dir: string, path: string): string {
  const joined = path.startsWith('/') ? path : `${dir}/${path}`;
  const out: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return '/' + out.join('/');
}
