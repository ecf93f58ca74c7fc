// Header conditions: the eleven value operators plus exists / absent (docs/reference/operators.md).
// Every value operator on a missing header is false, negations included; a repeated header counts
// by its first value; exists / absent look only at presence (an empty value still exists).
import type { HeaderList } from '../model/request.js';
import type { FieldCondition, HeaderCondition } from '../model/rule-set.js';
import { dateHolds } from '../shared/date-match.js';
import { testString } from './string-ops.js';

/** The first value of a header; `name` is lower-case, as request header names are. */
export function firstHeaderValue(headers: HeaderList, name: string): string | undefined {
  for (const [k, v] of headers) if (k === name) return v;
  return undefined;
}

/** Every value of a header, in arrival order (includes / has_exactly look at them all). */
export function allHeaderValues(headers: HeaderList, name: string): readonly string[] | undefined {
  let out: string[] | undefined;
  for (const [k, v] of headers) if (k === name) (out ??= []).push(v);
  return out;
}

export function testHeader(cond: HeaderCondition, actual: string | undefined): boolean {
  switch (cond.op) {
    case 'exists':
      return actual !== undefined;
    case 'absent':
      return actual === undefined;
    default:
      return actual !== undefined && testValue(cond, actual);
  }
}

/** A value operator (not exists / absent, nor includes / has_exactly) on one present value. */
export function testValue(cond: HeaderCondition | FieldCondition, actual: string): boolean {
  switch (cond.op) {
    case 'exists':
    case 'absent':
    case 'includes':
    case 'has_exactly':
      return false;
    case 'before':
    case 'after':
    case 'equal_date_time':
      return cond.date !== undefined && dateHolds(cond.op, actual, cond.date, Date.now());
    default:
      return testString(cond.op, actual, cond.value, cond.pattern);
  }
}

/** includes: each wanted value is among the request's; has_exactly: the request's are those, in any order. */
export function testValues(cond: HeaderCondition | FieldCondition, actual: readonly string[] | undefined): boolean {
  const want = cond.values;
  if (actual === undefined || want === undefined) return false;
  if (cond.op === 'has_exactly' && actual.length !== want.length) return false;
  const left = [...actual];
  for (const w of want) {
    const i = left.indexOf(w);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}
