// Response templates as loaded: a rule's answer built from the request (docs/templates.md). Types only: the
// compiling and rendering live in templates/, which config/ calls at load and dispatch/ calls per request.
import type { RequestSnapshot } from './request.js';

/** Where a template's output goes, which decides its escaping. */
export type TemplateKind =
  /** `respond.json` or a `.json` template file: a value inside a JSON string is escaped as a JSON string */
  | 'json'
  /** `respond.text` or another template file: nothing is escaped */
  | 'text'
  /** a `respond.headers` value: CR, LF and other characters a header cannot hold are removed */
  | 'header'
  /** the `respond.file_path` value: the rendered path is resolved and confined like a literal one */
  | 'path';

/** The request as templates see it: `request.params.id`, `request.query.page`, `request.body.customer.id`… */
export interface TemplateData {
  readonly request: {
    readonly method: string;
    readonly path: string;
    readonly params: Readonly<Record<string, string>>;
    readonly query: Readonly<Record<string, unknown>>;
    readonly headers: Readonly<Record<string, string>>;
    readonly cookies: Readonly<Record<string, string>>;
    readonly body: unknown;
    readonly form: Readonly<Record<string, unknown>>;
    readonly text: string;
  };
}

/** What a render may draw on besides the data: the workspace's generator and the clock. */
export interface TemplateRuntime {
  /** a float in [0, 1): seeded by `service.seed` when set */
  readonly random: () => number;
  readonly now: () => Date;
  /** `@faker-js/faker`, present when a template of the workspace uses `faker` (loaded once, at load) */
  readonly faker?: unknown;
  /** a collection's current data by name (docs/state.md), one item with `id`; undefined when there is none */
  readonly collection?: (name: string, id: string | undefined) => unknown;
  /** the request's share of the state store (its session's, with sessions on): Mockoon's global variables */
  readonly state?: { get(key: string): unknown; set(key: string, value: unknown): void };
}

export interface CompiledTemplate {
  readonly kind: TemplateKind;
  readonly source: string;
  /** the data roots the template names (`request.params`, `reqest`…), for `validate` and explanations */
  readonly paths: readonly string[];
  readonly usesFaker: boolean;
  /** throws on a helper's misuse: the caller answers 500 naming the rule */
  render(data: TemplateData, runtime: TemplateRuntime): string;
  /**
   * Present for a template of literal text and plain data paths: the same text rendered straight from the request
   * and its path parameters. For a `json` template it is undefined when the text is not known to be valid JSON
   * (the caller then renders and checks it); otherwise the text parses, by construction.
   */
  direct?(req: RequestSnapshot, params: Readonly<Record<string, string>>): string | undefined;
}

/** One templated value of a rule, as written, and compiled at load (until then, `compiled` is unset). */
export interface TemplateSlot {
  readonly kind: TemplateKind;
  readonly source: string;
  /** `template_dialect = "wiremock"`: WireMock's request model and helpers (docs/templates.md#wiremock-dialect) */
  readonly dialect?: 'wiremock';
  compiled?: CompiledTemplate;
}

/** A rule's templates (`respond.template = true`, or `template = true` at the rule set's top). */
export interface RespondTemplate {
  /** where the rule is, for messages: `rules.toml:12:1` and its 1-based number */
  readonly where: { readonly file: string; readonly rule: number; readonly line?: number; readonly column?: number };
  readonly body?: TemplateSlot;
  readonly filePath?: TemplateSlot;
  readonly headers: readonly (readonly [name: string, slot: TemplateSlot])[];
  /** `respond.template_file`: the served file's content is a template too (compiled once per content) */
  readonly templateFile: boolean;
  /** a templated `respond.stream`: each event of its file is a template, rendered for the request */
  readonly streamEvents?: boolean;
  /** absolute: a rendered file_path resolves against it and must stay inside */
  readonly respondDir: string;
  /** the template file's dialect too (TemplateSlot's) */
  readonly dialect?: 'wiremock';
}
