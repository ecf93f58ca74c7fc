// Loading a workspace from disk: mock.toml (or zero-config), its rule sets, middleware scripts, and the
// checks on every file they name. Every problem in every file is collected; a TOML syntax error ends
// that file's decoding but the other files are still checked. The result is frozen.
//
// Owns: which config is loaded (-c, ./mock.toml, or none), the -d / -p overrides, existence checks.
// Leaves out: parsing TLS material (server/), serving files (files/), running scripts (dispatch/).
import { DEFAULTS, ROOT_CONFIG_FILE, type Config } from '../model/config.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { RuleSet } from '../model/rule-set.js';
import { DEFAULT_STRATEGY } from '../model/strategy.js';
import type { DenyPolicy, MiddlewareScript, Workspace } from '../model/workspace.js';
import { err, ok, type Result } from '../shared/result.js';
import { report, type DecodeContext } from './decode.js';
import { MESSAGES } from './messages.js';
import {
  dirOf,
  isDataModule,
  pathKind,
  readBytesFile,
  readBytesFileSync,
  readTextFile,
  resolvePath,
  respondFileStatus,
  textOf,
  type ReadTracker,
  type RecalledRead,
  type TextRead,
} from './read.js';
import { LazyRuleSet } from '../start-up/lazy-rule-set.js';
import type { CachedRuleSet, RecalledStamp, RuleSetCache, RuleSetCacheStore } from '../start-up/cache-types.js';
import { fileSignature, fileStampSync, type FileStamp } from '../start-up/stamps.js';
import type { Rule } from '../model/rule-set.js';
import type { Strategy } from '../model/strategy.js';
import type { RespondFileStatus } from './respond-files.js';
import { decodeRootConfig, defaultConfig, type PathEntry } from './root-config.js';
import { loadDb, loadRuleSetCollections } from './collections.js';
import { denyCheck } from '../files/deny.js';
import type { Collection, DbOptions } from '../model/collection.js';
import {
  checkRuleSetFiles,
  compileDraftTemplates,
  decodeRuleSetDraft,
  settleRuleSet,
  sortByPosition,
  type RuleSetContext,
} from './rule-set.js';

export interface LoadOptions {
  /** -c as given (relative to cwd; "x" ≡ "./x"); undefined → ./mock.toml when it exists, else zero-config */
  readonly configPath?: string;
  /** absolute current directory */
  readonly cwd: string;
  /** -d override, relative to cwd */
  readonly dir?: string;
  /** -p override */
  readonly port?: number;
  /** told of every file read or looked for (a live reload compares and watches them) */
  readonly track?: ReadTracker;
  /**
   * 'warning' on a live reload: a `.json` respond target that does not parse is reported but does not stop the
   * load (the file is served as written), so a half-edited data file never blocks a rules edit. Default 'error'.
   */
  readonly invalidJsonTarget?: 'error' | 'warning';
  /** --db, relative to cwd: replaces service.db */
  readonly db?: string;
  /** --persist: write the db file's changes back */
  readonly persist?: boolean;
  /** json-server's flags of --db (model/collection.ts) */
  readonly dbOptions?: DbOptions;
  /**
   * the server's load cache (docs/load-cache.md): a rule-set file an earlier load decoded without error, with its
   * respond files unchanged, is decoded on first need rather than now
   */
  readonly cache?: RuleSetCache;
  /** told before each rule-set file the load decodes (one the cache vouches for is not): start-up's V8 settings */
  readonly onDecode?: () => void;
}

/** How the files of one load are read. */
interface ReadMode {
  readonly track: ReadTracker | undefined;
  readonly invalidJsonTarget: 'error' | 'warning';
  /** one load's respond-file facts by path: a file many rules name (an imported workspace's shared body) is looked at once */
  readonly respondFiles?: Map<string, Promise<RespondFileStatus>>;
  /** with a cache: one load's file stamps by path (a file many rule sets name is looked at once) */
  readonly stamps?: Map<string, FileStamp>;
  readonly cache?: { readonly store: RuleSetCacheStore; readonly summarise: RuleSetCache['summarise'] };
  readonly onDecode?: (() => void) | undefined;
}

export interface LoadFailure {
  readonly kind: 'config_invalid' | 'config_unreadable';
  /** one-line summary */
  readonly message: string;
  /** every problem found, each with file, line and column where there is one */
  readonly diagnostics: readonly Diagnostic[];
}

