// The middleware stage: run the configured Rhai scripts in order; the first one whose return value
// maps to a response answers the request (SPEC §2.5, reference §6).
//
//   a string / #{ file_path: "…" }  → that file, resolved against the script's own folder and
//                                     confined to it
//   #{ json: "<JSON5 text>" }        → the JSON re-serialised minified, key order and integers kept
//                                     (files/json5.ts); invalid: 500 `invalid json content`
//   #{ text: "…" }                   → plain text
//   precedence file_path > json > text; `status` and `headers` keys are ignored
//   anything else (number, bool, array, `()`, other maps) → the next script
//
// A runtime error is logged and counts as "no answer". Scripts see `url_path` and, when the request
// carries a JSON body, `body`; nothing else.

import { json5ToJson } from '../files/json5.js';
import { fromJson, run, type Value } from '../interpreter/index.js';
import type { Respond } from '../model/answer.js';
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
  if (req.body.kind === 'json') globals['body'] = fromJson(req.body.value);
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
  if (typeof value === 'string') return fileRespond(mw.dir, value);
  if (!(value instanceof Map)) return undefined;
  const filePath = value.get('file_path');
  if (typeof filePath === 'string') return fileRespond(mw.dir, filePath);
  const json = value.get('json');
  if (typeof json === 'string') return jsonRespond(json, mw, log);
  const text = value.get('text');
  if (typeof text === 'string') return { body: { kind: 'text', text }, headers: [], delayMs: 0 };
  return undefined;
}

function fileRespond(dir: string, path: string): Respond {
  return { body: { kind: 'file', path: resolvePath(dir, path), confineTo: dir }, headers: [], delayMs: 0 };
}

/** Converted `#{ json }` texts per script: a script usually returns the same few literals, request after request. */
const converted = new WeakMap<MiddlewareScript, Map<string, string>>();
const CONVERTED_PER_SCRIPT = 64;

function jsonRespond(source: string, mw: MiddlewareScript, log: (line: string) => void): Respond {
  let cache = converted.get(mw);
  const hit = cache?.get(source);
  if (hit !== undefined) return { body: { kind: 'json', text: hit }, headers: [], delayMs: 0 };
  let text: string;
  try {
    text = json5ToJson(source);
    if (cache === undefined) converted.set(mw, (cache = new Map()));
    if (cache.size >= CONVERTED_PER_SCRIPT) cache.delete(cache.keys().next().value!);
    cache.set(source, text);
  } catch (e) {
    log(`invalid json content returned by ${mw.file}: ${e instanceof Error ? e.message : String(e)}`);
    return { status: 500, body: { kind: 'text', text: 'invalid json content' }, headers: [], delayMs: 0 };
  }
  return { body: { kind: 'json', text }, headers: [], delayMs: 0 };
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
