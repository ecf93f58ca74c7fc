// The contract check on the request path (`serve --contract`): a compiled document as dispatch's ContractGate.
// Per request: find the documented operation (method and path), check its parameters and JSON body; per answer:
// its status, content type and JSON body against the documented responses. A request no operation documents is
// not checked (the workspace may answer more than the document). See docs/contract.md.
import type { ContractGate, ContractVerdict } from '../dispatch/dispatch.js';
import type { Answer } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import { getHeader } from '../shared/headers.js';
import {
  answerViolations,
  findOperation,
  requestViolations,
  type Contract,
  type ContractOperation,
  type RequestView,
} from './contract.js';

export type ContractMode = 'enforce' | 'warn';

interface Verdict extends ContractVerdict {
  readonly op: ContractOperation;
}

export function contractGate(contract: Contract, mode: ContractMode): ContractGate {
  // A literal rule's or a remembered file's answer is one immutable object, sent again and again: its check is
  // made once per operation (a templated answer is made per request, and checked each time).
  const checked = new WeakMap<Answer, { readonly op: ContractOperation; readonly found: readonly string[] }>();
  return {
    enforce: mode === 'enforce',
    checkRequest(req: RequestSnapshot): Verdict | undefined {
      const { match } = findOperation(contract, req.method, req.segments);
      if (match === undefined) return undefined;
      const violations = requestViolations(match, viewOf(req));
      return { operation: `${match.operation.method} ${match.operation.path}`, violations, op: match.operation };
    },
    checkAnswer(verdict: ContractVerdict, answer: Answer): readonly string[] {
      const op = (verdict as Verdict).op;
      // a fault sends no valid answer at all: there is nothing to hold against the document; a file too large to
      // keep in memory is sent from disk unread
      if (answer.delivery?.kind === 'fault' || answer.delivery?.kind === 'file') return [];
      const known = checked.get(answer);
      if (known !== undefined && known.op === op) return known.found;
      const found = answerViolations(op, answer.status, getHeader(answer.headers, 'content-type'), answer.body).map(
        (v) => `${v.message} (${v.pointer})`,
      );
      if (answer.fresh !== true) checked.set(answer, { op, found });
      return found;
    },
    problem: problemJson,
  };
}

/** RFC 9457 problem details for a request that breaks the document: each violation with its location. */
export function problemJson(verdict: ContractVerdict): string {
  const violations = verdict.violations.map((v) => {
    const colon = v.indexOf(': ');
    return colon < 0 ? { location: '', message: v } : { location: v.slice(0, colon), message: v.slice(colon + 2) };
  });
  return JSON.stringify({
    type: 'about:blank',
    title: 'The request does not match the API contract',
    status: 400,
    detail: `${verdict.operation}: ${verdict.violations.join('; ')}`,
    violations,
  });
}

function viewOf(req: RequestSnapshot): RequestView {
  const b = req.body;
  let body: RequestView['body'];
  if (b.kind === 'json') body = { kind: 'json', value: b.unchecked ?? jsonOf(req) };
  else if (b.kind === 'none') body = { kind: 'none' };
  else body = { kind: 'other' };
  return {
    query: req.parts.query,
    headers: req.headers,
    cookies: req.parts.cookies,
    body,
  };
}

/** The body as JSON.parse reads it (a number past 2^53 rounded, as any JSON client would read it). */
function jsonOf(req: RequestSnapshot): unknown {
  try {
    return JSON.parse(req.parts.bodyText ?? 'null');
  } catch {
    return null;
  }
}
