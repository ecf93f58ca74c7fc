// A templated rule's answer (docs/templates.md): its headers, body and file path rendered from the request with
// the workspace's generator and clock. A rendered `json` that does not parse, or a helper that fails, is a 500
// naming the rule; a rendered file path that is absolute or climbs out (`..`) is refused with a 404 and a logged
// reason, and otherwise resolved and confined exactly as a literal `file_path`; a file it names that service.deny
// keeps from file routing (or a symlink to one) answers as file routing answers it, 404, with a logged reason
// (docs/files-and-rules.md, "Never served"); the rendering is templated-render.ts, files and streams
// templated-files.ts.
import type { Respond } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type { Rule } from '../model/rule-set.js';
import type { RespondTemplate, TemplateData, TemplateSlot } from '../model/template.js';
import type { ValueOrPromise } from '../shared/value-or-promise.js';
import { joinPaths } from '../files/paths.js';
import type { FileSource } from '../files/source.js';
import { matchTemplate, templateSegments } from '../routing/path-template.js';
import { jsonProblem } from '../templates/index.js';
import type { Draft } from './finalize.js';
import { APPLICATION_JSON, deliveryOf, emptyDraft, TEXT_PLAIN, type FileDeny, type RespondDraft } from './respond.js';
import {
  encoder,
  failure,
  render,
  Render,
  renderHeaders,
  TemplateFailure,
  type TemplateEnv,
  type TemplateUse,
} from './templated-render.js';
import { fileAnswer, refusal, streamAnswer } from './templated-files.js';

export type { TemplateEnv, TemplateUse };

export type { FileDeny };

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
        template.templateFile ? { data: r.data(), runtime: r.runtime(), where, dialect: template.dialect } : undefined,
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
    if (e instanceof TemplateFailure) return failure(e.message, respond, env, e.status);
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

export function paramsOf(rule: Rule, req: RequestSnapshot): Record<string, string> {
  for (const c of rule.conditions) {
    if (c.on === 'url_path' && c.template !== undefined) return matchTemplate(c.template, templateSegments(req)) ?? {};
  }
  return {};
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
  state?: TemplateEnv['state'],
): TemplateEnv {
  const base = {
    files,
    random,
    log,
    now: now ?? (() => new Date()),
    ...(deny === undefined ? {} : { deny }),
    ...(state === undefined ? {} : { state }),
  };
  return collection === undefined ? base : { ...base, collection };
}
