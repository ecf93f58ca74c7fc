// Literal expressions that hold other expressions: array literals `[…]`, object map literals
// `#{…}` (duplicate keys refused) and back-tick strings, whose `${…}` parts were lexed into token
// lists and are parsed here as blocks.

import type { ArrayLit, Expr, Interpolated, MapLit, Stmt } from './ast.js';
import { parseExpr } from './parse-expression.js';
import { parseBlockBody } from './parse-statement.js';
import type { ParserState } from './parser-state.js';
import type { Token } from './token.js';

export function parseArrayLit(p: ParserState): ArrayLit {
  const start = p.next().start;
  const items: Expr[] = [];
  while (!p.is(']')) {
    if (p.peek().kind === 'eof') p.unexpected("Expecting ']' to end this array literal");
    items.push(parseExpr(p));
    if (!p.eat(',') && !p.is(']')) {
      p.unexpected(
        p.peek().kind === 'eof'
          ? "Expecting ']' to end this array literal"
          : "Expecting ',' to separate the items of this array literal",
      );
    }
  }
  p.next();
  return { type: 'ArrayLit', items, start, end: p.lastEnd };
}

/** A map literal's key: a name, a string, or a back-tick string without interpolation. */
function mapKey(k: Token): string | null {
  if (k.kind === 'ident' || k.kind === 'string') return k.text;
  const only = k.kind === 'backtick' && k.parts?.length === 1 ? k.parts[0] : undefined;
  return only?.kind === 'text' ? only.text : null;
}

export function parseMapLit(p: ParserState): MapLit {
  const start = p.next().start;
  const entries: { key: string; value: Expr }[] = [];
  const seen = new Set<string>();
  while (!p.is('}')) {
    const k = p.peek();
    if (k.kind === 'eof') p.unexpected("Expecting '}' to end this object map literal");
    const key = mapKey(k);
    if (key === null) p.fail('Expecting name of a property', k.start);
    p.next();
    if (seen.has(key)) p.fail(`Duplicated property for object map literal: ${key}`, k.start);
    seen.add(key);
    p.expect(':', `to follow the property '${key}' in this object map literal`);
    entries.push({ key, value: parseExpr(p) });
    if (!p.eat(',') && !p.is('}')) {
      p.unexpected(
        p.peek().kind === 'eof'
          ? "Expecting '}' to end this object map literal"
          : "Expecting ',' to separate the items of this object map literal",
      );
    }
  }
  p.next();
  return { type: 'MapLit', entries, start, end: p.lastEnd };
}

export function parseInterpolated(p: ParserState, t: Token): Expr {
  const parts: Expr[] = [];
  for (const part of t.parts ?? []) {
    if (part.kind === 'text') {
      parts.push({ type: 'Literal', value: part.text, start: t.start, end: t.end });
      continue;
    }
    const body: Stmt[] = p.withTokens(part.tokens, () => p.inBlock(() => parseBlockBody(p, 'eof')));
    parts.push({ type: 'Block', body, start: part.start, end: part.end });
  }
  const only = parts[0];
  if (parts.length === 1 && only !== undefined && only.type === 'Literal')
    return { ...only, start: t.start, end: t.end };
  const node: Interpolated = { type: 'Interpolated', parts, start: t.start, end: t.end };
  return node;
}
