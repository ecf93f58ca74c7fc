// The vocabulary of `set rule` planning: the flags as data, the files, the changes reported, the
// failures, and every message the planner can give.
import type { ErrorKind } from '../../model/errors.js';
import type { Method } from '../../model/operators.js';

export const BODY_KINDS = ['file_path', 'text', 'json'] as const;
export type BodyKind = (typeof BODY_KINDS)[number];

export interface HeaderArg {
  /** lower-cased */
  readonly name: string;
  readonly value: string;
}

/** A query, cookie, path-parameter or form-field condition (written `name = "value"`, op equal). */
export interface FieldArg {
  readonly on: 'query' | 'cookies' | 'params' | 'form';
  /** as written, compared exactly */
  readonly name: string;
  readonly value: string;
}

/** The flags of `set rule`, already validated one by one. */
export interface SetRuleArgs {
  /** 0-based; undefined = add a new rule */
  readonly ruleIndex?: number;
  readonly urlPath?: string;
  /** write urlPath as `{ value, op = "path_template" }` (`/users/{id}`) */
  readonly pathTemplate?: boolean;
  readonly method?: Method;
  readonly headers: readonly HeaderArg[];
  /** query, cookies, params and body.form conditions, layered onto the rule's others */
  readonly fields?: readonly FieldArg[];
  /** a `body.text` `contains` condition */
  readonly bodyContains?: string;
  readonly status?: number;
  /** `value` is written as given (for file_path: already relative to the config's folder) */
  readonly body?: { readonly kind: BodyKind; readonly value: string };
  /** respond.headers entries (names lower-cased), written after the body; record mode's kept headers */
  readonly respondHeaders?: readonly HeaderArg[];
  readonly delayMs?: number;
  /** write `respond.template = true` (docs/templates.md) */
  readonly template?: boolean;
  /**
   * respond.stream (a new rule only: record mode's recorded streams): `path` as `file_path` is given (relative to
   * the config's folder once planned), `intervalMs` the NDJSON lines' pause
   */
  readonly stream?: { readonly path: string; readonly intervalMs?: number };
  /** respond.websocket.script (a new rule only: record mode's recorded WebSocket connections), as `stream.path` */
  readonly websocketScript?: string;
}

export interface FileState {
  /** absolute */
  readonly abs: string;
  /** as shown to the user (cwd-relative) */
  readonly shown: string;
  /** undefined when the file does not exist */
  readonly text: string | undefined;
}

export interface FileWrite {
  readonly abs: string;
  readonly shown: string;
  /** undefined: the file is created */
  readonly before: string | undefined;
  readonly after: string;
}

export const CHANGE_KINDS = ['Added', 'Updated'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface Change {
  readonly kind: ChangeKind;
  readonly summary: string;
  readonly target: string;
}

export interface PlanFailure {
  readonly kind: ErrorKind;
  readonly message: string;
}

const BT = '`';
const q = (s: string): string => BT + s + BT;

/** Every message `set rule` planning can give, in one place. */
export const SET_RULE_MESSAGES = {
  nothingToChange: () =>
    'nothing to change — give at least one of --path, --method, --status, --json/--text, --file, --delay, --header, --query, --cookie, --form, --param or --body-contains',
  streamOnNewRule: () => 'respond.stream is written on a new rule only (record mode appends one per recorded stream)',
  nothingToRespond: () => 'nothing to respond with — give at least one of --status, --json/--text or --file',
  nothingToMatch: () =>
    'nothing to match on — give --path or --path-template (and optionally --method, --header, --query, --cookie, --form or --body-contains) for a new rule',
  noSuchRule: (n: number, count: number) =>
    `no such rule: --rule ${n} is 0-based (rule #${n + 1}), and this rule set has ${count} rule${count === 1 ? '' : 's'}` +
    (count === 0 ? '' : ` (--rule 0 to --rule ${count - 1})`),
  notListed: (shown: string) => `no such rule set ${q(shown)} — it is not in service.rule_sets`,
  notListedNoConfig: (shown: string, config: string) =>
    `no such rule set ${q(shown)} — there is no config at ${q(config)} to list it`,
  syntax: (shown: string, line: number, column: number, message: string) => `${shown}:${line}:${column}: ${message}`,
  rulesNotTables: (shown: string) =>
    `${q(shown)} writes \`rules\` as something other than [[rules]] tables; set rule edits only [[rules]] tables`,
  ruleSetsNotList: (shown: string) => `${q(shown)}: service.rule_sets must be an array of file paths`,
  unsafe: (shown: string) => `cannot edit ${q(shown)} without disturbing the rest of the file; nothing was written`,
} as const;
