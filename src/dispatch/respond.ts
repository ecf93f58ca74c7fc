// Respond (declarative, from a rule or a script) → Draft (bytes and content type), reading files through FileSource.
import type { Respond } from '../model/answer.js';
import { resolveNamedFile } from '../files/lookup.js';
import { fileBody } from '../files/serve.js';
import type { FileSource } from '../files/source.js';
import type { Draft } from './finalize.js';

const encoder = new TextEncoder();
export const TEXT_PLAIN = 'text/plain; charset=utf-8';
export const APPLICATION_JSON = 'application/json';

export function textDraft(status: number, text: string, delayMs = 0): Draft {
  return { status, body: encoder.encode(text), contentType: TEXT_PLAIN, headers: [], delayMs };
}

export function emptyDraft(status: number): Draft {
  return { status, body: new Uint8Array(0), headers: [], delayMs: 0 };
}

/** A rule's literal body, encoded once per Respond (Respond objects are immutable after load). */
const encoded = new WeakMap<Respond, Uint8Array>();
function bytesOf(respond: Respond, text: string): Uint8Array {
  let bytes = encoded.get(respond);
  if (bytes === undefined) encoded.set(respond, (bytes = encoder.encode(text)));
  return bytes;
}

/** The draft for a Respond, and the file that was served (for the trace channel), if any. */
export async function draftFromRespond(respond: Respond, files: FileSource): Promise<{ draft: Draft; file?: string }> {
  const status = respond.status ?? 200;
  const base = { headers: respond.headers, delayMs: respond.delayMs };
  const b = respond.body;
  switch (b.kind) {
    case 'empty':
      return { draft: { status, body: new Uint8Array(0), ...base } };
    case 'text':
      return { draft: { status, body: bytesOf(respond, b.text), contentType: TEXT_PLAIN, ...base } };
    case 'json':
      return { draft: { status, body: bytesOf(respond, b.text), contentType: APPLICATION_JSON, ...base } };
    case 'file': {
      const path = await resolveNamedFile(b.path, files, b.confineTo);
      if (path === undefined) return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
      const fb = await fileBody(path, files);
      if (fb.kind === 'missing') return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
      if (fb.kind === 'error') return { draft: textDraft(500, fb.message, respond.delayMs), file: path };
      return { draft: { status, body: fb.body, contentType: fb.contentType, ...base }, file: path };
    }
  }
}
