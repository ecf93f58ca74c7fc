// The listener's one call into the delivery writers: an answer without a `delivery` (nearly all) is written in
// one go as before; a fault, dribbled body or stream goes to server/deliver.ts with the workspace's hold time.
import type { ServerResponse } from 'node:http';
import type { Answer } from '../model/answer.js';
import { DEFAULTS } from '../model/config.js';
import { deliver } from './deliver.js';
import type { LiveState } from './live.js';
import { writeAnswer } from './write.js';

export function sendAnswer(res: ServerResponse, answer: Answer, method: string, log: (line: string) => void, live: LiveState): void {
  if (answer.delivery === undefined) writeAnswer(res, answer, method, { log });
  else deliver(res, answer, method, { holdMs: live.ws.config.service.faultHoldMs ?? DEFAULTS.faultHoldMs });
}
