// planRecording: one proxied exchange → how record mode saves it: a plain file under the fallback directory,
// a rule for `mock-recorded.toml`, or nothing (with the reason). Pure: the disk is seen only through the
// FileSource port, and file routing's own resolver and content-type table decide whether a plain file would
// replay the answer.
//
// Record mode has two homes on purpose: this folder is its pure half (planning, target parsing, header tables),
// which `mock serve --record`'s flag checks (cli/) use too; server/record/ is its I/O half, which runs inside the
// listener and reads the server's own state (LiveState). One folder would import server/ while server/ imports it,
// a cycle the import table forbids.
//
// The rules, in order:
// - Only GET, POST, PUT, DELETE and PATCH are saved: HEAD and every other method are forwarded, never saved.
//   Each method, path and query is saved once; a request with a query is saved as a rule with a `query`
//   condition per name (its first value), so each query variant replays its own answer.
// - A body that was streamed (over the cap) or arrived in an encoding the proxy could not undo is not saved.
//   A path that climbs above the root or holds an encoded separator is not saved.
// - GET 200 with a body → a plain file at the URL path (decoded and normalised as file routing does), its last
//   segment given an extension from the content type when it has none (`/` → `index.<ext>`, and for a page,
//   `<path>/index.html`), kept only when file routing would serve that URL from that file, byte for byte, with
//   the same content type, and no kept header would be lost.
// - Anything else (and anything with a query) → a rule: `url_path`, `method`, the query and the kept headers, plus
//   status 200 with a body: `file_path` under `<fallback>/.mock-recorded/<METHOD>/<path>.<ext>`;
//   any other status with a UTF-8 body up to TEXT_INLINE_MAX: `status`, `text` and the content type;
//   an empty body: `status` alone; any other body: `status` with a `file_path`.
// - Declared JSON that does not parse is saved as `.txt` with an explicit content type.
// Leaves out: proxying, writing, choosing a free name for a rule's body file (server/record/), TOML (config/edit/).
import { denyCheck } from '../files/deny.js';
import { resolveFallbackFile, INDEX_FILES } from '../files/lookup.js';
import { extensionOf, isInside, isUsableSegment, joinPaths } from '../files/paths.js';
import { fileBody } from '../files/file-body.js';
import type { FileSource } from '../files/source.js';
import { isMethod, type Method } from '../model/operators.js';
import type { RequestSnapshot } from '../model/request.js';
import type { DenyPolicy } from '../model/workspace.js';
import type { HeaderList } from '../shared/headers.js';
import { parseJson } from '../shared/json.js';
import { isValidUtf8 } from '../shared/utf8.js';
import { keptHeaders } from './headers.js';
import { essenceOf, extensionFor, isJsonType, sameContentType, servedTypeFor } from './media.js';
import { withPlannedFile } from './overlay.js';

/** A decoded name that may name a directory entry (for writers that re-check what the plan checked). */
export { isUsableSegment };

/** The folder under the fallback directory that holds rule bodies (a dot folder: hidden from the file tree). */
export const RECORDED_DIR = '.mock-recorded';
/** The rule set recordings are appended to, in the config directory. */
export const RECORDED_RULE_SET = 'mock-recorded.toml';
/** Proxied but never recorded: a HEAD answer has no body to replay. */
const NOT_RECORDED_METHODS: ReadonlySet<string> = new Set(['HEAD']);
/** Bodies above this are proxied as a stream and never saved. */
/**
 * Methods a file would answer with a stored body although the target changes state: in record mode a request with
 * one of them that file routing would answer is forwarded and saved as a method rule instead, so a saved
 * `GET /api/users` file never swallows the `POST /api/users` that follows (rules come before files on replay).
 */
export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export const MAX_SAVED_BODY_BYTES = 32 * 1024 * 1024;
/** A non-200 UTF-8 body up to this many bytes is written inline as `respond.text`; a longer one as a file. */
export const TEXT_INLINE_MAX = 64 * 1024;

/** The request as dispatch saw it (a RequestSnapshot has all of these). */
export type RecordRequest = Pick<RequestSnapshot, 'method' | 'rawPath' | 'segments' | 'path' | 'query' | 'headers'>;

