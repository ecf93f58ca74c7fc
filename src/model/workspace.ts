// Workspace: what loading produces and dispatch consumes. Immutable after load.
import type { Script } from '../interpreter/index.js';
import type { Collection } from './collection.js';
import type { Config } from './config.js';
import type { Diagnostic } from './diagnostic.js';
import type { RuleSet } from './rule-set.js';

export interface MiddlewareScript {
  /** absolute */
  readonly file: string;
  /** as written in service.middlewares */
  readonly entry: string;
  /** absolute directory of the script: relative returned paths resolve (and stay) here */
  readonly dir: string;
  readonly script: Script;
}

export interface CorsPolicy {
  /** exact origins from service.cors_allow_credentials_origins */
  readonly allowedOrigins: readonly string[];
}

export interface DenyPolicy {
  /** glob patterns relative to the fallback directory */
  readonly patterns: readonly string[];
  /** absolute files denied by name (the TLS certificate and key, under the default list) */
  readonly files: readonly string[];
  readonly isDefault: boolean;
}

export interface Workspace {
  /** absolute, when a config file was loaded */
  readonly configFile?: string;
  /** directory paths resolve against (the config's folder, else the cwd) */
  readonly baseDir: string;
  readonly config: Config;
  readonly middlewares: readonly MiddlewareScript[];
  readonly ruleSets: readonly RuleSet[];
  /** absolute */
  readonly fallbackDir: string;
  readonly cors: CorsPolicy;
  /** what file routing never serves (docs/files-and-rules.md, "Never served"); undefined: nothing is denied */
  readonly deny?: DenyPolicy;
  /** load warnings (e.g. a body path starting with `$.`) */
  readonly warnings: readonly Diagnostic[];
  /** every collection (docs/state.md): the rule sets' `[[collections]]` in order, then the db file's; absent: none */
  readonly collections?: readonly Collection[];
}