export async function loadWorkspace(opts: LoadOptions): Promise<Result<Workspace, LoadFailure>> {
  const cwd = opts.cwd;
  const entry = opts.configPath ?? ROOT_CONFIG_FILE;
  const configFile = resolvePath(cwd, entry);
  const opening = opts.cache?.open(configFile);
  const read = await readTextFile(configFile, opts.track);
  const cache = await opening;
  const summarise = opts.cache?.summarise;
  const mode: ReadMode = {
    track: opts.track,
    invalidJsonTarget: opts.invalidJsonTarget ?? 'error',
    respondFiles: new Map(),
    onDecode: opts.onDecode,
    ...(cache === undefined || summarise === undefined
      ? {}
      : { cache: { store: cache, summarise }, stamps: new Map() }),
  };
  if (read.kind === 'missing' && opts.configPath === undefined) return loadZeroConfig(opts);
  if (read.kind !== 'ok') return err(unreadable(entry, configFile, read));

  const root = decodeRootConfig(read.text, configFile, cwd);
  if (!root.parsed) return failure(root.decode.diagnostics);
  const baseDir = dirOf(configFile);
  const flagDiagnostics: Diagnostic[] = [];
  const config = await applyOverrides(root.config, opts, flagDiagnostics);
  const checks: Promise<void>[] = [];
  if (opts.dir === undefined && root.fallbackDir !== undefined)
    checks.push(checkFallbackDir(root.fallbackDir, root.decode));
  if (root.tlsCert !== undefined) checks.push(checkTlsFile(root.tlsCert, MESSAGES.tlsCertMissing, root.decode));
  if (root.tlsKey !== undefined) checks.push(checkTlsFile(root.tlsKey, MESSAGES.tlsKeyMissing, root.decode));

  const strategy = config.service.strategy;
  const [ruleSets, middlewares, db] = await Promise.all([
    Promise.all(
      root.ruleSets.map((e, i) =>
        loadListedRuleSet(e, { index: i, entry: e.entry, baseDir, defaultStrategy: strategy }, root.decode, mode),
      ),
    ),
    Promise.all(root.middlewares.map((e, i) => loadMiddleware(e, i, root.decode, mode))),
    loadDbOf(config, opts, root.db, mode),
    Promise.all(checks),
  ]);

  const collections = [...ruleSets.flatMap((r) => r.collections ?? []), ...db.collections];
  const diagnostics = [
    ...flagDiagnostics,
    ...sortByPosition(root.decode.diagnostics),
    ...ruleSets.flatMap((r) => r.diagnostics),
    ...middlewares.flatMap((m) => m.diagnostics),
    ...db.diagnostics,
    ...duplicateCollections(collections),
    ...deniedCollections(collections, denyPolicy(config), config.service.fallbackRespondDir),
  ];
  if (diagnostics.some((d) => d.severity === 'error')) return failure(diagnostics);
  await mode.cache?.store.save();
  return ok(
    freezeDeep({
      configFile,
      baseDir,
      config,
      middlewares: middlewares.flatMap((m) => (m.script === undefined ? [] : [m.script])),
      ruleSets: ruleSets.flatMap((r) => (r.ruleSet === undefined ? [] : [r.ruleSet])),
      fallbackDir: config.service.fallbackRespondDir,
      cors: { allowedOrigins: config.service.corsAllowCredentialsOrigins },
      deny: denyPolicy(config),
      warnings: diagnostics,
      ...(collections.length === 0 ? {} : { collections }),
    }),
  );
}

/** The db file's collections: `--db` (relative to cwd) or `service.db` (relative to mock.toml). */
function loadDbOf(
  config: Config,
  opts: LoadOptions,
  entry: PathEntry | undefined,
  mode: ReadMode,
): Promise<{ collections: Collection[]; diagnostics: Diagnostic[] }> {
  const file = config.service.db;
  if (file === undefined) return Promise.resolve({ collections: [], diagnostics: [] });
  const shown = opts.db ?? entry?.entry ?? file;
  if (config.service.dbPersist === true && isDataModule(file))
    return Promise.resolve({
      collections: [],
      diagnostics: [{ severity: 'error', code: 'invalid_value', message: MESSAGES.dbModulePersist(), file }],
    });
  return loadDb(file, shown, config.service.dbPersist === true, mode.track, config.service.dbOptions?.id);
}

