// A documented response → the bodies it can answer with: the media type chosen, and each body variant (the
// `example`, else every named `examples` entry, else one value from the schema: its own examples or a value
// made from it by sample.ts, which is deterministic). JSON media types give JSON values (written to files);
// other text media types give text only when the example is a string; a binary one (PDF, PNG, anything else)
// is answered with a small valid body of its type. A document's example that contradicts its schema is still
// served (its authors chose it), with a note naming its JSON pointer.
import { binaryBody } from './binary.js';
import { deref, entriesOf, isObj, objAt, pointerOf, type Obj } from './document.js';
import { REASONS } from './messages.js';
import { conforms, sampleSchemaOnce } from './sample.js';

export interface BodyVariant {
  /** the `examples` key; undefined for `example` or a schema-made value */
  readonly name?: string;
  readonly value: unknown;
  /** made from the schema by the sampler, not written in the document */
  readonly generated?: true;
}

export type ResponseBody =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly mediaType: string; readonly variants: readonly BodyVariant[] }
  | {
      readonly kind: 'text';
      readonly mediaType: string;
      readonly variants: readonly (BodyVariant & { readonly value: string })[];
    }
  | { readonly kind: 'binary'; readonly mediaType: string; readonly bytes: Uint8Array; readonly ext: string };

export interface BodyOutcome {
  /** undefined: the response cannot be answered (see skipped) */
  readonly body?: ResponseBody;
  /** parts left out, each with its reason */
  readonly skipped: readonly string[];
  /** examples that contradict their schema: `<JSON pointer>: <why>` */
  readonly contradictions?: readonly string[];
}

export function isJsonMediaType(t: string): boolean {
  const base = t.split(';')[0]!.trim().toLowerCase();
  // AWS's application/x-amz-json-1.0 and -1.1 are JSON too
  return (
    base === 'application/json' || base.endsWith('+json') || /^application\/x-amz-json-\d/.test(base) || base === '*/*'
  );
}

/**
 * A JSON example written as JSON text (a Swagger 2.0 `examples: application/json: |- { … }`, as in the OpenAPI
 * Initiative's api-with-examples sample) is the JSON it holds, not a JSON string: a string example that parses
 * as an object or an array, unless the schema says the body is a string.
 */
function jsonOfText(v: BodyVariant, media: Obj, doc: Obj): BodyVariant {
  if (typeof v.value !== 'string' || v.generated === true) return v;
  const text = v.value.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return v;
  const schema = deref(doc, media['schema']);
  if (isObj(schema) && schema['type'] === 'string') return v;
  try {
    return { ...v, value: JSON.parse(text) as unknown };
  } catch {
    return v;
  }
}

/** `at`: the JSON pointer tokens of the response object (for naming an example that contradicts its schema) */
export function responseBody(response: Obj, doc: Obj, at: readonly string[] = []): BodyOutcome {
  const content = entriesOf(objOf(doc, response['content']))
    .map(([t, m]) => [t, deref(doc, m)] as const)
    .filter(([, m]) => isObj(m)) as (readonly [string, Obj])[];
  if (content.length === 0) return { body: { kind: 'none' }, skipped: [] };
  const skipped: string[] = [];
  const json = content.find(([t]) => isJsonMediaType(t));
  const chosen = json ?? content[0]!;
  for (const [t] of content) if (t !== chosen[0]) skipped.push(REASONS.otherMediaType(t, chosen[0]));
  const [type, media] = chosen;
  const mediaType = type === '*/*' ? 'application/json' : type;
  const contradictions: string[] = [];
  const made = variantsOf(media, doc, skipped, contradictions, [...at, 'content', type]);
  if (made === undefined) return { skipped };
  // a number or boolean made for a text body (`text/plain` with `type: integer`, as OData's `$count`) is its text
  const found =
    json === undefined && type.toLowerCase().startsWith('text/')
      ? made.map((v) =>
          v.generated === true && (typeof v.value === 'number' || typeof v.value === 'boolean')
            ? { ...v, value: String(v.value) }
            : v,
        )
      : made;
  const extra = contradictions.length > 0 ? { contradictions } : {};
  if (json !== undefined)
    return {
      body: { kind: 'json', mediaType, variants: found.map((v) => jsonOfText(v, media, doc)) },
      skipped,
      ...extra,
    };
  // a generated string stands in for text only: for binary media types it would be a wrong body
  const usable = (v: BodyVariant): v is BodyVariant & { value: string } =>
    typeof v.value === 'string' && (v.generated !== true || type.toLowerCase().startsWith('text/'));
  const texts = found.filter(usable);
  if (texts.length === 0) {
    const binary = binaryBody(mediaType);
    if (binary !== undefined) return { body: { kind: 'binary', mediaType, ...binary }, skipped };
  }
  for (const v of found) if (!usable(v) && v.generated !== true) skipped.push(REASONS.nonStringExample(type, v.name));
  if (texts.length === 0) return { skipped: [...skipped, REASONS.noTextBody(type)] };
  return { body: { kind: 'text', mediaType, variants: texts }, skipped };
}

