// The request journal on the request path: a hook (server/hooks.ts) that asks dispatch to explain its choice and
// captures each exchange right after its last byte is handed to the socket, with the generation it was served
// under and that very explanation (dispatch answers, 413 refusals, record mode's proxied answers). In the chain
// only when there is a journal (the inspector, the library). It records references only: the entry is made
// when someone reads it (journal/journal.ts).
import type { ShownPaths } from '../dispatch/explain-view.js';
import type { Answerer, Exchange, ExplainContext } from '../journal/capture.js';
import type { Journal } from '../journal/journal.js';
import type { Workspace } from '../model/workspace.js';
import type { InFlight, RequestHook, Sent } from './hooks.js';

const EMPTY = new Uint8Array(0);

const NO_PATHS: ShownPaths = Object.freeze({
  ruleSet: (i: number) => `#${i + 1}`,
  middleware: (i: number) => `#${i + 1}`,
});

/** `shownPaths`: how a workspace's files are named in the explanations (as `get` names them); asked once per workspace. */
export function journalHook(journal: Journal, shownPaths?: (ws: Workspace) => ShownPaths): RequestHook {
  // one context per workspace, not per request: the journal keeps it with each entry until the entry is read
  const contexts = new WeakMap<Workspace, ExplainContext>();
  const contextOf = (ws: Workspace): ExplainContext => {
    let c = contexts.get(ws);
    if (c === undefined) contexts.set(ws, (c = Object.freeze({ ws, shown: shownPaths?.(ws) ?? NO_PATHS })));
    return c;
  };
  const answerer = (x: InFlight, sent: Sent): Answerer => {
    switch (sent.kind) {
      case 'dispatch':
        return { kind: 'dispatch', outcome: sent.outcome, context: contextOf(x.live.ws) };
      case 'refused':
        return { kind: 'refused' };
      case 'proxied':
        return {
          kind: 'proxied',
          target: sent.target,
          saved: sent.saved,
          outcome: sent.outcome,
          context: contextOf(x.live.ws),
        };
    }
  };
  const exchange = (x: InFlight, sent: Sent, body: Uint8Array): Exchange => {
    const { status, headers } = sent.response;
    return {
      receivedAt: x.receivedAt,
      generation: x.live.generation,
      request: {
        snapshot: x.snapshot,
        target: x.req.url ?? '/',
        body: x.body,
        rawHeaders: x.req.rawHeaders,
        ...(sent.kind === 'refused' && sent.declaredLength !== undefined ? { byteLength: sent.declaredLength } : {}),
      },
      response: { status, headers, body },
      answerer: answerer(x, sent),
      ...(x.session !== undefined ? { session: x.session } : {}),
    };
  };
  // the open entries of streams being sent, by request
  const open = new WeakMap<InFlight, number>();
  return {
    name: 'journal',
    explain: true,
    // a stream is in the journal from its first byte, open, and grows by each event sent (docs/inspector.md);
    // record mode's passed-on upstream streams too
    streamTap(x, sent) {
      const id = journal.open(exchange(x, sent, EMPTY));
      open.set(x, id);
      return (bytes) => journal.streamed(id, bytes);
    },
    afterWrite(x, sent) {
      const id = open.get(x);
      if (id !== undefined) {
        open.delete(x);
        // what record mode saved is known only once the upstream has ended the stream
        journal.finish(id, sent.kind === 'proxied' ? sent.saved : undefined);
      }
      const recorded = id ?? journal.record(exchange(x, sent, sent.response.body));
      // the callbacks this answer makes are linked to its entry (docs/callbacks.md)
      if (sent.kind === 'dispatch' && sent.outcome.callbacks !== undefined) sent.outcome.callbacks.journalId = recorded;
    },
  };
}
