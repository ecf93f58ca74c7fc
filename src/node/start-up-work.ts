// V8 settings for one-shot start-up work: loading the configuration before the server listens.
//
// Loading a large rule set runs the TOML parser and the decoders hot for a few dozen milliseconds, once. Left to
// its defaults, V8 optimises those functions with TurboFan (compiler memory, and machine code never run again),
// grows the young generation for the burst of surviving objects, and leaves the parse's promoted garbage in
// old-space pages it keeps; all of it stays resident while the server idles (V8's memory reducer returns some
// of it only ~10 s later). Measured on 200 rules: +10 MB resident and a slower start (the compiler threads
// compete for the two cores); on 2,000 rules: +45 MB. So for the duration of the load only, the optimising
// compiler is off and the young generation keeps its size; both are restored before the first request, which
// is then optimised as usual; and a load that left a lot behind is collected and compacted at once (~10 ms for
// 2,000 rules). Flags the user gave Node about any of this are left alone, and other V8 versions are left as
// they are (see CHECKED_V8).
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const OWN_FLAGS = /--(?:no-)?(?:turbofan|opt|expose-gc|compact-on-every-full-gc)\b|--semi-space-growth-factor|--(?:min|max)-semi-space-size/;

/**
 * A load after which the heap holds this much more memory than before (about a thousand rules or more) is
 * collected at once. Measured as the heap's resident size, not its live objects: a collection V8 ran during the
 * load may have emptied pages it still keeps, and those pages are what the compaction gives back.
 */
const GROWTH_WORTH_COMPACTING = 4 * 1024 * 1024;

/**
 * The V8 versions these flags were checked on (Node.js 20). Elsewhere nothing is changed: V8 reports a flag it
 * does not know on stderr, and a renamed flag must not put a line in front of the server's output.
 */
const CHECKED_V8 = /^11\./;

export async function asStartUpWork<T>(work: () => Promise<T>): Promise<T> {
  const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ');
  if (!CHECKED_V8.test(process.versions.v8) || OWN_FLAGS.test(given)) return work();
  setFlagsFromString('--no-turbofan');
  setFlagsFromString('--semi-space-growth-factor=1');
  const before = getHeapStatistics().total_physical_size;
  try {
    return await work();
  } finally {
    setFlagsFromString('--turbofan');
    setFlagsFromString('--semi-space-growth-factor=2');
    if (getHeapStatistics().total_physical_size - before > GROWTH_WORTH_COMPACTING) collectAndCompact();
  }
}

/** One full, compacting collection (V8's gc() made reachable for this call only). */
function collectAndCompact(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  setFlagsFromString('--no-expose-gc');
  if (typeof gc !== 'function') return;
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    (gc as () => void)();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
