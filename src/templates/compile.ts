// A template's source → a CompiledTemplate, at load. Escaping follows the answer's kind: every `{{…}}` is wrapped
// in a helper chosen from where it stands, so the compiled template needs no escaping of its own (`noEscape`).
// In a JSON template a value inside a JSON string is escaped as a JSON string (a `"` or a newline in it cannot
// break the document), and elsewhere inserted as it reads (`{{toJson x}}` for a JSON value); in text, nothing is
// escaped; header values lose the characters a header cannot hold when rendered (render.ts).
// `hbs.AST` is the global namespace handlebars' types declare (pulled in by engine.ts's type import)
import type { CompiledTemplate, TemplateData, TemplateKind, TemplateRuntime } from '../model/template.js';
import { err, ok, type Result } from '../shared/result.js';
import { JSON_STRING, VALUE, wiremockEngine, type Handlebars } from './engine.js';
import { ALL_HELPERS, textOf } from './helpers.js';
import { WIREMOCK_HELPERS, WIREMOCK_NOT_YET } from './helpers/wiremock.js';
import { suggest } from '../shared/did-you-mean.js';
import { lineColumnAt } from '../shared/position.js';
import type { RequestSnapshot } from '../model/request.js';
import { requestValue, sourceOf } from './data.js';
import { WIREMOCK_FIELDS, wiremockRequest } from './wiremock-data.js';
import { scanJson, walkProgram, type Facts, type JsonState } from './walk.js';
import { wiremockFast } from './wiremock-fast.js';

type Program = hbs.AST.Program;
type Mustache = hbs.AST.MustacheStatement;

export interface TemplateSyntaxError {
  readonly message: string;
  /** 1-based, within the template source */
  readonly line: number;
  readonly column: number;
}

/** whose request model and helpers a template is written for (docs/templates.md#wiremock-dialect) */
export type TemplateDialect = 'mock' | 'wiremock';

const BUILTIN = ['if', 'unless', 'each', 'with', 'lookup', 'log'];
const KNOWN: Readonly<Record<string, boolean>> = Object.fromEntries(
  [...Object.keys(ALL_HELPERS), ...BUILTIN, JSON_STRING, VALUE].map((n) => [n, true]),
);
const WIREMOCK_KNOWN: Readonly<Record<string, boolean>> = Object.fromEntries(
  [...Object.keys(WIREMOCK_HELPERS), ...BUILTIN, JSON_STRING, VALUE].map((n) => [n, true]),
);

