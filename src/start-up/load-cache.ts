// The server's load cache on disk (docs/load-cache.md): per config file, one JSON file under
// `${XDG_CACHE_HOME:-~/.cache}/mock/` holding, for each rule-set file an earlier load decoded without error, the key
// of its bytes (and the signature the file had when they were read), the summary of its rules' paths, the other
// files its decoding looked at, and its warnings.
// Read defensively (anything unexpected: no entries, the workspace is loaded eagerly); written atomically (a temp
// file renamed over) when a load changed it, never failing the server.
//
// Owns: where the file lives, its format, keys. Leaves out: what a hit means (config/load.ts).
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { CachedRuleSet, RuleSetCache, RuleSetCacheStore } from './cache-types.js';
import type { FileSignature } from './stamps.js';
import { crypto } from '../shared/lazy-crypto.js';
import type { PathSummary } from './lazy-rule-set.js';
import type { Rule } from '../model/rule-set.js';

export type { RuleSetCache };

/**
 * set to `off` (or `0`, `false`, `no`) to turn the cache off, as `--no-load-cache` does: every rule set is then
 * decoded at start, and nothing is read or written outside the workspace (docs/load-cache.md)
 */
export const LOAD_CACHE_ENV = 'MOCK_LOAD_CACHE';

/** bumped when the stored shape changes */
const FORMAT = 4;

/** A rule-set file's bytes as a load read them: how the file looked just before, their digest, and when. */
interface StoredBytes {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
  readonly digest: string;
  /** Date.now() just before the file was looked at */
  readonly readAt: number;
}

interface StoredEntry {
  readonly key: string;
  readonly entry: CachedRuleSet;
  readonly bytes?: StoredBytes;
}

interface Stored {
  readonly format: number;
  readonly version: string;
  readonly config: string;
  readonly entries: Record<string, StoredEntry>;
}

/**
 * A file last changed this long before a load read it is vouched for by its signature alone at the next start.
 * One changed more recently might be written again within one tick of its file system's clock, keeping size and
 * times: it is read and hashed at each start until it had been still for this long when read (git's index does
 * the same with "racily clean" files). A file system that keeps times to the second (FAT: 2 s) gets 2 s; one
 * with finer times (ext4, APFS, tmpfs: the kernel's clock ticks every few milliseconds) 100 ms.
 */
function settledMs(ctimeMs: number): number {
  return ctimeMs % 1000 === 0 ? 2000 : 100;
}

export interface LoadCacheOptions {
  /** the program's version: a cache written by another version is ignored */
  readonly version: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly summarise: (rules: readonly Rule[]) => PathSummary;
}

/** Whether the environment turns the cache off (`MOCK_LOAD_CACHE=off`, `0`, `false` or `no`). */
export function loadCacheOff(env: Readonly<Record<string, string | undefined>>): boolean {
  const v = env[LOAD_CACHE_ENV]?.trim().toLowerCase();
  return v === 'off' || v === '0' || v === 'false' || v === 'no';
}

/** The cache for `mock serve`, or undefined when it is turned off. */
export function loadCache(opts: LoadCacheOptions): RuleSetCache | undefined {
  if (loadCacheOff(opts.env)) return undefined;
  const xdg = opts.env['XDG_CACHE_HOME'];
  const dir = join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'mock');
  return {
    open: (configFile) => openStore(dir, configFile, opts.version),
    summarise: opts.summarise,
  };
}

const DIGESTS = new WeakMap<Uint8Array, string>();

/** The SHA-256 of a file's bytes, computed once per read (the cache's key and a live reload's comparison share it). */
export function bytesDigest(bytes: Uint8Array): string {
  let d = DIGESTS.get(bytes);
  if (d === undefined) DIGESTS.set(bytes, (d = crypto().createHash('sha256').update(bytes).digest('base64')));
  return d;
}

