// The middleware stage: run the configured Rhai scripts in order; the first one whose return value
// maps to a response answers the request (docs/middleware.md).
//
//   a string / #{ file_path: "…" }  → that file, resolved against the script's own folder and
//                                     confined to it
//   #{ json: "<JSON5 text>" }        → the JSON re-serialised minified, key order and integers kept
//                                     (files/json5.ts); invalid: 500 `invalid json content`
//   #{ text: "…" }                   → plain text
//   #{ fault: "connection_reset" }   → that fault (docs/faults.md), before any body key
//   precedence file_path > json > text
//   `status`, `headers`, `delay` (beside a body or alone) → that status (default 200), those headers
//                                     and that delay; without a body the answer is empty
//   anything else (number, bool, array, `()`, a map without any of these keys) → the next script
//
// Unlike apimock-rs, `status` and `headers` are not ignored (docs/middleware.md says why). A runtime error is logged
// and counts as "no answer". Scripts see `url_path`, `method`, `headers`, `headers_all`, `query`, `cookies` and,
// when the request carries a body, `body` (JSON) or `body_text` (anything else); see docs/middleware.md. A variable
// is built only when some script's text names it. Scripts read the scenarios as `state` (a map of scenario name to
// state) and move them by returning `set_state: #{ cart: "paid" }` beside an answer (docs/state.md).

import { json5ToJson } from '../files/json5.js';
import { DEFAULTS } from '../model/config.js';
import { fromJson, mentions, run, type Value } from '../interpreter/index.js';
import { isFaultKind, type Respond } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type { MiddlewareScript, Workspace } from '../model/workspace.js';
import { SCENARIO_NAME_PATTERN, workspaceScenarios } from './scenarios.js';
import { scenarioState, scenarioStates } from '../state/scenarios.js';
import type { StateStore } from '../state/store.js';

export interface MiddlewareAnswer {
  readonly respond: Respond;
  readonly index: number;
  readonly file: string;
  /** the scenarios the script moves with its answer (`set_state`) */
  readonly setState?: Readonly<Record<string, string>>;
}

export interface MiddlewareOptions {
  readonly maxOperations: number;
  /** bytes of values one run may make (absent: the default) */
  readonly maxMemoryBytes?: number | undefined;
  readonly timeLimitMs: number;
  readonly log: (line: string) => void;
  /** the scenario states `state` shows (absent: every scenario `started`) */
  readonly state?: StateStore;
  /** the workspace's rule sets: `state` lists the scenarios they name, even those still `started` */
  readonly ruleSets?: Workspace['ruleSets'];
  /**
   * told of the headers a script that does not answer adds to whatever answers next (`add_headers`, json-server's
   * `res.header(…); next()`); absent: `add_headers` is ignored
   */
  readonly onAddHeaders?: (headers: readonly (readonly [string, string])[]) => void;
}

export function answerFromMiddleware(
  middlewares: readonly MiddlewareScript[],
  req: RequestSnapshot,
  opts: MiddlewareOptions,
): MiddlewareAnswer | undefined {
  if (middlewares.length === 0) return undefined;
  const globals: Record<string, Value> = { url_path: req.path };
  // `5.0` an f64, `5` an i64; converted only when a script names `body` (a large body costs its size to convert)
  if (req.body.kind === 'json' && middlewares.some((mw) => mentions(mw.script, 'body')))
    globals['body'] = fromJson(req.body.typed ?? req.body.value);
  for (const mw of middlewares) addRequestVariables(globals, mw, req, opts);
  for (let index = 0; index < middlewares.length; index++) {
    const mw = middlewares[index] as MiddlewareScript;
    const prefix = `middleware \`${mw.entry}\``;
    const done = run(mw.script, globals, {
      maxOperations: opts.maxOperations,
      maxMemoryBytes: opts.maxMemoryBytes ?? DEFAULTS.middlewareMaxMemoryBytes,
      timeLimitMs: opts.timeLimitMs,
      print: (text) => opts.log(`${prefix}: ${text}`),
      debug: (text) => opts.log(`${prefix} debug: ${text}`),
    });
    if (!done.ok) {
      const e = done.error;
      opts.log(
        `${prefix}: script evaluation failed: ${e.message}${raise(e.message)} (${mw.file}:${e.line}:${e.column})`,
      );
      continue;
    }
    const log = (line: string): void => opts.log(`${prefix}: ${line}`);
    if (opts.onAddHeaders !== undefined && mentions(mw.script, 'add_headers'))
      addHeadersFrom(done.value, mw, log, opts.onAddHeaders);
    const respond = respondFrom(done.value, mw, log);
    if (respond === undefined) continue;
    const setState = mentions(mw.script, 'set_state') ? setStateFrom(done.value, mw, log) : undefined;
    return setState === undefined ? { respond, index, file: mw.file } : { respond, index, file: mw.file, setState };
  }
  return undefined;
}

