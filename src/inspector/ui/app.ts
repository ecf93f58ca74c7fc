// The inspector page: the live request table (from the journal routes and the event stream), the detail of one
// exchange with its why as `mock get --why` prints it, "make rule" (the rules POST), the reload banner and the
// file tree. No framework: DOM calls only, and request data is only ever put on the page through textContent
// (or attribute values that are not URLs, scripts or styles), never parsed as HTML.

// --- wire shapes ---------------------------------------------------------------------------------------------
// The journal's entries and events are typed by the journal's own wire types (a type-only import: nothing of it
// reaches the compiled page); the other answers are read tolerantly, only what is shown.

import type {
  WhyWire,
  WireAnsweredBy,
  WireBody,
  WireContract,
  WireEntry,
  WireEntryList,
  WireEntrySummary,
  WireHeader,
  WireRequestEvent,
  WireStreamEvent,
} from '../../journal/wire-types.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

interface Row {
  id: number;
  method: string;
  path: string;
  status: number;
  stage: string;
  latency: number;
  generation: number;
  answered: string;
  /** the scenarios the answer moved, `cart: started → paid` (docs/state.md); '' when none moved */
  moved: string;
  /** a streamed answer still being sent */
  streaming: boolean;
}

const API = '/__mock/api';
const MAX_ROWS = 2000;
const CLIENT_HEADERS = { 'x-mock-client': 'inspector' } as const;
const OK = '\u2713';
const FAIL = '\u2717';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const field = (o: unknown, ...names: string[]): Json | undefined => {
  if (!isObj(o)) return undefined;
  for (const n of names) if (n in o) return o[n];
  return undefined;
};

// --- DOM helpers -------------------------------------------------------------------------------------------

function $(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`#${id} missing`);
  return e;
}

/** An element with a class and text (textContent: never parsed). */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls !== undefined && cls !== '') e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The full text as a tooltip, for cells that may be cut short (a title attribute is plain text, never markup). */
function titled(e: HTMLElement): HTMLElement {
  e.title = e.textContent ?? '';
  return e;
}

function clear(e: Element): void {
  while (e.firstChild !== null) e.firstChild.remove();
}

// --- envelope calls ----------------------------------------------------------------------------------------

type Answer<T = Json> = { ok: true; result: T } | { ok: false; status: number; message: string; diagnostics: Json[] };

/** `--inspect-token`: asked once, kept for this tab only (docs/inspector.md#from-a-container) */
const TOKEN_KEY = 'mock-inspect-token';
const token = (): string | null => sessionStorage.getItem(TOKEN_KEY);
const authHeaders = (): Record<string, string> => {
  const t = token();
  return t === null ? {} : { authorization: `Bearer ${t}` };
};

