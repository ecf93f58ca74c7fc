// A templated rule's file answers (docs/templates.md): a rendered file_path, refused when it climbs out or names
// what service.deny keeps from file routing, a template file rendered for the request, and a stream whose events
// are templates. A template file's content is compiled once per version of the file (the FileSource hands back
// the same bytes while it is unchanged).
import type { Respond, StreamEvent, StreamFormat } from '../model/answer.js';
import { concatEvents } from '../files/stream-file.js';
import type {
  CompiledTemplate,
  RespondTemplate,
  TemplateData,
  TemplateKind,
  TemplateRuntime,
} from '../model/template.js';
import type { HeaderList } from '../shared/headers.js';
import { resolveNamedFile } from '../files/lookup.js';
import { extensionOf } from '../files/paths.js';
import { fileBody, largeFile } from '../files/file-body.js';
import { compileTemplate, engineIfLoaded, jsonProblem, loadEngine, loadFaker } from '../templates/index.js';
import type { Draft } from './finalize.js';
import { deniedName, draftFromRespond, emptyDraft, textDraft, type RespondDraft } from './respond.js';
import {
  decoder,
  encoder,
  failure,
  Render,
  renderCompiled,
  TemplateFailure,
  type TemplateEnv,
} from './templated-render.js';

/** Why a rendered path may not be served: absolute, or a `..` segment (it would climb out of the respond folder). */
export function refusal(path: string): string | undefined {
  if (path === '') return 'empty';
  if (/^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) return 'an absolute path';
  if (path.split(/[\\/]/).includes('..')) return 'a `..` segment';
  if (path.includes('\0')) return 'a NUL character';
  return undefined;
}

interface FileRender {
  readonly data: TemplateData;
  readonly runtime: TemplateRuntime;
  readonly where: string;
  /** the rule's template dialect (RespondTemplate's) */
  readonly dialect?: 'wiremock' | undefined;
}

/** A file path rendered from the request: what was rendered, and the folder it was rendered under. */
interface RenderedPath {
  readonly shown: string;
  readonly where: string;
  readonly respondDir: string;
}

/** Compiled template files, per version of their bytes (a changed file is new bytes: compiled again). */
const compiledFiles = new WeakMap<Uint8Array, CompiledTemplate>();

export async function fileAnswer(
  name: string,
  confineTo: string | undefined,
  base: Omit<Draft, 'body'>,
  content: FileRender | undefined,
  env: TemplateEnv,
  rendered?: RenderedPath,
): Promise<RespondDraft> {
  const path = await resolveNamedFile(name, env.files, confineTo);
  const missing = { draft: { ...emptyDraft(404), delayMs: base.delayMs } };
  if (path === undefined) return missing;
  if (rendered !== undefined && env.deny !== undefined) {
    const pattern = await deniedName(env.deny, path, confineTo ?? rendered.respondDir, env.files);
    if (pattern !== undefined) {
      env.log(
        `${rendered.where}: the rendered file_path ${JSON.stringify(rendered.shown)} names ${path}, which is never served (denied by the pattern ${pattern} of service.deny); answered 404`,
      );
      return missing;
    }
  }
  // a file served as it is, too large to keep in memory, is sent from disk as it is read
  const large = content === undefined && base.delivery === undefined ? await largeFile(path, env.files) : undefined;
  if (large !== undefined) {
    const delivery = { kind: 'file', path, size: large.size } as const;
    return { draft: { ...base, body: new Uint8Array(0), contentType: large.contentType, delivery }, file: path };
  }
  const fb = await fileBody(path, env.files);
  if (fb.kind === 'missing') return missing;
  if (fb.kind === 'error') return { draft: textDraft(500, fb.message, base.delayMs), file: path };
  if (content === undefined) return { draft: { ...base, body: fb.body, contentType: fb.contentType }, file: path };
  const kind: TemplateKind = extensionOf(path)?.toLowerCase() === 'json' ? 'json' : 'text';
  let compiled = compiledFiles.get(fb.body);
  if (compiled === undefined) {
    const engine = engineIfLoaded() ?? (await loadEngine());
    const r = compileTemplate(engine, decoder.decode(fb.body), kind, content.dialect);
    if (!r.ok) {
      const message = `${content.where}: the template file ${path} does not compile at line ${r.error.line} column ${r.error.column}: ${r.error.message}`;
      env.log(message);
      return { draft: textDraft(500, message, base.delayMs), file: path };
    }
    compiled = r.value;
    compiledFiles.set(fb.body, compiled);
  }
  const runtime =
    compiled.usesFaker && content.runtime.faker === undefined
      ? { ...content.runtime, faker: await loadFaker() }
      : content.runtime;
  let text: string;
  try {
    text = renderCompiled(compiled, content.data, runtime, content.where);
  } catch (e) {
    return {
      ...failure(
        (e as Error).message,
        { body: { kind: 'empty' }, headers: [], delayMs: base.delayMs },
        env,
        e instanceof TemplateFailure ? e.status : 500,
      ),
      file: path,
    };
  }
  if (kind === 'json') {
    const problem = jsonProblem(text);
    if (problem !== undefined)
      return {
        ...failure(
          `${content.where}: the rendered file ${path} does not parse: ${problem}`,
          { body: { kind: 'empty' }, headers: [], delayMs: base.delayMs },
          env,
        ),
        file: path,
      };
  }
  return { draft: { ...base, body: encoder.encode(text), contentType: fb.contentType }, file: path };
}

