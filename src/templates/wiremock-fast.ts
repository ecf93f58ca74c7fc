// A WireMock-dialect template of text and `{{…}}` expressions (paths, literals, helper calls, no blocks) rendered
// without the Handlebars runtime, whose per-render set-up (every helper copied and wrapped) is most of the cost of
// such a template: the same lookups (own properties only), the same helpers and the same wrappers, over the AST the
// walk (walk.ts) has already wrapped. Anything else (a block, `../`, `@index`, `this`) renders through Handlebars.
import type { TemplateRuntime } from '../model/template.js';
import { JSON_STRING } from './engine.js';
import { WIREMOCK_HELPERS, wiremockLookup, wireText } from './helpers/wiremock.js';

type Expression = hbs.AST.Expression;
type Eval = (root: Record<string, unknown>, rt: TemplateRuntime) => unknown;
type Helper = (...args: unknown[]) => unknown;

const own = (v: unknown, k: string): boolean =>
  v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, k);

function compileExpression(e: Expression): Eval | undefined {
  switch (e.type) {
    case 'StringLiteral':
    case 'NumberLiteral':
    case 'BooleanLiteral': {
      const v = (e as hbs.AST.StringLiteral).value;
      return () => v;
    }
    case 'UndefinedLiteral':
      return () => undefined;
    case 'NullLiteral':
      return () => null;
    case 'PathExpression': {
      const p = e as hbs.AST.PathExpression;
      if (p.data || p.depth > 0 || (p as { this?: boolean }).this === true || p.parts.length === 0) return undefined;
      const parts = [...p.parts];
      return (root) => {
        let v: unknown = root;
        for (const part of parts) v = own(v, part) ? (v as Record<string, unknown>)[part] : undefined;
        return v;
      };
    }
    case 'SubExpression': {
      const s = e as hbs.AST.SubExpression;
      const name = s.path.type === 'PathExpression' ? s.path.original : undefined;
      const fn: Helper | undefined =
        name === 'lookup' ? wiremockLookup : name === undefined ? undefined : WIREMOCK_HELPERS[name];
      if (fn === undefined) return undefined;
      const params = s.params.map(compileExpression);
      const pairs = (s.hash?.pairs ?? []).map((pair) => [pair.key, compileExpression(pair.value)] as const);
      if (params.some((x) => x === undefined) || pairs.some(([, x]) => x === undefined)) return undefined;
      return (root, rt) => {
        const hash: Record<string, unknown> = {};
        for (const [k, x] of pairs) hash[k] = x!(root, rt);
        const args = params.map((x) => x!(root, rt));
        return fn.call(root, ...args, { hash, data: { mockRuntime: rt, root }, name });
      };
    }
    default:
      return undefined;
  }
}

/** The renderer of a wrapped template, or undefined when it needs the Handlebars runtime. */
export function wiremockFast(
  ast: hbs.AST.Program,
): ((root: Record<string, unknown>, rt: TemplateRuntime) => string) | undefined {
  const pieces: (string | { readonly jsonString: boolean; readonly value: Eval })[] = [];
  for (const node of ast.body) {
    if (node.type === 'ContentStatement') pieces.push((node as hbs.AST.ContentStatement).value);
    else if (node.type === 'CommentStatement') continue;
    else if (node.type === 'MustacheStatement') {
      const m = node as hbs.AST.MustacheStatement;
      const wrapper = (m.path as hbs.AST.PathExpression).original;
      const inner = m.params[0];
      const value = inner === undefined ? undefined : compileExpression(inner);
      if (value === undefined) return undefined;
      pieces.push({ jsonString: wrapper === JSON_STRING, value });
    } else return undefined;
  }
  return (root, rt) => {
    let out = '';
    for (const piece of pieces) {
      if (typeof piece === 'string') out += piece;
      else {
        const text = wireText(piece.value(root, rt));
        out += piece.jsonString ? JSON.stringify(text).slice(1, -1) : text;
      }
    }
    return out;
  };
}