export function compileTemplate(
  engine: Handlebars,
  source: string,
  kind: TemplateKind,
  dialect: TemplateDialect = 'mock',
): Result<CompiledTemplate, TemplateSyntaxError> {
  const wm = dialect === 'wiremock';
  let ast: Program;
  try {
    ast = engine.parse(source);
  } catch (e) {
    // `{"id": {{x}}}` is the natural way to end a JSON object after an expression (and how WireMock templates
    // are written), but Handlebars reads `}}}` as the close of a `{{{`: read it as `}}` then `}` instead
    const split = /CLOSE_UNESCAPED/.test(String(e)) ? braceAfterClose(source) : source;
    try {
      if (split === source) throw e;
      ast = engine.parse(split);
    } catch {
      return err(syntaxError(engine, e));
    }
  }
  const known = wm ? WIREMOCK_KNOWN : KNOWN;
  const facts: Facts = { paths: [], usesFaker: false, known, unknownBlocks: [], assigned: [], helpers: new Set() };
  const fast = wm ? undefined : fastRenderer(ast, kind);
  walkProgram(ast, kind === 'json' ? { inString: false } : undefined, facts, 0);
  const block = facts.unknownBlocks[0];
  if (block !== undefined) return err({ ...block, message: unknownHelper(block.name, known, wm, true) });
  const path = wm ? wiremockPathProblem(source, facts) : undefined;
  if (path !== undefined) return err(path);
  const runtimeEngine = wm ? wiremockEngine(facts.helpers) : engine;
  let fn: HandlebarsTemplateDelegate;
  try {
    fn = runtimeEngine.compile(ast, { noEscape: true, knownHelpers: known, knownHelpersOnly: true });
    // compile() is lazy: compile now, so a helper that does not exist is a load error, not a 500
    (fn as unknown as { _setup?: (o: object) => void })._setup?.({});
  } catch (e) {
    const error = syntaxError(engine, e);
    const name = /unknown helper (\S+)/.exec(e instanceof Error ? e.message : String(e))?.[1];
    return err(name === undefined ? error : { ...error, message: unknownHelper(name, known, wm, false) });
  }
  const usesFaker = facts.usesFaker;
  // Handlebars wraps every helper it is handed on each render: a template of ours is handed only those it calls (the
  // engine itself holds none), so the size of the helper set costs a render nothing
  const helpers = Object.fromEntries(
    [...facts.helpers].filter((n) => Object.hasOwn(ALL_HELPERS, n)).map((n) => [n, ALL_HELPERS[n]!]),
  );
  // the request-model parts the template names (all of them when it names `request` itself, `with request`)
  const fields = wm ? requestFields(facts.paths) : undefined;
  const wmFast = wm ? wiremockFast(ast) : undefined;
  return ok({
    kind,
    source,
    paths: [...new Set(facts.paths)],
    usesFaker,
    ...(fast === undefined ? {} : { direct: fast.direct }),
    render: wm
      ? function render(data: TemplateData, runtime: TemplateRuntime): string {
          const from = sourceOf(data);
          if (from === undefined) throw new Error('a WireMock template is rendered from a request');
          if (wmFast !== undefined) return wmFast({ request: wiremockRequest(from.req, from.params, fields) }, runtime);
          return fn(
            { request: wiremockRequest(from.req, from.params, fields) },
            { data: { mockRuntime: runtime, mockRepeats: { n: 0 } } },
          );
        }
      : (fast?.render ??
        function render(data: TemplateData, runtime: TemplateRuntime): string {
          if (usesFaker)
            (runtime.faker as { seed(n: number): unknown } | undefined)?.seed(
              Math.floor(runtime.random() * 0x1_0000_0000),
            );
          return fn(data, { data: { mockRuntime: runtime, mockRepeats: { n: 0 } }, helpers });
        }),
  });
}

function requestFields(paths: readonly string[]): ReadonlySet<string> | undefined {
  const out = new Set<string>();
  for (const p of paths) {
    const [root, field] = p.split('.');
    if (root === 'request' && field === undefined) return undefined;
    if (root === 'request') out.add(field!);
  }
  return out;
}

/** `unknown helper` in the loader's words, with a did-you-mean, or WireMock's helper this dialect lacks */
function unknownHelper(name: string, known: Readonly<Record<string, boolean>>, wm: boolean, block: boolean): string {
  if (wm && (WIREMOCK_NOT_YET as readonly string[]).includes(name))
    return `WireMock's helper \`${name}\` is not supported yet (docs/templates.md#wiremock-dialect)`;
  const near = suggest(
    name,
    Object.keys(known).filter((n) => !n.startsWith('__')),
  );
  return `unknown ${block ? 'block ' : ''}helper \`${name}\`${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`;
}