/** Two collections at one path: the second could never answer. */
function duplicateCollections(collections: readonly Collection[]): Diagnostic[] {
  const seen = new Map<string, Collection>();
  const out: Diagnostic[] = [];
  for (const c of collections) {
    const other = seen.get(c.path);
    if (other === undefined) seen.set(c.path, c);
    else
      out.push({
        severity: 'error',
        code: 'invalid_value',
        message: MESSAGES.duplicateCollection(c.path, other.file),
        file: c.file,
      });
  }
  return out;
}

/**
 * A collection whose data file service.deny keeps from being served is refused: its routes would hand a request
 * the file's data, which the deny list says no request may read (docs/files-and-rules.md, "Never served").
 */
function deniedCollections(collections: readonly Collection[], deny: DenyPolicy, root: string): Diagnostic[] {
  if (collections.length === 0) return [];
  const check = denyCheck(deny);
  const out: Diagnostic[] = [];
  for (const c of collections) {
    const pattern = check(root, c.file) ?? check(dirOf(c.file), c.file);
    if (pattern === undefined) continue;
    out.push({
      severity: 'error',
      code: 'invalid_value',
      message: MESSAGES.deniedCollection(c.path, pattern),
      file: c.file,
    });
  }
  return out;
}

/**
 * One rule-set file on its own, with no root config (for `mock match-test`). `path` is relative to cwd;
 * respond files resolve against `baseDir` (default: the rule-set file's own folder).
 */
export async function loadRuleSetFile(
  path: string,
  opts: { cwd: string; baseDir?: string },
): Promise<Result<RuleSet, LoadFailure>> {
  const file = resolvePath(opts.cwd, path);
  const read = await readTextFile(file);
  if (read.kind !== 'ok') {
    const d: Diagnostic =
      read.kind === 'missing'
        ? { severity: 'error', code: 'file_not_found', message: MESSAGES.ruleSetMissing(path), file }
        : { severity: 'error', code: 'file_unreadable', message: MESSAGES.ruleSetUnreadable(path, read.reason), file };
    return err({ kind: 'config_unreadable', message: d.message, diagnostics: [d] });
  }
  const baseDir = opts.baseDir === undefined ? dirOf(file) : resolvePath(opts.cwd, opts.baseDir);
  const r = await decodeRuleSetFromText(
    read.text,
    file,
    { index: 0, entry: path, baseDir, defaultStrategy: DEFAULT_STRATEGY },
    STRICT,
  );
  if (r.ruleSet === undefined) return failure(r.diagnostics);
  return ok(freezeDeep(r.ruleSet));
}

// ---- the pieces ------------------------------------------------------------------------------------

function denyPolicy(config: Config): DenyPolicy {
  const tls = config.listener.tls;
  const given = config.service.deny;
  const files = given === undefined && tls !== undefined ? [tls.cert, tls.key] : [];
  return { patterns: given ?? DEFAULTS.deny, files, isDefault: given === undefined };
}

async function loadZeroConfig(opts: LoadOptions): Promise<Result<Workspace, LoadFailure>> {
  const diagnostics: Diagnostic[] = [];
  const config = await applyOverrides(defaultConfig(opts.cwd), opts, diagnostics);
  if (diagnostics.length > 0) return failure(diagnostics);
  const mode: ReadMode = { track: opts.track, invalidJsonTarget: 'error' };
  const db = await loadDbOf(config, opts, undefined, mode);
  if (db.diagnostics.length > 0) return failure(db.diagnostics);
  const denied = deniedCollections(db.collections, denyPolicy(config), config.service.fallbackRespondDir);
  if (denied.length > 0) return failure(denied);
  return ok(
    freezeDeep({
      baseDir: opts.cwd,
      config,
      middlewares: [],
      ruleSets: [],
      fallbackDir: config.service.fallbackRespondDir,
      cors: { allowedOrigins: [] },
      deny: denyPolicy(config),
      warnings: [],
      ...(db.collections.length === 0 ? {} : { collections: db.collections }),
    }),
  );
}