/** An envelope call; `T` is what the route answers with (the JSON is our own server's, read as that type). */
async function call<T = Json>(method: string, path: string, body?: unknown, asked = false): Promise<Answer<T>> {
  try {
    const init: RequestInit = {
      method,
      headers:
        method === 'GET'
          ? authHeaders()
          : {
              ...authHeaders(),
              ...CLIENT_HEADERS,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(path, init);
    if (res.status === 401 && !asked) {
      const given = window.prompt('This management listener needs its token (--inspect-token):');
      if (given !== null && given !== '') {
        sessionStorage.setItem(TOKEN_KEY, given.trim());
        return call<T>(method, path, body, true);
      }
    }
    const env = (res.status === 204 ? { result: null } : await res.json().catch(() => undefined)) as
      | { result?: T }
      | undefined;
    const err = field(env, 'error');
    if (!res.ok || err !== undefined) {
      const diags = field(err, 'diagnostics');
      return {
        ok: false,
        status: res.status,
        message: str(field(err, 'message')) ?? `HTTP ${res.status}`,
        diagnostics: Array.isArray(diags) ? diags : [],
      };
    }
    return { ok: true, result: env?.result as T };
  } catch (e) {
    return { ok: false, status: 0, message: e instanceof Error ? e.message : String(e), diagnostics: [] };
  }
}

// --- what answered -----------------------------------------------------------------------------------------

const tail = (file: string): string =>
  /^([A-Za-z]:)?[\\/]/.test(file) ? file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1) : file;

/** `rule set #1, rule #2`, `fallback: users.json`, `miss`, … from answered_by. */
function answeredLabel(a: WireAnsweredBy): string {
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
function movedText(
  before: Readonly<Record<string, string>> | undefined,
  after: Readonly<Record<string, string>> | undefined,
): string {
  if (before === undefined || after === undefined) return '';
  return Object.keys(after)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k] ?? 'started'} \u2192 ${after[k]}`)
    .join(', ');
}

function rowOf(s: WireEntrySummary, answeredBy: WireAnsweredBy): Row {
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
function contractLabel(c: WireContract | undefined, answered: string): string {
  if (c === undefined) return answered;
  const parts: string[] = [];
  if (c.request.length > 0) parts.push(`request breaks ${c.operation}: ${c.request.join('; ')}`);
  if (c.answer.length > 0) parts.push(`answer violates the contract: ${c.answer.join('; ')}`);
  return `\u26a0 ${parts.join(' \u2014 ')} (${answered})`;
}

/** A table row from an entry of the list (`GET /requests`) or the detail. */
function rowFromEntry(e: WireEntry): Row {
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
const rowFromEvent = (e: WireRequestEvent): Row => rowOf(e, e.answered_by);

// --- the table ---------------------------------------------------------------------------------------------

const rows = new Map<number, { row: Row; tr: HTMLTableRowElement }>();
let paused = false;
let held: Row[] = [];
let selected: number | undefined;

const statusClass = (s: number): string =>
  s >= 500 ? 's5' : s >= 400 ? 's4' : s >= 300 ? 's3' : s >= 200 ? 's2' : 's1';

function matchesFilter(r: Row): boolean {
  const q = (($('filter') as HTMLInputElement).value ?? '').trim().toLowerCase();
  if (q === '') return true;
  const hay =
    `${r.method} ${r.path} ${r.status} ${r.answered} ${r.moved} ${r.stage} gen${r.generation ?? ''}`.toLowerCase();
  return q.split(/\s+/).every((t) => hay.includes(t));
}

function renderRow(r: Row): HTMLTableRowElement {
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
  if (r.id === selected) tr.classList.add('selected');
  if (r.streaming) tr.dataset['stream'] = 'open';
  return tr;
}

/** A row that changed (its stream ended): redrawn in place, and its detail loaded again when it is open. */
function updateRow(r: Row): void {
  live.delete(r.id);
  const i = held.findIndex((h) => h.id === r.id);
  if (i >= 0) held[i] = r;
  const shown = rows.get(r.id);
  if (shown === undefined) return;
  const tr = renderRow(r);
  shown.tr.replaceWith(tr);
  rows.set(r.id, { row: r, tr });
  if (selected === r.id) void openDetail(r.id);
}

// --- streams being sent --------------------------------------------------------------------------------------

/** the events heard of each open stream (bounded), for a detail opened while it is being sent */
const live = new Map<number, WireStreamEvent[]>();
const LIVE_EVENTS = 500;
/** how much of a stream a detail shows (chars); the journal holds what its body limit allows */
const LIVE_CHARS = 256 * 1024;

function receiveStream(e: WireStreamEvent): void {
  let list = live.get(e.id);
  if (list === undefined) {
    if (!rows.has(e.id) && !held.some((h) => h.id === e.id)) return;
    live.set(e.id, (list = []));
  }
  if (list.length < LIVE_EVENTS) list.push(e);
  if (selected === e.id) appendLive(e);
}

/** Append an event to the open detail's stream, unless the detail's body already holds it. */
function appendLive(e: WireStreamEvent): void {
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

function addRows(list: readonly Row[]): void {
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

function updateCount(): void {
  const shown = [...rows.values()].filter((x) => !x.tr.hidden).length;
  const noun = rows.size === 1 ? 'request' : 'requests';
  $('count').textContent =
    rows.size === 0 ? '' : shown === rows.size ? `${rows.size} ${noun}` : `${shown} of ${rows.size} ${noun}`;
  $('empty').hidden = rows.size > 0;
  const pause = $('pause');
  pause.textContent = paused ? (held.length > 0 ? `Resume (${held.length} new)` : 'Resume') : 'Pause';
}

function receive(r: Row): void {
  if (paused) {
    held.push(r);
    updateCount();
  } else addRows([r]);
}

function clearTable(): void {
  rows.clear();
  live.clear();
  held = [];
  clear($('rows'));
  closeDetail();
  updateCount();
}

// --- the why, as `mock get --why` prints it ----------------------------------------------------------------

interface WhyLine {
  text: string;
  mark?: 'ok' | 'fail' | 'match' | 'nomatch' | 'head';
}

/** Rule-set prefixes by index, from `/__mock/api/workspace` when it lists them (`rule_sets: [{prefix}]`). */
const prefixes = new Map<number, string>();

/** The lines of `mock get --why` after `-- Why --`, from the `why` object of `mock get --format json`. */
function whyLines(why: WhyWire): WhyLine[] {
  const lines: WhyLine[] = [{ text: '-- Why --', mark: 'head' }, { text: why.note }];
  if (why.overrides !== undefined && why.overrides.length > 0) {
    lines.push({ text: '' }, { text: 'Runtime overrides (newest first):', mark: 'head' });
    for (const o of why.overrides) {
      lines.push({
        text: `  Override #${o.id}${o.session === undefined ? '' : ` (session ${o.session})`}: ${o.matched ? 'MATCH' : 'NO MATCH'}`,
        mark: o.matched ? 'match' : 'nomatch',
      });
      for (const c of o.conditions) {
        lines.push({
          text: `    ${c.matched ? OK : FAIL}  ${c.name} ${c.expectation} (actual: ${c.actual ?? '(absent)'})`,
          mark: c.matched ? 'ok' : 'fail',
        });
      }
    }
  }
  for (const rs of why.rule_sets) {
    const idx = rs.rule_set_index;
    lines.push({ text: '' }, { text: `Rule set #${idx + 1} (${rs.rule_set_file}):`, mark: 'head' });
    if (rs.rules.length === 0) {
      // the why names no prefix: it comes from the workspace answer when that lists it, else it is left out
      const prefix = prefixes.get(idx);
      lines.push({
        text: `  (prefix ${prefix === undefined ? '' : `${prefix} `}does not claim this path; its rules were not consulted)`,
      });
      continue;
    }
    for (const rule of rs.rules) {
      lines.push({
        text: `  Rule #${rule.rule_index + 1}: ${rule.matched ? 'MATCH' : 'NO MATCH'}`,
        mark: rule.matched ? 'match' : 'nomatch',
      });
      for (const c of rule.conditions) {
        lines.push({
          text: `    ${c.matched ? OK : FAIL}  ${c.name} ${c.expectation} (actual: ${c.actual ?? '(absent)'})`,
          mark: c.matched ? 'ok' : 'fail',
        });
      }
    }
  }
  const template = field(why, 'template');
  if (template !== undefined && template !== null) {
    lines.push({ text: '' }, { text: 'Template:', mark: 'head' });
    const sources = field(template, 'sources');
    for (const s of Array.isArray(sources) ? sources : [])
      lines.push({ text: `  ${str(field(s, 'part')) ?? ''}: ${str(field(s, 'source')) ?? ''}` });
    const values = field(template, 'values');
    if (Array.isArray(values) && values.length > 0) lines.push({ text: 'Values used:', mark: 'head' });
    for (const v of Array.isArray(values) ? values : [])
      lines.push({ text: `  ${str(field(v, 'path')) ?? ''} = ${JSON.stringify(field(v, 'value') ?? null)}` });
  }
  return lines;
}

