// Entry point of the front end: tokens → program. After parsing, calls are linked to the script
// functions they name (functions are hoisted, so a call may precede the definition).

import { fnKey, type FnDef, type Program } from './ast.js';
import { tokenize } from './lexer.js';
import { ParserState } from './parser-state.js';
import { parseBlockBody } from './parse-statement.js';
import { markControlFlow } from './control-flow.js';
import { SyntaxFault } from './errors.js';
import { UNSUPPORTED_FUNCTIONS, unsupported } from './unsupported.js';
import { FnPtr } from './values.js';

/**
 * Calls to the script functions they name; names of script functions used as values to function
 * pointers; top-level constants to `global::` when the script reads it; calls of left-out features
 * to compile errors.
 */
function linkNames(p: ParserState): void {
  const names = new Set<string>();
  for (const fn of p.functions.values()) names.add(fn.name);
  for (const call of p.calls) {
    call.fn = p.functions.get(fnKey(call.name, call.args.length)) ?? null;
    const feature = UNSUPPORTED_FUNCTIONS.get(call.name);
    if (feature !== undefined && !names.has(call.name) && call.fnVar === null) {
      throw new SyntaxFault(unsupported(feature, call.name), call.start);
    }
  }
  if (names.size > 0) for (const g of p.globals) if (names.has(g.name)) g.fnPtr = new FnPtr(g.name, [], null);
  if (p.readsGlobalModule) for (const s of p.topConsts) s.toGlobal = true;
}

export function parseProgram(source: string, fileName: string): Program {
  const p = new ParserState(tokenize(source), source);
  const body = parseBlockBody(p, 'eof', true);
  const main: FnDef = {
    name: '',
    params: [],
    body: { type: 'Block', body, start: 0, end: source.length },
    frameSize: p.scope.frameSize,
    isClosure: false,
    captureSlots: [],
    start: 0,
    end: source.length,
  };
  linkNames(p);
  markControlFlow(main);
  for (const fn of p.functions.values()) markControlFlow(fn);
  return { fileName, source, main, functions: p.functions };
}
