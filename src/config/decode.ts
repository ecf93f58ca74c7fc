// A tiny strict, declarative decoder kit over the located TOML tree. A decoder either returns a value or
// records a Diagnostic and returns undefined; it never throws and never stops at the first problem, so one
// pass reports every unknown key and every wrong type in a file. Every combinator returns a Shape: the
// decoder itself (callable as before, at no extra cost) carrying `decode`, `schema()` (its JSON Schema
// fragment), a human `type` and a one-line `doc`, so the loader, the editor schema and the reference docs are
// one tree (config/shapes/, config/schema/). Diagnostics stay in the decoders; schema text is in shape-docs.
import type { Diagnostic, DiagnosticCode } from '../model/diagnostic.js';
import { suggest } from '../shared/did-you-mean.js';
import { lineColumnAt } from '../shared/position.js';
import { MESSAGES } from './messages.js';
import { describeKind, type TomlNode, type TomlTable } from './toml.js';

export type KeyPath = readonly (string | number)[];

/** Where diagnostics go: one per file being decoded. */
export interface DecodeContext {
  /** absolute */
  readonly file: string;
  readonly text: string;
  readonly diagnostics: Diagnostic[];
}

export type Decoder<T> = (node: TomlNode, path: KeyPath, ctx: DecodeContext) => T | undefined;

/** A JSON Schema (draft-07) fragment. */
export type JsonSchema = { readonly [key: string]: unknown };

/** What a shape is made of, for the walkers (toJsonSchema, toMarkdown, the agreement tests). */
export type ShapeNode =
  | { readonly kind: 'leaf' }
  | { readonly kind: 'record'; readonly fields: Readonly<Record<string, Shape<unknown>>>; readonly required: readonly string[] }
  /** a table keyed by a name (header names, dotted body paths) */
  | { readonly kind: 'map'; readonly keyName: string; readonly keyPattern?: RegExp; readonly value: Shape<unknown> }
  | { readonly kind: 'array'; readonly item: Shape<unknown> }
  | { readonly kind: 'union'; readonly options: readonly Shape<unknown>[] };

/** Integer bounds, when the shape is a bounded integer. */
export interface Bounds {
  readonly min: bigint;
  readonly max: bigint;
}

export interface ShapeMeta {
  /** one line, Markdown; '' when the field's description says it all */
  readonly doc: string;
  /** human type: `integer 0–65535`, `string`, `table` */
  readonly type: string;
  readonly node: ShapeNode;
  /** as JSON (for the schema's `default`) */
  readonly default?: unknown;
  /** a TOML value as a user would write it */
  readonly example?: string;
  readonly bounds?: Bounds;
  /** a string vocabulary (oneOf) */
  readonly values?: readonly string[];
  /** the JSON Schema fragment, annotations included */
  schema(): JsonSchema;
}

export type Shape<T> = Decoder<T> & ShapeMeta & { readonly decode: Decoder<T> };

interface MakeMeta extends Omit<ShapeMeta, 'doc' | 'node'> {
  readonly doc?: string;
  readonly node?: ShapeNode;
}

/** A shape from a decoder and its description. The decoder object itself is the shape (no wrapper). */
export function shape<T>(decode: Decoder<T>, meta: MakeMeta): Shape<T> {
  const out = decode as Shape<T>;
  Object.assign(out, { doc: '', node: { kind: 'leaf' }, ...meta, decode });
  return out;
}

export interface Describe {
  readonly doc: string;
  readonly default?: unknown;
  readonly example?: string;
  /** a longer Markdown text for hovers (x-taplo.docs.main) */
  readonly long?: string;
  /** one line per enum value, for hovers (x-taplo.docs.enumValues) */
  readonly enumDocs?: (value: string) => string;
}

/**
 * The same shape with a doc, default and example: a fresh decoder object that calls the inner one, so one
 * primitive (`string`) can be described differently at every key. The schema gains `description`,
 * `markdownDescription` (VS Code) and `x-taplo.docs` (Taplo's hover), and `default`.
 */
