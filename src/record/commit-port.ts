// The port through which record mode appends a rule: the server side (server/record/recorder.ts) calls it, the
// CLI supplies it (launch/record/rules.ts: `set rule`'s planner, load check and atomic commit), so the
// server never imports config/. Types only.
import type { Method } from '../model/operators.js';
import type { HeaderList } from '../shared/headers.js';
import type { Result } from '../shared/result.js';

export type AppendBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'text'; readonly text: string }
  /** a body file under the fallback directory: `abs` written already (or, in a dry run, about to be) */
  | { readonly kind: 'file'; readonly abs: string; readonly bytes: Uint8Array }
  /** a stream file (`.sse`, `.ndjson`) under the fallback directory, written already: `respond.stream.file_path` */
  | { readonly kind: 'stream'; readonly abs: string; readonly bytes: Uint8Array; readonly intervalMs?: number }
  /** a WebSocket connection's frames as a script (`{ after_ms, send }` lines), written already: respond.websocket.script */
  | { readonly kind: 'websocket'; readonly abs: string; readonly bytes: Uint8Array };

export interface RuleToAppend {
  /** exact url_path */
  readonly urlPath: string;
  readonly method: Method;
  /** `query` conditions (name, value), decoded; absent or empty: none */
  readonly query?: readonly (readonly [string, string])[];
  /** undefined: 200 */
  readonly status?: number;
  readonly body: AppendBody;
  /** respond.headers, lower-cased names */
  readonly headers: HeaderList;
}

export interface AppendedRule {
  /** 1-based, as `would append rule #3` shows it */
  readonly ruleNumber: number;
  /** the rule set as shown (e.g. `mock-recorded.toml`) */
  readonly ruleSet: string;
}

/** Append one rule (a dry-run committer plans it and remembers it, writing nothing); Err: why not, one line. */
export type CommitRule = (rule: RuleToAppend) => Promise<Result<AppendedRule, string>>;