/** a path a WireMock template names that is not in WireMock's request model (never an empty render) */
function wiremockPathProblem(source: string, facts: Facts): TemplateSyntaxError | undefined {
  for (const path of facts.paths) {
    const [root, field] = path.split('.');
    if (root === 'this' || facts.assigned.includes(root!)) continue;
    const at = lineColumnAt(source, Math.max(0, source.indexOf(root!)));
    if (field === undefined && root !== 'request')
      return (WIREMOCK_NOT_YET as readonly string[]).includes(root!)
        ? { ...at, message: unknownHelper(root!, facts.known, true, false) }
        : { ...at, message: `\`${root}\` is neither a WireMock helper nor in its request model (request.…)` };
    if (root === 'request' && (field === undefined || (WIREMOCK_FIELDS as readonly string[]).includes(field))) continue;
    const where = lineColumnAt(source, Math.max(0, source.indexOf(path.split('.').slice(0, 2).join('.'))));
    const near = root === 'request' ? suggest(field!, WIREMOCK_FIELDS) : undefined;
    return {
      ...where,
      message: `\`${path}\` is not in WireMock's request model (request.${WIREMOCK_FIELDS.join(', request.')})${near === undefined ? '' : ` (did you mean \`request.${near}\`?)`}`,
    };
  }
  return undefined;
}

/**
 * The source with an empty comment between a `{{…}}` and a `}` right after it (`{{x}}}` → `{{x}}{{!}}}`), so
 * the parser sees `}}` and a literal `}`; a triple-stash `{{{x}}}` is left as it is.
 */
function braceAfterClose(source: string): string {
  let out = '';
  let i = 0;
  for (let open = source.indexOf('{{', i); open >= 0; open = source.indexOf('{{', i)) {
    const closer = source.startsWith('{{{', open) ? '}}}' : '}}';
    const close = source.indexOf(closer, open + closer.length);
    if (close < 0) break;
    const end = close + closer.length;
    out += source.slice(i, end);
    if (closer === '}}' && source[end] === '}') out += '{{!}}';
    i = end;
  }
  return out + source.slice(i);
}

/** Handlebars' parse errors carry the line in the text; the lexer holds the exact place it stopped. */
function syntaxError(engine: Handlebars, e: unknown): TemplateSyntaxError {
  const raw = e instanceof Error ? e.message : String(e);
  const ex = e as { lineNumber?: number; column?: number };
  const first = raw.split('\n').filter((l) => !/^-*\^$/.test(l));
  const cleaned = readable(raw, first);
  if (typeof ex.lineNumber === 'number') return { message: cleaned, line: ex.lineNumber, column: (ex.column ?? 0) + 1 };
  const lexer = (
    engine as unknown as { Parser?: { lexer?: { yylloc?: { first_line: number; first_column: number } } } }
  ).Parser?.lexer;
  const loc = lexer?.yylloc;
  if (loc !== undefined) return { message: cleaned, line: loc.first_line, column: loc.first_column + 1 };
  const line = /on line (\d+)/.exec(raw);
  return { message: cleaned, line: line === null ? 1 : Number(line[1]), column: 1 };
}

/** Handlebars' messages in the loader's words: the tokens a parser expected become what the user should write. */
function readable(raw: string, lines: readonly string[]): string {
  const expecting = /Expecting (.*), got '?([A-Z_]+)'?$/.exec(raw);
  if (expecting !== null) {
    const wanted = expecting[1]!;
    if (expecting[2] === 'CLOSE_UNESCAPED')
      return '`}}}` closes only a `{{{`: to end a JSON object right after an expression, write `}} }`';
    const got =
      expecting[2] === 'EOF'
        ? 'the end of the template'
        : expecting[2] === 'INVALID'
          ? 'a character that does not belong there'
          : `'${expecting[2]!.toLowerCase()}'`;
    if (wanted.includes("'OPEN_ENDBLOCK'")) return `a block is not closed: expected \`{{/…}}\` before ${got}`;
    if (wanted.includes("'CLOSE'")) return `expected \`}}\` to close the expression, found ${got}`;
    return `unexpected ${got}`;
  }
  const unknown = /unknown helper (\S+)/.exec(raw);
  if (unknown !== null) {
    const near = suggest(unknown[1]!, Object.keys(ALL_HELPERS));
    return `unknown helper \`${unknown[1]}\`${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`;
  }
  const text = lines[lines.length - 1] === lines[0] ? lines[0]! : `${lines[0]} ${lines[lines.length - 1]}`;
  return text.replace(/^Parse error on line \d+:\s*/, '').replace(/ - \d+:\d+$/, '');
}

type Hole = { readonly parts: readonly string[]; readonly jsonString: boolean };
type Piece = string | Hole;

