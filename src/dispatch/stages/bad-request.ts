// A body declared JSON that does not parse is answered 400 before any rule sees it.
import { textDraft } from '../respond.js';
import type { DispatchCtx, Staged } from '../types.js';

export function badRequestStage({ req }: DispatchCtx): Staged | undefined {
  if (req.body.kind !== 'invalid_json') return undefined;
  return {
    draft: textDraft(400, `request body is not valid JSON: ${req.body.message}`),
    stage: { kind: 'bad_request' },
  };
}
