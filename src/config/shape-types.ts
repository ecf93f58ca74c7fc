// What makes a decoder a Shape: its structure (record, map, array, union, leaf) for the walkers, a human type,
// a one-line doc, default, example, bounds or vocabulary, and its JSON Schema fragment. `described` gives a
// shape its doc at a key; the schema's annotations (description, markdownDescription, x-taplo) are made here.
// The combinators themselves are in decode.ts.
import type { Decoder } from './decode.js';

/** A JSON Schema (draft-07) fragment. */
export type JsonSchema = { readonly [key: string]: unknown };

/** What a shape is made of, for the walkers (toJsonSchema, toMarkdown, the agreement tests). */
export type ShapeNode =
  | { readonly kind: 'leaf' }
  | {
      readonly kind: 'record';
      readonly fields: Readonly<Record<string, Shape<unknown>>>;
      readonly required: readonly string[];
    }
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
  /** a longer Markdown text, after the doc (hovers and the reference) */
  readonly long?: string;
  /** the JSON Schema fragment, annotations included */
  readonly schema: () => JsonSchema;
}

export type Shape<T> = Decoder<T> & ShapeMeta & { readonly decode: Decoder<T> };

interface MakeMeta extends Omit<ShapeMeta, 'doc' | 'node'> {
  readonly doc?: string;
  readonly node?: ShapeNode;
  /** the decoder that does the work, when `decode` only forwards to it */
  readonly decode?: Decoder<unknown>;
}

/** A shape from a decoder and its description. The decoder object itself is the shape (no wrapper). */
export function shape<T>(decode: Decoder<T>, meta: MakeMeta): Shape<T> {
  const out = decode as Shape<T>;
  Object.assign(out, { doc: '', node: { kind: 'leaf' }, ...meta, decode: meta.decode ?? decode });
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
  // its own object, to carry this key's doc; the combinators call `.decode`, the inner decoder itself
  const decode: Decoder<T> = (node, path, ctx) => inner(node, path, ctx);
  const meta: MakeMeta = {
    ...pickMeta(inner),
    decode: inner.decode,
    doc: d.doc,
    ...(d.default === undefined ? {} : { default: d.default }),
    ...(d.example === undefined ? {} : { example: d.example }),
    ...(d.long === undefined ? {} : { long: d.long }),
    schema: () => annotate(inner.schema(), inner, d),
  };
  return shape(decode, meta);
}

/** The same shape (schema and docs) decoded by another decoder (a hand-written one with its own messages). */
export function decodedBy<T, U>(inner: Shape<U>, decode: Decoder<T>): Shape<T> {
  return shape(decode, { ...pickMeta(inner), doc: inner.doc, schema: () => inner.schema() });
}

export function pickMeta(s: ShapeMeta): MakeMeta {
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
