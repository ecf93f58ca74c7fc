// The byte estimate that bounds the journal: roughly what an entry keeps alive on the heap, counted over every
// string, number and container it holds (bodies and the why included). It errs high on purpose: strings count
// two bytes a character (V8 keeps Latin-1 text in one), containers a fixed header plus a slot per element, so
// the real footprint of a full journal stays under `maxBytes`. Pure and linear in the entry's size.

/** per-object and per-string headers, per-slot cost: V8's on a 64-bit heap, rounded up */
const OBJECT_BYTES = 32;
const SLOT_BYTES = 16;
const STRING_BYTES = 24;
const NUMBER_BYTES = 16;

/** a Date (receivedAt) and the entry's own fixed fields */
export const ENTRY_OVERHEAD_BYTES = 256;

export function estimateBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return STRING_BYTES + 2 * value.length;
    case 'number':
    case 'bigint':
      return NUMBER_BYTES;
    case 'boolean':
    case 'undefined':
      return SLOT_BYTES;
    case 'object': {
      if (value === null) return SLOT_BYTES;
      if (value instanceof Date) return OBJECT_BYTES;
      if (Array.isArray(value)) {
        let n = OBJECT_BYTES + SLOT_BYTES * value.length;
        for (const v of value as readonly unknown[]) n += estimateBytes(v);
        return n;
      }
      let n = OBJECT_BYTES;
      const o = value as Readonly<Record<string, unknown>>;
      for (const k of Object.keys(o)) n += SLOT_BYTES + STRING_BYTES + 2 * k.length + estimateBytes(o[k]);
      return n;
    }
    default:
      return SLOT_BYTES;
  }
}
