// Relations between the collections of one db file (or one rule set), json-server 0.17's way
// (docs/state.md, "Relations"): a child names its parent in a field `<singular parent><suffix>` (`postId` for
// `posts`, with the default suffix `Id`). `_embed=comments` on a post lists the comments whose `postId` is the
// post's id; `_expand=post` on a comment puts the post its `postId` names in `post`; a nested route
// `/posts/1/comments` is the comments of post 1; and a DELETE removes every item whose foreign key names an item
// that is not there. Names are made singular and plural by the `pluralize` package, as json-server's are. Pure.
import pluralize from 'pluralize';
import type { CollectionItem } from '../../model/collection.js';
import { jsText } from './query.js';

/** The collections a relation may name: their current data by name (a db file's key, or the path's last segment). */
export interface Siblings {
  data(name: string): readonly CollectionItem[] | CollectionItem | undefined;
  /** the field that ends a foreign key's name (`Id`: `postId`) */
  readonly foreignKeySuffix: string;
}

export const singular = (name: string): string => pluralize.singular(name);
export const plural = (name: string): string => pluralize.plural(name);

/** The field a child of collection `parent` names its parent's id in: `postId` for `posts`. */
export function foreignKey(parent: string, suffix: string): string {
  return `${singular(parent)}${suffix}`;
}

/**
 * Children of `items` (of collection `name`) embedded under each embed name: the items of that collection whose
 * foreign key equals the parent's id (the same value: `1` and `"1"` differ, as in json-server). A name that is
 * not an array collection embeds `[]`. Each item is copied once; the children are indexed once per name, so a page
 * of posts with their comments costs one pass over the comments.
 */
export function embedded(
  items: readonly CollectionItem[],
  name: string,
  idField: string,
  embeds: readonly string[],
  expands: readonly string[],
  siblings: Siblings,
): CollectionItem[] {
  const fk = foreignKey(name, siblings.foreignKeySuffix);
  const groups = embeds.map((e) => [e, childrenBy(siblings.data(e), fk)] as const);
  const parents = expands.map((x) => [x, parentIndex(siblings.data(plural(x)), idField)] as const);
  return items.map((item) => {
    const out: CollectionItem = { ...item };
    for (const [e, by] of groups) out[e] = by.get(item[idField]) ?? [];
    for (const [x, ix] of parents) {
      if (ix === undefined) continue;
      const ref = item[`${x}${siblings.foreignKeySuffix}`];
      // json-server throws (a 500) for an absent or null key; here the field is left out, as for no such parent
      const parent = ref === undefined || ref === null ? undefined : ix.get(jsText(ref));
      if (parent === undefined) delete out[x];
      else out[x] = parent;
    }
    return out;
  });
}

/** an array collection's items by the value of `fk` (compared as the same value); a non-array: nothing */
function childrenBy(data: unknown, fk: string): ReadonlyMap<unknown, CollectionItem[]> {
  const by = new Map<unknown, CollectionItem[]>();
  if (!Array.isArray(data)) return by;
  for (const child of data as CollectionItem[]) {
    if (!Object.hasOwn(child, fk)) continue;
    const k = child[fk];
    const list = by.get(k);
    if (list === undefined) by.set(k, [child]);
    else list.push(child);
  }
  return by;
}

/** a parent collection's items by id text (the first of equal ids, as a search from the start finds); undefined: none */
function parentIndex(data: unknown, idField: string): ReadonlyMap<string, CollectionItem> | undefined {
  if (data === undefined) return undefined;
  const ix = new Map<string, CollectionItem>();
  if (!Array.isArray(data)) return ix;
  for (const p of data as CollectionItem[]) {
    const id = p[idField];
    if (id === undefined || id === null) continue;
    const k = jsText(id);
    if (!ix.has(k)) ix.set(k, p);
  }
  return ix;
}

/** One item found dangling: the collection it is in and its id. */
export interface Dangling {
  readonly name: string;
  readonly id: unknown;
}

/**
 * The items whose foreign key names an item that is not there (json-server removes them after every DELETE): for
 * each field ending in the suffix (`postId`), when the plural of the rest (`posts`) is a collection and none of its
 * items has that id. One pass, as json-server's: removing them may leave others dangling until the next DELETE.
 */
export function danglingItems(names: readonly string[], siblings: Siblings, idField: string): Dangling[] {
  const suffix = siblings.foreignKeySuffix;
  const out: Dangling[] = [];
  const ids = new Map<string, ReadonlySet<string> | undefined>();
  const idsOf = (ref: string): ReadonlySet<string> | undefined => {
    if (ids.has(ref)) return ids.get(ref);
    const data = siblings.data(ref);
    // a single resource has no items to point at: json-server finds none in it either
    const set =
      data === undefined
        ? undefined
        : new Set(
            Array.isArray(data)
              ? (data as CollectionItem[]).flatMap((p) => (p[idField] == null ? [] : [jsText(p[idField])]))
              : [],
          );
    ids.set(ref, set);
    return set;
  };
  for (const name of names) {
    const data = siblings.data(name);
    if (!Array.isArray(data)) continue;
    for (const item of data as CollectionItem[]) {
      for (const [key, value] of Object.entries(item)) {
        if (!key.endsWith(suffix) || key.length === suffix.length) continue;
        const set = idsOf(plural(key.slice(0, -suffix.length)));
        if (set === undefined || value === undefined || value === null) continue;
        if (!set.has(jsText(value))) {
          out.push({ name, id: item[idField] });
          break;
        }
      }
    }
  }
  return out;
}