// --- headers and bodies ------------------------------------------------------------------------------------

function headersTable(h: readonly WireHeader[]): HTMLElement {
  if (h.length === 0) return el('p', 'muted', '(no headers)');
  const t = el('table', 'kv');
  for (const { name, value } of h) {
    const tr = el('tr');
    tr.append(el('th', '', name), el('td', value === '[redacted]' ? 'redacted' : '', value));
    t.append(tr);
  }
  return t;
}

/** A body as text, and a note (`json, 42 bytes`); the value's own strings keep `[redacted]` as it is. */
function bodyText(b: WireBody): { text: string; note: string } {
  switch (b.kind) {
    case 'none':
      return { text: '', note: 'no body' };
    case 'json':
      return { text: JSON.stringify(b.value, null, 2), note: `json, ${b.byte_length} bytes` };
    case 'text':
      return { text: b.text, note: `text, ${b.byte_length} bytes${b.truncated ? ', truncated' : ''}` };
    case 'bytes':
      return { text: '', note: `${b.content_type ?? 'binary'}, ${b.byte_length} bytes (not shown)` };
  }
}

function bodyBlock(b: WireBody): HTMLElement[] {
  const { text, note } = bodyText(b);
  const out: HTMLElement[] = [el('p', 'muted small', note)];
  if (text !== '') {
    const pre = el('pre', 'code');
    // each line its own text node, so [redacted] values can be marked without parsing anything as HTML
    for (const part of text.split(/(\[redacted\])/))
      pre.append(part === '[redacted]' ? el('span', 'redacted', part) : document.createTextNode(part));
    out.push(pre);
  }
  return out;
}

