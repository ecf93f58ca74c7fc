// A tiny strict, declarative decoder kit over the located TOML tree. A decoder either returns a value or
// records a Diagnostic and returns undefined; it never throws and never stops at the first problem, so one
// pass reports every unknown key and every wrong type in a file. Every combinator returns a Shape: the
// decoder itself (callable as before, at no extra cost) carrying `decode`, `schema()` (its JSON Schema
// fragment), a human `type` and a one-line `doc`, so the loader, the editor schema and the reference docs are
// one tree (config/shapes/, config/schema/; what a Shape carries is in config/shape-types.ts). Diagnostics stay here.
import type { Diagnostic, DiagnosticCode } from '../model/diagnostic.js';
import { suggest } from '../shared/did-you-mean.js';
import { lineColumnAt } from '../shared/position.js';
import { MESSAGES } from './messages.js';
import { decodedBy, pickMeta, shape, type JsonSchema, type Shape } from './shape-types.js';
import { describeKind, type TomlNode, type TomlTable } from './toml.js';

export {
  decodedBy,
  described,
  shape,
  type Bounds,
  type Describe,
  type JsonSchema,
  type Shape,
  type ShapeMeta,
  type ShapeNode,
} from './shape-types.js';

export type KeyPath = readonly (string | number)[];

/** Where diagnostics go: one per file being decoded. */
export interface DecodeContext {
  /** absolute */
  readonly file: string;
  readonly text: string;
  readonly diagnostics: Diagnostic[];
}

export type Decoder<T> = (node: TomlNode, path: KeyPath, ctx: DecodeContext) => T | undefined;

export interface ReportExtra {
  readonly severity?: 'error' | 'warning';
  readonly allowed?: readonly string[];
  readonly suggestion?: string | undefined;
}

/** Record one diagnostic at a source offset. */
export function report(
  ctx: DecodeContext,
  code: DiagnosticCode,
  message: string,
  offset: number,
  path: KeyPath,
  extra: ReportExtra = {},
): void {
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

export function invalidValue(
  ctx: DecodeContext,
  node: TomlNode,
  path: KeyPath,
  message: string,
  suggestion?: string,
): undefined {
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
  return {
    type: 'integer',
    ...(safe(min) ? { minimum: Number(min) } : {}),
    ...(safe(max) ? { maximum: Number(max) } : {}),
  };
}

/** An integer within [min, max] (inclusive), as a bigint. */
export function bigInt(min: bigint, max: bigint): Shape<bigint> {
  return shape<bigint>(
    (node, path, ctx) => {
      if (node.kind !== 'integer') return wrongType(ctx, node, path, 'an integer');
      if (node.value < min || node.value > max)
        return invalidValue(ctx, node, path, MESSAGES.outOfRange(describePath(path), min, max, node.value));
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
  const decodeItem = item.decode;
  return shape<T[]>(
    (node, path, ctx) => {
      if (node.kind !== 'array') return wrongType(ctx, node, path, 'an array');
      const out: T[] = [];
      node.items.forEach((child, i) => {
        const v = decodeItem(child, [...path, i], ctx);
        if (v !== undefined) out.push(v);
      });
      return out;
    },
    {
      type: `array of ${item.type}`,
      node: { kind: 'array', item },
      schema: () => ({ type: 'array', items: item.schema() }),
    },
  );
}

/** One string out of a fixed vocabulary; anything else names the allowed values and a near match. */
export function oneOf<const V extends string>(values: readonly V[]): Shape<V> {
  return shape<V>(
    (node, path, ctx) => {
      if (node.kind !== 'string') return wrongType(ctx, node, path, 'a string');
      if ((values as readonly string[]).includes(node.value)) return node.value as V;
      return invalidValue(
        ctx,
        node,
        path,
        MESSAGES.notOneOf(describePath(path), node.value, values),
        suggest(node.value, values),
      );
    },
    { type: 'string', values, schema: () => ({ type: 'string', enum: [...values] }) },
  );
}

/** The same decoder, but undefined when it reported any error (a table with one bad field fails whole). */
export function strict<T>(decoder: Shape<T>): Shape<T> {
  const decode = decoder.decode;
  return shape<T>(
    (node, path, ctx) => {
      const before = ctx.diagnostics.length;
      const v = decode(node, path, ctx);
      for (let i = before; i < ctx.diagnostics.length; i++)
        if (ctx.diagnostics[i]!.severity === 'error') return undefined;
      return v;
    },
    { ...pickMeta(decoder), doc: decoder.doc },
  );
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
  return shape<T>(decode, {
    type,
    node: { kind: 'union', options },
    schema: () => ({ anyOf: options.map((o) => o.schema()) }),
  });
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
  /** each field's working decoder (a described field's doc wrapper is skipped) */
  const decoders: Record<string, Decoder<unknown>> = Object.create(null) as Record<string, Decoder<unknown>>;
  for (const k of allowed) decoders[k] = fields[k]!.decode;
  const decode: Decoder<Decoded<F>> = (node, path, ctx) => {
    if (node.kind !== 'table') return wrongType(ctx, node, path, 'a table');
    const out: Record<string, unknown> = {};
    let suggested: Set<string> | undefined; // made only when a key is unknown (rare; this runs per table)
    node.entries.forEach((entry, key) => {
      const decode = decoders[key];
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
export function unknownKey(
  ctx: DecodeContext,
  key: string,
  offset: number,
  path: KeyPath,
  allowed: readonly string[],
): string | undefined {
  const suggestion = suggest(key, allowed);
  report(ctx, 'unknown_key', MESSAGES.unknownKey(key, describePath(path)), offset, [...path, key], {
    allowed,
    suggestion,
  });
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
