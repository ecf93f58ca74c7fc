// Regular expressions that a request supplies (a collection's `_like` filter, the journal's `path_regex`) are
// matched by RE2's linear-time engine (re2js), never by JavaScript's backtracking one: there one pattern such as
// `^(a+)+$` holds the server's only thread for minutes. re2js (260 KB of source, bundled apart) is loaded with the
// first such pattern: loadLinearRegex() first, then linearRegex() compiles synchronously.
import type { RE2JS } from 're2js';

let engine: typeof import('re2js') | undefined;
let loading: Promise<void> | undefined;

export function linearRegexLoaded(): boolean {
  return engine !== undefined;
}

export function loadLinearRegex(): Promise<void> {
  return (loading ??= import('re2js').then((m) => {
    engine = m;
  }));
}

/** A pattern compiled for linear-time matching. */
export interface LinearRegex {
  test(text: string): boolean;
}

/**
 * `pattern` compiled (loadLinearRegex() must have settled), or why it is not taken: JavaScript's message for a
 * pattern that is no regular expression at all, RE2's for one it refuses (backreferences, lookahead, lookbehind, a
 * repeat count over 1,000).
 */
export function linearRegex(
  pattern: string,
  opts: { readonly ignoreCase?: boolean; readonly jsFlags?: string } = {},
): LinearRegex | { readonly invalid: string } | { readonly refused: string } {
  try {
    // the syntax check the pattern always had (jsFlags: the flags it was checked with)
    new RegExp(pattern, opts.jsFlags ?? '');
  } catch (e) {
    return { invalid: (e as Error).message };
  }
  if (engine === undefined) throw new Error('linearRegex() before loadLinearRegex() settled');
  let re: RE2JS;
  try {
    re = engine.RE2JS.compile(pattern, opts.ignoreCase === true ? engine.RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    return { refused: (e as Error).message };
  }
  return { test: (text) => re.matcher(text).find() };
}

/** at most 64 characters of a pattern, for a message */
export function patternExcerpt(v: string): string {
  return JSON.stringify(v.length > 64 ? `${v.slice(0, 64)}…` : v);
}