export type RecordBody =
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  /** over the cap: passed to the client as it came */
  | { readonly kind: 'streamed' }
  /** an event stream (SSE, NDJSON): passed to the client live, and not (or not yet) complete */
  | { readonly kind: 'event_stream' }
  /**
   * an event stream that ended, as a stream file: SSE with its measured pauses as `: delay` lines, or NDJSON
   * lines (`intervalMs`: their median gap) — saved as a `respond.stream` rule (docs/record.md)
   */
  | {
      readonly kind: 'events';
      readonly format: 'sse' | 'ndjson';
      readonly bytes: Uint8Array;
      readonly intervalMs?: number;
    }
  /** a content-encoding the proxy could not decode: passed on encoded */
  | { readonly kind: 'encoded'; readonly encoding: string };

export interface RecordResponse {
  readonly status: number;
  /** as passed to the client (a `location` on the target's origin already made a path) */
  readonly headers: HeaderList;
  readonly body: RecordBody;
}

export interface Exchange {
  readonly request: RecordRequest;
  readonly response: RecordResponse;
}

export interface PlanFacts {
  /** absolute */
  readonly fallbackDir: string;
  /** the disk as file routing sees it */
  readonly files: FileSource;
  /** keys (recordKey) of what was already saved */
  readonly recorded: ReadonlySet<string>;
  /** `--record-header` names */
  readonly keepHeaders?: readonly string[];
  /** the workspace's service.deny: a file it denies is never written (the VCS folders never are, whatever it says) */
  readonly deny?: DenyPolicy;
}

export const SKIP_REASONS = [
  'method',
  'recorded',
  'streamed',
  'event_stream',
  'encoded',
  'unsafe_path',
  'outside',
  'denied',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** A file under the fallback directory: `names` are the path's parts below it (decoded, as on disk). */
export interface PlannedFile {
  readonly names: readonly string[];
  readonly bytes: Uint8Array;
  readonly status: number;
}

export type PlannedBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly text: string }
  /** `names` below the fallback directory, starting with RECORDED_DIR and the method */
  | ({ readonly kind: 'file' } & Omit<PlannedFile, 'status'>)
  /** a stream file (`names` as for `file`), answered by `respond.stream` */
  | ({ readonly kind: 'stream'; readonly intervalMs?: number } & Omit<PlannedFile, 'status'>);

export interface PlannedRule {
  /** the canonical request path, written as a bare (exact) url_path */
  readonly urlPath: string;
  readonly method: Method;
  /** `query` conditions (decoded name, its first value), in arrival order; empty without a query */
  readonly query: readonly (readonly [string, string])[];
  /** undefined: the default, 200 */
  readonly status?: number;
  readonly body: PlannedBody;
  /** respond.headers: a content type the body would not get by itself first, then the kept headers */
  readonly headers: HeaderList;
}

export type RecordPlan =
  | { readonly kind: 'file'; readonly key: string; readonly file: PlannedFile }
  | { readonly kind: 'rule'; readonly key: string; readonly rule: PlannedRule }
  /** `detail`, for `denied`: the file (relative, '/'-separated) and the pattern that denies it */
  | { readonly kind: 'skip'; readonly key: string; readonly reason: SkipReason; readonly detail?: string };

/**
 * What "once per method, path and query" counts: the method, the canonical path and the query as its rule would
 * match it (each name's first value, names sorted), so `?a=1&b=2` and `?b=2&a=1` are one recording.
 */
