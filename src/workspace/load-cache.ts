// The server's load cache on disk (docs/load-cache.md): per config file, one JSON file under
// `${XDG_CACHE_HOME:-~/.cache}/mock/` holding, for each rule-set file an earlier load decoded without error, the key
// of its bytes, the summary of its rules' paths, the other files its decoding looked at, and its warnings.
// Read defensively (anything unexpected: no entries, the workspace is loaded eagerly); written atomically (a temp
// file renamed over) when a load changed it, never failing the server.
//
// Owns: where the file lives, its format, keys. Leaves out: what a hit means (config/load.ts).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { CachedRuleSet, RuleSetCache, RuleSetCacheStore } from '../config/load.js';
import type { PathSummary } from '../model/lazy-rule-set.js';
import type { Rule } from '../model/rule-set.js';

export type { RuleSetCache };

/**
 * set to `on` (or `1`) to use the cache; without it every rule set is decoded at start, nothing is read or written
 * (opt-in: docs/load-cache.md says what it costs)
 */
export const LOAD_CACHE_ENV = 'MOCK_LOAD_CACHE';

/** bumped when the stored shape changes */
const FORMAT = 1;

interface Stored {
  readonly format: number;
  readonly version: string;
  readonly config: string;
  readonly entries: Record<string, { readonly key: string; readonly entry: CachedRuleSet }>;
}

export interface LoadCacheOptions {
  /** the program's version: a cache written by another version is ignored */
  readonly version: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly summarise: (rules: readonly Rule[]) => PathSummary;
}

/** The cache for `mock serve`, or undefined when it is turned off. */
export function loadCache(opts: LoadCacheOptions): RuleSetCache | undefined {
  const on = opts.env[LOAD_CACHE_ENV];
  if (on !== 'on' && on !== '1') return undefined;
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
  if (d === undefined) DIGESTS.set(bytes, (d = createHash('sha256').update(bytes).digest('base64')));
  return d;
}

/** The cache file of a config file: named by a hash of its absolute path. */
export function loadCacheFile(dir: string, configFile: string): string {
  return join(dir, createHash('sha256').update(configFile).digest('hex') + '.json');
}

async function openStore(dir: string, configFile: string, version: string): Promise<RuleSetCacheStore> {
  const file = loadCacheFile(dir, configFile);
  const stored = await readStored(file, configFile, version);
  const kept = new Map<string, { key: string; entry: CachedRuleSet }>();
  let changed = false;
  return {
    key: (bytes, context) =>
      createHash('sha256').update(context).update('\0').update(bytesDigest(bytes)).digest('base64'),
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
      const out: Stored = { format: FORMAT, version, config: configFile, entries: Object.fromEntries(kept) };
      await writeAtomically(dir, file, JSON.stringify(out, bigints)).catch(() => undefined);
    },
  };
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
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
}

// ---- reading defensively: an entry is used only when every part has the shape written ----

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const isString = (x: unknown): x is string => typeof x === 'string';
const strings = (x: unknown): boolean => Array.isArray(x) && x.every(isString);

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
  const warnings = x['warnings'];
  if (!Array.isArray(warnings) || !warnings.every(validWarning)) return false;
  return validSummary(x['summary']);
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
  const templates = x['templates'];
  return Array.isArray(templates) && templates.every(validTemplate);
}

function validTemplate(x: unknown): boolean {
  if (!isObject(x) || !Array.isArray(x['segments'])) return false;
  return x['segments'].every(
    (s: unknown) => isObject(s) && (isString(s['literal']) || (isString(s['name']) && typeof s['rest'] === 'boolean')),
  );
}
