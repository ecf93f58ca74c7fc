// The fallback directory (docs/files-and-rules.md): a file at the request's path answers; nothing there, 404. The
// last stage: it always answers.
import { chain, type ValueOrPromise } from '../../shared/value-or-promise.js';
import { asJsonServer, dbMiss } from '../db-mode.js';
import type { DenyPolicy } from '../../model/workspace.js';
import { deniedFile } from '../../files/deny.js';
import { resolveFallbackFile } from '../../files/lookup.js';
import { fileBody, largeFile } from '../../files/file-body.js';
import type { FileSource } from '../../files/source.js';
import { emptyDraft, textDraft } from '../respond.js';
import type { DispatchCtx, Staged } from '../types.js';

const EMPTY = new Uint8Array(0);
const MISS: Staged = Object.freeze({ draft: emptyDraft(404), stage: Object.freeze({ kind: 'miss' }) });

export function fallbackStage(ctx: DispatchCtx): ValueOrPromise<Staged> {
  const found = fallbackFile(ctx);
  const ws = ctx.ws;
  if (ws.config.service.db === undefined) return found;
  // `--db`: nothing there is json-server's home page at `/`, else its `404 {}` (dispatch/db-mode.ts)
  return chain(found, (s) =>
    s.stage.kind === 'miss' && s.stage.denied === undefined
      ? { draft: asJsonServer(ws, ctx.req, dbMiss(ws, ctx.req)), stage: s.stage }
      : s,
  );
}

function fallbackFile({ ws, req, env }: DispatchCtx): ValueOrPromise<Staged> {
  const root = ws.fallbackDir;
  const { files } = env;
  // The whole resolution is a pure function of the request segments and the disk: a FileSource that can vouch
  // for "nothing changed" hands back the remembered result without touching the disk.
  if (files.remember === undefined) return resolveFallback(root, req.segments, files, ws.deny);
  // Per workspace (one fallback root), by raw path: the segments are a function of it and of nothing else.
  return files.remember(ws, req.rawPath, (f) => resolveFallback(root, req.segments, f, ws.deny));
}

async function resolveFallback(
  root: string,
  segments: readonly string[],
  files: FileSource,
  deny: DenyPolicy | undefined,
): Promise<Staged> {
  const file = await resolveFallbackFile(root, segments, files);
  if (file === undefined) return MISS;
  // looked up here, once per resolution, not on every request a remembered resolution answers; the canonical
  // path too, so a symlink to a denied file is denied
  const pattern = deny === undefined ? undefined : await deniedFile(deny, [root], file, files);
  if (pattern !== undefined) return { draft: emptyDraft(404), stage: { kind: 'miss', denied: { file, pattern } } };
  const large = await largeFile(file, files);
  if (large !== undefined) {
    const delivery = { kind: 'file', path: file, size: large.size } as const;
    const draft = { status: 200, body: EMPTY, contentType: large.contentType, headers: [], delayMs: 0, delivery };
    return { draft, stage: { kind: 'fallback', file }, file };
  }
  const fb = await fileBody(file, files);
  if (fb.kind === 'missing') return MISS;
  if (fb.kind === 'error') return { draft: textDraft(500, fb.message), stage: { kind: 'fallback', file }, file };
  return {
    draft: { status: 200, body: fb.body, contentType: fb.contentType, headers: [], delayMs: 0 },
    stage: { kind: 'fallback', file },
    file,
  };
}
