// Entries on the wire: snake_case, headers as `{name, value}` lists (as in `mock get --format json`), times as
// ISO 8601, `stage`, `matched` and `why` through get's own wire functions (dispatch/explain-view.ts), so an
// entry's why is byte-for-byte what `get` prints for the same request. `answered_by` (not `source`: in get's
// envelope `source` names the config files). The shapes are declared once, in journal/wire-types.ts.
import { matchedToWire, whyToWire } from '../dispatch/explain-view.js';
import type { HeaderList } from '../shared/headers.js';
import { assertNever } from '../shared/result.js';
import type { AnsweredBy, CapturedBody, Entry, EntryRow } from './entry.js';
import type { ContractMark } from '../dispatch/dispatch.js';
import type { WireAnsweredBy, WireBody, WireContract, WireEntry, WireEntrySummary, WireHeader } from './wire-types.js';

export function entryToWire(e: Entry): WireEntry {
  return {
    id: e.id,
    received_at: e.receivedAt.toISOString(),
    latency_ms: e.latencyMs,
    generation: e.generation,
    request: {
      method: e.request.method,
      path: e.request.path,
      target: e.request.target,
      query: e.request.query,
      headers: headersToWire(e.request.headers),
      body: bodyToWire(e.request.body),
    },
    response: {
      status: e.response.status,
      headers: headersToWire(e.response.headers),
      body: bodyToWire(e.response.body),
    },
    stage: e.stage,
    answered_by: answeredByToWire(e.answeredBy),
    ...(e.fault !== undefined ? { fault: e.fault } : {}),
    ...stateToWire(e),
    ...(e.contract !== undefined ? { contract: contractToWire(e.contract) } : {}),
    ...(e.session !== undefined ? { session: e.session } : {}),
    ...(e.protocol !== undefined ? { protocol: e.protocol } : {}),
    ...(e.stream !== undefined ? { stream: { open: e.stream.open, events: e.stream.events } } : {}),
    matched: matchedToWire(e.matched),
    why: whyToWire(e.why),
  };
}

export function headersToWire(h: HeaderList): WireHeader[] {
  return h.map(([name, value]) => ({ name, value }));
}

export function bodyToWire(b: CapturedBody): WireBody {
  switch (b.kind) {
    case 'none':
      return { kind: 'none' };
    case 'json':
      return { kind: 'json', value: b.value, byte_length: b.byteLength };
    case 'text':
      return { kind: 'text', text: b.text, byte_length: b.byteLength, truncated: b.truncated };
    case 'bytes':
      return { kind: 'bytes', byte_length: b.byteLength, content_type: b.contentType };
    default:
      return assertNever(b, 'body');
  }
}

export function answeredByToWire(a: AnsweredBy): WireAnsweredBy {
  const served = <T extends WireAnsweredBy>(o: T): T =>
    'servedFile' in a && a.servedFile !== undefined ? { ...o, served_file: a.servedFile } : o;
  switch (a.kind) {
    case 'miss':
      return a.denied === undefined
        ? served({ kind: a.kind })
        : served({ kind: a.kind, file: a.denied.file, denied_by: a.denied.pattern });
    case 'options':
    case 'bad_request':
    case 'contract':
    case 'refused':
      return served({ kind: a.kind });
    case 'middleware':
      return served({ kind: a.kind, index: a.index, file: a.file });
    case 'rule_set':
      return served({ kind: a.kind, rule_set_index: a.ruleSetIndex, rule_index: a.ruleIndex });
    case 'prefix_miss':
      return served({ kind: a.kind, rule_set_index: a.ruleSetIndex });
    case 'override':
      return served(
        a.session === undefined ? { kind: a.kind, id: a.id } : { kind: a.kind, id: a.id, session: a.session },
      );
    case 'fallback':
      return served({ kind: a.kind, file: a.file });
    case 'collection':
      return served({
        kind: a.kind,
        path: a.path,
        action: a.action,
        file: a.file,
        ...(a.ruleSetIndex === undefined ? {} : { rule_set_index: a.ruleSetIndex }),
      });
    case 'proxied':
      return { kind: a.kind, target: a.target, saved: a.saved };
    default:
      return assertNever(a, 'answered_by');
  }
}

/** The short form of an entry for a live list (the inspector's `request` event): the row, not the detail. */
export function entrySummaryToWire(e: EntryRow): WireEntrySummary {
  return {
    id: e.id,
    method: e.request.method,
    path: e.request.path,
    status: e.response.status,
    stage: e.stage,
    latency_ms: e.latencyMs,
    generation: e.generation,
    ...(e.fault !== undefined ? { fault: e.fault } : {}),
    ...stateToWire(e),
    ...(e.contract !== undefined ? { contract: contractToWire(e.contract) } : {}),
    ...(e.session !== undefined ? { session: e.session } : {}),
    ...(e.protocol !== undefined ? { protocol: e.protocol } : {}),
    ...(e.stream !== undefined ? { stream: { open: e.stream.open, events: e.stream.events } } : {}),
  };
}

/** `state_before` / `state_after` of an entry that touched scenarios; nothing otherwise. */
function stateToWire(e: Pick<EntryRow, 'stateBefore' | 'stateAfter'>): {
  state_before?: Readonly<Record<string, string>>;
  state_after?: Readonly<Record<string, string>>;
} {
  return e.stateBefore === undefined ? {} : { state_before: e.stateBefore, state_after: e.stateAfter ?? {} };
}

function contractToWire(c: ContractMark): WireContract {
  return { operation: c.operation, request: [...c.request], answer: [...c.answer], enforced: c.enforced };
}
