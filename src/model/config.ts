// The root config (docs/reference/mock-toml.md) with every default applied, and the DEFAULTS table.
import type { DelaySpec } from './answer.js';
import type { Strategy } from './strategy.js';
import type { DbOptions } from './collection.js';

export interface TlsConfig {
  /** absolute, resolved against the process's current directory */
  readonly cert: string;
  readonly key: string;
  /** as written, for messages */
  readonly certEntry: string;
  readonly keyEntry: string;
  /** when set: plain HTTP on listener.port and HTTPS on this port; else listener.port is HTTPS only */
  readonly port?: number;
  readonly handshakeTimeoutSeconds: number;
  readonly maxConnections: number;
}

export interface Config {
  readonly listener: {
    readonly ipAddress: string;
    readonly port: number;
    readonly tls?: TlsConfig;
    /** working connections on the plain HTTP listener before further ones queue (absent: DEFAULTS.plainMaxConnections) */
    readonly maxConnections?: number;
    /** connections per listener whose answers wait: a delay, a timeout fault, a stream (absent: DEFAULTS.maxHeldConnections) */
    readonly maxHeldConnections?: number;
    /** `listener.http2` (docs/http2.md): absent, h2 over TLS only; true, h2c on the plain listener too; false, HTTP/1.1 only */
    readonly http2?: boolean;
    /** `listener.http2_max_streams` (absent: DEFAULTS.http2MaxStreams) */
    readonly http2MaxStreams?: number;
  };
  readonly service: {
    /** absolute paths, in listed order */
    readonly ruleSets: readonly string[];
    /** the entries as written */
    readonly ruleSetEntries: readonly string[];
    readonly middlewares: readonly string[];
    readonly middlewareEntries: readonly string[];
    /** absolute */
    readonly fallbackRespondDir: string;
    readonly strategy: Strategy;
    readonly corsAllowCredentialsOrigins: readonly string[];
    readonly maxRequestBodyBytes: number;
    readonly middlewareMaxOperations: number;
    /** `service.middleware_max_memory_bytes` (absent: the default) */
    readonly middlewareMaxMemoryBytes?: number;
    /** `service.max_json_depth`: a JSON body nested deeper is refused with 413 (absent: the default) */
    readonly maxJsonDepth?: number;
    /** `service.max_json_members`: a JSON body holding more values is refused with 413 (absent: the default) */
    readonly maxJsonMembers?: number;
    /** `service.seed`: the workspace's one random generator starts here (dispatch/workspace-random.ts: response
     * templates and random delays draw from it); absent: unseeded */
    readonly seed?: bigint;
    /** `service.contract`: the OpenAPI document requests and answers are checked against (absolute; docs/contract.md) */
    readonly contract?: string;
    /** `service.contract_mode`; absent: enforce */
    readonly contractMode?: 'enforce' | 'warn';
    /** a delay for every rule and file answer whose rule sets none */
    readonly delay?: DelaySpec;
    /** how long a `timeout` fault holds its connection (absent: DEFAULTS.faultHoldMs) */
    readonly faultHoldMs?: number;
    /** `service.db` (absolute): a json-server style data file (docs/state.md) */
    readonly db?: string;
    /** `service.db_persist`: write the db file's changes back */
    readonly dbPersist?: boolean;
    /** the json-server flags of `--db` (model/collection.ts); absent: json-server's defaults */
    readonly dbOptions?: DbOptions;
    /** `service.collection_max_items` (absent: DEFAULTS.collectionMaxItems) */
    readonly collectionMaxItems?: number;
    /** `service.collection_max_depth` (absent: DEFAULTS.collectionMaxDepth) */
    readonly collectionMaxDepth?: number;
    /** service.deny as written; undefined: DEFAULTS.deny and the TLS files (docs/files-and-rules.md, "Never served") */
    readonly deny?: readonly string[];
    /** `service.sessions = true` (docs/library.md#sessions); absent: sessions are off and their header means nothing */
    readonly sessions?: SessionConfig;
    /** `service.callback_hosts` as written; absent: loopback and the hosts callback URLs name literally */
    readonly callbackHosts?: readonly string[];
    /** `service.callback_max` (absent: DEFAULTS.callbackMax) */
    readonly callbackMax?: number;
    /** `service.callback_shutdown` (absent: DEFAULTS.callbackShutdown) */
    readonly callbackShutdown?: 'wait' | 'cancel';
  };
  readonly log: {
    readonly verbose: { readonly header: boolean; readonly body: boolean };
  };
  readonly fileTreeView: {
    readonly showHidden: boolean;
    readonly builtinExcludes: boolean;
    readonly extraExcludes: readonly string[];
    readonly include: readonly string[];
    readonly respectGitignore: boolean;
  };
}

/** How requests name their session, and the bounds on sessions. */
export interface SessionConfig {
  /** lower-case */
  readonly header: string;
  /** a cookie that may carry the session instead (a browser app that does not forward headers) */
  readonly cookie?: string;
  readonly idleMs: number;
  readonly max: number;
}

export const DEFAULTS = {
  ipAddress: '127.0.0.1',
  port: 3001,
  handshakeTimeoutSeconds: 10,
  maxConnections: 256,
  plainMaxConnections: 512,
  maxHeldConnections: 4096,
  http2MaxStreams: 100,
  /** the most header bytes (names and values, HPACK-decoded) one HTTP/2 request may carry, as HTTP/1.1's limit */
  http2MaxHeaderListBytes: 16 * 1024,
  fallbackRespondDir: '.',
  maxRequestBodyBytes: 33554432,
  collectionMaxItems: 100_000,
  collectionMaxDepth: 64,
  middlewareMaxOperations: 10_000_000,
  middlewareMaxMemoryBytes: 64 * 1024 * 1024,
  maxJsonDepth: 128,
  maxJsonMembers: 50_000,
  faultHoldMs: 600_000,
  sessionHeader: 'x-mock-session',
  sessionIdleMs: 600_000,
  sessionMax: 1000,
  callbackMax: 10_000,
  callbackShutdown: 'wait',
  /** what file routing never serves unless service.deny says otherwise: secrets, keys, VCS metadata */
  deny: [
    '.env',
    '.env.*',
    '.npmrc',
    '.netrc',
    '.pgpass',
    '**/.git/**',
    '**/.hg/**',
    '**/.svn/**',
    '**/.ssh/**',
    '*.pem',
    '*.key',
    '*.crt',
    '*.p12',
    '*.pfx',
  ] as readonly string[],
  logVerboseHeader: false,
  logVerboseBody: false,
  fileTreeView: {
    showHidden: false,
    builtinExcludes: true,
    extraExcludes: [] as readonly string[],
    include: [] as readonly string[],
    respectGitignore: false,
  },
} as const;

export const ROOT_CONFIG_FILE = 'mock.toml';
export const RULE_SET_FILE = 'mock-rule-set.toml';
export const MIDDLEWARE_FILE = 'mock-middleware.rhai';
