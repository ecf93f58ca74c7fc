// Respond (declarative, from a rule or a script) → Draft (bytes and content type), reading files through FileSource.
import type { Delivery, Respond } from '../model/answer.js';
import { deniedFile } from '../files/deny.js';
import { resolveNamedFile } from '../files/lookup.js';
import type { DenyPolicy } from '../model/workspace.js';
import { fileBody, largeFile, STREAM_FILE_BYTES } from '../files/file-body.js';
import {
  knownLargeStream,
  parsedLargeStream,
  parsedStreamFile,
  STREAM_CONTENT_TYPES,
  type ParsedStream,
} from '../files/stream-file.js';
import type { FileSource, FileStat } from '../files/source.js';
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

/**
 * What a file path computed per request (rendered from it, or returned by a script) may not name: the workspace's
 * service.deny, its patterns relative to `fallbackDir` (docs/files-and-rules.md, "Never served"). A literal
 * `file_path` is the author's own choice and is served as written.
 */
export interface FileDeny {
  readonly policy: DenyPolicy;
  /** absolute */
  readonly fallbackDir: string;
  /** told of a denied file (to log why it answered 404) */
  readonly onDenied?: (file: string, pattern: string) => void;
}

/** The pattern that keeps `file` (resolved under `confineTo`) from being read, or undefined. */
export function deniedName(deny: FileDeny, file: string, confineTo: string | undefined, files: FileSource) {
  const roots = confineTo === undefined ? [deny.fallbackDir] : [deny.fallbackDir, confineTo];
  return deniedFile(deny.policy, roots, file, files);
}

/**
 * The draft for a Respond, and the file that was served (for the trace channel), if any. Literal bodies: now.
 * With `deny`, a file the Respond names that the policy denies answers 404, as file routing answers it.
 */
export function draftFromRespond(respond: Respond, files: FileSource, deny?: FileDeny): ValueOrPromise<RespondDraft> {
  const b = respond.body;
  switch (b.kind) {
    case 'empty':
    case 'text':
    case 'json': {
      let done = literal.get(respond);
      if (done === undefined) {
        const delivery = deliveryOf(respond);
        const base = {
          status: respond.status ?? 200,
          headers: respond.headers,
          delayMs: respond.delayMs,
          ...(delivery === undefined ? {} : { delivery }),
        };
        done = {
          draft:
            b.kind === 'empty'
              ? { ...base, body: new Uint8Array(0) }
              : {
                  ...base,
                  body: encoder.encode(b.text),
                  contentType: b.kind === 'text' ? TEXT_PLAIN : APPLICATION_JSON,
                },
        };
        literal.set(respond, done);
      }
      return done;
    }
    case 'file': {
      const { path, confineTo } = b;
      if (files.remember === undefined) return fileDraft(respond, path, confineTo, files, deny);
      // per Respond: the draft also carries its status, headers and delay; and per deny policy (a reload makes a
      // new one, while an unchanged script may keep handing back the same Respond)
      return files.remember(respond, policyKey(deny), (f) => fileDraft(respond, path, confineTo, f, deny));
    }
    case 'stream': {
      if (files.remember === undefined) return streamDraft(respond, b, files, deny);
      return files.remember(respond, policyKey(deny), (f) => streamDraft(respond, b, f, deny));
    }
  }
}

const policyKeys = new WeakMap<DenyPolicy, string>();
let policyCount = 0;

/** '' without a policy, else a key of its own per policy object. */
function policyKey(deny: FileDeny | undefined): string {
  if (deny === undefined) return '';
  let key = policyKeys.get(deny.policy);
  if (key === undefined) policyKeys.set(deny.policy, (key = `deny ${++policyCount}`));
  return key;
}

/** A fault or a dribbled body, when the Respond asks for one (a fault wins). */
export function deliveryOf(respond: Respond): Delivery | undefined {
  if (respond.fault !== undefined) return { kind: 'fault', fault: respond.fault };
  if (respond.websocket !== undefined) return { kind: 'websocket', plan: respond.websocket };
  if (respond.chunks !== undefined)
    return { kind: 'chunks', count: respond.chunks.count, intervalMs: respond.chunks.intervalMs };
  return undefined;
}

