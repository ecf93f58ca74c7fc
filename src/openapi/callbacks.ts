// An operation's OpenAPI 3 `callbacks` → `respond.callbacks` on its success rules (docs/callbacks.md#imports).
// Each callback's path-item key is a runtime expression (`{$request.body#/callbackUrl}`, or a URL holding some:
// `https://hooks.example/{$request.query.id}`), which becomes a template over the request and the answer; the
// callback's request body is its request body's example (or one made from its schema), as an answer's is.
// Pure: the dereferenced document in, our shape out, with a note for each callback that cannot be made.
import { responseBody } from './bodies.js';
import { deref, entriesOf, isObj, objAt, PATH_ITEM_METHODS, type Obj } from './document.js';
import type { CallbackText, RuleSpec } from './render.js';

export interface OpenApiCallbacks {
  readonly callbacks: CallbackText[];
  /** the callbacks left out, each with its reason */
  readonly notes: string[];
}

/** The callbacks of one operation object. */
export function operationCallbacks(op: Obj, doc: Obj): OpenApiCallbacks {
  const out: OpenApiCallbacks = { callbacks: [], notes: [] };
  for (const [name, raw] of entriesOf(objAt(op, 'callbacks'))) {
    const callback = deref(doc, raw);
    if (!isObj(callback)) continue;
    for (const [expression, rawItem] of Object.entries(callback)) {
      const item = deref(doc, rawItem);
      if (!isObj(item)) continue;
      const url = urlTemplate(expression);
      if (url.problem !== undefined) {
        out.notes.push(`callback \`${name}\` (${expression}): ${url.problem}`);
        continue;
      }
      for (const method of PATH_ITEM_METHODS) {
        const cbOp = deref(doc, item[method]);
        if (!isObj(cbOp)) continue;
        if (method === 'options' || method === 'trace') {
          out.notes.push(`callback \`${name}\` ${method.toUpperCase()}: a callback cannot use that method`);
          continue;
        }
        out.callbacks.push({
          ...requestOf(cbOp, doc),
          url: url.text,
          method: method.toUpperCase(),
          template: url.templated,
        });
      }
    }
  }
  return out;
}

/** The callback's headers and body from its request body's example or schema. */
function requestOf(cbOp: Obj, doc: Obj): Pick<CallbackText, 'headers' | 'body'> {
  const requestBody = deref(doc, cbOp['requestBody']);
  if (!isObj(requestBody)) return { headers: [] };
  const b = responseBody(requestBody, doc).body;
  if (b === undefined || b.kind === 'none' || b.kind === 'binary') return { headers: [] };
  const v = b.variants[0];
  if (v === undefined) return { headers: [] };
  if (b.kind === 'json') {
    const headers: [string, string][] =
      b.mediaType.split(';')[0]!.trim().toLowerCase() === 'application/json' ? [] : [['content-type', b.mediaType]];
    return { headers, body: { kind: 'json', text: JSON.stringify(v.value ?? null) } };
  }
  return { headers: [['content-type', b.mediaType]], body: { kind: 'text', text: String(v.value) } };
}

/**
 * A runtime expression (or a URL holding some in braces) as a template: `{$request.body#/a/b}` →
 * `{{request.body.a.b}}`, `{$request.query.q}`, `{$request.header.X-Id}`, `{$request.path.id}`, `{$method}`,
 * `{$response.body#/id}`, `{$response.header.Location}`, `{$statusCode}`.
 */
export function urlTemplate(expression: string): { text: string; templated: boolean; problem?: string } {
  let problem: string | undefined;
  let templated = false;
  const text = expression.replace(/\{(\$[^{}]+)\}/g, (_m, e: string) => {
    const t = expressionPath(e);
    if (t === undefined) problem ??= `the runtime expression ${e} has no counterpart in templates`;
    templated = true;
    return `{{${t ?? ''}}}`;
  });
  if (problem === undefined && !/^https?:\/\//i.test(text) && !text.startsWith('{{'))
    problem = 'the callback URL is not an absolute http(s) URL';
  return problem === undefined ? { text, templated } : { text, templated, problem };
}

function expressionPath(e: string): string | undefined {
  if (e === '$method') return 'request.method';
  if (e === '$statusCode') return 'response.status';
  const m = /^\$(request|response)\.(body|header|query|path)(?:#(\/.*)|\.(.+))?$/.exec(e);
  if (m === null) return undefined;
  const [, side, where, pointer, name] = m as unknown as [string, 'request' | 'response', string, string?, string?];
  if (where === 'body') {
    if (name !== undefined) return undefined;
    const tokens = (pointer ?? '')
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens.some((t) => !/^[A-Za-z0-9_-]+$/.test(t))) return undefined;
    return [side === 'request' ? 'request.body' : 'response.body', ...tokens].join('.');
  }
  if (name === undefined || !/^[A-Za-z0-9_.-]+$/.test(name)) return undefined;
  if (where === 'header') return `${side}.headers.${name.toLowerCase()}`;
  if (side === 'response') return undefined;
  return where === 'query' ? `request.query.${name}` : `request.params.${name}`;
}

/** The operation's rules, each 2xx one with its callbacks; the callbacks left out go to `notes`. */
export function withOpenApiCallbacks(rules: readonly RuleSpec[], op: Obj, doc: Obj, notes: string[]): RuleSpec[] {
  if (!isObj(op['callbacks'])) return [...rules];
  const { callbacks, notes: left } = operationCallbacks(op, doc);
  notes.push(...left);
  if (callbacks.length === 0) return [...rules];
  return rules.map((r) => (r.status >= 200 && r.status < 300 ? { ...r, callbacks } : r));
}
