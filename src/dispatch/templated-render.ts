// The rendering a templated answer shares (docs/templates.md): one render's inputs (the request view, the runtime),
// a slot rendered or a failure that names the rule, and the template env's types. templated.ts makes the answer;
// templated-files.ts renders a file's or a stream's content.
import type { Respond } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import type {
  CompiledTemplate,
  RespondTemplate,
  TemplateData,
  TemplateRuntime,
  TemplateSlot,
} from '../model/template.js';
import type { HeaderList } from '../shared/headers.js';
import type { FileSource } from '../files/source.js';
import { fakerIfLoaded, headerValue, templateData, TemplateLimitError } from '../templates/index.js';
import { textDraft, type FileDeny, type RespondDraft } from './respond.js';

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

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
  /** the request's state store (Mockoon's `setGlobalVar`/`getGlobalVar`) */
  readonly state?: TemplateRuntime['state'];
  /** what a rendered file_path may not name: the workspace's service.deny, its patterns relative to `fallbackDir` */
  readonly deny?: FileDeny;
}

export class TemplateFailure extends Error {
  /** 413 when the request asked a template for more than a limit allows */
  constructor(
    message: string,
    readonly status = 500,
  ) {
    super(message);
  }
}

/** One render's inputs: the request view and the runtime are built only if a template needs the Handlebars runtime. */
export class Render {
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
      ...(this.env.state === undefined ? {} : { state: this.env.state }),
    });
  }
}

export function render(slot: TemplateSlot, r: Render, where: string): string {
  if (slot.compiled === undefined) throw new TemplateFailure(`${where}: the template was not compiled`);
  // a template of text and plain paths: straight from the request (only a json one may decline, and it is not here)
  if (slot.kind !== 'json') {
    const direct = slot.compiled.direct?.(r.req, r.params);
    if (direct !== undefined) return direct;
  }
  return renderCompiled(slot.compiled, r.data(), r.runtime(), where);
}

export function renderCompiled(
  t: CompiledTemplate,
  data: TemplateData,
  runtime: TemplateRuntime,
  where: string,
): string {
  try {
    return t.render(data, runtime);
  } catch (e) {
    throw new TemplateFailure(
      `${where}: the template failed: ${e instanceof Error ? e.message : String(e)}`,
      e instanceof TemplateLimitError ? 413 : 500,
    );
  }
}

export function renderHeaders(headers: HeaderList, template: RespondTemplate, r: Render): HeaderList {
  if (template.headers.length === 0) return headers;
  const where = `rule ${template.where.rule} of ${template.where.file}`;
  return headers.map(([name, value]) => {
    const slot = template.headers.find(([n]) => n === name)?.[1];
    return slot === undefined ? ([name, value] as const) : ([name, headerValue(render(slot, r, where))] as const);
  });
}

export function failure(message: string, respond: Respond, env: TemplateEnv, status = 500): RespondDraft {
  env.log(message);
  return { draft: textDraft(status, message, respond.delayMs) };
}
