// Entry point of the front end: tokens → program. After parsing, calls are linked to the script
// functions they name (functions are hoisted, so a call may precede the definition).

import { fnKey, type FnDef, type Program } from './ast.js';
import { tokenize } from './lexer.js';
import { ParserState } from './parser-state.js';
import { parseBlockBody } from './parse-statement.js';
import { markControlFlow } from './control-flow.js';

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
  for (const call of p.calls) call.fn = p.functions.get(fnKey(call.name, call.args.length)) ?? null;
  markControlFlow(main);
  for (const fn of p.functions.values()) markControlFlow(fn);
  return { fileName, source, main, functions: p.functions };
}