/**
 * The cache file of a config file: named by a 64-bit FNV-1a hash of its absolute path (the file holds the path,
 * checked on reading, so two paths with one name only take turns). Not SHA-256: a warm start hashes nothing else,
 * and crypto's first hash costs more than the rest of finding the file.
 */
export function loadCacheFile(dir: string, configFile: string): string {
  return join(dir, `${fnv1a64(configFile)}.json`);
}

/** FNV-1a, 64 bits, over the text's UTF-8 bytes, as 16 hex digits (a few dozen bytes: BigInt is fast enough). */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, '0');
}

async function openStore(dir: string, configFile: string, version: string): Promise<RuleSetCacheStore> {
  const file = loadCacheFile(dir, configFile);
  const stored = await readStored(file, configFile, version);
  const kept = new Map<string, StoredEntry>();
  const seen = new Map<string, StoredBytes>();
  let changed = false;
  return {
    digest: bytesDigest,
    digestIfUnchanged(ruleSet, now) {
      const b = stored?.entries[ruleSet]?.bytes;
      if (b === undefined || !validBytes(b)) return undefined;
      return sameSignature(b, now) && settled(b) ? b.digest : undefined;
    },
    // compared whole, not hashed: a hash per rule-set file was a measurable part of a warm start
    key: (digest, context) => `${context}\0${digest}`,
    seen(ruleSet, signature, digest, readAt) {
      const b = stored?.entries[ruleSet]?.bytes;
      const now: StoredBytes = { ...signatureOf(signature), digest, readAt };
      // a file re-read only because it had changed too recently to vouch for: kept as now seen once settled
      if (b === undefined || !sameBytes(b, now)) changed = true;
      seen.set(ruleSet, now);
    },
    get(ruleSet, key) {
      const e = stored?.entries[ruleSet];
      if (e === undefined || e.key !== key || !validEntry(e.entry)) return undefined;
      kept.set(ruleSet, e);
      const s = e.entry.strategy as { seed?: unknown };
      // a seeded strategy's seed is a bigint, stored as its decimal text
      if (typeof s.seed === 'string') return { ...e.entry, strategy: { ...e.entry.strategy, seed: BigInt(s.seed) } };
      return e.entry;
    },
    put(ruleSet, key, entry) {
      kept.set(ruleSet, { key, entry });
      changed = true;
    },
    async save() {
      if (!changed && stored !== undefined && kept.size === Object.keys(stored.entries).length) return;
      // a workspace without rule sets leaves no file (a zero-config folder, a test's temporary workspace)
      if (kept.size === 0) {
        if (stored !== undefined) await rm(file, { force: true }).catch(() => undefined);
        return;
      }
      const entries: Record<string, StoredEntry> = {};
      for (const [ruleSet, e] of kept) {
        const bytes = seen.get(ruleSet) ?? e.bytes;
        entries[ruleSet] = bytes === undefined ? { key: e.key, entry: e.entry } : { key: e.key, entry: e.entry, bytes };
      }
      const out: Stored = { format: FORMAT, version, config: configFile, entries };
      await writeAtomically(dir, file, JSON.stringify(out, bigints)).catch(() => undefined);
      await pruneOld(dir, Date.now()).catch(() => undefined);
    },
  };
}

/** A cache file no start has written for this long is removed when another is written. */
const KEEP_UNWRITTEN_MS = 30 * 24 * 3600 * 1000;

/**
 * The folder stays bounded: every workspace ever started leaves a file, so one not written for KEEP_UNWRITTEN_MS
 * (its workspace gone, or unchanged all that time: its next start reads its files once more) is removed, as is a
 * temporary file left by a write that was cut short.
 */
async function pruneOld(dir: string, now: number): Promise<void> {
  for (const name of await readdir(dir)) {
    const temp = name.endsWith('.tmp');
    if (!temp && !name.endsWith('.json')) continue;
    const path = join(dir, name);
    const st = await stat(path).catch(() => undefined);
    if (st !== undefined && now - st.mtimeMs > (temp ? 24 * 3600 * 1000 : KEEP_UNWRITTEN_MS))
      await rm(path, { force: true });
  }
}

