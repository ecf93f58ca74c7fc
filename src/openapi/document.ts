// The OpenAPI document as the mapping sees it: one JSON tree whose `$ref`s are all local (the CLI parses it,
// bundles the files it names into it and validates it first), its `$ref`s followed where a plan needs them
// (resolveRef, with a cache), read through small total accessors, and the operations it holds, in document order.
// Left out: parsing, bundling and schema validation (the CLI does those).

export type Obj = { readonly [key: string]: unknown };

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function objAt(o: Obj, key: string): Obj | undefined {
  const v = o[key];
  return isObj(v) ? v : undefined;
}

export function strAt(o: Obj, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

export function entriesOf(o: Obj | undefined): readonly (readonly [string, unknown])[] {
  return o === undefined ? [] : Object.entries(o);
}

/** The HTTP methods a path item may hold, in the order OpenAPI lists them. */
export const PATH_ITEM_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  /** upper case */
  readonly method: string;
  /** the path template as written in the document */
  readonly path: string;
  readonly op: Obj;
  /** 0-based position in the document */
  readonly order: number;
  /** the path item's own `parameters` (shared by its operations) */
  readonly shared?: readonly unknown[];
}

export function operationsOf(doc: Obj): readonly Operation[] {
  const out: Operation[] = [];
  for (const [path, written] of entriesOf(objAt(doc, 'paths'))) {
    // a path item may be a `$ref` (to components.pathItems in 3.1)
    const item = deref(doc, written);
    if (!isObj(item)) continue;
    const shared = Array.isArray(item['parameters']) ? { shared: item['parameters'] as unknown[] } : {};
    for (const m of PATH_ITEM_METHODS) {
      const op = objAt(item, m);
      if (op !== undefined) out.push({ method: m.toUpperCase(), path, op, order: out.length, ...shared });
    }
  }
  return out;
}

/** The name an operation is shown by: its operationId, else `METHOD path`. */
export function operationLabel(o: Operation): string {
  return strAt(o.op, 'operationId') ?? `${o.method} ${o.path}`;
}

/** The first line of the operation's summary (else of its description), trimmed; '' when it has neither. */
export function operationSummary(o: Operation): string {
  const text = strAt(o.op, 'summary') ?? strAt(o.op, 'description') ?? '';
  return (text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '').trim();
}

/** each document's local `$ref`s as resolved (a large document's plan resolves the same few thousand again and again) */
const resolved = new WeakMap<Obj, Map<string, unknown>>();

/** The value a local `$ref` (`#/a/b`) points at; undefined when it does not resolve. Each is resolved once. */
export function resolveRef(doc: Obj, ref: string): unknown {
  let cache = resolved.get(doc);
  if (cache === undefined) resolved.set(doc, (cache = new Map<string, unknown>()));
  const hit = cache.get(ref);
  if (hit !== undefined || cache.has(ref)) return hit;
  const value = resolveUncached(doc, ref);
  cache.set(ref, value);
  return value;
}

function resolveUncached(doc: Obj, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const t = decodeToken(raw);
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObj(node)) node = Object.hasOwn(node, t) ? node[t] : undefined;
    else return undefined;
  }
  return node;
}

/** An RFC 6901 token of a URI fragment: percent-decoded (when it decodes), then `~1` and `~0`. */
export function decodeToken(raw: string): string {
  let t = raw;
  try {
    t = decodeURIComponent(raw);
  } catch {
    // a lone `%` is taken as written
  }
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** v with its `$ref` followed (at most 32 hops; a cycle gives the last object seen). */
export function deref(doc: Obj, v: unknown): unknown {
  let cur = v;
  for (let i = 0; i < 32 && isObj(cur) && typeof cur['$ref'] === 'string'; i++) {
    const next = resolveRef(doc, cur['$ref']);
    if (next === undefined) return cur;
    cur = next;
  }
  return cur;
}

/** An RFC 6901 pointer (as a URI fragment, `#/paths/~1pets/get`) from its tokens. */
export function pointerOf(tokens: readonly string[]): string {
  return '#' + tokens.map((t) => '/' + t.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
