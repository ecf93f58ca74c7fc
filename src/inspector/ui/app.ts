// The inspector page: the live request table (from the journal routes and the event stream), the detail of one
// exchange with its why as `mock get --why` prints it, "make rule" (the rules POST), the reload banner and the
// file tree. No framework: DOM calls only, and request data is only ever put on the page through textContent
// (or attribute values that are not URLs, scripts or styles), never parsed as HTML.
//
// This module starts the page: the event stream and the controls. The panels are modules of their own (dom.ts:
// helpers and the envelope call; table.ts; detail.ts; state.ts; rule-form.ts with the reload banner; tree.ts;
// overrides.ts), bundled into one app.js by scripts/bundle.mjs.

import type { WireEntryList, WireRequestEvent, WireStreamEvent } from '../../journal/wire-types.js';
import { closeDetail, openDetail, prefixes } from './detail.js';
import { $, API, MAX_ROWS, call, field, num, str, token } from './dom.js';
import { overridesSoon, showOverrides } from './overrides.js';
import { showReload } from './rule-form.js';
import { loadState } from './state.js';
import {
  addRows,
  clearTable,
  matchesFilter,
  receive,
  receiveStream,
  rowFromEntry,
  rowFromEvent,
  rows,
  updateCount,
  updateRow,
  view,
} from './table.js';
import { loadTree, treeView } from './tree.js';

// --- the stream --------------------------------------------------------------------------------------------

function setConn(state: 'live' | 'connecting' | 'down', text: string): void {
  const c = $('conn');
  c.dataset['state'] = state;
  c.textContent = text;
}

async function start(): Promise<void> {
  const first = await call<WireEntryList>('GET', `${API}/requests?limit=${MAX_ROWS}`);
  let since: number | undefined;
  if (first.ok) {
    addRows(first.result.entries.map(rowFromEntry));
    since = first.result.last_id;
  }
  updateCount();
  void showOverrides();
  const ws = await call('GET', `${API}/workspace`);
  if (ws.ok) {
    showReload(field(ws.result, 'last_reload'));
    const sets = field(ws.result, 'rule_sets');
    (Array.isArray(sets) ? sets : []).forEach((rs, i) => {
      const p = str(field(rs, 'prefix'));
      if (p !== undefined) prefixes.set(num(field(rs, 'index')) ?? i, p);
    });
  }
  const query = [
    ...(since === undefined ? [] : [`since=${since}`]),
    ...(token() === null ? [] : [`access_token=${encodeURIComponent(token() ?? '')}`]),
  ];
  const es = new EventSource(`${API}/events${query.length === 0 ? '' : `?${query.join('&')}`}`);
  es.addEventListener('open', () => setConn('live', 'live'));
  es.addEventListener('error', () =>
    setConn(
      es.readyState === EventSource.CLOSED ? 'down' : 'connecting',
      es.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…',
    ),
  );
  es.addEventListener('request', (ev) => {
    const data = parse(ev);
    if (data !== undefined) {
      const row = rowFromEvent(data as WireRequestEvent);
      receive(row);
      if (row.moved !== '') void loadState();
    }
    overridesSoon();
  });
  es.addEventListener('stream', (ev) => {
    const data = parse(ev);
    if (data !== undefined) receiveStream(data as WireStreamEvent);
  });
  es.addEventListener('update', (ev) => {
    const data = parse(ev);
    if (data !== undefined) updateRow(rowFromEvent(data as WireRequestEvent));
  });
  es.addEventListener('reload', (ev) => {
    const data = parse(ev);
    showReload(data);
    if (field(data, 'ok') === true) {
      void loadTree(treeView.dir);
      void loadState();
    }
  });
  es.addEventListener('reset', () => {
    clearTable();
    void loadState();
    overridesSoon();
    void call<WireEntryList>('GET', `${API}/requests?limit=${MAX_ROWS}`).then((a) => {
      if (a.ok) addRows(a.result.entries.map(rowFromEntry));
    });
  });
}

function parse(ev: Event): unknown {
  try {
    return JSON.parse(String((ev as MessageEvent).data));
  } catch {
    return undefined;
  }
}

function wire(): void {
  $('rows').addEventListener('click', (ev) => {
    const tr = (ev.target as Element).closest('tr');
    const id = Number(tr?.dataset['id']);
    if (Number.isSafeInteger(id)) void openDetail(id);
  });
  $('rows').addEventListener('keydown', (ev) => {
    const tr = (ev.target as Element).closest('tr');
    if (tr === null) return;
    if (ev.key === 'Enter') void openDetail(Number(tr.dataset['id']));
    const next =
      ev.key === 'ArrowDown' ? tr.nextElementSibling : ev.key === 'ArrowUp' ? tr.previousElementSibling : null;
    if (next instanceof HTMLElement) {
      ev.preventDefault();
      next.focus();
      void openDetail(Number(next.dataset['id']));
    }
  });
  $('filter').addEventListener('input', () => {
    for (const { row, tr } of rows.values()) tr.hidden = !matchesFilter(row);
    updateCount();
  });
  $('pause').addEventListener('click', () => {
    view.paused = !view.paused;
    $('pause').setAttribute('aria-pressed', String(view.paused));
    if (!view.paused) {
      addRows(view.held);
      view.held = [];
    }
    updateCount();
  });
  $('clear').addEventListener('click', () => {
    void call('DELETE', `${API}/requests`).then(() => clearTable());
  });
  $('tree-refresh').addEventListener('click', () => void loadTree(treeView.dir));
  $('state-refresh').addEventListener('click', () => void loadState());
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') closeDetail();
    if (
      ev.key === '/' &&
      document.activeElement?.tagName !== 'INPUT' &&
      document.activeElement?.tagName !== 'TEXTAREA'
    ) {
      ev.preventDefault();
      $('filter').focus();
    }
  });
}

wire();
void start();
void loadTree('');
void loadState();
