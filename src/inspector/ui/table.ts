// The request table: a row per journal entry, from the first page of entries and then the event stream; the
// filter, pause and the live events of a stream still being sent.

import type {
  WireAnsweredBy,
  WireContract,
  WireEntry,
  WireEntrySummary,
  WireRequestEvent,
  WireStreamEvent,
} from '../../journal/wire-types.js';
import { closeDetail, openDetail } from './detail.js';
import { $, MAX_ROWS, type Row, clear, el, titled } from './dom.js';

// --- what answered -----------------------------------------------------------------------------------------

export const tail = (file: string): string =>
  /^([A-Za-z]:)?[\\/]/.test(file) ? file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1) : file;

/** `rule set #1, rule #2`, `fallback: users.json`, `miss`, … from answered_by. */
export function answeredLabel(a: WireAnsweredBy): string {
  switch (a.kind) {
    case 'rule_set':
      return `rule set #${a.rule_set_index + 1}, rule #${a.rule_index + 1}`;
    case 'fallback':
      // the journal names the file relative to the fallback directory; an absolute one (older servers) by its name
      return `fallback: ${a.file.startsWith('/') ? tail(a.file) : a.file}`;
    case 'miss':
      return a.denied_by !== undefined && a.file !== undefined ? `denied: ${a.file} (${a.denied_by})` : 'miss';
    case 'middleware':
      return `middleware #${a.index + 1} (${tail(a.file)})`;
    case 'prefix_miss':
      return `prefix miss: rule set #${a.rule_set_index + 1}`;
    case 'collection':
      return `collection ${a.path} (${a.action})`;
    case 'override':
      return `override #${a.id}${a.session === undefined ? '' : ` (session ${a.session})`}`;
    case 'options':
      return 'OPTIONS';
    case 'bad_request':
      return 'bad JSON body';
    case 'contract':
      return 'breaks the contract (400)';
    case 'refused':
      return 'refused (body too large)';
    case 'proxied':
      return 'proxied';
  }
}

