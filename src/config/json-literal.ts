// `respond.json` text → minified JSON text, key order kept, as apimock-rs serves it.
// Strict JSON is tried first (integers stay exact, beyond 2^53 too); otherwise the text is read as JSON5
// (comments, unquoted keys, trailing commas). Integers beyond 64 bits and Infinity/NaN are refused.
import JSON5 from 'json5';
import { parseJson, stringifyJson, type Json } from '../shared/json.js';
import { err, ok, type Result } from '../shared/result.js';

export type JsonLiteralProblem =
  | { readonly kind: 'syntax'; readonly reason: string }
  | { readonly kind: 'out_of_range'; readonly literal: string }
  | { readonly kind: 'not_finite' };

const I64_MIN = -(1n << 63n);
const U64_MAX = (1n << 64n) - 1n;

export function minifyJsonLiteral(text: string): Result<string, JsonLiteralProblem> {
  let value: Json;
  try {
    value = parseJson(text);
  } catch {
    const big = outOfRangeInteger(text);
    if (big !== undefined) return err({ kind: 'out_of_range', literal: big });
    try {
      value = JSON5.parse<Json>(text);
    } catch (e) {
      return err({ kind: 'syntax', reason: json5Reason(e) });
    }
  }
  const problem = findProblem(value);
  if (problem !== undefined) return err(problem);
  return ok(stringifyJson(value));
}

function findProblem(v: Json): JsonLiteralProblem | undefined {
  if (typeof v === 'bigint') return v < I64_MIN || v > U64_MAX ? { kind: 'out_of_range', literal: v.toString() } : undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : { kind: 'not_finite' };
  if (typeof v !== 'object' || v === null) return undefined;
  for (const child of Array.isArray(v) ? v : Object.values(v)) {
    const p = findProblem(child as Json);
    if (p !== undefined) return p;
  }
  return undefined;
}

/**
 * The first decimal integer literal outside [-2^63, 2^64) in JSON5 text, skipping strings and comments
 * (JSON5 itself reads such literals as imprecise doubles).
 */
export function outOfRangeInteger(text: string): string | undefined {
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (/[-+0-9]/.test(c) && !/[\w$.]/.test(text[i - 1] ?? ' ')) {
      const m = /^[-+]?\d+(?![\w.])/.exec(text.slice(i, i + 400));
      if (m !== null) {
        const n = BigInt(m[0].replace(/^\+/, ''));
        if (n < I64_MIN || n > U64_MAX) return m[0];
        i += m[0].length;
      } else i++;
    } else i++;
  }
  return undefined;
}

function json5Reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^JSON5: /, '');
}