interface FastRenderer {
  readonly render: (data: TemplateData) => string;
  readonly direct: (req: RequestSnapshot, params: Readonly<Record<string, string>>) => string | undefined;
}

/** What JSON.stringify escapes in a string: a quote, a backslash, a control character, a surrogate (lone ones). */
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON number, as a value a template inserts outside a string (`"page": {{request.query.page}}`). */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** What may stand either side of a value outside a string for it to be a token of its own. */
const BEFORE_VALUE = /[\s[{:,]$|^$/;
const AFTER_VALUE = /^[\s\]},]|^$/;

/**
 * A template of literal text and plain data paths (`{{request.params.id}}`, the common echo) renders without the
 * Handlebars runtime, whose per-render set-up is most of the cost of such a small template: the same lookups (own
 * properties only) and the same escaping, as one concatenation. `direct` reads the paths straight from the request.
 */
function fastRenderer(ast: Program, kind: TemplateKind): FastRenderer | undefined {
  const pieces: Piece[] = [];
  const json: JsonState | undefined = kind === 'json' ? { inString: false } : undefined;
  let vouchable = json !== undefined;
  for (const node of ast.body) {
    if (node.type === 'ContentStatement') {
      const value = (node as hbs.AST.ContentStatement).value;
      if (json !== undefined) scanJson(value, json);
      pieces.push(value);
      continue;
    }
    if (node.type !== 'MustacheStatement') return undefined;
    const m = node as Mustache;
    if (m.params.length > 0 || (m.hash !== undefined && m.hash !== null) || m.path.type !== 'PathExpression')
      return undefined;
    const p = m.path as hbs.AST.PathExpression;
    if (
      p.data ||
      p.depth > 0 ||
      p.parts.length === 0 ||
      KNOWN[p.original] === true ||
      (p as { this?: boolean }).this === true
    )
      return undefined;
    if (json?.escaped === true) vouchable = false;
    pieces.push({ parts: [...p.parts], jsonString: json?.inString === true });
  }
  const text = (piece: Hole, v: unknown): string => {
    const t = textOf(v);
    return piece.jsonString && JSON_ESCAPED.test(t) ? JSON.stringify(t).slice(1, -1) : t;
  };
  // valid by construction: the skeleton (each value in a string empty, each other value a number) parses and every
  // value outside a string stands as a token of its own; then a rendered document whose values outside strings are
  // JSON numbers or booleans parses too, and needs no check
  const vouched = vouchable && skeletonParses(pieces);
  return {
    render: (data) => {
      let out = '';
      for (const piece of pieces) {
        if (typeof piece === 'string') {
          out += piece;
          continue;
        }
        let v: unknown = data;
        for (const part of piece.parts) {
          v =
            v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, part)
              ? (v as Record<string, unknown>)[part]
              : undefined;
        }
        out += text(piece, v);
      }
      return out;
    },
    direct: (req, params) => {
      let out = '';
      for (const piece of pieces) {
        if (typeof piece === 'string') {
          out += piece;
          continue;
        }
        const v = requestValue(req, params, piece.parts);
        if (json !== undefined && !piece.jsonString) {
          if (!vouched) return undefined;
          if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) out += String(v);
          else if (typeof v === 'string' && JSON_NUMBER.test(v)) out += v;
          else return undefined;
          continue;
        }
        out += text(piece, v);
      }
      return json !== undefined && !vouched ? undefined : out;
    },
  };
}

function skeletonParses(pieces: readonly Piece[]): boolean {
  let skeleton = '';
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (typeof piece === 'string') skeleton += piece;
    else if (!piece.jsonString) {
      const before = pieces[i - 1] ?? '';
      const after = pieces[i + 1] ?? '';
      if (
        typeof before !== 'string' ||
        typeof after !== 'string' ||
        !BEFORE_VALUE.test(before) ||
        !AFTER_VALUE.test(after)
      )
        return false;
      skeleton += '0';
    }
  }
  try {
    JSON.parse(skeleton);
    return true;
  } catch {
    return false;
  }
}