/** An open stream's body so far, then each event as it is sent (those heard before the detail loaded first). */
function streamBlock(entry: WireEntry, events: number): HTMLElement[] {
  const b = entry.response.body;
  const pre = el('pre', 'code stream', bodyText(b).text);
  const sent = b.kind === 'none' ? 0 : b.byte_length;
  // an event at an offset below what the body holds is in it already
  pre.dataset['upto'] = String(sent);
  pre.dataset['events'] = String(events);
  const note = el('p', 'muted small stream-count', `streaming: ${events} events so far`);
  const out = [note, pre];
  queueMicrotask(() => {
    for (const e of live.get(entry.id) ?? []) appendLive(e);
  });
  return out;
}

// --- the detail pane ---------------------------------------------------------------------------------------

function closeDetail(): void {
  selected = undefined;
  const d = $('detail');
  d.hidden = true;
  clear(d);
  document.querySelector('tr.selected')?.classList.remove('selected');
  document.body.classList.remove('with-detail');
}

async function openDetail(id: number): Promise<void> {
  selected = id;
  document.querySelector('tr.selected')?.classList.remove('selected');
  rows.get(id)?.tr.classList.add('selected');
  const d = $('detail');
  d.hidden = false;
  document.body.classList.add('with-detail');
  clear(d);
  d.append(el('p', 'muted', 'Loading…'));
  const a = await call<WireEntry>('GET', `${API}/requests/${id}`);
  if (selected !== id) return;
  clear(d);
  if (!a.ok) {
    d.append(
      detailHead(`#${id}`),
      el('p', 'error', a.status === 404 ? `Request #${id} is no longer in the journal.` : a.message),
    );
    return;
  }
  const entry = a.result;
  const row = rowFromEntry(entry);
  d.append(detailHead(`${row.method} ${entry.request.target}`));
  const facts = el('p', 'facts');
  facts.append(
    el('span', `status ${statusClass(row.status)}`, String(row.status)),
    el('span', '', row.answered),
    el('span', 'muted', row.streaming ? 'streaming\u2026' : `${row.latency.toFixed(1)} ms`),
    el('span', 'muted', `generation ${row.generation}`),
    el('span', 'muted', entry.received_at),
  );
  d.append(facts);
  if (entry.state_before !== undefined) d.append(stateSection(entry.state_before, entry.state_after ?? {}));
  const whySec = section('Why');
  const pre = el('pre', 'why');
  for (const l of whyLines(entry.why)) pre.append(el('div', l.mark ?? '', l.text === '' ? '\u00a0' : l.text));
  whySec.append(pre);
  const reqSec = section('Request');
  reqSec.append(headersTable(entry.request.headers), ...bodyBlock(entry.request.body));
  const resSec = section('Response');
  resSec.append(headersTable(entry.response.headers));
  if (entry.stream?.open === true) resSec.append(...streamBlock(entry, entry.stream.events));
  else resSec.append(...bodyBlock(entry.response.body));
  const make = el('button', 'primary', 'Make rule…');
  make.type = 'button';
  make.addEventListener('click', () => {
    make.remove();
    d.append(ruleForm(entry));
  });
  d.append(whySec, reqSec, resSec, make);
}