/** -p replaces listener.port; -d replaces the fallback directory (relative to cwd) and must exist. */
async function applyOverrides(config: Config, opts: LoadOptions, diagnostics: Diagnostic[]): Promise<Config> {
  let out = config;
  if (opts.port !== undefined) out = { ...out, listener: { ...out.listener, port: opts.port } };
  if (opts.dir !== undefined) {
    const dir = resolvePath(opts.cwd, opts.dir);
    if ((await pathKind(dir)) !== 'dir')
      diagnostics.push({ severity: 'error', code: 'file_not_found', message: MESSAGES.dirFlagMissing(opts.dir) });
    out = { ...out, service: { ...out.service, fallbackRespondDir: dir } };
  }
  if (opts.db !== undefined) out = { ...out, service: { ...out.service, db: resolvePath(opts.cwd, opts.db) } };
  if (opts.persist === true) {
    if (out.service.db === undefined)
      diagnostics.push({ severity: 'error', code: 'invalid_value', message: MESSAGES.persistWithoutDb() });
    out = { ...out, service: { ...out.service, dbPersist: true } };
  }
  // the flags win over mock.toml's keys one by one (`--id` beside `service.db_style = "v1"` keeps v1)
  if (opts.dbOptions !== undefined)
    out = { ...out, service: { ...out.service, dbOptions: { ...out.service.dbOptions, ...opts.dbOptions } } };
  return out;
}

async function checkFallbackDir(e: PathEntry, decode: DecodeContext): Promise<void> {
  const kind = await pathKind(e.path);
  if (kind === 'missing')
    report(decode, 'file_not_found', MESSAGES.fallbackDirMissing(e.entry), e.offset, [
      'service',
      'fallback_respond_dir',
    ]);
  else if (kind !== 'dir')
    report(decode, 'invalid_value', MESSAGES.fallbackDirNotDir(e.entry), e.offset, ['service', 'fallback_respond_dir']);
}

async function checkTlsFile(e: PathEntry, missing: (entry: string) => string, decode: DecodeContext): Promise<void> {
  const kind = await pathKind(e.path);
  const key = missing === MESSAGES.tlsCertMissing ? 'cert' : 'key';
  if (kind === 'missing') report(decode, 'file_not_found', missing(e.entry), e.offset, ['listener', 'tls', key]);
  else if (kind !== 'file')
    report(decode, 'tls_material', MESSAGES.tlsNotFile(e.entry), e.offset, ['listener', 'tls', key]);
}

interface Loaded<T> {
  readonly diagnostics: readonly Diagnostic[];
  readonly ruleSet?: T;
  readonly collections?: readonly Collection[];
  /** it can be decoded again, synchronously, from its text alone (no templates, no collections) */
  readonly cacheable?: boolean;
  /** the respond files its rules name */
  readonly respondFiles?: readonly string[];
  /** the respond files and folders its decoding looked at (a folder's index file too) */
  readonly looked?: readonly string[];
  /** the folders it names (prefix.respond_dir) */
  readonly respondDirs?: readonly string[];
}

