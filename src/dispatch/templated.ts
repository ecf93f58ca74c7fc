// A templated rule's answer (docs/templates.md): its headers, body and file path rendered from the request with
// the workspace's generator and clock. A rendered `json` that does not parse, or a helper that fails, is a 500
// naming the rule; a rendered file path that is absolute or climbs out (`..`) is refused with a 404 and a logged
// reason, and otherwise resolved and confined exactly as a literal `file_path`; a file it names that service.deny
// keeps from file routing (or a symlink to one) answers as file routing answers it, 404, with a logged reason
// (docs/files-and-rules.md, "Never served"). A template file's content is
// compiled once per version of the file (the FileSource hands back the same bytes while it is unchanged).
import type { Respond, StreamEvent, StreamFormat } from '../model/answer.js';
import { concatEvents } from '../files/stream-file.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Rule } from '../model/rule-set.js';
import type {
  CompiledTemplate,
  RespondTemplate,
  TemplateData,
  TemplateKind,
  TemplateRuntime,
  TemplateSlot,
} from '../model/template.js';
import type { HeaderList } from '../shared/headers.js';
import type { ValueOrPromise } from '../shared/value-or-promise.js';
import { resolveNamedFile } from '../files/lookup.js';
import { extensionOf, joinPaths } from '../files/paths.js';
import { fileBody, largeFile } from '../files/file-body.js';
import type { FileSource } from '../files/source.js';
import { matchTemplate, templateSegments } from '../routing/path-template.js';
import {
  compileTemplate,
  engineIfLoaded,
  fakerIfLoaded,
  headerValue,
  jsonProblem,
  loadEngine,
  loadFaker,
  templateData,
} from '../templates/index.js';
import type { Draft } from './finalize.js';
import {
  APPLICATION_JSON,
  deliveryOf,
  deniedName,
  draftFromRespond,
  emptyDraft,
  TEXT_PLAIN,
  textDraft,
  type FileDeny,
  type RespondDraft,
} from './respond.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a render used, for `get --why` and the inspector: each template's source and the values it named. */
export interface TemplateUse {
  readonly sources: readonly { readonly part: string; readonly source: string }[];
  readonly values: readonly { readonly path: string; readonly value: unknown }[];
}

export interface TemplateEnv {
  readonly files: FileSource;
  readonly random: () => number;
  readonly now: () => Date;
  readonly log: (line: string) => void;
  /** the `collection` helper's reader (docs/state.md) */
  readonly collection?: (name: string, id: string | undefined) => unknown;
  /** what a rendered file_path may not name: the workspace's service.deny, its patterns relative to `fallbackDir` */
  readonly deny?: FileDeny;
}

export type { FileDeny };

class TemplateFailure extends Error {}