/** The scenarios an answer read or moved: each one's state before the answer and after it was sent. */
function stateSection(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): HTMLElement {
  const sec = section('State');
  const table = el('table', 'headers');
  for (const name of Object.keys(after)) {
    const tr = el('tr');
    const from = before[name] ?? 'started';
    const to = after[name]!;
    tr.append(el('th', '', name), el('td', '', from === to ? `${from} (unchanged)` : `${from} \u2192 ${to}`));
    table.append(tr);
  }
  sec.append(table);
  return sec;
}

// --- scenarios and collections ------------------------------------------------------------------------------

/** The running server's scenarios and collection sizes (`GET /__mock/api/state`), shown under the files. */
async function loadState(): Promise<void> {
  const a = await call('GET', `${API}/state`);
  const list = $('state');
  clear(list);
  if (!a.ok) {
    list.append(el('li', 'muted', a.message));
    return;
  }
  const scenarios = field(a.result, 'scenarios');
  const collections = field(a.result, 'collections');
  const names = isObj(scenarios) ? Object.keys(scenarios) : [];
  const paths = isObj(collections) ? Object.keys(collections) : [];
  for (const name of names) {
    const li = el('li', 'scenario');
    li.append(el('span', 'name', name), el('span', 'value', str(field(scenarios, name)) ?? ''));
    list.append(li);
  }
  for (const path of paths) {
    const n = num(field(collections, path)) ?? 0;
    const li = el('li', 'collection');
    li.append(el('span', 'name', path), el('span', 'value muted', `${n} item${n === 1 ? '' : 's'}`));
    list.append(li);
  }
  if (names.length === 0 && paths.length === 0) list.append(el('li', 'muted', '(no scenarios)'));
}

function detailHead(title: string): HTMLElement {
  const h = el('div', 'pane-head');
  const x = el('button', 'small', '×');
  x.type = 'button';
  x.title = 'Close (Esc)';
  x.addEventListener('click', closeDetail);
  h.append(el('h2', 'title', title), x);
  return h;
}

function section(title: string): HTMLElement {
  const s = el('section', 'part');
  s.append(el('h3', '', title));
  return s;
}

// --- make rule (POST /__mock/api/rules) --------------------------------------------------------------------

function input(label: string, name: string, value: string, attrs: Record<string, string> = {}): HTMLLabelElement {
  const l = el('label', '', label);
  const i = el('input');
  i.name = name;
  i.value = value;
  for (const [k, v] of Object.entries(attrs)) i.setAttribute(k, v);
  l.append(i);
  return l;
}