/** The setting that raises the limit a script error names, if one does. */
function raise(message: string): string {
  if (message.startsWith('Script memory budget')) return '; raise service.middleware_max_memory_bytes';
  if (message === 'Too many operations') return '; raise service.middleware_max_operations';
  return '';
}

/** `state`: every scenario a rule names (at its current state) and every one the store holds. */
function stateVariable(ruleSets: Workspace['ruleSets'], store: StateStore | undefined): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const name of workspaceScenarios({ ruleSets }))
    out.set(name, store === undefined ? 'started' : scenarioState(store, name));
  if (store !== undefined) for (const [name, state] of Object.entries(scenarioStates(store))) out.set(name, state);
  return out;
}

/** `set_state` of a returned answer map: scenario names to non-empty strings; anything else is logged and ignored. */
function setStateFrom(
  value: Value,
  mw: MiddlewareScript,
  log: (line: string) => void,
): Record<string, string> | undefined {
  if (!(value instanceof Map) || !value.has('set_state')) return undefined;
  const moves = value.get('set_state');
  if (!(moves instanceof Map)) {
    log(`invalid answer returned by ${mw.file}: \`set_state\` must be a map of scenario names to states (ignored)`);
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [name, state] of moves) {
    if (!SCENARIO_NAME_PATTERN.test(name) || typeof state !== 'string' || state === '') {
      log(
        `invalid answer returned by ${mw.file}: \`set_state\` needs scenario names (letters, digits, _ . -) mapped to non-empty strings (ignored)`,
      );
      return undefined;
    }
    out[name] = state;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The request variables beyond `url_path` and `body`, each built when this script's text names it (and not already built). */
function addRequestVariables(
  globals: Record<string, Value>,
  mw: MiddlewareScript,
  req: RequestSnapshot,
  opts: MiddlewareOptions,
): void {
  let names = NAMED.get(mw);
  if (names === undefined) NAMED.set(mw, (names = REQUEST_VARIABLES.filter((n) => mentions(mw.script, n))));
  for (const name of names) {
    if (name in globals) continue;
    const v = name === 'state' ? stateVariable(opts.ruleSets ?? [], opts.state) : requestVariable(name, req);
    if (v !== undefined) globals[name] = v;
  }
}

/** per script, the request variables its text names */
const NAMED = new WeakMap<MiddlewareScript, readonly (typeof REQUEST_VARIABLES)[number][]>();

const REQUEST_VARIABLES = ['method', 'headers', 'headers_all', 'query', 'cookies', 'body_text', 'state'] as const;

function requestVariable(
  name: Exclude<(typeof REQUEST_VARIABLES)[number], 'state'>,
  req: RequestSnapshot,
): Value | undefined {
  switch (name) {
    case 'method':
      return req.method;
    case 'headers': {
      // the first value of a repeated header: the one a rule's header condition tests
      const out = new Map<string, Value>();
      for (const [k, v] of req.headers) if (!out.has(k)) out.set(k, v);
      return out;
    }
    case 'headers_all': {
      const out = new Map<string, Value[]>();
      for (const [k, v] of req.headers) {
        const list = out.get(k);
        if (list === undefined) out.set(k, [v]);
        else list.push(v);
      }
      return out;
    }
    case 'query': {
      const out = new Map<string, Value>();
      for (const [k, values] of req.parts.query) out.set(k, values.length === 1 ? values[0]! : [...values]);
      return out;
    }
    case 'cookies':
      return new Map<string, Value>(req.parts.cookies);
    case 'body_text':
      return req.body.kind === 'bytes' ? req.parts.bodyText : undefined;
  }
}

/** setTimeout's ceiling: a longer delay would fire at once */
const MAX_DELAY_MS = 2_147_483_647;

/** `add_headers` of a returned map, checked as `headers` is; anything else is logged and ignored. */
function addHeadersFrom(
  value: Value,
  mw: MiddlewareScript,
  log: (line: string) => void,
  told: (headers: readonly (readonly [string, string])[]) => void,
): void {
  if (!(value instanceof Map) || !value.has('add_headers')) return;
  const extras = extrasFrom(new Map([['headers', value.get('add_headers')!]]), mw, (line) =>
    log(`${line.replace('`headers`', '`add_headers`')} (ignored)`),
  );
  if (typeof extras !== 'string' && extras.headers !== undefined) told(extras.headers);
}

/** the keys of a returned map that make it an answer */
const ANSWER_KEYS = ['file_path', 'json', 'text', 'status', 'headers', 'delay'] as const;

function respondFrom(value: Value, mw: MiddlewareScript, log: (line: string) => void): Respond | undefined {
  if (typeof value === 'string') return remembered(mw, 'file', value, () => fileRespond(mw.dir, value));
  if (!(value instanceof Map)) return undefined;
  const fault = value.get('fault');
  if (typeof fault === 'string' && isFaultKind(fault))
    return remembered(mw, 'fault', fault, () => ({ body: { kind: 'empty' }, headers: [], delayMs: 0, fault }));
  const body = bodyFrom(value, mw, log);
  if (!value.has('status') && !value.has('headers') && !value.has('delay')) return body;
  if (body === undefined && !ANSWER_KEYS.some((k) => value.has(k))) return undefined;
  const extras = extrasFrom(value, mw, log);
  if (typeof extras === 'string') return invalidAnswer(extras);
  const base = body ?? EMPTY_RESPOND;
  if (base.status === 500) return base; // the body was refused: its error answer stands
  return {
    ...base,
    ...(extras.status !== undefined ? { status: extras.status } : {}),
    headers: extras.headers ?? base.headers,
    delayMs: extras.delayMs ?? base.delayMs,
  };
}

const EMPTY_RESPOND: Respond = Object.freeze({ body: Object.freeze({ kind: 'empty' }), headers: [], delayMs: 0 });

function bodyFrom(value: Map<string, Value>, mw: MiddlewareScript, log: (line: string) => void): Respond | undefined {
  const filePath = value.get('file_path');
  if (typeof filePath === 'string') return remembered(mw, 'file', filePath, () => fileRespond(mw.dir, filePath));
  const json = value.get('json');
  if (typeof json === 'string') return remembered(mw, 'json', json, () => jsonRespond(json, mw, log));
  const text = value.get('text');
  if (typeof text === 'string')
    return remembered(mw, 'text', text, () => ({ body: { kind: 'text', text }, headers: [], delayMs: 0 }));
  return undefined;
}

/** HTTP token characters (a header name) and the characters a header value may hold */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** `status`, `headers` and `delay` of a returned map, checked; a string says what is wrong (logged, answered 500). */
function extrasFrom(
  value: Map<string, Value>,
  mw: MiddlewareScript,
  log: (line: string) => void,
): { status?: number; headers?: readonly (readonly [string, string])[]; delayMs?: number } | string {
  const out: { status?: number; headers?: (readonly [string, string])[]; delayMs?: number } = {};
  const problem = (what: string): string => {
    log(`invalid answer returned by ${mw.file}: ${what}`);
    return what;
  };
  if (value.has('status')) {
    const status = value.get('status');
    if (typeof status !== 'bigint' || status < 100n || status > 999n)
      return problem('`status` must be an integer from 100 to 999');
    out.status = Number(status);
  }
  if (value.has('headers')) {
    const headers = value.get('headers');
    if (!(headers instanceof Map)) return problem('`headers` must be a map of header names to strings');
    out.headers = [];
    for (const [name, v] of headers) {
      const text =
        typeof v === 'string'
          ? v
          : typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean'
            ? String(v)
            : undefined;
      if (!HEADER_NAME.test(name)) return problem(`\`${name}\` is not a valid header name`);
      if (text === undefined || !HEADER_VALUE.test(text))
        return problem(`the header \`${name}\` needs a string value without control characters`);
      out.headers.push([name.toLowerCase(), text]);
    }
  }
  if (value.has('delay')) {
    const delay = value.get('delay');
    if (typeof delay !== 'bigint' || delay < 0n || delay > BigInt(MAX_DELAY_MS))
      return problem(`\`delay\` must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
    out.delayMs = Number(delay);
  }
  return out;
}

function invalidAnswer(what: string): Respond {
  return { status: 500, body: { kind: 'text', text: `invalid script answer: ${what}` }, headers: [], delayMs: 0 };
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

function remembered(
  mw: MiddlewareScript,
  kind: string,
  value: string,
  make: () => Respond | undefined,
): Respond | undefined {
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
