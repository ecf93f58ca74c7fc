// The byte estimate that bounds the journal: roughly what an entry keeps alive on the heap, counted over every
// string, number and container it holds (bodies and the why included). It errs high on purpose: strings count
// two bytes a character (V8 keeps Latin-1 text in one), containers a fixed header plus a slot per element, so
// the real footprint of a full journal stays under `maxBytes`. Pure and linear in the entry's size.
// `heldBytes` is the bound taken at capture, on what the journal holds until a reader asks (journal/capture.ts's
// HeldEntry): without walking an entry that is not made yet, it counts each string and body as the entry would
// (two bytes a byte), the header lists, and the explanation's rule checks.
import type { Explanation } from '../dispatch/explain.js';
import type { HeaderList } from '../shared/headers.js';
import type { HeldEntry } from './capture.js';

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

/** The bound on what a held entry keeps alive, and on the Entry it makes (its why aside, counted once settled). */
export function heldBytes(h: HeldEntry): number {
  let n = STRING_BYTES * 4 + 2 * (h.method.length + h.path.length + h.query.length + h.target.length);
  n += headerBytes(h.rawRequestHeaders) + headerBytes(h.responseHeaders);
  if (!h.bodiesDropped) n += OBJECT_BYTES * 2 + 2 * (h.requestBytes.byteLength + h.responseBytes.byteLength);
  const views = h.settledViews;
  return n + (views !== undefined ? estimateBytes(views) : explanationBytes(h.explanation));
}

/** as the entry will hold them (pairs), whether held as pairs or as Node's flat list */
function headerBytes(headers: HeaderList | readonly string[]): number {
  let n = OBJECT_BYTES;
  for (const h of headers) {
    if (typeof h === 'string') n += SLOT_BYTES / 2 + OBJECT_BYTES / 2 + SLOT_BYTES + STRING_BYTES + 2 * h.length;
    else n += SLOT_BYTES + OBJECT_BYTES + 2 * SLOT_BYTES + 2 * STRING_BYTES + 2 * (h[0].length + h[1].length);
  }
  return n;
}

/** the explanation's rule checks and their actual values, and the why view's note */
function explanationBytes(x: Explanation | undefined): number {
  let n = WHY_NOTE_BYTES;
  if (x === undefined) return n;
  for (const rs of x.ruleSets) {
    n += OBJECT_BYTES * 2 + STRING_BYTES + 2 * rs.file.length;
    for (const rule of rs.rules) {
      n += OBJECT_BYTES * 2 + SLOT_BYTES * 3;
      for (const { check } of rule.conditions)
        n +=
          OBJECT_BYTES * 2 + SLOT_BYTES * 4 + (check.actual === undefined ? 0 : STRING_BYTES + 2 * check.actual.length);
    }
  }
  return n;
}

/** the why's note (at most a sentence or two) and its object */
const WHY_NOTE_BYTES = 2 * OBJECT_BYTES + STRING_BYTES + 2 * 200;
