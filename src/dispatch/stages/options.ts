// OPTIONS is answered before anything else: the CORS preflight every browser sends (docs/files-and-rules.md).
import { answerOptions } from '../options.js';
import { jsonServerPreflight } from '../db-mode.js';
import type { DispatchCtx, Stage, Staged } from '../types.js';

const OPTIONS_STAGE: Stage = Object.freeze({ kind: 'options' });

export function optionsStage({ req, ws }: DispatchCtx): Staged | undefined {
  const draft = answerOptions(req.method);
  if (draft === undefined) return undefined;
  // `--db`: json-server's preflight answer (its CORS: the origin echoed, with credentials)
  if (ws.config.service.db !== undefined) return { draft: jsonServerPreflight(ws, req), stage: OPTIONS_STAGE };
  return { draft, stage: OPTIONS_STAGE };
}
