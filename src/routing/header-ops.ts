// Header conditions: the eleven value operators plus exists / absent (docs/reference/operators.md).
// Every value operator on a missing header is false, negations included; a repeated header counts
// by its first value; exists / absent look only at presence (an empty value still exists).
import type { HeaderList } from '../model/request.js';
import type { HeaderCondition } from '../model/rule-set.js';
import { testString } from './string-ops.js';

/** The first value of a header; `name` is lower-case, as request header names are. */
export function firstHeaderValue(headers: HeaderList, name: string): string | undefined {
  for (const [k, v] of headers) if (k === name) return v;
  return undefined;
}

export function testHeader(cond: HeaderCondition, actual: string | undefined): boolean {
  switch (cond.op) {
    case 'exists':
      return actual !== undefined;
    case 'absent':
      return actual === undefined;
    default:
      return actual !== undefined && testString(cond.op, actual, cond.value, cond.pattern);
  }
}