async function readStored(file: string, configFile: string, version: string): Promise<Stored | undefined> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (!isObject(v) || v['format'] !== FORMAT || v['version'] !== version || v['config'] !== configFile)
      return undefined;
    const entries = v['entries'];
    if (!isObject(entries)) return undefined;
    return v as unknown as Stored;
  } catch {
    return undefined;
  }
}

/** a seeded strategy's seed is a bigint: stored as its decimal text (read back by get) */
function bigints(_key: string, x: unknown): unknown {
  return typeof x === 'bigint' ? x.toString() : x;
}

async function writeAtomically(dir: string, file: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const temp = `${file}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
}

function signatureOf(s: FileSignature): Omit<StoredBytes, 'digest' | 'readAt'> {
  return { size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino };
}

function sameSignature(a: FileSignature, b: FileSignature): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

function sameBytes(a: StoredBytes, b: StoredBytes): boolean {
  return a.digest === b.digest && sameSignature(a, b) && settled(a) === settled(b);
}

function settled(b: StoredBytes): boolean {
  return b.ctimeMs < b.readAt - settledMs(b.ctimeMs);
}

// ---- reading defensively: an entry is used only when every part has the shape written ----

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const isString = (x: unknown): x is string => typeof x === 'string';
/** an array of strings (a loop, not every(): a warm start checks thousands of paths before its JIT warms up) */
function strings(x: unknown): boolean {
  if (!Array.isArray(x)) return false;
  for (let i = 0; i < x.length; i++) if (typeof x[i] !== 'string') return false;
  return true;
}

function validEntry(x: unknown): x is CachedRuleSet {
  if (!isObject(x)) return false;
  if (x['prefix'] !== undefined && !isString(x['prefix'])) return false;
  const strategy = x['strategy'];
  if (!isObject(strategy) || !isString(strategy['kind'])) return false;
  const seed = strategy['seed'];
  if (seed !== undefined && !(isString(seed) && /^\d+$/.test(seed))) return false;
  if (!strings(x['respondFiles'])) return false;
  const stamps = x['stamps'];
  if (!Array.isArray(stamps) || !stamps.every(validStamp)) return false;
  const tracked = x['tracked'];
  if (tracked !== undefined && !(Array.isArray(tracked) && tracked.every(validRecalled))) return false;
  const warnings = x['warnings'];
  if (!Array.isArray(warnings) || !warnings.every(validWarning)) return false;
  return validSummary(x['summary']);
}

function validBytes(x: unknown): x is StoredBytes {
  if (!isObject(x)) return false;
  return (
    ['size', 'mtimeMs', 'ctimeMs', 'ino', 'readAt'].every((k) => typeof x[k] === 'number') && isString(x['digest'])
  );
}

function validRecalled(x: unknown): boolean {
  return (
    Array.isArray(x) &&
    isString(x[0]) &&
    (x.length === 1 || (x.length === 4 && isString(x[1]) && typeof x[2] === 'number' && typeof x[3] === 'number'))
  );
}

function validStamp(x: unknown): boolean {
  return (
    Array.isArray(x) &&
    x.length === 4 &&
    isString(x[0]) &&
    ['file', 'dir', 'other', 'missing'].includes(x[1] as string) &&
    typeof x[2] === 'number' &&
    typeof x[3] === 'number'
  );
}

function validWarning(x: unknown): boolean {
  return isObject(x) && x['severity'] === 'warning' && isString(x['code']) && isString(x['message']);
}

function validSummary(x: unknown): boolean {
  if (!isObject(x)) return false;
  if (typeof x['rules'] !== 'number' || typeof x['any'] !== 'boolean') return false;
  if (!strings(x['paths']) || !strings(x['texts']) || !strings(x['scenarios'])) return false;
  return strings(x['templates']);
}