/** A rule set listed in mock.toml: a missing file is reported at its entry there. */
async function loadListedRuleSet(
  e: PathEntry,
  rsc: RuleSetContext,
  rootDecode: DecodeContext,
  mode: ReadMode,
): Promise<Loaded<RuleSet>> {
  const at = ['service', 'rule_sets', rsc.index];
  const cache = mode.cache?.store;
  /** the file's bytes, or undefined with the problem reported at its entry in mock.toml */
  const readIt = async (): Promise<Uint8Array | undefined> => {
    const read = await readBytesFile(e.path, mode.track);
    if (read.kind === 'missing') report(rootDecode, 'file_not_found', MESSAGES.ruleSetMissing(e.entry), e.offset, at);
    if (read.kind === 'unreadable')
      report(rootDecode, 'file_unreadable', MESSAGES.ruleSetUnreadable(e.entry, read.reason), e.offset, at);
    return read.kind === 'ok' ? read.bytes : undefined;
  };
  /** the bytes decoded now, as without a cache */
  const decodeNow = (bytes: Uint8Array): Promise<Loaded<RuleSet>> | Loaded<RuleSet> => {
    mode.onDecode?.();
    const text = textOf(bytes);
    if (text.kind === 'ok') return decodeRuleSetFromText(text.text, e.path, rsc, mode);
    if (text.kind === 'unreadable')
      report(rootDecode, 'file_unreadable', MESSAGES.ruleSetUnreadable(e.entry, text.reason), e.offset, at);
    return { diagnostics: [] };
  };
  if (cache === undefined) {
    const bytes = await readIt();
    return bytes === undefined ? { diagnostics: [] } : decodeNow(bytes);
  }
  // a rule-set file whose signature vouches for the bytes an earlier load hashed is not read now
  const readAt = Date.now();
  const signature = fileSignature(e.path);
  const trusted = signature === undefined ? undefined : cache.digestIfUnchanged(e.path, signature);
  let bytes: Uint8Array | undefined;
  if (trusted === undefined) {
    bytes = await readIt();
    if (bytes === undefined) return { diagnostics: [] };
  } else {
    mode.track?.record(e.path, { kind: 'known', digest: trusted, size: signature!.size, mtimeMs: signature!.mtimeMs });
  }
  const digest = trusted ?? cache.digest(bytes!);
  if (trusted === undefined && signature !== undefined) cache.seen(e.path, signature, digest, readAt);
  const key = cache.key(
    digest,
    JSON.stringify([
      e.path,
      rsc.index,
      rsc.entry,
      rsc.baseDir,
      strategyKey(rsc.defaultStrategy),
      mode.invalidJsonTarget,
    ]),
  );
  const hit = cache.get(e.path, key);
  if (hit !== undefined && unchangedStamps(hit.stamps, mode)) {
    // a live server compares and watches what a load read: what decoding would have read is recorded as it was
    // (the stamps just matched), or read again when that load kept no record of it
    const track = mode.track;
    if (track !== undefined) {
      if (hit.tracked !== undefined) for (const t of hit.tracked) track.record(t[0], recalled(t));
      else await Promise.all(hit.respondFiles.map((f) => respondFileOnce(f, mode)));
    }
    const ruleSet = lazyRuleSet(bytes, e.path, rsc, hit);
    // a rule set with a rule for any path is needed by every request: decoded now (should that fail, the file
    // is loaded as without a cache below, and its errors reported as usual)
    if (!hit.summary.any || decodes(ruleSet)) return { diagnostics: hit.warnings, ruleSet };
  }
  if (bytes === undefined) {
    // vouched for, but its entry is stale: read it after all
    return loadListedRuleSet(e, rsc, rootDecode, { ...mode, cache: { ...mode.cache!, store: reading(cache) } });
  }
  const loaded = await decodeNow(bytes);
  if (loaded.ruleSet !== undefined && loaded.cacheable === true) {
    const looked = loaded.looked ?? [];
    const stamps = [
      ...looked.map(fileStampSync),
      ...(loaded.respondDirs ?? []).map((d): FileStamp => [d, fileStampSync(d)[1], -1, 0]),
    ];
    const tracked =
      mode.track === undefined ? undefined : recallAll(mode.track, [...(loaded.respondFiles ?? []), ...looked]);
    cache.put(e.path, key, {
      ...(loaded.ruleSet.prefix === undefined ? {} : { prefix: loaded.ruleSet.prefix }),
      strategy: loaded.ruleSet.strategy,
      summary: mode.cache!.summarise(loaded.ruleSet.rules),
      respondFiles: loaded.respondFiles ?? [],
      stamps,
      ...(tracked === undefined ? {} : { tracked }),
      warnings: loaded.diagnostics,
    });
  }
  return loaded;
}

/** a store that vouches for nothing: every rule-set file is read */
function reading(store: RuleSetCacheStore): RuleSetCacheStore {
  return { ...store, digestIfUnchanged: () => undefined };
}

/** what the tracker recorded of these files, for the cache entry (undefined when one of them was not recorded) */
function recallAll(track: ReadTracker, files: readonly string[]): readonly RecalledStamp[] | undefined {
  const out: RecalledStamp[] = [];
  for (const f of new Set(files)) {
    const r = track.recall(f);
    if (r === undefined) continue; // looked at, not read: a file served as it is (not JSON), or a folder
    out.push(r.kind === 'missing' ? [f] : [f, r.digest, r.size, r.mtimeMs]);
  }
  return out;
}

function recalled(t: RecalledStamp): RecalledRead {
  return t.length === 1 ? { kind: 'missing' } : { kind: 'known', digest: t[1], size: t[2], mtimeMs: t[3] };
}