function variantsOf(
  media: Obj,
  doc: Obj,
  skipped: string[],
  contradictions: string[],
  at: readonly string[],
): readonly BodyVariant[] | undefined {
  const rawSchema = media['schema'];
  const schema = deref(doc, rawSchema);
  const check = (value: unknown, where: readonly string[]): void => {
    if (isObj(schema) && !conforms(value, rawSchema, doc)) contradictions.push(pointerOf(where));
  };
  if (media['example'] !== undefined) {
    check(media['example'], [...at, 'example']);
    return [{ value: media['example'] }];
  }
  const named: BodyVariant[] = [];
  for (const [name, raw] of entriesOf(objOf(doc, media['examples']))) {
    const ex = deref(doc, raw);
    if (!isObj(ex)) continue;
    if (ex['value'] !== undefined) {
      check(ex['value'], [...at, 'examples', name, 'value']);
      named.push({ name, value: ex['value'] });
    } else if (typeof ex['externalValue'] === 'string')
      skipped.push(REASONS.externalExample(name, ex['externalValue']));
  }
  if (named.length > 0) return named;
  if (!isObj(schema)) {
    skipped.push(REASONS.noSchema());
    return [{ value: {} }];
  }
  if (schema['example'] !== undefined) {
    check(schema['example'], [...at, 'schema', 'example']);
    return [{ value: schema['example'] }];
  }
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) {
    check(schema['examples'][0], [...at, 'schema', 'examples', '0']);
    return [{ value: schema['examples'][0] }];
  }
  try {
    return [{ generated: true, value: sampleSchemaOnce(rawSchema, doc, { skip: 'writeOnly' }) }];
  } catch (e) {
    skipped.push(REASONS.sampleFailed(e instanceof Error ? e.message : String(e)));
    return undefined;
  }
}

/** v, its `$ref` followed, when that is an object */
function objOf(doc: Obj, v: unknown): Obj | undefined {
  const o = deref(doc, v);
  return isObj(o) ? o : undefined;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * The response's documented headers with a value: the header's `example`, its first `examples` entry, its
 * schema's example, or one made from the schema. `content-type` is the media type's business (OpenAPI ignores
 * it here); a value that is not a string, number or boolean, or not valid in a header, is left out with the reason.
 */
export function responseHeaders(
  response: Obj,
  doc: Obj,
): { readonly headers: readonly (readonly [string, string])[]; readonly skipped: readonly string[] } {
  const headers: [string, string][] = [];
  const skipped: string[] = [];
  for (const [name, raw] of entriesOf(objOf(doc, response['headers']))) {
    const h = deref(doc, raw);
    if (!isObj(h) || name.toLowerCase() === 'content-type') continue;
    const value = headerValue(h, doc);
    const text =
      typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    if (!HEADER_NAME.test(name) || text === undefined || !HEADER_VALUE.test(text)) {
      skipped.push(REASONS.headerLeftOut(name));
      continue;
    }
    headers.push([name.toLowerCase(), text]);
  }
  return { headers, skipped };
}

function headerValue(h: Obj, doc: Obj): unknown {
  if (h['example'] !== undefined) return h['example'];
  const named = entriesOf(objAt(h, 'examples'))
    .map(([, raw]) => {
      const e = deref(doc, raw);
      return isObj(e) ? e['value'] : undefined;
    })
    .find((v) => v !== undefined);
  if (named !== undefined) return named;
  const schema = deref(doc, h['schema']);
  if (!isObj(schema)) return undefined;
  if (schema['example'] !== undefined) return schema['example'];
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
  try {
    return sampleSchemaOnce(h['schema'], doc);
  } catch {
    return undefined;
  }
}