export function described<T>(inner: Shape<T>, d: Describe): Shape<T> {
  const decode: Decoder<T> = (node, path, ctx) => inner(node, path, ctx);
  const meta: MakeMeta = {
    ...pickMeta(inner),
    doc: d.doc,
    ...(d.default === undefined ? {} : { default: d.default }),
    ...(d.example === undefined ? {} : { example: d.example }),
    schema: () => annotate(inner.schema(), inner, d),
  };
  return shape(decode, meta);
}

/** The same shape (schema and docs) decoded by another decoder (a hand-written one with its own messages). */
export function decodedBy<T, U>(inner: Shape<U>, decode: Decoder<T>): Shape<T> {
  return shape(decode, { ...pickMeta(inner), doc: inner.doc, schema: () => inner.schema() });
}

function pickMeta(s: ShapeMeta): MakeMeta {
  return {
    type: s.type,
    node: s.node,
    schema: s.schema,
    ...(s.default === undefined ? {} : { default: s.default }),
    ...(s.example === undefined ? {} : { example: s.example }),
    ...(s.bounds === undefined ? {} : { bounds: s.bounds }),
    ...(s.values === undefined ? {} : { values: s.values }),
  };
}

function annotate(base: JsonSchema, inner: ShapeMeta, d: Describe): JsonSchema {
  const text = d.default === undefined ? d.doc : `${d.doc}\n\nDefault: \`${JSON.stringify(d.default)}\`.`;
  const docs: Record<string, unknown> = {};
  if (d.long !== undefined) docs['main'] = `${text}\n\n${d.long}`;
  if (d.enumDocs !== undefined && inner.values !== undefined) docs['enumValues'] = inner.values.map(d.enumDocs);
  const out: Record<string, unknown> = { description: text, markdownDescription: docs['main'] ?? text, ...base };
  if (d.default !== undefined) out['default'] = d.default;
  if (Object.keys(docs).length > 0) out['x-taplo'] = { docs };
  return out;
}

export interface ReportExtra {
  readonly severity?: 'error' | 'warning';
  readonly allowed?: readonly string[];
  readonly suggestion?: string | undefined;
}

/** Record one diagnostic at a source offset. */
export function report(ctx: DecodeContext, code: DiagnosticCode, message: string, offset: number, path: KeyPath, extra: ReportExtra = {}): void {
  const { line, column } = lineColumnAt(ctx.text, offset);
  const d: { -readonly [K in keyof Diagnostic]: Diagnostic[K] } = {
    severity: extra.severity ?? 'error',
    code,
    message,
    file: ctx.file,
    line,
    column,
    keyPath: [...path],
  };
  if (extra.allowed !== undefined) d.allowed = extra.allowed;
  if (extra.suggestion !== undefined) d.suggestion = extra.suggestion;
  ctx.diagnostics.push(d);
}

/** `service.rule_sets[0]`, `rules[2].when.request`; '' for the top level. */
export function describePath(path: KeyPath): string {
  let out = '';
  for (const step of path) {
    if (typeof step === 'number') out += `[${step}]`;
    else out += out === '' ? step : `.${step}`;
  }
  return out;
}

export function wrongType(ctx: DecodeContext, node: TomlNode, path: KeyPath, expected: string): undefined {
  report(ctx, 'wrong_type', MESSAGES.wrongType(describePath(path), expected, describeKind(node)), node.offset, path);
  return undefined;
}

export function invalidValue(ctx: DecodeContext, node: TomlNode, path: KeyPath, message: string, suggestion?: string): undefined {
  report(ctx, 'invalid_value', message, node.offset, path, { suggestion });
  return undefined;
}

// ---- primitives ------------------------------------------------------------------------------------

export const string: Shape<string> = shape(
  (node, path, ctx) => (node.kind === 'string' ? node.value : wrongType(ctx, node, path, 'a string')),
  { type: 'string', schema: () => ({ type: 'string' }) },
);

