// The shape of a JSON value and the differences between two shapes, purely: keys, types and array element
// shapes, never values. `mock validate --against-upstream` compares what the recording answers with what the real
// API answers now (docs/drift.md). An array's element shape is the union of its elements' shapes (a key any
// element has, a type any element has), so element order and count never matter; an empty array says nothing
// about its elements. Numbers are one type: `1` and `1.5` are the same shape.

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

export interface Shape {
  readonly types: ReadonlySet<JsonType>;
  /** the keys of the object values, each with the union of its values' shapes */
  readonly keys?: ReadonlyMap<string, Shape>;
  /** the union of the array values' element shapes; absent when every array was empty */
  readonly items?: Shape;
}

export type ShapeChange =
  /** a key the recording has and the upstream does not */
  | { readonly kind: 'missing'; readonly pointer: string; readonly was: Shape }
  /** a key the upstream has and the recording does not */
  | { readonly kind: 'added'; readonly pointer: string; readonly now: Shape }
  /** the same place, another type; `nullOnly`: one side is null and the other is not (often a value, not a type) */
  | {
      readonly kind: 'type';
      readonly pointer: string;
      readonly was: ReadonlySet<JsonType>;
      readonly now: ReadonlySet<JsonType>;
      readonly nullOnly: boolean;
    };

export function typeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean') return t;
  return 'object';
}

/** The shape of one JSON value. */
export function shapeOf(v: unknown): Shape {
  const type = typeOf(v);
  if (type === 'object') {
    const keys = new Map<string, Shape>();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) keys.set(k, shapeOf(x));
    return { types: new Set([type]), keys };
  }
  if (type === 'array') {
    let items: Shape | undefined;
    for (const x of v as unknown[]) items = items === undefined ? shapeOf(x) : merge(items, shapeOf(x));
    return { types: new Set([type]), ...(items === undefined ? {} : { items }) };
  }
  return { types: new Set([type]) };
}

/** The union of two shapes. */
export function merge(a: Shape, b: Shape): Shape {
  const types = new Set([...a.types, ...b.types]);
  let keys: Map<string, Shape> | undefined;
  if (a.keys !== undefined || b.keys !== undefined) {
    keys = new Map(a.keys ?? []);
    for (const [k, s] of b.keys ?? []) {
      const there = keys.get(k);
      keys.set(k, there === undefined ? s : merge(there, s));
    }
  }
  const items = a.items === undefined ? b.items : b.items === undefined ? a.items : merge(a.items, b.items);
  return { types, ...(keys === undefined ? {} : { keys }), ...(items === undefined ? {} : { items }) };
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** An array's elements in a pointer: `*` stands for every element (docs/drift.md). */
export const EVERY_ELEMENT = '*';

function sameTypes(a: ReadonlySet<JsonType>, b: ReadonlySet<JsonType>): boolean {
  return a.size === b.size && [...a].every((t) => b.has(t));
}

/**
 * How `now` differs from `was`, each change with its pointer (`''` the whole body, `/user/name`,
 * `/items/*\/id`), in document order of `was` then the keys only `now` has. Nested differences are compared only
 * where both sides have the same container type.
 */
export function diffShapes(was: Shape, now: Shape, pointer = ''): ShapeChange[] {
  const out: ShapeChange[] = [];
  if (!sameTypes(was.types, now.types)) {
    const withoutNull = (s: ReadonlySet<JsonType>): Set<JsonType> => new Set([...s].filter((t) => t !== 'null'));
    const nullOnly =
      (was.types.has('null') !== now.types.has('null') && sameTypes(withoutNull(was.types), withoutNull(now.types))) ||
      (was.types.size === 1 && was.types.has('null')) ||
      (now.types.size === 1 && now.types.has('null'));
    out.push({ kind: 'type', pointer, was: was.types, now: now.types, nullOnly });
  }
  if (was.keys !== undefined && now.keys !== undefined) {
    for (const [k, s] of was.keys) {
      const there = now.keys.get(k);
      const at = `${pointer}/${pointerToken(k)}`;
      if (there === undefined) out.push({ kind: 'missing', pointer: at, was: s });
      else out.push(...diffShapes(s, there, at));
    }
    for (const [k, s] of now.keys)
      if (!was.keys.has(k)) out.push({ kind: 'added', pointer: `${pointer}/${pointerToken(k)}`, now: s });
  }
  if (was.items !== undefined && now.items !== undefined)
    out.push(...diffShapes(was.items, now.items, `${pointer}/${EVERY_ELEMENT}`));
  return out;
}

/** `string`, `string or null`. */
export function typesText(types: ReadonlySet<JsonType>): string {
  return [...types].sort().join(' or ');
}
