// The answers of a collection's lists, kept while the data they were made from is unchanged: a list's body is
// made again only after a write to one of the collections of its group (the relations read the others), so a
// client polling `GET /posts?_embed=comments` costs the first answer's JSON once (docs/speed.md). Every stored
// array is changed only through collection-parts.ts's writeData, which moves its version on; a reset, a session's
// first write or a reload puts a new array in the store, which has a stamp of its own.
import type { Draft } from './finalize.js';

interface Stamp {
  readonly id: number;
  version: number;
}
const stamps = new WeakMap<object, Stamp>();
let nextId = 0;

function stampOf(data: object): Stamp {
  let s = stamps.get(data);
  if (s === undefined) stamps.set(data, (s = { id: nextId++, version: 0 }));
  return s;
}

/** the data changed in place: the answers made from it are not to be given again */
export function changed(data: object): void {
  const s = stamps.get(data);
  if (s !== undefined) s.version++;
}

/** the text naming these data as they are now */
export function versionsOf(data: readonly unknown[]): string {
  let out = '';
  for (const d of data) {
    if (typeof d !== 'object' || d === null) out += '-,';
    else {
      const s = stampOf(d);
      out += `${s.id}.${s.version},`;
    }
  }
  return out;
}

/** at most this many answers per collection's data: a new one past it starts the list again */
const MOST = 16;
const answers = new WeakMap<object, Map<string, Draft>>();

/** The answer made for `key` from `data` (its stamp inside the key), made by `make` when there is none. */
export function cachedDraft(data: object, key: string, make: () => Draft | undefined): Draft | undefined {
  let m = answers.get(data);
  const hit = m?.get(key);
  if (hit !== undefined) return hit;
  const made = make();
  if (made === undefined || made.status !== 200) return made;
  const kept: Draft = { ...made, fresh: false };
  if (m === undefined) answers.set(data, (m = new Map<string, Draft>()));
  if (m.size >= MOST) m.clear();
  m.set(key, kept);
  return kept;
}