/** The draft of a templated rule's answer (now, or once its file is read). */
export function templatedDraft(
  rule: Rule,
  template: RespondTemplate,
  req: RequestSnapshot,
  env: TemplateEnv,
  use?: TemplateUse[],
): ValueOrPromise<RespondDraft> {
  const respond = rule.respond;
  const r = new Render(req, paramsOf(rule, req), env);
  const where = `rule ${template.where.rule} of ${template.where.file}`;
  use?.push(usage(template, r.data()));
  try {
    const headers = renderHeaders(respond.headers, template, r);
    // a fault or a dribbled body applies to a rendered answer as to a literal one
    const delivery = deliveryOf(respond);
    const base = {
      status: respond.status ?? 200,
      headers,
      delayMs: respond.delayMs,
      fresh: true,
      ...(delivery === undefined ? {} : { delivery }),
    };
    const body = respond.body;
    if (template.body !== undefined) {
      if (template.body.kind === 'json') {
        // a text known to parse (by construction) needs no check
        const known = template.body.compiled?.direct?.(req, r.params);
        if (known !== undefined)
          return { draft: { ...base, body: encoder.encode(known), contentType: APPLICATION_JSON } };
        const text = render(template.body, r, where);
        const problem = jsonProblem(text);
        if (problem !== undefined)
          return failure(`${where}: the rendered json does not parse: ${problem}`, respond, env);
        return { draft: { ...base, body: encoder.encode(text), contentType: APPLICATION_JSON } };
      }
      return { draft: { ...base, body: encoder.encode(render(template.body, r, where)), contentType: TEXT_PLAIN } };
    }
    if (body.kind === 'file') {
      let path = body.path;
      let rendered: string | undefined;
      if (template.filePath !== undefined) {
        rendered = render(template.filePath, r, where);
        const refused = refusal(rendered);
        if (refused !== undefined) {
          env.log(`${where}: the rendered file_path ${JSON.stringify(rendered)} is refused (${refused}); answered 404`);
          return { draft: { ...emptyDraft(404), delayMs: respond.delayMs } };
        }
        path = joinPaths(
          template.respondDir,
          rendered.split(/[\\/]/).filter((s) => s !== '' && s !== '.'),
        );
      }
      return fileAnswer(
        path,
        body.confineTo,
        base,
        template.templateFile ? { data: r.data(), runtime: r.runtime(), where } : undefined,
        env,
        rendered === undefined ? undefined : { shown: rendered, where, respondDir: template.respondDir },
      );
    }
    if (body.kind === 'empty') return { draft: { ...base, body: new Uint8Array(0) } };
    // each event of a templated stream is a template of its own (docs/templates.md)
    if (body.kind === 'stream') return streamAnswer(respond, body.format, template, headers, r, where, env);
    return {
      draft: {
        ...base,
        body: encoder.encode(body.text),
        contentType: body.kind === 'text' ? TEXT_PLAIN : APPLICATION_JSON,
      },
    };
  } catch (e) {
    if (e instanceof TemplateFailure) return failure(e.message, respond, env);
    throw e;
  }
}

/** Per templated Respond: the draft its direct answers are like (Draft.like): its status, headers and content type. */
const likeDrafts = new WeakMap<Respond, Draft>();
const NO_BODY = new Uint8Array(0);

/**
 * The common case, without the machinery of templatedDraft: a `json` or `text` body rendered straight from the
 * request (CompiledTemplate.direct), no templated header or file path, nothing explained. Undefined when the
 * template is not of that kind, or its json text is not known to be valid (templatedDraft renders and checks it).
 * The text is encoded once; when it is ASCII (as many bytes as characters) it also stands as the body's latin1 form.
 */
export function directDraft(rule: Rule, template: RespondTemplate, req: RequestSnapshot): Draft | undefined {
  const slot = template.body;
  const compiled = slot?.compiled;
  if (compiled?.direct === undefined || template.headers.length !== 0) return undefined;
  if (rule.respond.fault !== undefined || rule.respond.chunks !== undefined) return undefined;
  const text = compiled.direct(req, paramsOf(rule, req));
  if (text === undefined) return undefined;
  const respond = rule.respond;
  let like = likeDrafts.get(respond);
  if (like === undefined) {
    like = {
      status: respond.status ?? 200,
      body: NO_BODY,
      contentType: slot!.kind === 'json' ? APPLICATION_JSON : TEXT_PLAIN,
      headers: respond.headers,
      delayMs: respond.delayMs,
    };
    likeDrafts.set(respond, like);
  }
  const body = Buffer.from(text, 'utf8');
  const { status, headers, delayMs } = like;
  const contentType = like.contentType!;
  return body.byteLength === text.length
    ? { status, body, contentType, headers, delayMs, fresh: true, like, latin1: text }
    : { status, body, contentType, headers, delayMs, fresh: true, like };
}

/** One render's inputs: the request view and the runtime are built only if a template needs the Handlebars runtime. */
class Render {
  private view: TemplateData | undefined;
  private rt: TemplateRuntime | undefined;
  constructor(
    readonly req: RequestSnapshot,
    readonly params: Record<string, string>,
    private readonly env: TemplateEnv,
  ) {}
  data(): TemplateData {
    return (this.view ??= templateData(this.req, this.params));
  }
  runtime(): TemplateRuntime {
    const c = this.env.collection;
    return (this.rt ??= {
      random: this.env.random,
      now: this.env.now,
      faker: fakerIfLoaded(),
      ...(c === undefined ? {} : { collection: c }),
    });
  }
}

function paramsOf(rule: Rule, req: RequestSnapshot): Record<string, string> {
  for (const c of rule.conditions) {
    if (c.on === 'url_path' && c.template !== undefined) return matchTemplate(c.template, templateSegments(req)) ?? {};
  }
  return {};
}

