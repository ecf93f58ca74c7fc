// Journal queries: which entries a filter selects. A filter is compiled once per query (the method upper-cased,
// a global or sticky RegExp made stateless) and then tested against each entry, oldest first.
import type { EntryRow, StageFilterValue } from './entry.js';
import type { LinearRegex } from '../shared/linear-regex.js';

export interface RuleFilter {
  /** 0-based index in service.rule_sets, or the rule set's file as `matched.ruleSetFile` shows it */
  readonly ruleSet: number | string;
  /** 0-based index within the rule set; left out: any rule of it */
  readonly rule?: number;
}

export interface RequestFilter {
  /**
   * the exact canonical path (as rules see it: `/api/users`, no query), or a pattern tested against it: the
   * library's RegExp, or the HTTP API's path_regex, matched in linear time (shared/linear-regex.ts)
   */
  readonly path?: string | RegExp | LinearRegex;
  /** compared case-insensitively */
  readonly method?: string;
  /** entries after this id (a cursor: the journal's `lastId`), or received at or after this time */
  readonly since?: number | Date;
  /** a `stage` value (`rule_set`, `dyn_route`, `refused`, …) or an answeredBy kind (`fallback`, `miss`, `proxied`) */
  readonly stage?: StageFilterValue;
  /** what that rule answered */
  readonly rule?: RuleFilter;
  /** only this session's requests (docs/library.md#sessions) */
  readonly session?: string;
  /** entries after this id; unlike `since`, never an overflow error (a session's view after its last reset) */
  readonly after?: number;
  /** at most this many entries (the oldest that match) */
  readonly limit?: number;
}

export type EntryTest = (entry: EntryRow) => boolean;

export function compileFilter(f: RequestFilter): EntryTest {
  const tests: EntryTest[] = [];
  const { path, method, since, stage, rule, session, after } = f;
  if (session !== undefined) tests.push((e) => e.session === session);
  if (after !== undefined && after > 0) tests.push((e) => e.id > after);
  if (typeof path === 'string') tests.push((e) => e.request.path === path);
  else if (path instanceof RegExp) {
    const re = path.global || path.sticky ? new RegExp(path.source, path.flags.replace(/[gy]/g, '')) : path;
    tests.push((e) => re.test(e.request.path));
  } else if (path !== undefined) tests.push((e) => path.test(e.request.path));
  if (method !== undefined) {
    const m = method.toUpperCase();
    tests.push((e) => e.request.method === m);
  }
  if (typeof since === 'number') tests.push((e) => e.id > since);
  else if (since instanceof Date) {
    const t = since.getTime();
    tests.push((e) => e.receivedAt.getTime() >= t);
  }
  if (stage !== undefined) tests.push((e) => e.stage === stage || e.answeredBy.kind === stage);
  if (rule !== undefined) {
    tests.push((e) => {
      const m = e.matched;
      if (m === null) return false;
      const setOk = typeof rule.ruleSet === 'number' ? m.ruleSetIndex === rule.ruleSet : m.ruleSetFile === rule.ruleSet;
      return setOk && (rule.rule === undefined || m.ruleIndex === rule.rule);
    });
  }
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0]!;
  return (e) => tests.every((t) => t(e));
}

/** `METHOD path → status (stage)`: how an entry reads in a message. */
export function entryLine(e: EntryRow): string {
  return `${e.request.method} ${e.request.path} \u2192 ${e.response.status} (${e.stage})`;
}

/** The filter as a short text for messages: `{ path: '/x', method: 'POST' }`. */
export function describeFilter(f: RequestFilter): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined) continue;
    const shown =
      v instanceof RegExp
        ? String(v)
        : v instanceof Date
          ? v.toISOString()
          : typeof v === 'object'
            ? JSON.stringify(v)
            : JSON.stringify(v);
    parts.push(`${k}: ${shown}`);
  }
  return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
}

export const FILTER_MESSAGES = {
  limit: (v: unknown) => `limit must be a whole number of 1 or more (got ${String(v)})`,
  since: (v: unknown) => `since must be an entry id (a whole number of 0 or more) or a valid Date (got ${String(v)})`,
  stage: (v: unknown, allowed: readonly string[]) =>
    `unknown stage '${String(v)}' (expected one of: ${allowed.join(', ')})`,
  ruleSet: (v: unknown) => `rule.ruleSet must be a 0-based index or a rule set file (got ${String(v)})`,
  rule: (v: unknown) => `rule.rule must be a 0-based index (got ${String(v)})`,
  path: (v: unknown) => `path must be a string or a RegExp (got ${String(v)})`,
  method: (v: unknown) => `method must be a string (got ${String(v)})`,
  session: (v: unknown) => `session must be a non-empty string (got ${String(v)})`,
} as const;

/** a pattern with a test method (the HTTP API's linear-time path_regex) */
const isPattern = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && typeof (v as { test?: unknown }).test === 'function';

const isIndex = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** What is wrong with a filter given from untyped code (the library's JavaScript callers), one message each. */
export function filterProblems(f: RequestFilter, stages: readonly string[]): string[] {
  const out: string[] = [];
  const { path, method, since, stage, rule, limit, session } = f;
  if (session !== undefined && (typeof session !== 'string' || session === ''))
    out.push(FILTER_MESSAGES.session(session));
  if (path !== undefined && typeof path !== 'string' && !(path instanceof RegExp) && !isPattern(path))
    out.push(FILTER_MESSAGES.path(path));
  if (method !== undefined && typeof method !== 'string') out.push(FILTER_MESSAGES.method(method));
  if (since !== undefined && !(isIndex(since) || (since instanceof Date && !Number.isNaN(since.getTime()))))
    out.push(FILTER_MESSAGES.since(since));
  if (stage !== undefined && !stages.includes(stage)) out.push(FILTER_MESSAGES.stage(stage, stages));
  if (rule !== undefined) {
    if (!(isIndex(rule.ruleSet) || (typeof rule.ruleSet === 'string' && rule.ruleSet !== '')))
      out.push(FILTER_MESSAGES.ruleSet(rule.ruleSet));
    if (rule.rule !== undefined && !isIndex(rule.rule)) out.push(FILTER_MESSAGES.rule(rule.rule));
  }
  if (limit !== undefined && !(isIndex(limit) && limit >= 1)) out.push(FILTER_MESSAGES.limit(limit));
  return out;
}
