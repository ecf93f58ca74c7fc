// The journal API's query string → a RequestFilter, strictly: an unknown or repeated parameter is an error
// (a typo that silently widened the filter would make a verification lie), and every problem is reported.
import { suggest } from '../shared/did-you-mean.js';
import { err, ok, type Result } from '../shared/result.js';
import { STAGE_FILTER_VALUES, type StageFilterValue } from './entry.js';
import { filterProblems, type RequestFilter } from './filter.js';
import { linearRegex, patternExcerpt } from '../shared/linear-regex.js';

export const REQUESTS_PARAMS = [
  'path',
  'path_regex',
  'method',
  'since',
  'stage',
  'rule_set',
  'rule',
  'limit',
  'session',
] as const;

export const QUERY_MESSAGES = {
  unknown: (name: string, hint: string | undefined) =>
    `unknown parameter '${name}'${hint ? ` (did you mean '${hint}'?)` : ''}; expected: ${REQUESTS_PARAMS.join(', ')}`,
  repeated: (name: string) => `parameter '${name}' is given more than once`,
  pathBoth: 'give path or path_regex, not both',
  regex: (message: string) => `path_regex is not a valid regular expression: ${message}`,
  regexRefused: (pattern: string, message: string) =>
    `path_regex ${pattern} is not taken: a pattern from a request is matched in linear time (RE2 syntax: no backreferences, lookahead or lookbehind, repeats at most 1000 times): ${message}`,
  since: (v: string) => `since must be an entry id or an ISO 8601 time (got '${v}')`,
  wholeNumber: (name: string, v: string) => `${name} must be a whole number (got '${v}')`,
  ruleAlone: 'rule needs rule_set (the rule set it belongs to)',
  empty: (name: string) => `parameter '${name}' is empty`,
} as const;

const DIGITS = /^\d{1,15}$/;

export function filterFromQuery(query: string): Result<RequestFilter, readonly string[]> {
  const params = new URLSearchParams(query);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (!(REQUESTS_PARAMS as readonly string[]).includes(name))
      problems.push(QUERY_MESSAGES.unknown(name, suggest(name, REQUESTS_PARAMS)));
    else if (seen.has(name)) problems.push(QUERY_MESSAGES.repeated(name));
    else if (value === '') problems.push(QUERY_MESSAGES.empty(name));
    seen.add(name);
  }
  if (problems.length > 0) return err(problems);
  const get = (name: (typeof REQUESTS_PARAMS)[number]): string | undefined => params.get(name) ?? undefined;
  const filter: { -readonly [K in keyof RequestFilter]: RequestFilter[K] } = {};

  const path = get('path');
  const pathRegex = get('path_regex');
  if (path !== undefined && pathRegex !== undefined) problems.push(QUERY_MESSAGES.pathBoth);
  else if (path !== undefined) filter.path = path;
  else if (pathRegex !== undefined) {
    // a pattern from the request: matched in linear time (shared/linear-regex.ts; the route loads the engine first)
    const re = linearRegex(pathRegex, { jsFlags: 'u' });
    if ('invalid' in re) problems.push(QUERY_MESSAGES.regex(re.invalid));
    else if ('refused' in re) problems.push(QUERY_MESSAGES.regexRefused(patternExcerpt(pathRegex), re.refused));
    else filter.path = re;
  }
  const method = get('method');
  if (method !== undefined) filter.method = method;
  const session = get('session');
  if (session !== undefined) filter.session = session;
  const since = get('since');
  if (since !== undefined) {
    if (DIGITS.test(since)) filter.since = Number(since);
    else if (/^\d{4}-\d{2}-\d{2}/.test(since) && !Number.isNaN(Date.parse(since))) filter.since = new Date(since);
    else problems.push(QUERY_MESSAGES.since(since));
  }
  const stage = get('stage');
  if (stage !== undefined) filter.stage = stage as StageFilterValue; // checked with the rest below
  const ruleSet = get('rule_set');
  const rule = get('rule');
  if (rule !== undefined && ruleSet === undefined) problems.push(QUERY_MESSAGES.ruleAlone);
  else if (ruleSet !== undefined) {
    const r: { ruleSet: number | string; rule?: number } = {
      ruleSet: DIGITS.test(ruleSet) ? Number(ruleSet) : ruleSet,
    };
    if (rule !== undefined) {
      if (DIGITS.test(rule)) r.rule = Number(rule);
      else problems.push(QUERY_MESSAGES.wholeNumber('rule', rule));
    }
    filter.rule = r;
  }
  const limit = get('limit');
  if (limit !== undefined) {
    if (DIGITS.test(limit)) filter.limit = Number(limit);
    else problems.push(QUERY_MESSAGES.wholeNumber('limit', limit));
  }
  problems.push(...filterProblems(filter, STAGE_FILTER_VALUES));
  return problems.length > 0 ? err(problems) : ok(filter);
}
