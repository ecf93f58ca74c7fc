// V8 settings for one-shot start-up work: loading the configuration before the server listens.
//
// Loading a large rule set runs the TOML parser and the decoders hot for a few dozen milliseconds, once. Left to
// its defaults, V8 optimises those functions with TurboFan (compiler memory, and machine code never run again)
// and grows the young generation for the burst of surviving objects; both stay resident after the load:
// measured on 200 rules, +5 MB resident for no faster start; on 2,000 rules, +25 MB. So for the duration of
// the load only, the optimising compiler is off and the young generation keeps its size; both are restored
// before the first request, which is then optimised as usual. Flags the user gave Node are left alone.
import { setFlagsFromString } from 'node:v8';

const OWN_FLAGS = /--(?:no-)?(?:turbofan|opt)\b|--semi-space-growth-factor|--(?:min|max)-semi-space-size/;

export async function asStartUpWork<T>(work: () => Promise<T>): Promise<T> {
  const given = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ');
  if (OWN_FLAGS.test(given)) return work();
  setFlagsFromString('--no-turbofan');
  setFlagsFromString('--semi-space-growth-factor=1');
  try {
    return await work();
  } finally {
    setFlagsFromString('--turbofan');
    setFlagsFromString('--semi-space-growth-factor=2');
  }
}
