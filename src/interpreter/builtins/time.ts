// Timestamps (Rhai's BasicTimePackage): `timestamp()` reads the run's injected clock
// (RunOptions.clock), `elapsed` (function, method or property) gives f64 seconds since then.
// Arithmetic and comparisons are operators (timestamps.ts).

import { elapsedSeconds } from '../timestamps.js';
import { Timestamp } from '../values.js';
import { arity, define } from './registry.js';

define('timestamp', 'none', (c, a) => (arity(a, 0), new Timestamp(c.clock())));
define('elapsed', 'timestamp', (c, a) => (arity(a, 1), elapsedSeconds(a[0] as Timestamp, c.clock())));