async function streamDraft(
  respond: Respond,
  b: Extract<Respond['body'], { kind: 'stream' }>,
  files: FileSource,
  deny: FileDeny | undefined,
): Promise<RespondDraft> {
  const found = await fileDraft(respond, b.path, b.confineTo, files, deny, b);
  if (found.draft.status !== (respond.status ?? 200) || found.file === undefined || respond.fault !== undefined)
    return found;
  const { events, body } = found.stream ?? parsedStreamFile(found.draft.body, b.format, b.intervalMs);
  const draft = {
    ...found.draft,
    body,
    contentType: STREAM_CONTENT_TYPES[b.format],
    delivery: { kind: 'stream', events } as const,
  };
  return { draft, file: found.file };
}

async function fileDraft(
  respond: Respond,
  name: string,
  confineTo: string | undefined,
  files: FileSource,
  deny: FileDeny | undefined,
  /** a stream file: read whole whatever its size, to be parsed */
  stream?: Extract<Respond['body'], { kind: 'stream' }>,
): Promise<RespondDraft & { readonly stream?: ParsedStream }> {
  const path = await resolveNamedFile(name, files, confineTo);
  if (path === undefined) return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
  if (deny !== undefined) {
    const pattern = await deniedName(deny, path, confineTo, files);
    if (pattern !== undefined) {
      deny.onDenied?.(path, pattern);
      return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
    }
  }
  const delivery = deliveryOf(respond);
  // a fault or a dribbled body is made from the body itself; a stream file is parsed from it
  const large = delivery === undefined && stream === undefined ? await largeFile(path, files) : undefined;
  if (large !== undefined) {
    const draft = {
      status: respond.status ?? 200,
      body: new Uint8Array(0),
      contentType: large.contentType,
      headers: respond.headers,
      delayMs: respond.delayMs,
      delivery: { kind: 'file', path, size: large.size } as const,
    };
    return { draft, file: path };
  }
  if (stream !== undefined && respond.fault === undefined) {
    const st = await files.stat(path);
    if (st !== undefined && st.kind === 'file' && st.size > STREAM_FILE_BYTES)
      return largeStreamDraft(respond, path, st, stream, files);
  }
  const fb = await fileBody(path, files);
  if (fb.kind === 'missing') return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
  if (fb.kind === 'error') return { draft: textDraft(500, fb.message, respond.delayMs), file: path };
  const draft = {
    status: respond.status ?? 200,
    body: fb.body,
    contentType: fb.contentType,
    headers: respond.headers,
    delayMs: respond.delayMs,
  };
  return { draft: delivery === undefined ? draft : { ...draft, delivery }, file: path };
}

/**
 * A stream file too large for the file cache (which hands back the same bytes only for the files it keeps): one
 * parse per settled version of the file, shared by every client (files/stream-file.ts knownLargeStream).
 */
async function largeStreamDraft(
  respond: Respond,
  path: string,
  st: FileStat,
  stream: Extract<Respond['body'], { kind: 'stream' }>,
  files: FileSource,
): Promise<RespondDraft & { readonly stream?: ParsedStream }> {
  let parsed = knownLargeStream(path, st, stream.format, stream.intervalMs);
  if (parsed === undefined) {
    const fb = await fileBody(path, files);
    if (fb.kind === 'missing') return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
    if (fb.kind === 'error') return { draft: textDraft(500, fb.message, respond.delayMs), file: path };
    parsed = parsedLargeStream(path, st, fb.body, stream.format, stream.intervalMs);
  }
  const draft = {
    status: respond.status ?? 200,
    body: parsed.body,
    headers: respond.headers,
    delayMs: respond.delayMs,
  };
  return { draft, file: path, stream: parsed };
}
