// `respond.json` text → minified JSON text, read by the transcoder that serves .json5 files (files/json5.ts):
// JSON or JSON5 (comments, unquoted keys, trailing commas), key order kept as written and integers exact, beyond
// 2^53 too. Integers beyond 64 bits and Infinity/NaN are refused.
import { Json5Error, Json5NonFiniteError, Json5RangeError, json5ToJson } from '../files/json5.js';
import { lineColumnAt } from '../shared/position.js';
import { err, ok, type Result } from '../shared/result.js';

export type JsonLiteralProblem =
  | { readonly kind: 'syntax'; readonly reason: string }
  | { readonly kind: 'out_of_range'; readonly literal: string }
  | { readonly kind: 'not_finite' };

/** what a 64-bit integer holds, signed or not */
const INTEGER_RANGE = { min: -(1n << 63n), max: (1n << 64n) - 1n } as const;

export function minifyJsonLiteral(text: string): Result<string, JsonLiteralProblem> {
  try {
    return ok(json5ToJson(text, { nonFinite: 'refuse', integerRange: INTEGER_RANGE }));
  } catch (e) {
    if (e instanceof Json5NonFiniteError) return err({ kind: 'not_finite' });
    if (e instanceof Json5RangeError) return err({ kind: 'out_of_range', literal: e.literal });
    if (e instanceof Json5Error) {
      const { line, column } = lineColumnAt(text, e.offset);
      return err({ kind: 'syntax', reason: `${e.message} at line ${line} column ${column}` });
    }
    throw e;
  }
}
