// The write side of a collection, json-server 0.17's way (docs/state.md, "Collections"): find by id (compared as
// text, so `/users/1` finds `"id": 1`), the next id for a new item, and the new item for a PUT (the body with the
// old id) or a PATCH (the old item with the body's fields, the id kept). Pure: the caller writes the result back
// through the state store.
import type { CollectionItem } from '../../model/collection.js';
import { jsText } from './query.js';

/** The position of the item whose id reads as `id`, or -1. */
export function indexOfId(items: readonly CollectionItem[], idField: string, id: string): number {
  for (let i = 0; i < items.length; i++) {
    const v = items[i]![idField];
    if (v !== undefined && v !== null && jsText(v) === id) return i;
  }
  return -1;
}

/** `nanoid`'s URL-safe alphabet: json-server's string ids are 7 of these */
const ID_ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/**
 * The id json-server gives a new item: 1 in an empty collection; the highest id plus one when that id is a number;
 * else a random 7-character text drawn from `random` (the workspace's generator: seeded by `service.seed`).
 */
export function nextId(items: readonly CollectionItem[], idField: string, random: () => number): number | string {
  let max: unknown;
  for (const item of items) max = higherId(max, item[idField]);
  return idAfter(max, random);
}

/** The higher of a highest id so far and another id, as json-server's `maxBy` takes it (null and NaN skipped). */
export function higherId(max: unknown, v: unknown): unknown {
  if (v === undefined || v === null || Number.isNaN(v)) return max;
  return max === undefined || (v as number) > (max as number) ? v : max;
}

/**
 * The id after the highest one (see nextId). Past Number.MAX_SAFE_INTEGER, `max + 1` can equal `max` (a data file's
 * 1e308 or 2^53 would give every new item the same id): a random text id then, as for string ids.
 */
export function idAfter(max: unknown, random: () => number): number | string {
  if (max === undefined) return 1;
  if (typeof max === 'number' && Number.isFinite(max) && Math.abs(max + 1) <= Number.MAX_SAFE_INTEGER) return max + 1;
  return randomId(random);
}

/** json-server's 7-character text id, drawn from `random` */
export function randomId(random: () => number): string {
  let id = '';
  for (let i = 0; i < 7; i++) id += ID_ALPHABET[Math.floor(random() * ID_ALPHABET.length) % ID_ALPHABET.length];
  return id;
}

/** PUT: the body in its own key order, with the stored id (in the body's place for it, else last). */
export function replaced(old: CollectionItem, body: CollectionItem, idField: string): CollectionItem {
  return { ...body, [idField]: old[idField] };
}

/** PATCH: the old item with the body's fields over it (new ones last), the id kept. */
export function patched(old: CollectionItem, body: CollectionItem, idField: string): CollectionItem {
  return { ...old, ...body, [idField]: old[idField] };
}

/**
 * Why a number given as an item's id is refused, or undefined: one outside ±Number.MAX_SAFE_INTEGER is not kept
 * exactly (9007199254740993 reads as ...992) and the next id after it would be itself.
 */
export function unsafeId(idField: string, v: unknown): string | undefined {
  if (typeof v !== 'number' || Math.abs(v) <= Number.MAX_SAFE_INTEGER) return undefined;
  return (
    `the ${idField} ${String(v)} is outside the range of exact integers ` +
    `(±${Number.MAX_SAFE_INTEGER}): send it as a string ("${String(v)}"), or leave it out for a new one`
  );
}

/**
 * How deep a value nests objects and arrays (a scalar is 0, `{}` is 1), counted without recursion and no further
 * than `most + 1`: a caller only asks whether it is over `most`.
 */
export function depthOver(value: unknown, most: number): number | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > most) return d;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
  }
  return undefined;
}

/** A request body fit to be an item: a JSON object (not an array, not null). */
export function isItem(v: unknown): v is CollectionItem {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
