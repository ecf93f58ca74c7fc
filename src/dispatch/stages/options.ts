// OPTIONS is answered before anything else: the CORS preflight every browser sends (docs/files-and-rules.md).
import { answerOptions } from '../options.js';
import type { DispatchCtx, Stage, Staged } from '../types.js';

const OPTIONS_STAGE: Stage = Object.freeze({ kind: 'options' });

export function optionsStage({ req }: DispatchCtx): Staged | undefined {
  const draft = answerOptions(req.method);
  return draft && { draft, stage: OPTIONS_STAGE };
}
