// The listener's call into the delivery writers for an answer with a `delivery` (a fault, dribbled body or
// stream), with the workspace's hold time. The listener checks `answer.delivery` itself at its write step, so an
// answer without one (nearly all) is written exactly as before, with no call here.
import type { ServerResponse } from 'node:http';
import type { Answer } from '../model/answer.js';
import { DEFAULTS } from '../model/config.js';
import type { Workspace } from '../model/workspace.js';
import { deliver } from './deliver.js';

/** `onEvent`: hears each of a stream's events as it is written (the journal's open entry). */
export function deliverAnswer(
  res: ServerResponse,
  answer: Answer,
  method: string,
  ws: Workspace,
  onEvent?: (bytes: Uint8Array) => void,
): void {
  const holdMs = ws.config.service.faultHoldMs ?? DEFAULTS.faultHoldMs;
  deliver(res, answer, method, onEvent === undefined ? { holdMs } : { holdMs, onEvent });
}
