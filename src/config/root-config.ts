// mock.toml → Config (docs/reference/mock-toml.md) with every default from DEFAULTS. Any table may be partial; unknown keys
// are errors at every level. Paths in [service] resolve against the config file's folder ("." included);
// TLS cert and key resolve against the process's current directory. The keys, types and bounds are the shape's
// (config/shapes/root.ts). Files are not touched here:
// the offsets of path entries are returned so that load.ts can point at them when a file is missing.
import { DEFAULTS, type Config, type TlsConfig } from '../model/config.js';
import { DEFAULT_STRATEGY } from '../model/strategy.js';
import { report, type DecodeContext } from './decode.js';
import { MESSAGES } from './messages.js';
import { dirOf, resolvePath } from './read.js';
import { rootShape } from './shapes/root.js';
import { parseTomlLazily } from './toml.js';

/** A path entry as written, with its absolute form and where it is in mock.toml. */
export interface PathEntry {
  readonly entry: string;
  readonly path: string;
  readonly offset: number;
}

export interface RootConfigDecode {
  readonly config: Config;
  readonly decode: DecodeContext;
  /** false when the TOML itself does not parse (then nothing else is known) */
  readonly parsed: boolean;
  readonly ruleSets: readonly PathEntry[];
  readonly middlewares: readonly PathEntry[];
  /** when written in the file */
  readonly fallbackDir?: PathEntry;
  readonly tlsCert?: PathEntry;
  readonly tlsKey?: PathEntry;
  /** service.db, when written */
  readonly db?: PathEntry;
}

/** The config with every default: what zero-config mode runs with. `baseDir` is where "." points. */
export function defaultConfig(baseDir: string): Config {
  return {
    listener: { ipAddress: DEFAULTS.ipAddress, port: DEFAULTS.port },
    service: {
      ruleSets: [],
      ruleSetEntries: [],
      middlewares: [],
      middlewareEntries: [],
      fallbackRespondDir: resolvePath(baseDir, DEFAULTS.fallbackRespondDir),
      strategy: DEFAULT_STRATEGY,
      corsAllowCredentialsOrigins: [],
      maxRequestBodyBytes: DEFAULTS.maxRequestBodyBytes,
      middlewareMaxOperations: DEFAULTS.middlewareMaxOperations,
    },
    log: { verbose: { header: DEFAULTS.logVerboseHeader, body: DEFAULTS.logVerboseBody } },
    fileTreeView: { ...DEFAULTS.fileTreeView },
  };
}

