// The request journal (journal/) on the management listener: its pure HTTP routes mounted as router routes, its
// captures and resets turned into the event stream's `request` and `reset` events, and its entries as the
// stream's `Last-Event-ID` replay source.
// Leaves out: the routes' own logic (journal/http-routes.ts) and capturing (the listener feeds the journal).
import { handleJournalRoute, JOURNAL_ROUTES, type JournalRouteDeps } from '../journal/http-routes.js';
import type { Journal } from '../journal/journal.js';
import { answeredByToWire, entrySummaryToWire } from '../journal/wire.js';
import type { EntryRow } from '../journal/entry.js';
import type { EventHub, RequestEvent } from './events.js';
import type { Route, RouteContext } from './router.js';
import { COMMON_HEADERS } from './security.js';
import { loadLinearRegex } from '../shared/linear-regex.js';

/** The `request` event of an entry (or of its row): the journal's row form plus what answered (for the table's label). */
export function requestEventOfEntry(e: EntryRow): RequestEvent {
  return { ...entrySummaryToWire(e), answered_by: answeredByToWire(e.answeredBy) };
}

/**
 * The parts of a `request` event's text that the rows one stage object answers share: everything but the id and
 * the latency, made again when one of them differs (a rule answering several paths).
 */
interface EventText {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly stage: string;
  readonly generation: number;
  readonly fault: string | undefined;
  /** `,"method":…,"stage":…,"latency_ms":` */
  readonly head: string;
  /** `,"generation":…,"answered_by":…}` */
  readonly tail: string;
}

const eventTexts = new WeakMap<object, EventText>();

/**
 * The `request` event's data as JSON text, written out rather than stringified: the same text as
 * `JSON.stringify(requestEventOfEntry(e))`, key for key (a test holds them equal), for every event a page hears.
 * A burst of one request makes the same text but for the id and the latency, so that text is kept per object of
 * what answered (a remembered file's or a rule's is one object) and only the two numbers are written per event.
 */
export function requestEventJson(e: EntryRow): string {
  // an answer that touched scenarios, fell under the contract or carried a session, or a stream: rare, so
  // stringified whole
  if (e.stateBefore !== undefined || e.contract !== undefined || e.session !== undefined || e.stream !== undefined)
    return JSON.stringify(requestEventOfEntry(e));
  const a = e.answeredBy;
  const { method, path } = e.request;
  const { status } = e.response;
  const { stage, generation, fault } = e;
  let t = eventTexts.get(a);
  if (
    t === undefined ||
    t.path !== path ||
    t.method !== method ||
    t.status !== status ||
    t.stage !== stage ||
    t.generation !== generation ||
    t.fault !== fault
  ) {
    t = {
      method,
      path,
      status,
      stage,
      generation,
      fault,
      head: `,"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"stage":${JSON.stringify(stage)},"latency_ms":`,
      tail: `,"generation":${generation}${fault === undefined ? '' : `,"fault":${JSON.stringify(fault)}`},"answered_by":${JSON.stringify(answeredByToWire(a))}}`,
    };
    eventTexts.set(a, t);
  }
  return `{"id":${e.id}${t.head}${JSON.stringify(e.latencyMs)}${t.tail}`;
}

/** The journal's routes: GET/DELETE /__mock/api/requests, GET /__mock/api/requests/<id>, POST /__mock/api/reset. */
export function journalRoutes(deps: JournalRouteDeps): Route[] {
  const handle = async (ctx: RouteContext): Promise<'handled'> => {
    const body = ctx.method === 'POST' ? await ctx.text() : '';
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    // a path_regex is matched in linear time: its engine is loaded with the first one (shared/linear-regex.ts)
    if (ctx.url.searchParams.has('path_regex')) await loadLinearRegex();
    const answer = handleJournalRoute({ method, target: ctx.url.pathname + ctx.url.search, body }, deps);
    if (answer === undefined) throw new Error(`the journal has no route for ${ctx.url.pathname}`);
    const headers: Record<string, string> = { ...COMMON_HEADERS };
    for (const [name, value] of answer.headers) headers[name.toLowerCase()] = value;
    if (answer.status !== 204) headers['content-length'] = String(Buffer.byteLength(answer.body));
    ctx.res.writeHead(answer.status, headers);
    ctx.res.end(answer.status === 204 || ctx.method === 'HEAD' ? undefined : answer.body);
    return 'handled';
  };
  const entry = new RegExp(`^${JOURNAL_ROUTES.entryPrefix.replaceAll('/', '\\/')}([^/]+)$`);
  return [
    { method: 'GET', path: JOURNAL_ROUTES.requests, handle },
    { method: 'DELETE', path: JOURNAL_ROUTES.requests, handle },
    { method: 'GET', path: entry, handle },
    { method: 'POST', path: JOURNAL_ROUTES.reset, handle },
  ];
}

/** The replay source for the event hub: entries after `afterId`; throws (→ a `reset` event) when some were evicted. */
export function journalReplay(journal: Journal): (afterId: number) => readonly RequestEvent[] {
  return (afterId) => journal.rows({ since: afterId }).map(requestEventOfEntry);
}

/**
 * Publish each capture and reset on the hub; returns the unsubscribe. Nothing is made while no client listens;
 * with clients, the row goes to the hub, which encodes it once for all of them when it sends (events.ts).
 */
export function connectJournal(journal: Journal, events: EventHub): () => void {
  return journal.subscribe((ev) => {
    if (ev.kind === 'reset') events.reset();
    else if (events.clientCount === 0) return;
    else if (ev.kind === 'entry') events.request(ev.row, requestEventJson);
    else if (ev.kind === 'stream') events.stream(ev.id, ev.offset, ev.bytes);
    else events.update(requestEventJson(ev.row));
  });
}
