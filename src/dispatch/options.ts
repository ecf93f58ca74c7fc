// OPTIONS is answered first, before the body is looked at and before any script or rule, so a browser's preflight always succeeds
// (docs/output.md#options-and-cors):
// 204, no body; every path alike.
import type { Draft } from './finalize.js';

export function answerOptions(method: string): Draft | undefined {
  if (method !== 'OPTIONS') return undefined;
  return { status: 204, body: new Uint8Array(0), headers: [], delayMs: 0 };
}