function strategyKey(s: Strategy): unknown {
  return 'seed' in s && s.seed !== undefined ? { ...s, seed: String(s.seed) } : s;
}

function unchangedStamps(stamps: readonly FileStamp[], mode: ReadMode): boolean {
  const known = mode.stamps!;
  return stamps.every((was) => {
    let n = known.get(was[0]);
    if (n === undefined) known.set(was[0], (n = fileStampSync(was[0])));
    // a folder named as a respond_dir only needs to still be one
    if (was[1] === 'dir' && was[2] === -1) return n[1] === 'dir';
    return n[1] === was[1] && n[2] === was[2] && n[3] === was[3];
  });
}

function respondFileOnce(path: string, mode: ReadMode): Promise<RespondFileStatus> {
  const known = mode.respondFiles!;
  let status = known.get(path);
  if (status === undefined) known.set(path, (status = limited(() => respondFileStatus(path, mode.track))));
  return status;
}

function decodes(ruleSet: LazyRuleSet): boolean {
  try {
    void ruleSet.rules;
    return true;
  } catch {
    return false;
  }
}

/**
 * The rule set of a file the cache found unchanged: decoded on first need, from the bytes read at start, or (a file
 * vouched for by its signature) from the file as it is then. Should it have changed meanwhile, a live reload is on
 * its way; until then its rules are what the file says now.
 */
function lazyRuleSet(
  bytesAtStart: Uint8Array | undefined,
  file: string,
  rsc: RuleSetContext,
  hit: CachedRuleSet,
): LazyRuleSet {
  return new LazyRuleSet({
    index: rsc.index,
    file,
    entry: rsc.entry,
    ...(hit.prefix === undefined ? {} : { prefix: hit.prefix }),
    strategy: hit.strategy,
    summary: hit.summary,
    decode: (): readonly Rule[] => {
      const read = bytesAtStart === undefined ? readBytesFileSync(file) : { kind: 'ok' as const, bytes: bytesAtStart };
      if (read.kind !== 'ok')
        throw new Error(MESSAGES.lazyDecodeFailed(rsc.entry, read.kind === 'missing' ? 'it is gone' : read.reason));
      const text = textOf(read.bytes);
      if (text.kind !== 'ok') throw new Error(MESSAGES.lazyDecodeFailed(rsc.entry, 'it is not valid UTF-8'));
      const draft = decodeRuleSetDraft(text.text, file, rsc);
      const settled = settleRuleSet(draft);
      if (!settled.ok) {
        const first = settled.error.find((d) => d.severity === 'error');
        throw new Error(MESSAGES.lazyDecodeFailed(rsc.entry, first?.message ?? 'no rule set'));
      }
      return freezeDeep(settled.value.ruleSet.rules);
    },
  });
}

const STRICT: ReadMode = { track: undefined, invalidJsonTarget: 'error' };

/** at most this many respond files are looked at at once, over every rule set (an imported OpenAPI workspace
 * holds tens of thousands; opening them all at once runs out of file descriptors: EMFILE) */
const OPEN_AT_ONCE = 128;
let opening = 0;
const waiting: (() => void)[] = [];
async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (opening >= OPEN_AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  opening++;
  try {
    return await task();
  } finally {
    opening--;
    waiting.shift()?.();
  }
}

