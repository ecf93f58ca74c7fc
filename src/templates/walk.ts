// The walk over a parsed template that both dialects share: each `{{…}}` wrapped by where it stands (for escaping
// by kind), and what the template names noted (data paths, faker, blocks that are no helper, assigned names).
// `hbs.AST` is the global namespace handlebars' types declare (pulled in by engine.ts's type import)
import { MOCKOON_FAKER_HELPERS } from './helpers/mockoon.js';
import { JSON_STRING, VALUE } from './engine.js';

type Node = hbs.AST.Node;
type Program = hbs.AST.Program;
type Mustache = hbs.AST.MustacheStatement;
type Expression = hbs.AST.Expression;

/** Helpers that render their block in another context: paths inside them are not data roots. */
const CONTEXT_CHANGING = new Set(['each', 'with']);

export interface Facts {
  paths: string[];
  usesFaker: boolean;
  /** the helper names of the dialect (and Handlebars' own, and the wrappers) */
  readonly known: Readonly<Record<string, boolean>>;
  /** `{{#name}}` blocks whose name is no helper: an error, never an empty section */
  unknownBlocks: { name: string; line: number; column: number }[];
  /** names a template gives values to (`assign "x"`, `formData … "f"`, `val … assign="x"`): data roots of their own */
  assigned: string[];
  /** the helpers the template calls */
  readonly helpers: Set<string>;
}

/** JSON string state across the template's literal text (undefined outside JSON templates). */
export interface JsonState {
  inString: boolean;
  escaped?: boolean;
}

export function walkProgram(p: Program | undefined, json: JsonState | undefined, facts: Facts, scope: number): void {
  if (p === undefined) return;
  for (const node of p.body) walkStatement(node, json, facts, scope);
}

function walkStatement(node: Node, json: JsonState | undefined, facts: Facts, scope: number): void {
  switch (node.type) {
    case 'ContentStatement':
      if (json !== undefined) scanJson((node as hbs.AST.ContentStatement).value, json);
      return;
    case 'MustacheStatement': {
      const m = node as Mustache;
      noteExpression(m.path, m.params, m.hash, facts, scope);
      wrap(m, json?.inString === true ? JSON_STRING : VALUE, facts.known);
      return;
    }
    case 'BlockStatement': {
      const b = node as hbs.AST.BlockStatement;
      const name = pathName(b.path);
      if (name !== undefined && /^[A-Za-z_$][\w$-]*$/.test(name) && facts.known[name] !== true && name !== 'request')
        facts.unknownBlocks.push({ name, line: b.loc.start.line, column: b.loc.start.column + 1 });
      noteExpression(b.path, b.params, b.hash, facts, scope);
      const inner = CONTEXT_CHANGING.has(pathName(b.path) ?? '') ? scope + 1 : scope;
      const start = json === undefined ? undefined : { ...json };
      walkProgram(b.program, json, facts, inner);
      if (b.inverse !== undefined && b.inverse !== null)
        walkProgram(b.inverse, start === undefined ? undefined : { ...start }, facts, inner);
      return;
    }
    default:
      return;
  }
}

export function scanJson(text: string, s: JsonState): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!s.inString) {
      if (c === '"') s.inString = true;
    } else if (s.escaped === true) s.escaped = false;
    else if (c === '\\') s.escaped = true;
    else if (c === '"') s.inString = false;
  }
}

export function pathName(e: Expression): string | undefined {
  return e.type === 'PathExpression' ? (e as hbs.AST.PathExpression).original : undefined;
}

/** `{{x a b=c}}` → `{{wrapper (x a b=c)}}`; `{{path}}` → `{{wrapper path}}`. */
function wrap(m: Mustache, wrapper: string, known: Readonly<Record<string, boolean>>): void {
  const name = pathName(m.path);
  const isCall =
    m.params.length > 0 ||
    (m.hash !== undefined && m.hash !== null && m.hash.pairs.length > 0) ||
    (name !== undefined && known[name] === true);
  const inner: Expression = isCall
    ? ({ type: 'SubExpression', path: m.path, params: m.params, hash: m.hash, loc: m.loc } as unknown as Expression)
    : m.path;
  const mm = m;
  mm.params = [inner];
  mm.hash = undefined as unknown as hbs.AST.Hash;
  mm.path = {
    type: 'PathExpression',
    data: false,
    depth: 0,
    parts: [wrapper],
    original: wrapper,
    loc: m.loc,
  } as unknown as hbs.AST.PathExpression;
}

function noteExpression(
  path: Expression,
  params: readonly Expression[],
  hash: hbs.AST.Hash | undefined,
  facts: Facts,
  scope: number,
): void {
  const name = pathName(path);
  if (name === 'faker' || (name !== undefined && MOCKOON_FAKER_HELPERS.has(name))) facts.usesFaker = true;
  if (name !== undefined && facts.known[name] === true) facts.helpers.add(name);
  const literal = (e: Expression | undefined): void => {
    if (e?.type === 'StringLiteral') facts.assigned.push((e as hbs.AST.StringLiteral).value);
  };
  if (name === 'assign') literal(params[0]);
  if (name === 'formData') literal(params[1]);
  if (name === 'val') literal(hash?.pairs.find((p) => p.key === 'assign')?.value);
  if (name !== undefined && facts.known[name] !== true) notePath(path as hbs.AST.PathExpression, facts, scope);
  for (const p of params) noteParam(p, facts, scope);
  for (const pair of hash?.pairs ?? []) noteParam(pair.value, facts, scope);
}

function noteParam(e: Expression, facts: Facts, scope: number): void {
  if (e.type === 'PathExpression') notePath(e as hbs.AST.PathExpression, facts, scope);
  else if (e.type === 'SubExpression') {
    const s = e as hbs.AST.SubExpression;
    noteExpression(s.path, s.params, s.hash, facts, scope);
  }
}

function notePath(p: hbs.AST.PathExpression, facts: Facts, scope: number): void {
  if (scope > 0 || p.data || p.depth > 0 || p.parts.length === 0) return;
  facts.paths.push(p.parts.join('.'));
}