export const bool: Shape<boolean> = shape(
  (node, path, ctx) => (node.kind === 'boolean' ? node.value : wrongType(ctx, node, path, 'a boolean (true or false)')),
  { type: 'boolean', schema: () => ({ type: 'boolean' }) },
);

/** JSON Schema bounds: exact within the safe-integer range; beyond it (a u64 seed), left to the loader. */
function integerSchema(min: bigint, max: bigint): JsonSchema {
  const safe = (n: bigint): boolean => n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);
  return { type: 'integer', ...(safe(min) ? { minimum: Number(min) } : {}), ...(safe(max) ? { maximum: Number(max) } : {}) };
}

/** An integer within [min, max] (inclusive), as a bigint. */
export function bigInt(min: bigint, max: bigint): Shape<bigint> {
  return shape<bigint>(
    (node, path, ctx) => {
      if (node.kind !== 'integer') return wrongType(ctx, node, path, 'an integer');
      if (node.value < min || node.value > max) return invalidValue(ctx, node, path, MESSAGES.outOfRange(describePath(path), min, max, node.value));
      return node.value;
    },
    { type: `integer ${min}–${max}`, bounds: { min, max }, schema: () => integerSchema(min, max) },
  );
}

/** An integer within [min, max] (inclusive; both within the safe range), as a number. */
export function int(min: number, max: number): Shape<number> {
  const decode = bigInt(BigInt(min), BigInt(max));
  return shape<number>(
    (node, path, ctx) => {
      const v = decode(node, path, ctx);
      return v === undefined ? undefined : Number(v);
    },
    { ...pickMeta(decode) },
  );
}

/** An array whose items all decode; a failing item is reported and dropped. */
export function array<T>(item: Shape<T>): Shape<T[]> {
  return shape<T[]>(
    (node, path, ctx) => {
      if (node.kind !== 'array') return wrongType(ctx, node, path, 'an array');
      const out: T[] = [];
      node.items.forEach((child, i) => {
        const v = item(child, [...path, i], ctx);
        if (v !== undefined) out.push(v);
      });
      return out;
    },
    { type: `array of ${item.type}`, node: { kind: 'array', item }, schema: () => ({ type: 'array', items: item.schema() }) },
  );
}

/** One string out of a fixed vocabulary; anything else names the allowed values and a near match. */
export function oneOf<const V extends string>(values: readonly V[]): Shape<V> {
  return shape<V>(
    (node, path, ctx) => {
      if (node.kind !== 'string') return wrongType(ctx, node, path, 'a string');
      if ((values as readonly string[]).includes(node.value)) return node.value as V;
      return invalidValue(ctx, node, path, MESSAGES.notOneOf(describePath(path), node.value, values), suggest(node.value, values));
    },
    { type: 'string', values, schema: () => ({ type: 'string', enum: [...values] }) },
  );
}

/** The same decoder, but undefined when it reported any error (a table with one bad field fails whole). */
export function strict<T>(decoder: Shape<T>): Shape<T> {
  return shape<T>((node, path, ctx) => {
    const before = ctx.diagnostics.length;
    const v = decoder(node, path, ctx);
    for (let i = before; i < ctx.diagnostics.length; i++) if (ctx.diagnostics[i]!.severity === 'error') return undefined;
    return v;
  }, { ...pickMeta(decoder), doc: decoder.doc });
}

/** Accept anything, as is (for keys that are allowed but ignored). */
export const anything: Shape<TomlNode> = shape((node) => node, { type: 'any value', schema: () => ({}) });

/** Keep the node as is: the shape is decoded later, by a decoder that needs more context (a rule set's prefix). */
export function later<U>(inner: Shape<U>): Shape<TomlNode> {
  return decodedBy(inner, (node) => node);
}