function ruleForm(entry: WireEntry): HTMLElement {
  const req = entry.request;
  const res = entry.response;
  const method = req.method.toUpperCase();
  const body = res.body;
  const bodyKind = body.kind;
  const form = el('form', 'rule-form');
  form.append(el('h3', '', 'Make rule'));
  form.append(
    input('Rule set', 'rule_set', entry.matched?.rule_set_file ?? '', { placeholder: './mock-rule-set.toml' }),
    input('Path', 'path', req.path),
  );
  const m = el('label', '', 'Method');
  const sel = el('select');
  sel.name = 'method';
  for (const x of ['', 'GET', 'POST', 'PUT', 'DELETE']) {
    const o = el('option', '', x === '' ? '(any)' : x);
    o.value = x;
    o.selected = x === method;
    sel.append(o);
  }
  m.append(sel);
  const kindLabel = el('label', '', 'Body');
  const kind = el('select');
  kind.name = 'kind';
  for (const x of ['json', 'text', 'none']) {
    const o = el('option', '', x);
    o.value = x;
    o.selected = x === (bodyKind === 'json' ? 'json' : bodyKind === 'text' ? 'text' : 'none');
    kind.append(o);
  }
  kindLabel.append(kind);
  form.append(
    m,
    input('Status', 'status', String(res.status), { inputmode: 'numeric' }),
    kindLabel,
    input('Delay (ms)', 'delay', '', { inputmode: 'numeric' }),
  );
  const ta = el('textarea');
  ta.name = 'body';
  ta.rows = 6;
  ta.spellcheck = false;
  ta.value = bodyKind === 'json' || bodyKind === 'text' ? bodyText(body).text : '';
  form.append(ta);
  const out = el('div', 'result');
  const actions = el('div', 'actions');
  const preview = el('button', '', 'Preview');
  preview.type = 'button';
  const save = el('button', 'primary', 'Add rule');
  save.type = 'submit';
  actions.append(preview, save);
  form.append(actions, out);
  const send = async (dryRun: boolean): Promise<void> => {
    const f = new FormData(form);
    const get = (k: string): string => String(f.get(k) ?? '').trim();
    const payload: Record<string, unknown> = { path: get('path') };
    if (get('rule_set') !== '') payload['rule_set'] = get('rule_set');
    if (get('method') !== '') payload['method'] = get('method');
    if (get('status') !== '') payload['status'] = /^\d+$/.test(get('status')) ? Number(get('status')) : get('status');
    if (get('delay') !== '') payload['delay'] = /^\d+$/.test(get('delay')) ? Number(get('delay')) : get('delay');
    const k = get('kind');
    if (k === 'json' || k === 'text') payload[k] = String(f.get('body') ?? '');
    if (dryRun) payload['dry_run'] = true;
    clear(out);
    out.append(el('p', 'muted', dryRun ? 'Checking…' : 'Saving…'));
    const a = await call('POST', `${API}/rules`, payload);
    clear(out);
    if (!a.ok) {
      out.append(el('p', 'error', a.message));
      for (const dg of a.diagnostics) out.append(el('p', 'error small', diagnosticText(dg)));
      return;
    }
    const changes = field(a.result, 'changes');
    out.append(
      el(
        'p',
        'ok',
        dryRun
          ? `Would change ${str(field(a.result, 'rule_set')) ?? ''}:`
          : `Saved to ${(field(a.result, 'changed_files') as string[] | undefined)?.join(', ') ?? ''}.`,
      ),
    );
    for (const c of Array.isArray(changes) ? changes : [])
      out.append(el('p', 'small', `• ${str(field(c, 'summary')) ?? ''}`));
  };
  preview.addEventListener('click', () => void send(true));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void send(false);
  });
  return form;
}

function diagnosticText(d: unknown): string {
  const file = str(field(d, 'file'));
  const line = num(field(d, 'line'));
  const col = num(field(d, 'column'));
  const where =
    file === undefined ? '' : `${file}${line === undefined ? '' : `:${line}${col === undefined ? '' : `:${col}`}`}: `;
  return `${where}${str(field(d, 'message')) ?? ''}`;
}

// --- reload banner -----------------------------------------------------------------------------------------

function showReload(r: unknown): void {
  const banner = $('banner');
  if (field(r, 'ok') !== false) {
    banner.hidden = true;
    return;
  }
  const gen = num(field(r, 'generation'));
  $('banner-title').textContent =
    `Reload failed${gen === undefined ? '' : ` \u2014 generation ${gen} keeps serving`}. Fix the file and save:`;
  const list = $('banner-list');
  clear(list);
  const diags = field(r, 'diagnostics');
  for (const dg of Array.isArray(diags) ? diags : []) list.append(el('li', '', diagnosticText(dg)));
  banner.hidden = false;
}

