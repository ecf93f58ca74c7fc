// The `$ref`s of a parsed document, found in one walk of its tree (each node visited once, no `$ref` followed:
// the cost grows with the document's size, not with how often its schemas are used), and
// the local ones checked to resolve. The import plans from the document as written (its `$ref`s followed when a
// plan needs them, document.ts's resolveRef), never from a dereferenced copy: docs/openapi.md#large-documents.
import { decodeToken, isObj, resolveRef, type Obj } from './document.js';

export interface RefSite {
  /** as written */
  readonly ref: string;
  /** the JSON pointer of the object holding the `$ref` (without `#`) */
  readonly pointer: string;
}

function token(t: string): string {
  return t.replace(/~/g, '~0').replace(/\//g, '~1');
}

interface Frame {
  readonly node: object;
  readonly key: string;
  readonly parent: Frame | undefined;
}

function pointerOfFrame(f: Frame): string {
  const tokens: string[] = [];
  for (let at: Frame | undefined = f; at?.parent !== undefined; at = at.parent) tokens.push(at.key);
  return tokens
    .reverse()
    .map((t) => '/' + t)
    .join('');
}

/**
 * Every `$ref` of the tree (a string under the key `$ref`), in document order, with where it is written. The
 * walk never follows a `$ref`; it keeps its own stack (a hostile document may nest deeper than the call stack).
 */
export function refSites(doc: unknown): RefSite[] {
  const out: RefSite[] = [];
  if (typeof doc !== 'object' || doc === null) return out;
  const stack: Frame[] = [{ node: doc, key: '', parent: undefined }];
  for (let f = stack.pop(); f !== undefined; f = stack.pop()) {
    const node = f.node;
    const children: Frame[] = [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v: unknown = node[i];
        if (typeof v === 'object' && v !== null) children.push({ node: v, key: String(i), parent: f });
      }
    } else {
      const o = node as Obj;
      if (typeof o['$ref'] === 'string') out.push({ ref: o['$ref'], pointer: pointerOfFrame(f) });
      for (const key in o) {
        const v = o[key];
        if (typeof v === 'object' && v !== null) children.push({ node: v, key: token(key), parent: f });
      }
    }
    // pushed in reverse, so the walk is in document order
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

export type RefProblem =
  | { readonly kind: 'missing'; readonly site: RefSite; readonly why: string }
  | { readonly kind: 'network'; readonly site: RefSite }
  | { readonly kind: 'external'; readonly site: RefSite };

const NETWORK = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Is this `$ref` outside the document (another file, or a network address)? */
export function isExternalRef(ref: string): boolean {
  return !ref.startsWith('#');
}

/**
 * The first problem of the document's `$ref`s, or undefined when every one is local and resolves: a network
 * address first (mock reads local files only), then another file (the caller bundles those in), then a local
 * pointer that does not resolve. Each distinct `$ref` is resolved once.
 */
export function firstRefProblem(doc: Obj, sites: readonly RefSite[]): RefProblem | undefined {
  const network = sites.find((s) => NETWORK.test(s.ref));
  if (network !== undefined) return { kind: 'network', site: network };
  const external = sites.find((s) => isExternalRef(s.ref));
  if (external !== undefined) return { kind: 'external', site: external };
  const checked = new Set<string>();
  for (const site of sites) {
    if (checked.has(site.ref)) continue;
    checked.add(site.ref);
    const why = missingToken(doc, site.ref);
    if (why !== undefined) return { kind: 'missing', site, why };
  }
  return undefined;
}

/** Why a local `$ref` does not resolve (the message the reference parser gives), or undefined when it does. */
function missingToken(doc: Obj, ref: string): string | undefined {
  if (resolveRef(doc, ref) !== undefined) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const t = decodeToken(raw);
    const next: unknown = Array.isArray(node)
      ? node[Number(t)]
      : isObj(node) && Object.hasOwn(node, t)
        ? node[t]
        : undefined;
    if (next === undefined) return `Missing $ref pointer "${ref}". Token "${t}" does not exist.`;
    node = next;
  }
  return `Missing $ref pointer "${ref}".`;
}