/** A table keyed by a name (`headers`, `body.json`): the schema takes any key and constrains the values. */
export function map<T>(keyName: string, value: Shape<unknown>, decode: Decoder<T>, keyPattern?: RegExp): Shape<T> {
  return shape<T>(decode, {
    type: 'table',
    node: { kind: 'map', keyName, value, ...(keyPattern === undefined ? {} : { keyPattern }) },
    schema: () => ({
      type: 'object',
      ...(keyPattern === undefined ? {} : { propertyNames: { pattern: keyPattern.source } }),
      additionalProperties: value.schema(),
    }),
  });
}

/** One of several forms, decoded by a hand-written decoder (which says what was expected). */
export function union<T>(options: readonly Shape<unknown>[], decode: Decoder<T>, type: string): Shape<T> {
  return shape<T>(decode, { type, node: { kind: 'union', options }, schema: () => ({ anyOf: options.map((o) => o.schema()) }) });
}

// ---- tables ----------------------------------------------------------------------------------------

type Fields = Readonly<Record<string, Shape<unknown>>>;
export type Decoded<F extends Fields> = { -readonly [K in keyof F]?: F[K] extends Decoder<infer T> ? T : never };

export interface RecordOptions<F extends Fields> {
  readonly required?: readonly (keyof F & string)[];
  /** more schema keywords (anyOf/not rules the decoder checks by hand) */
  readonly schema?: () => JsonSchema;
}

/**
 * A table with exactly these keys. Unknown keys are reported (with the allowed list and a did-you-mean),
 * missing required keys are reported, and every field is decoded even when another failed.
 * The result holds the fields that decoded.
 */
export function record<F extends Fields>(fields: F, opts: RecordOptions<F> = {}): Shape<Decoded<F>> {
  const allowed = Object.keys(fields);
  const required = opts.required ?? [];
  const decode: Decoder<Decoded<F>> = (node, path, ctx) => {
    if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table');
    const out: Record<string, unknown> = {};
    let suggested: Set<string> | undefined; // made only when a key is unknown (rare; this runs per table)
    node.entries.forEach((entry, key) => {
      const decode = fields[key];
      if (decode === undefined) {
        const s = unknownKey(ctx, key, entry.keyOffset, path, allowed);
        if (s !== undefined) (suggested ??= new Set()).add(s);
        return;
      }
      const v = decode(entry.node, [...path, key], ctx);
      if (v !== undefined) out[key] = v;
    });
    for (const key of required) {
      // a misspelt key (`req` for `request`) is reported once, as unknown, not also as missing
      if (!node.entries.has(key) && suggested?.has(key) !== true) {
        report(ctx, 'missing_key', MESSAGES.missingKey(key, describePath(path)), node.offset, [...path, key]);
      }
    }
    return out as Decoded<F>;
  };
  return shape(decode, {
    type: 'table',
    node: { kind: 'record', fields, required },
    schema: () => {
      const properties: Record<string, JsonSchema> = {};
      for (const [k, f] of Object.entries(fields)) properties[k] = f.schema();
      return {
        type: 'object',
        properties,
        additionalProperties: false,
        ...(required.length > 0 ? { required: [...required] } : {}),
        ...(opts.schema?.() ?? {}),
      };
    },
  });
}

/** Report an unknown key; returns the did-you-mean suggestion, if any. */
export function unknownKey(ctx: DecodeContext, key: string, offset: number, path: KeyPath, allowed: readonly string[]): string | undefined {
  const suggestion = suggest(key, allowed);
  report(ctx, 'unknown_key', MESSAGES.unknownKey(key, describePath(path)), offset, [...path, key], { allowed, suggestion });
  return suggestion;
}

/** True when a table node has a key outside `allowed`. */
export function hasUnknownKey(node: TomlNode, allowed: readonly string[]): boolean {
  return node.kind === 'table' && [...node.entries.keys()].some((k) => !allowed.includes(k));
}

/** The entry of a key in a table node, if the node is a table and has it. */
export function entryOf(node: TomlNode | undefined, key: string): { keyOffset: number; node: TomlNode } | undefined {
  return node?.kind === 'table' ? node.entries.get(key) : undefined;
}

export function isTable(node: TomlNode | undefined): node is TomlTable {
  return node?.kind === 'table';
}