/** Compiled stream events, per version of their bytes (an event of a changed file is new bytes). */
const compiledEvents = new WeakMap<Uint8Array, CompiledTemplate | string>();

/**
 * A templated rule's stream: its file's events, each rendered for the request (an event without `{{` is sent as
 * written), with the rule's rendered headers. An event whose data is JSON (`data: {…}`, an NDJSON line) is a JSON
 * template: a value inside one of its strings is escaped as a JSON string; any other event is text.
 */
export async function streamAnswer(
  respond: Respond,
  format: StreamFormat,
  template: RespondTemplate,
  headers: HeaderList,
  r: Render,
  where: string,
  env: TemplateEnv,
): Promise<RespondDraft> {
  const found = await draftFromRespond(respond, env.files);
  const d = found.draft;
  if (d.delivery?.kind !== 'stream') return found;
  if (template.streamEvents !== true) return { ...found, draft: { ...d, headers } };
  const events: StreamEvent[] = [];
  let rendered = false;
  for (const e of d.delivery.events) {
    let compiled = compiledEvents.get(e.bytes);
    if (compiled === undefined) {
      const text = decoder.decode(e.bytes);
      if (!text.includes('{{')) compiled = '';
      else {
        const engine = engineIfLoaded() ?? (await loadEngine());
        const c = compileTemplate(engine, text, jsonEvent(text, format) ? 'json' : 'text');
        compiled = c.ok
          ? c.value
          : `${where}: event ${events.length + 1} of the stream file ${found.file ?? ''} does not compile at line ${c.error.line} column ${c.error.column}: ${c.error.message}`;
      }
      compiledEvents.set(e.bytes, compiled);
    }
    if (compiled === '') {
      events.push(e);
      continue;
    }
    if (typeof compiled === 'string') return { ...failure(compiled, respond, env), ...fileOf(found) };
    const runtime =
      compiled.usesFaker && r.runtime().faker === undefined
        ? { ...r.runtime(), faker: await loadFaker() }
        : r.runtime();
    let text: string;
    try {
      text = renderCompiled(compiled, r.data(), runtime, where);
    } catch (x) {
      return {
        ...failure((x as Error).message, respond, env, x instanceof TemplateFailure ? x.status : 500),
        ...fileOf(found),
      };
    }
    events.push({ pauseMs: e.pauseMs, bytes: encoder.encode(text) });
    rendered = true;
  }
  if (!rendered) return { ...found, draft: { ...d, headers } };
  const delivery = { kind: 'stream', events } as const;
  return { ...found, draft: { ...d, headers, fresh: true, body: concatEvents(events), delivery } };
}

const fileOf = (f: RespondDraft): { file?: string } => (f.file === undefined ? {} : { file: f.file });

/** An SSE event whose every `data:` line holds a JSON object or array, or an NDJSON line. */
function jsonEvent(text: string, format: StreamFormat): boolean {
  if (format === 'ndjson') return true;
  const data = text.split('\n').filter((l) => l.startsWith('data:'));
  return data.length > 0 && data.every((l) => /^data:[ \t]*[[{]/.test(l));
}
