// The string operators shared by url_path and header conditions (docs/reference/operators.md).
// Patterns (regex, wild_card) arrive compiled from the loader; nothing is compiled here.
import type { StringOp } from '../model/operators.js';
import { assertNever } from '../shared/result.js';

/** The eleven value operators: url_path adds path_template; headers, query, cookies, params and forms add exists / absent. */
export type { StringOp };

/**
 * Test one value operator on a present value.
 * `operand` is what equal / starts_with / ends_with / contains (and negations) compare with.
 * `pattern` is the compiled regex or wild card (the loader anchors wild cards to the whole string).
 * A missing pattern counts as an invalid one: regex and wild_card are false, not_regex is true.
 */
export function testString(op: StringOp, actual: string, operand: string, pattern: RegExp | undefined): boolean {
  switch (op) {
    case 'equal':
      return actual === operand;
    case 'not_equal':
      return actual !== operand;
    case 'starts_with':
      return actual.startsWith(operand);
    case 'not_starts_with':
      return !actual.startsWith(operand);
    case 'ends_with':
      return actual.endsWith(operand);
    case 'not_ends_with':
      return !actual.endsWith(operand);
    case 'contains':
      return actual.includes(operand);
    case 'not_contains':
      return !actual.includes(operand);
    case 'wild_card':
    case 'regex':
      return pattern !== undefined && testPattern(pattern, actual);
    case 'not_regex':
      return !(pattern !== undefined && testPattern(pattern, actual));
    default:
      return assertNever(op, 'string operator');
  }
}

/** RegExp.test without the lastIndex trap of /g and /y patterns (resetting it is cheaper than asking for the flags). */
export function testPattern(pattern: RegExp, s: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(s);
}
