// The only filesystem access for loading: the root config, rule sets, scripts, and the checks on
// respond files, the fallback directory and TLS files. node:fs and node:path stay in this file; the
// rest of config/ is pure and gets text and file facts from here.
import { readFileSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { RespondFileStatus } from './respond-files.js';

export type TextRead =
  | { readonly kind: 'ok'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string };

export type { PathKind } from '../start-up/stamps.js';
import type { PathKind } from '../start-up/stamps.js';

/**
 * A file as one load saw it: its bytes with the size and mtime stat gave just before they were read; or, for a file
 * the load cache vouched for without reading it (docs/load-cache.md), the digest of its bytes with that size and mtime.
 */
export type TrackedRead =
  | { readonly kind: 'file'; readonly bytes: Uint8Array; readonly size: number; readonly mtimeMs: number }
  | { readonly kind: 'known'; readonly digest: string; readonly size: number; readonly mtimeMs: number }
  | { readonly kind: 'missing' };

export type RecalledRead = Exclude<TrackedRead, { kind: 'file' }>;

/** Told of every file a load reads or looks for (live reload: what to watch, and what changed). */
export interface ReadTracker {
  record(abs: string, read: TrackedRead): void;
  /** a file this load read or looked for, as the load cache keeps it to vouch for it next time (no bytes) */
  recall(abs: string): RecalledRead | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Read a UTF-8 text file (a leading BOM is dropped). With a tracker, the read is recorded (stat first). */
export async function readTextFile(abs: string, track?: ReadTracker): Promise<TextRead> {
  const read = await readBytesFile(abs, track);
  return read.kind === 'ok' ? textOf(read.bytes) : read;
}

export type BytesRead =
  | { readonly kind: 'ok'; readonly bytes: Uint8Array }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Read a file's bytes. With a tracker, the read is recorded (stat first). */
export async function readBytesFile(abs: string, track?: ReadTracker): Promise<BytesRead> {
  let bytes: Uint8Array;
  try {
    if (track === undefined) bytes = await readFile(abs);
    else {
      const before = await stat(abs);
      bytes = await readFile(abs);
      track.record(abs, { kind: 'file', bytes, size: before.size, mtimeMs: before.mtimeMs });
    }
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      track?.record(abs, { kind: 'missing' });
      return { kind: 'missing' };
    }
    if (code === 'EISDIR') return { kind: 'unreadable', reason: 'it is a directory' };
    return { kind: 'unreadable', reason: code ?? String(e) };
  }
  return { kind: 'ok', bytes };
}

/** Read a file's bytes now, on the calling turn (a rule set the load cache left undecoded, on first need). */
export function readBytesFileSync(abs: string): BytesRead {
  try {
    return { kind: 'ok', bytes: readFileSync(abs) };
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    return { kind: 'unreadable', reason: code ?? String(e) };
  }
}

/** A file's bytes as UTF-8 text (a leading BOM dropped). */
export function textOf(bytes: Uint8Array): TextRead {
  try {
    return { kind: 'ok', text: utf8.decode(bytes).replace(/^\uFEFF/, '') };
  } catch {
    return { kind: 'unreadable', reason: 'it is not valid UTF-8' };
  }
}

/** What a path is (symlinks followed). */
export async function pathKind(abs: string): Promise<PathKind> {
  try {
    const s = await stat(abs);
    return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'missing';
  }
}

const INDEX_FILES = ['index.json', 'index.json5', 'index.csv', 'index.html'] as const;
const JSON_EXTENSIONS = new Set(['.json', '.json5']);
/** read at load as well: a Server-Sent Events file's `: delay` lines are checked (config/respond-files.ts) */
const CHECKED_EXTENSIONS = new Set(['.json', '.json5', '.sse']);
/** a larger stream file is only checked to exist: reading it would slow every start */
const SSE_CHECKED_BYTES = 1024 * 1024;

/** What a rule's respond.file_path names: the file that would be served, with its text when it is JSON (or a small .sse). */
export async function respondFileStatus(abs: string, track?: ReadTracker): Promise<RespondFileStatus> {
  const kind = await pathKind(abs);
  if (kind === 'missing') {
    if (JSON_EXTENSIONS.has(extname(abs).toLowerCase())) track?.record(abs, { kind: 'missing' });
    return { kind: 'missing' };
  }
  let file = abs;
  if (kind === 'dir') {
    const names = await listNames(abs);
    const index = INDEX_FILES.find((n) => names.includes(n));
    if (index === undefined) return { kind: 'dir_without_index' };
    file = join(abs, index);
  }
  const ext = extname(file).toLowerCase();
  if (!CHECKED_EXTENSIONS.has(ext)) return { kind: 'file', path: file };
  if (ext === '.sse' && !(await smallerThan(file, SSE_CHECKED_BYTES))) return { kind: 'file', path: file };
  const read = await readTextFile(file, track);
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind === 'unreadable') return { kind: 'unreadable', path: file, reason: read.reason };
  return { kind: 'file', path: file, text: read.text };
}

async function smallerThan(file: string, bytes: number): Promise<boolean> {
  try {
    return (await stat(file)).size <= bytes;
  } catch {
    return false;
  }
}

async function listNames(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

// ---- path arithmetic (node:path is confined to this file) -------------------------------------------

/** Absolute path of `p` against `base`; "x" and "./x" resolve the same. */
export function resolvePath(base: string, p: string): string {
  return resolve(base, p);
}

export function dirOf(abs: string): string {
  return dirname(abs);
}

/** True when `abs` is `dir` itself or lies below it (lexically). */
export function isWithin(dir: string, abs: string): boolean {
  const rel = relative(dir, abs);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}

export function extensionOf(p: string): string {
  return extname(p).toLowerCase();
}

/** `mock --db db.js`: a JavaScript data file, as json-server takes one (docs/coming-from-json-server.md). */
export function isDataModule(abs: string): boolean {
  return /\.c?js$/i.test(abs);
}

/**
 * A JavaScript db file's data, as JSON text: what the module exports (`module.exports`, as json-server requires
 * it), called when it is a function (it may return a promise). Required anew at each load, so an edit reloads it.
 */
export async function readDataModule(abs: string, track?: ReadTracker): Promise<TextRead> {
  const read = await readBytesFile(abs, track);
  if (read.kind !== 'ok') return read;
  try {
    const { createRequire } = await import('node:module');
    const require = createRequire(abs);
    delete require.cache[require.resolve(abs)];
    let data: unknown = require(abs);
    if (typeof data === 'object' && data !== null && 'default' in data && Object.keys(data).length === 1)
      data = data.default;
    if (typeof data === 'function') data = await (data as () => unknown)();
    const text = JSON.stringify(data, null, 2);
    if (text === undefined) return { kind: 'unreadable', reason: 'its export is not JSON data' };
    return { kind: 'ok', text };
  } catch (e) {
    return { kind: 'unreadable', reason: `running it failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}