export function recordKey(method: string, path: string, query = ''): string {
  const pairs = queryConditions(query);
  if (pairs.length === 0) return `${method.toUpperCase()} ${path}`;
  const sorted = [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${method.toUpperCase()} ${path}?${new URLSearchParams(sorted.map(([k, v]): [string, string] => [k, v])).toString()}`;
}

/** A raw query as `query` conditions: each name (decoded, '+' a space) with its first value, in arrival order. */
export function queryConditions(query: string): readonly (readonly [string, string])[] {
  if (query === '') return [];
  const seen = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(query)) if (!seen.has(k)) seen.set(k, v);
  return [...seen];
}

export async function planRecording(x: Exchange, facts: PlanFacts): Promise<RecordPlan> {
  const { request: req, response: res } = x;
  const key = recordKey(req.method, req.path, req.query);
  const query = queryConditions(req.query);
  const skip = (reason: SkipReason): RecordPlan => ({ kind: 'skip', key, reason });
  const method = req.method.toUpperCase();
  // HEAD is proxied, never recorded; a method rules cannot match is not recorded either
  if (!isMethod(method) || NOT_RECORDED_METHODS.has(method)) return skip('method');
  if (facts.recorded.has(key)) return skip('recorded');
  if (res.body.kind !== 'bytes' && res.body.kind !== 'events') return skip(res.body.kind);
  if (req.segments.some((s) => s !== '' && !isUsableSegment(s))) return skip('unsafe_path');
  const names = req.segments.filter((s) => s !== '');
  if (res.body.kind === 'events') {
    const ev = res.body;
    // the stream sets its own content type (text/event-stream, application/x-ndjson); only the kept headers go along
    const body = {
      kind: 'stream',
      names: recordedNames(method, names, ev.format),
      bytes: ev.bytes,
      ...(ev.intervalMs === undefined ? {} : { intervalMs: ev.intervalMs }),
    } as const;
    const rule: PlannedRule = {
      urlPath: req.path,
      method,
      query,
      ...(res.status === 200 ? {} : { status: res.status }),
      body,
      headers: keptHeaders(res.headers, facts.keepHeaders),
    };
    const denied = deniedBy(facts, body.names);
    if (denied !== undefined) return { kind: 'skip', key, reason: 'denied', detail: denied };
    if (await escapes(facts, body.names)) return skip('outside');
    return { kind: 'rule', key, rule };
  }
  const bytes = res.body.bytes;

  const utf8 = isValidUtf8(bytes);
  const upstreamType = contentTypeOf(res.headers);
  const badJson = isJsonType(upstreamType) && !(utf8 && parsesAsJson(bytes));
  const ext = extensionFor(upstreamType, utf8, badJson);
  const kept = keptHeaders(res.headers, facts.keepHeaders);

  if (method === 'GET' && res.status === 200 && bytes.byteLength > 0 && kept.length === 0 && query.length === 0) {
    let refused = false;
    for (const candidate of fileCandidates(names, ext)) {
      if (badJson && extensionOf(candidate[candidate.length - 1]!)?.toLowerCase() === 'json') continue;
      // a denied plain file would never replay; the rule below may still save the answer beside the recordings
      if (deniedBy(facts, candidate) !== undefined) continue;
      const check = await servesAsIs(req, candidate, bytes, upstreamType, facts);
      if (check === 'yes') return { kind: 'file', key, file: { names: candidate, bytes, status: 200 } };
      refused ||= check === 'outside';
    }
    if (refused) return skip('outside');
  }

  const rule = ruleFor(method, req.path, query, names, res.status, bytes, { utf8, upstreamType, ext, kept });
  if (rule.body.kind === 'file') {
    const denied = deniedBy(facts, rule.body.names);
    if (denied !== undefined) return { kind: 'skip', key, reason: 'denied', detail: denied };
    if (await escapes(facts, rule.body.names)) return skip('outside');
  }
  return { kind: 'rule', key, rule };
}

/** Folders a recording never writes into, whatever service.deny says: writing there would change a repository. */
const NEVER_WRITTEN_DIRS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', '.ssh']);

/** Why a planned file may not be written: `<file> (<pattern>)`, or undefined when it may. */
function deniedBy(facts: PlanFacts, names: readonly string[]): string | undefined {
  const shown = names.join('/');
  const vcs = names.slice(0, -1).find((n) => NEVER_WRITTEN_DIRS.has(n.toLowerCase()));
  if (vcs !== undefined) return `${shown} (inside ${vcs}/, which a recording never writes into)`;
  if (facts.deny === undefined) return undefined;
  const pattern = denyCheck(facts.deny)(facts.fallbackDir, joinPaths(facts.fallbackDir, names));
  return pattern === undefined ? undefined : `${shown} (denied by ${pattern})`;
}

function contentTypeOf(headers: HeaderList): string | undefined {
  for (const [k, v] of headers) if (k.toLowerCase() === 'content-type') return v;
  return undefined;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parsesAsJson(bytes: Uint8Array): boolean {
  try {
    parseJson(decoder.decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** Where a plain file could live: the path with the extension added (or as is), then a page's `index.<ext>`. */
function fileCandidates(names: readonly string[], ext: string): (readonly string[])[] {
  const index = `index.${ext}`;
  if (names.length === 0) return [[index]];
  const last = names[names.length - 1]!;
  if (extensionOf(last) !== undefined) return [names];
  const out: (readonly string[])[] = [[...names.slice(0, -1), `${last}.${ext}`]];
  if ((INDEX_FILES as readonly string[]).includes(index) && ext !== 'json') out.push([...names, index]);
  return out;
}

/**
 * Would file routing answer this request from `names`, with these bytes and this content type, were the file
 * written? 'outside' when the file would land outside the fallback directory (an outward symlink on the way).
 */
async function servesAsIs(
  req: RecordRequest,
  names: readonly string[],
  bytes: Uint8Array,
  upstreamType: string | undefined,
  facts: PlanFacts,
): Promise<'yes' | 'no' | 'outside'> {
  const root = facts.fallbackDir;
  const abs = joinPaths(root, names);
  if ((await facts.files.stat(abs)) !== undefined) return 'no'; // something is there already: never overwritten
  const view = withPlannedFile(facts.files, root, names, bytes);
  if (await escapes(facts, names, view)) return 'outside';
  if ((await resolveFallbackFile(root, req.segments, view)) !== abs) return 'no';
  const served = await fileBody(abs, view);
  if (served.kind !== 'ok' || !sameBytes(served.body, bytes)) return 'no';
  return upstreamType === undefined || sameContentType(upstreamType, served.contentType) ? 'yes' : 'no';
}

/** The planned file's canonical path would not lie inside the fallback directory's. */
async function escapes(facts: PlanFacts, names: readonly string[], view?: FileSource): Promise<boolean> {
  const files = view ?? withPlannedFile(facts.files, facts.fallbackDir, names, new Uint8Array(0));
  const [real, rootReal] = await Promise.all([
    files.realpath(joinPaths(facts.fallbackDir, names)),
    facts.files.realpath(facts.fallbackDir),
  ]);
  return real === undefined || rootReal === undefined || real === rootReal || !isInside(real, rootReal);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

interface BodyFacts {
  readonly utf8: boolean;
  readonly upstreamType: string | undefined;
  readonly ext: string;
  readonly kept: HeaderList;
}

const BODYLESS = (status: number): boolean => status < 200 || status === 204 || status === 304;

function ruleFor(
  method: Method,
  urlPath: string,
  query: PlannedRule['query'],
  names: readonly string[],
  status: number,
  bytes: Uint8Array,
  f: BodyFacts,
): PlannedRule {
  const base = { urlPath, method, query };
  /** the upstream content type, unless the body gets the same one by itself */
  const typeUnless = (served: string | undefined): HeaderList =>
    f.upstreamType === undefined ||
    essenceOf(f.upstreamType) === '' ||
    (served !== undefined && sameContentType(f.upstreamType, served))
      ? []
      : [['content-type', f.upstreamType]];
  if (bytes.byteLength === 0 || BODYLESS(status)) {
    const type = BODYLESS(status) ? [] : typeUnless(undefined);
    return { ...base, status, body: { kind: 'empty' }, headers: [...type, ...f.kept] };
  }
  if (status !== 200 && f.utf8 && bytes.byteLength <= TEXT_INLINE_MAX) {
    const text = decoder.decode(bytes);
    return {
      ...base,
      status,
      body: { kind: 'text', text },
      headers: [...typeUnless(servedTypeFor('txt', true)), ...f.kept],
    };
  }
  const file = { kind: 'file', names: recordedNames(method, names, f.ext), bytes } as const;
  const headers = [...typeUnless(servedTypeFor(f.ext, f.utf8)), ...f.kept];
  return status === 200 ? { ...base, body: file, headers } : { ...base, status, body: file, headers };
}

/** `.mock-recorded/<METHOD>/<path>.<ext>`; a last segment that already ends in `.<ext>` keeps its name. */
export function recordedNames(method: Method, names: readonly string[], ext: string): readonly string[] {
  if (names.length === 0) return [RECORDED_DIR, method, `index.${ext}`];
  const last = names[names.length - 1]!;
  const named = extensionOf(last)?.toLowerCase() === ext ? last : `${last}.${ext}`;
  return [RECORDED_DIR, method, ...names.slice(0, -1), named];
}