/** Decode mock.toml. `file` is absolute; `cwd` is where TLS paths resolve. */
export function decodeRootConfig(text: string, file: string, cwd: string): RootConfigDecode {
  const decode: DecodeContext = { file, text, diagnostics: [] };
  const configDir = dirOf(file);
  const defaults = defaultConfig(configDir);
  const parsed = parseTomlLazily(text);
  if (!parsed.ok) {
    const e = parsed.error;
    report(decode, 'toml_syntax', MESSAGES.tomlSyntax(e.message), e.offset, []);
    return { config: defaults, decode, parsed: false, ruleSets: [], middlewares: [] };
  }
  const t = rootShape(parsed.value, [], decode) ?? {};
  const inConfigDir = (e: { value: string; offset: number }): PathEntry => pathEntry(configDir, e);
  const inCwd = (e: { value: string; offset: number }): PathEntry => pathEntry(cwd, e);

  const ruleSets = (t.service?.rule_sets ?? []).map(inConfigDir);
  const middlewares = (t.service?.middlewares ?? []).map(inConfigDir);
  const fallbackDir =
    t.service?.fallback_respond_dir === undefined ? undefined : inConfigDir(t.service.fallback_respond_dir);
  const tlsIn = t.listener?.tls;
  const tlsCert = tlsIn?.cert === undefined ? undefined : inCwd(tlsIn.cert);
  const tlsKey = tlsIn?.key === undefined ? undefined : inCwd(tlsIn.key);

  let tls: TlsConfig | undefined;
  if (tlsCert !== undefined && tlsKey !== undefined) {
    tls = {
      cert: tlsCert.path,
      key: tlsKey.path,
      certEntry: tlsCert.entry,
      keyEntry: tlsKey.entry,
      ...(tlsIn?.port === undefined ? {} : { port: tlsIn.port }),
      handshakeTimeoutSeconds: tlsIn?.handshake_timeout_seconds ?? DEFAULTS.handshakeTimeoutSeconds,
      maxConnections: tlsIn?.max_connections ?? DEFAULTS.maxConnections,
    };
  }

  const s = t.service;
  const ftv = t.file_tree_view;
  const config: Config = {
    listener: {
      ipAddress: t.listener?.ip_address ?? DEFAULTS.ipAddress,
      port: t.listener?.port ?? DEFAULTS.port,
      ...(t.listener?.max_connections === undefined ? {} : { maxConnections: t.listener.max_connections }),
      ...(t.listener?.max_held_connections === undefined
        ? {}
        : { maxHeldConnections: t.listener.max_held_connections }),
      ...(t.listener?.http2 === undefined ? {} : { http2: t.listener.http2 }),
      ...(t.listener?.http2_max_streams === undefined ? {} : { http2MaxStreams: t.listener.http2_max_streams }),
      ...(tls === undefined ? {} : { tls }),
    },
    service: {
      ruleSets: ruleSets.map((e) => e.path),
      ruleSetEntries: ruleSets.map((e) => e.entry),
      middlewares: middlewares.map((e) => e.path),
      middlewareEntries: middlewares.map((e) => e.entry),
      fallbackRespondDir: fallbackDir?.path ?? defaults.service.fallbackRespondDir,
      strategy: s?.strategy ?? DEFAULT_STRATEGY,
      corsAllowCredentialsOrigins: s?.cors_allow_credentials_origins ?? [],
      maxRequestBodyBytes: s?.max_request_body_bytes ?? DEFAULTS.maxRequestBodyBytes,
      middlewareMaxOperations: s?.middleware_max_operations ?? DEFAULTS.middlewareMaxOperations,
      // absent: the default, applied where the limit is used
      ...(s?.middleware_max_memory_bytes === undefined
        ? {}
        : { middlewareMaxMemoryBytes: s.middleware_max_memory_bytes }),
      ...(s?.max_json_depth === undefined ? {} : { maxJsonDepth: s.max_json_depth }),
      ...(s?.max_json_members === undefined ? {} : { maxJsonMembers: s.max_json_members }),
      ...(s?.seed === undefined ? {} : { seed: s.seed }),
      ...(s?.delay === undefined ? {} : { delay: s.delay }),
      ...(s?.fault_hold_ms === undefined ? {} : { faultHoldMs: s.fault_hold_ms }),
      ...(s?.deny === undefined ? {} : { deny: s.deny }),
      ...(s?.db === undefined ? {} : { db: resolvePath(configDir, s.db.value) }),
      ...(s?.db_persist === true ? { dbPersist: true } : {}),
      ...(s?.db_style === 'v1' ? { dbOptions: { style: 'v1' as const } } : {}),
      ...(s?.collection_max_items === undefined ? {} : { collectionMaxItems: s.collection_max_items }),
      ...(s?.collection_max_depth === undefined ? {} : { collectionMaxDepth: s.collection_max_depth }),
      ...(s?.contract === undefined ? {} : { contract: inConfigDir(s.contract).path }),
      ...(s?.contract_mode === undefined ? {} : { contractMode: s.contract_mode }),
      ...(s?.callback_hosts === undefined ? {} : { callbackHosts: s.callback_hosts }),
      ...(s?.callback_max === undefined ? {} : { callbackMax: s.callback_max }),
      ...(s?.callback_shutdown === undefined ? {} : { callbackShutdown: s.callback_shutdown }),
      ...(s?.sessions === true
        ? {
            sessions: {
              header: (s.session_header ?? DEFAULTS.sessionHeader).toLowerCase(),
              ...(s.session_cookie === undefined ? {} : { cookie: s.session_cookie }),
              idleMs: s.session_idle_ms ?? DEFAULTS.sessionIdleMs,
              max: s.session_max ?? DEFAULTS.sessionMax,
            },
          }
        : {}),
    },
    log: {
      verbose: {
        header: t.log?.verbose?.header ?? DEFAULTS.logVerboseHeader,
        body: t.log?.verbose?.body ?? DEFAULTS.logVerboseBody,
      },
    },
    fileTreeView: {
      showHidden: ftv?.show_hidden ?? DEFAULTS.fileTreeView.showHidden,
      builtinExcludes: ftv?.builtin_excludes ?? DEFAULTS.fileTreeView.builtinExcludes,
      extraExcludes: ftv?.extra_excludes ?? DEFAULTS.fileTreeView.extraExcludes,
      include: ftv?.include ?? DEFAULTS.fileTreeView.include,
      respectGitignore: ftv?.respect_gitignore ?? DEFAULTS.fileTreeView.respectGitignore,
    },
  };
  return {
    config,
    decode,
    parsed: true,
    ruleSets,
    middlewares,
    ...(fallbackDir === undefined ? {} : { fallbackDir }),
    ...(tlsCert === undefined ? {} : { tlsCert }),
    ...(tlsKey === undefined ? {} : { tlsKey }),
    ...(s?.db === undefined ? {} : { db: inConfigDir(s.db) }),
  };
}

/** An entry resolved against `base`; its offset stays a getter, looked up only when a diagnostic points at it. */
function pathEntry(base: string, e: { value: string; offset: number }): PathEntry {
  return {
    entry: e.value,
    path: resolvePath(base, e.value),
    get offset() {
      return e.offset;
    },
  };
}
