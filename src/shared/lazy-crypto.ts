// node:crypto, required on first use rather than when the program starts: loading it compiles some fifteen of
// Node's internal modules, and a server that serves files and rules, with no TLS and nothing to hash, needs none.
import { createRequire } from 'node:module';

const require_ = createRequire(import.meta.url);
let loaded: typeof import('node:crypto') | undefined;

export function crypto(): typeof import('node:crypto') {
  return (loaded ??= require_('node:crypto') as typeof import('node:crypto'));
}
