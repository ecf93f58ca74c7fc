// Rhai's `timestamp` values (its `Instant`): subtraction of two gives f64 seconds (negative when
// the second is later), adding or subtracting a number of seconds moves it (floats to whole
// milliseconds, as Rhai does), and the six comparisons order them. Reading the clock (`timestamp()`,
// `elapsed`) is the builtins' business (builtins/time.ts): this module never looks at a clock.

import { RuntimeFault } from './errors.js';
import { floatToDisplay } from './format.js';
import type { BinaryOp } from './token.js';
import { Timestamp, type Value } from './values.js';

/** i64::MAX as f64, the largest number of seconds Rhai lets a timestamp move by */
const MAX_SECONDS = 9223372036854775807;

function overflow(what: 'add' | 'subtract', seconds: number): RuntimeFault {
  return new RuntimeFault('ErrorArithmetic', `Integer overflow for timestamp ${what}: ${floatToDisplay(seconds)}`, -1);
}

function shifted(t: Timestamp, seconds: Value, sign: 1 | -1): Timestamp | undefined {
  if (typeof seconds === 'bigint') return new Timestamp(t.ms + sign * Number(seconds) * 1000);
  if (typeof seconds !== 'number') return undefined;
  if (Math.abs(seconds) > MAX_SECONDS) throw overflow(seconds < 0 === sign < 0 ? 'add' : 'subtract', Math.abs(seconds));
  const ms = Math.trunc(Math.abs(seconds) * 1000);
  return new Timestamp(t.ms + (seconds < 0 ? -sign : sign) * ms);
}

/** `l op r` where `l` is a timestamp; undefined when Rhai has no such operator. */
export function timestampOp(op: BinaryOp, l: Timestamp, r: Value): Value | undefined {
  if (r instanceof Timestamp) {
    switch (op) {
      case '-':
        return (l.ms - r.ms) / 1000;
      case '==':
        return l.ms === r.ms;
      case '!=':
        return l.ms !== r.ms;
      case '<':
        return l.ms < r.ms;
      case '<=':
        return l.ms <= r.ms;
      case '>':
        return l.ms > r.ms;
      case '>=':
        return l.ms >= r.ms;
      default:
        return undefined;
    }
  }
  if (op === '+') return shifted(l, r, 1);
  if (op === '-') return shifted(l, r, -1);
  return undefined;
}

/** Seconds from `t` to `now` (both in ms); Rhai refuses a timestamp in the future. */
export function elapsedSeconds(t: Timestamp, now: number): number {
  if (t.ms > now) throw new RuntimeFault('ErrorArithmetic', 'Time-stamp is later than now', -1);
  return (now - t.ms) / 1000;
}