function render(slot: TemplateSlot, r: Render, where: string): string {
  if (slot.compiled === undefined) throw new TemplateFailure(`${where}: the template was not compiled`);
  // a template of text and plain paths: straight from the request (only a json one may decline, and it is not here)
  if (slot.kind !== 'json') {
    const direct = slot.compiled.direct?.(r.req, r.params);
    if (direct !== undefined) return direct;
  }
  return renderCompiled(slot.compiled, r.data(), r.runtime(), where);
}

function renderCompiled(t: CompiledTemplate, data: TemplateData, runtime: TemplateRuntime, where: string): string {
  try {
    return t.render(data, runtime);
  } catch (e) {
    throw new TemplateFailure(`${where}: the template failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function renderHeaders(headers: HeaderList, template: RespondTemplate, r: Render): HeaderList {
  if (template.headers.length === 0) return headers;
  const where = `rule ${template.where.rule} of ${template.where.file}`;
  return headers.map(([name, value]) => {
    const slot = template.headers.find(([n]) => n === name)?.[1];
    return slot === undefined ? ([name, value] as const) : ([name, headerValue(render(slot, r, where))] as const);
  });
}

/** Why a rendered path may not be served: absolute, or a `..` segment (it would climb out of the respond folder). */
function refusal(path: string): string | undefined {
  if (path === '') return 'empty';
  if (/^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) return 'an absolute path';
  if (path.split(/[\\/]/).includes('..')) return 'a `..` segment';
  if (path.includes('\0')) return 'a NUL character';
  return undefined;
}

function failure(message: string, respond: Respond, env: TemplateEnv): RespondDraft {
  env.log(message);
  return { draft: textDraft(500, message, respond.delayMs) };
}

interface FileRender {
  readonly data: TemplateData;
  readonly runtime: TemplateRuntime;
  readonly where: string;
}

/** A file path rendered from the request: what was rendered, and the folder it was rendered under. */
interface RenderedPath {
  readonly shown: string;
  readonly where: string;
  readonly respondDir: string;
}

/** Compiled template files, per version of their bytes (a changed file is new bytes: compiled again). */
const compiledFiles = new WeakMap<Uint8Array, CompiledTemplate>();

async function fileAnswer(
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
  const kind: TemplateKind = extensionOf(path)?.toLowerCase() === '.json' ? 'json' : 'text';
  let compiled = compiledFiles.get(fb.body);
  if (compiled === undefined) {
    const engine = engineIfLoaded() ?? (await loadEngine());
    const r = compileTemplate(engine, decoder.decode(fb.body), kind);
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
      ...failure((e as Error).message, { body: { kind: 'empty' }, headers: [], delayMs: base.delayMs }, env),
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
async function streamAnswer(
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
      return { ...failure((x as Error).message, respond, env), ...fileOf(found) };
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

/** The sources of a rule's templates and the values the request gave the paths they name. */
function usage(template: RespondTemplate, data: TemplateData): TemplateUse {
  const sources: { part: string; source: string }[] = [];
  const paths = new Set<string>();
  const add = (part: string, slot: TemplateSlot | undefined): void => {
    if (slot === undefined) return;
    sources.push({ part, source: slot.source });
    for (const p of slot.compiled?.paths ?? []) paths.add(p);
  };
  add(template.body?.kind === 'json' ? 'json' : 'text', template.body);
  add('file_path', template.filePath);
  for (const [name, slot] of template.headers) add(`headers.${name}`, slot);
  const values = [...paths].map((path) => ({ path, value: valueAt(data, path) }));
  return { sources, values };
}

function valueAt(data: TemplateData, path: string): unknown {
  let v: unknown = data;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** The template env of a dispatch: the workspace's generator, the env's clock (or the wall clock), its files and log. */
export function templateEnv(
  files: FileSource,
  random: () => number,
  log: (line: string) => void,
  now: (() => Date) | undefined,
  collection?: (name: string, id: string | undefined) => unknown,
  deny?: FileDeny,
): TemplateEnv {
  const base = { files, random, log, now: now ?? (() => new Date()), ...(deny === undefined ? {} : { deny }) };
  return collection === undefined ? base : { ...base, collection };
}