// --- file tree ---------------------------------------------------------------------------------------------

let treeDir = '';

async function loadTree(dir: string): Promise<void> {
  treeDir = dir;
  const tree = $('tree');
  const a = await call('GET', `${API}/files?dir=${encodeURIComponent(dir)}`);
  if (dir !== treeDir) return;
  clear(tree);
  const crumbs = $('crumbs');
  clear(crumbs);
  const parts = dir === '' ? [] : dir.split('/');
  const crumb = (label: string, to: string): void => {
    const b = el('button', 'link', label);
    b.type = 'button';
    b.addEventListener('click', () => void loadTree(to));
    crumbs.append(b);
  };
  crumb('root', '');
  parts.forEach((p, i) => {
    crumbs.append(el('span', 'muted', '/'));
    crumb(p, parts.slice(0, i + 1).join('/'));
  });
  if (!a.ok) {
    tree.append(el('li', 'muted', a.status === 404 && dir === '' ? 'No file listing here.' : a.message));
    return;
  }
  const base = str(field(a.result, 'mock_url'));
  const entries = field(a.result, 'entries');
  for (const e of Array.isArray(entries) ? entries : []) {
    const name = str(field(e, 'name')) ?? '';
    const kind = str(field(e, 'kind')) ?? 'file';
    const li = el('li', `k-${kind}`);
    if (kind === 'dir') {
      const b = el('button', 'link', `${name}/`);
      b.type = 'button';
      b.addEventListener('click', () => void loadTree(dir === '' ? name : `${dir}/${name}`));
      li.append(b);
    } else {
      const url = str(field(e, 'url')) ?? '';
      if (base !== undefined && /^https?:\/\//.test(base) && url.startsWith('/')) {
        const link = el('a', '', name);
        link.href = base + url;
        link.target = '_blank';
        link.rel = 'noopener noreferrer';
        li.append(link);
      } else li.append(el('span', '', name));
      const size = num(field(e, 'size'));
      if (size !== undefined && kind === 'file')
        li.append(el('span', 'size muted', size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} KB`));
    }
    tree.append(li);
  }
  if (field(a.result, 'truncated') === true) tree.append(el('li', 'muted', '… more entries not shown'));
  if (!Array.isArray(entries) || entries.length === 0) tree.append(el('li', 'muted', '(empty)'));
}

// --- active overrides (`m.use`, POST /__mock/api/overrides) ------------------------------------------------

let overridesTimer: ReturnType<typeof setTimeout> | undefined;
/** at most one refresh a second: a once override goes with the request it answers */
function overridesSoon(): void {
  overridesTimer ??= setTimeout(() => {
    overridesTimer = undefined;
    void showOverrides();
  }, 1000);
}

async function showOverrides(): Promise<void> {
  const a = await call('GET', `${API}/overrides`);
  const box = $('overrides');
  clear(box);
  const list = a.ok ? field(a.result, 'overrides') : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.append(el('strong', '', `Active overrides (${list.length}):`));
  const ul = el('ul');
  for (const o of list) {
    const session = str(field(o, 'session'));
    const text = `#${num(field(o, 'id')) ?? '?'}${session === undefined ? '' : ` [session ${session}]`}${field(o, 'once') === true ? ' (once)' : ''} ${JSON.stringify(field(o, 'rule'))}`;
    ul.append(titled(el('li', '', text)));
  }
  box.append(ul);
}

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
      void loadTree(treeDir);
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
    paused = !paused;
    $('pause').setAttribute('aria-pressed', String(paused));
    if (!paused) {
      addRows(held);
      held = [];
    }
    updateCount();
  });
  $('clear').addEventListener('click', () => {
    void call('DELETE', `${API}/requests`).then(() => clearTable());
  });
  $('tree-refresh').addEventListener('click', () => void loadTree(treeDir));
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