/** `cart: started → paid, …` for every scenario whose state the answer changed. */
export function movedText(
  before: Readonly<Record<string, string>> | undefined,
  after: Readonly<Record<string, string>> | undefined,
): string {
  if (before === undefined || after === undefined) return '';
  return Object.keys(after)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k] ?? 'started'} \u2192 ${after[k]}`)
    .join(', ');
}

export function rowOf(s: WireEntrySummary, answeredBy: WireAnsweredBy): Row {
  return {
    moved: movedText(s.state_before, s.state_after),
    id: s.id,
    method: s.method,
    path: s.path,
    status: s.status,
    stage: s.stage,
    latency: s.latency_ms,
    generation: s.generation,
    answered: contractLabel(
      s.contract,
      s.fault === undefined ? answeredLabel(answeredBy) : `fault: ${s.fault} (${answeredLabel(answeredBy)})`,
    ),
    streaming: s.stream?.open === true,
  };
}

/** With `--contract`: the row says when the request or the answer broke the document (docs/contract.md). */
export function contractLabel(c: WireContract | undefined, answered: string): string {
  if (c === undefined) return answered;
  const parts: string[] = [];
  if (c.request.length > 0) parts.push(`request breaks ${c.operation}: ${c.request.join('; ')}`);
  if (c.answer.length > 0) parts.push(`answer violates the contract: ${c.answer.join('; ')}`);
  return `\u26a0 ${parts.join(' \u2014 ')} (${answered})`;
}

/** A table row from an entry of the list (`GET /requests`) or the detail. */
export function rowFromEntry(e: WireEntry): Row {
  const { id, stage, latency_ms, generation } = e;
  const summary: WireEntrySummary = {
    id,
    method: e.request.method,
    path: e.request.path,
    status: e.response.status,
    stage,
    latency_ms,
    generation,
    ...(e.stream === undefined ? {} : { stream: e.stream }),
  };
  const withFault = e.fault === undefined ? summary : { ...summary, fault: e.fault };
  const withState =
    e.state_before === undefined
      ? withFault
      : { ...withFault, state_before: e.state_before, state_after: e.state_after ?? {} };
  return rowOf(e.contract === undefined ? withState : { ...withState, contract: e.contract }, e.answered_by);
}

/** A table row from a `request` event. */
export const rowFromEvent = (e: WireRequestEvent): Row => rowOf(e, e.answered_by);

// --- the table ---------------------------------------------------------------------------------------------

export const rows = new Map<number, { row: Row; tr: HTMLTableRowElement }>();
/** the table's view state: shared by the table, the detail pane and the controls */
export const view: { paused: boolean; held: Row[]; selected: number | undefined } = {
  paused: false,
  held: [],
  selected: undefined,
};

export const statusClass = (s: number): string =>
  s >= 500 ? 's5' : s >= 400 ? 's4' : s >= 300 ? 's3' : s >= 200 ? 's2' : 's1';

export function matchesFilter(r: Row): boolean {
  const q = (($('filter') as HTMLInputElement).value ?? '').trim().toLowerCase();
  if (q === '') return true;
  const hay =
    `${r.method} ${r.path} ${r.status} ${r.answered} ${r.moved} ${r.stage} gen${r.generation ?? ''}`.toLowerCase();
  return q.split(/\s+/).every((t) => hay.includes(t));
}

export function renderRow(r: Row): HTMLTableRowElement {
  const tr = el('tr', r.answered === 'miss' || r.stage === 'miss' ? 'miss' : '');
  tr.dataset['id'] = String(r.id);
  tr.tabIndex = 0;
  tr.append(
    el('td', 'n muted', String(r.id)),
    el('td', `method m-${/^[A-Z]+$/.test(r.method) ? r.method : 'X'}`, r.method),
    titled(el('td', 'path', r.path)),
    el('td', `n status ${statusClass(r.status)}`, r.status === 0 ? '–' : String(r.status)),
    titled(el('td', 'answered', r.moved === '' ? r.answered : `${r.answered} \u00b7 ${r.moved}`)),
    el(
      'td',
      'n muted',
      r.streaming
        ? 'streaming\u2026'
        : r.latency === undefined
          ? ''
          : `${r.latency < 10 ? r.latency.toFixed(1) : Math.round(r.latency)} ms`,
    ),
    el('td', 'n muted', r.generation === undefined ? '' : String(r.generation)),
  );
  tr.hidden = !matchesFilter(r);
  if (r.id === view.selected) tr.classList.add('selected');
  if (r.streaming) tr.dataset['stream'] = 'open';
  return tr;
}

/** A row that changed (its stream ended): redrawn in place, and its detail loaded again when it is open. */
export function updateRow(r: Row): void {
  live.delete(r.id);
  const i = view.held.findIndex((h) => h.id === r.id);
  if (i >= 0) view.held[i] = r;
  const shown = rows.get(r.id);
  if (shown === undefined) return;
  const tr = renderRow(r);
  shown.tr.replaceWith(tr);
  rows.set(r.id, { row: r, tr });
  if (view.selected === r.id) void openDetail(r.id);
}

// --- streams being sent --------------------------------------------------------------------------------------

/** the events heard of each open stream (bounded), for a detail opened while it is being sent */
export const live = new Map<number, WireStreamEvent[]>();
export const LIVE_EVENTS = 500;
/** how much of a stream a detail shows (chars); the journal holds what its body limit allows */
export const LIVE_CHARS = 256 * 1024;

export function receiveStream(e: WireStreamEvent): void {
  let list = live.get(e.id);
  if (list === undefined) {
    if (!rows.has(e.id) && !view.held.some((h) => h.id === e.id)) return;
    live.set(e.id, (list = []));
  }
  if (list.length < LIVE_EVENTS) list.push(e);
  if (view.selected === e.id) appendLive(e);
}

/** Append an event to the open detail's stream, unless the detail's body already holds it. */
export function appendLive(e: WireStreamEvent): void {
  const pre = document.querySelector<HTMLElement>('#detail pre.stream');
  if (pre === null) return;
  const upTo = Number(pre.dataset['upto']);
  if (!(e.offset >= upTo) || (pre.textContent ?? '').length > LIVE_CHARS) return;
  pre.append(document.createTextNode(e.text + (e.truncated ? '\u2026\n' : '')));
  pre.dataset['upto'] = String(e.offset + 1);
  const count = document.querySelector('#detail .stream-count');
  if (count !== null) count.textContent = `streaming: ${(Number(pre.dataset['events']) || 0) + 1} events so far`;
  pre.dataset['events'] = String((Number(pre.dataset['events']) || 0) + 1);
}

export function addRows(list: readonly Row[]): void {
  const body = $('rows');
  for (const r of list) {
    if (rows.has(r.id)) continue;
    const tr = renderRow(r);
    rows.set(r.id, { row: r, tr });
    // newest first: ids only grow, so a new row goes on top
    body.insertBefore(tr, body.firstChild);
  }
  while (rows.size > MAX_ROWS) {
    const oldest = Math.min(...rows.keys());
    rows.get(oldest)?.tr.remove();
    rows.delete(oldest);
  }
  updateCount();
}

export function updateCount(): void {
  const shown = [...rows.values()].filter((x) => !x.tr.hidden).length;
  const noun = rows.size === 1 ? 'request' : 'requests';
  $('count').textContent =
    rows.size === 0 ? '' : shown === rows.size ? `${rows.size} ${noun}` : `${shown} of ${rows.size} ${noun}`;
  $('empty').hidden = rows.size > 0;
  const pause = $('pause');
  pause.textContent = view.paused ? (view.held.length > 0 ? `Resume (${view.held.length} new)` : 'Resume') : 'Pause';
}

export function receive(r: Row): void {
  if (view.paused) {
    view.held.push(r);
    updateCount();
  } else addRows([r]);
}

export function clearTable(): void {
  rows.clear();
  live.clear();
  view.held = [];
  clear($('rows'));
  closeDetail();
  updateCount();
}
