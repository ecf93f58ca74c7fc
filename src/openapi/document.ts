// The OpenAPI document as the mapping sees it: a dereferenced JSON tree (the CLI parses, resolves and validates
// it first), read through small total accessors, and the operations it holds, in document order.
// Left out: parsing, `$ref` resolution and schema validation (the library the CLI calls does those).

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
  for (const [path, item] of entriesOf(objAt(doc, 'paths'))) {
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

/** The value a local `$ref` (`#/a/b`) points at, followed through chains; undefined when it does not resolve. */
export function resolveRef(doc: Obj, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const t = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(t)];
    else if (isObj(node)) node = node[t];
    else return undefined;
  }
  return node;
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
