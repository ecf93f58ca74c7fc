// The load cache as the loader sees it (docs/load-cache.md): a store of the rule-set files earlier loads decoded
// without error, by the key of their bytes, and what each entry holds. load-cache.ts keeps one on disk;
// config/load.ts decides what a hit means (the rule set is then a LazyRuleSet, lazy-rule-set.ts).
import type { Diagnostic } from '../model/diagnostic.js';
import type { Rule } from '../model/rule-set.js';
import type { Strategy } from '../model/strategy.js';
import type { PathSummary } from './lazy-rule-set.js';
import type { FileSignature, FileStamp } from './stamps.js';

/** Where a load remembers the rule-set files it decoded without error (load-cache.ts keeps them on disk). */
export interface RuleSetCache {
  /** the entries kept for this config file (none when there are none or they cannot be read) */
  open(configFile: string): Promise<RuleSetCacheStore>;
  /** what a rule set's rules need of a request path (routing/path-index.ts) */
  readonly summarise: (rules: readonly Rule[]) => PathSummary;
}

export interface RuleSetCacheStore {
  /** the digest of a file's bytes */
  digest(bytes: Uint8Array): string;
  /**
   * the digest an earlier load took of this rule-set file's bytes, when the file still has the signature it had then
   * and had been still for a while when it was read (so it need not be read now); else undefined
   */
  digestIfUnchanged(file: string, now: FileSignature): string | undefined;
  /** this load read and hashed the rule-set file: how it looked just before (at readAt, Date.now()) */
  seen(file: string, signature: FileSignature, digest: string, readAt: number): void;
  /** the key of a rule-set file's bytes (by their digest) decoded in this context (the program's version is the store's) */
  key(digest: string, context: string): string;
  get(file: string, key: string): CachedRuleSet | undefined;
  put(file: string, key: string, entry: CachedRuleSet): void;
  /** keep the entries this load got or put and drop the rest; never fails (a cache that cannot be written is none) */
  save(): Promise<void>;
}

/** A rule-set file as an earlier load found it: valid, with these warnings, looking at these other files. */
export interface CachedRuleSet {
  readonly prefix?: string;
  readonly strategy: Strategy;
  readonly summary: PathSummary;
  /** the respond files its rules name (read again when a live server tracks its files) */
  readonly respondFiles: readonly string[];
  /** every other file or folder the decoding looked at, as it was then */
  readonly stamps: readonly FileStamp[];
  /**
   * what a live server's load recorded of those files (the respond files it read, the ones it found missing), so a
   * warm start records the same without reading them; absent when that load recorded nothing (`--no-watch`)
   */
  readonly tracked?: readonly RecalledStamp[];
  readonly warnings: readonly Diagnostic[];
}

/** a file a load read (its path, digest, size and mtime) or looked for and found missing (its path alone) */
export type RecalledStamp =
  | readonly [path: string, digest: string, size: number, mtimeMs: number]
  | readonly [path: string];
