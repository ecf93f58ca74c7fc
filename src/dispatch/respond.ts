// Respond (declarative, from a rule or a script) → Draft (bytes and content type), reading files through FileSource.
import type { Respond } from '../model/answer.js';
import { resolveNamedFile } from '../files/lookup.js';
import { fileBody } from '../files/file-body.js';
import type { FileSource } from '../files/source.js';
import type { Draft } from './finalize.js';
import type { ValueOrPromise } from '../shared/value-or-promise.js';

const encoder = new TextEncoder();
export const TEXT_PLAIN = 'text/plain; charset=utf-8';
export const APPLICATION_JSON = 'application/json';

export function textDraft(status: number, text: string, delayMs = 0): Draft {
  return { status, body: encoder.encode(text), contentType: TEXT_PLAIN, headers: [], delayMs };
}

export function emptyDraft(status: number): Draft {
  return { status, body: new Uint8Array(0), headers: [], delayMs: 0 };
}

/** A literal (or empty) body's draft, made once per Respond (Respond objects are immutable after load). */
const literal = new WeakMap<Respond, RespondDraft>();

export interface RespondDraft {
  readonly draft: Draft;
  /** the file that was served, if any */
  readonly file?: string;
}

/** The draft for a Respond, and the file that was served (for the trace channel), if any. Literal bodies: now. */
export function draftFromRespond(respond: Respond, files: FileSource): ValueOrPromise<RespondDraft> {
  const b = respond.body;
  switch (b.kind) {
    case 'empty':
    case 'text':
    case 'json': {
      let done = literal.get(respond);
      if (done === undefined) {
        const base = { status: respond.status ?? 200, headers: respond.headers, delayMs: respond.delayMs };
        done = {
          draft:
            b.kind === 'empty'
              ? { ...base, body: new Uint8Array(0) }
              : { ...base, body: encoder.encode(b.text), contentType: b.kind === 'text' ? TEXT_PLAIN : APPLICATION_JSON },
        };
        literal.set(respond, done);
      }
      return done;
    }
    case 'file': {
      const { path, confineTo } = b;
      if (files.remember === undefined) return fileDraft(respond, path, confineTo, files);
      // per Respond: the draft also carries its status, headers and delay
      return files.remember(respond, '', (f) => fileDraft(respond, path, confineTo, f));
    }
  }
}

async function fileDraft(respond: Respond, name: string, confineTo: string | undefined, files: FileSource): Promise<RespondDraft> {
  const path = await resolveNamedFile(name, files, confineTo);
  if (path === undefined) return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
  const fb = await fileBody(path, files);
  if (fb.kind === 'missing') return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
  if (fb.kind === 'error') return { draft: textDraft(500, fb.message, respond.delayMs), file: path };
  return { draft: { status: respond.status ?? 200, body: fb.body, contentType: fb.contentType, headers: respond.headers, delayMs: respond.delayMs }, file: path };
}