/** Decode, then gather respond-file facts from disk, then check them: the same path as decodeRuleSetText. */
async function decodeRuleSetFromText(
  text: string,
  file: string,
  rsc: RuleSetContext,
  mode: ReadMode,
): Promise<Loaded<RuleSet>> {
  const draft = decodeRuleSetDraft(text, file, rsc);
  await compileDraftTemplates(draft);
  const files = new Map<string, RespondFileStatus>();
  const dirs = new Map<string, boolean>();
  const known = mode.respondFiles ?? new Map<string, Promise<RespondFileStatus>>();
  await Promise.all([
    ...draft.fileRefs.map(async (r) => {
      let status = known.get(r.path);
      if (status === undefined) known.set(r.path, (status = limited(() => respondFileStatus(r.path, mode.track))));
      files.set(r.path, await status);
    }),
    ...draft.dirRefs.map(async (r) => void dirs.set(r.path, (await pathKind(r.path)) === 'dir')),
  ]);
  checkRuleSetFiles(draft, {
    respondFile: (abs) => files.get(abs) ?? { kind: 'missing' },
    isDir: (abs) => dirs.get(abs) ?? false,
  });
  if (mode.invalidJsonTarget === 'warning') downgradeInvalidJson(draft.decode.diagnostics);
  const data =
    draft.collectionRefs === undefined || draft.collectionRefs.length === 0
      ? undefined
      : await loadRuleSetCollections(draft.collectionRefs, rsc.index, draft.decode, mode.track);
  const settled = settleRuleSet(draft);
  if (!settled.ok) return { diagnostics: [...settled.error, ...(data?.diagnostics ?? [])] };
  if (data !== undefined && data.diagnostics.length > 0)
    return { diagnostics: [...settled.value.warnings, ...data.diagnostics] };
  if (mode.cache === undefined || data !== undefined || draft.templateRefs.length > 0)
    return {
      diagnostics: settled.value.warnings,
      ruleSet: settled.value.ruleSet,
      ...(data === undefined ? {} : { collections: data.collections }),
    };
  const respondFiles = [...files.keys()];
  const looked = new Set(respondFiles);
  for (const status of files.values())
    if (status.kind === 'file' || status.kind === 'unreadable') looked.add(status.path);
  return {
    diagnostics: settled.value.warnings,
    ruleSet: settled.value.ruleSet,
    cacheable: true,
    respondFiles,
    looked: [...looked],
    respondDirs: [...dirs.keys()],
  };
}

/** Reload mode: an invalid `.json` respond target becomes a warning saying what that means. */
function downgradeInvalidJson(diagnostics: Diagnostic[]): void {
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i]!;
    if (d.code === 'invalid_json_file' && d.severity === 'error') {
      diagnostics[i] = { ...d, severity: 'warning', message: MESSAGES.invalidJsonOnReload(d.message) };
    }
  }
}

async function loadMiddleware(
  e: PathEntry,
  index: number,
  rootDecode: DecodeContext,
  mode: ReadMode,
): Promise<{ diagnostics: Diagnostic[]; script?: MiddlewareScript }> {
  const read = await readTextFile(e.path, mode.track);
  const at = ['service', 'middlewares', index];
  if (read.kind === 'missing') report(rootDecode, 'file_not_found', MESSAGES.scriptMissing(e.entry), e.offset, at);
  if (read.kind === 'unreadable')
    report(rootDecode, 'file_unreadable', MESSAGES.scriptUnreadable(e.entry, read.reason), e.offset, at);
  if (read.kind !== 'ok') return { diagnostics: [] };
  // The interpreter is loaded only when a workspace has scripts: commands on script-less workspaces start faster.
  const { compile, ScriptError } = await import('../interpreter/index.js');
  try {
    const script = compile(read.text, e.path);
    return { diagnostics: [], script: { file: e.path, entry: e.entry, dir: dirOf(e.path), script } };
  } catch (caught) {
    const d: Diagnostic =
      caught instanceof ScriptError
        ? {
            severity: 'error',
            code: 'script_syntax',
            message: MESSAGES.scriptSyntax(caught.message),
            file: e.path,
            line: caught.line,
            column: caught.column,
          }
        : { severity: 'error', code: 'script_syntax', message: MESSAGES.scriptSyntax(String(caught)), file: e.path };
    return { diagnostics: [d] };
  }
}

function unreadable(entry: string, file: string, read: Exclude<TextRead, { kind: 'ok' }>): LoadFailure {
  const d: Diagnostic =
    read.kind === 'missing'
      ? { severity: 'error', code: 'file_not_found', message: MESSAGES.configMissing(entry), file }
      : { severity: 'error', code: 'file_unreadable', message: MESSAGES.configUnreadable(entry, read.reason), file };
  return { kind: 'config_unreadable', message: d.message, diagnostics: [d] };
}

function failure(diagnostics: readonly Diagnostic[]): Result<never, LoadFailure> {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  return err({ kind: 'config_invalid', message: MESSAGES.loadFailed(errors), diagnostics });
}

/** Freeze plain objects and arrays all the way down (compiled RegExps and scripts are left alone). */
function freezeDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  Object.freeze(value);
  for (const child of Object.values(value)) freezeDeep(child);
  return value;
}
