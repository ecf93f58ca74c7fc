// The detail pane of one exchange: request and response, headers and bodies, a stream's events, and its why
// as `mock get --why` prints it.

import type { WhyWire, WireBody, WireEntry, WireHeader } from '../../journal/wire-types.js';
import { callbacksSection } from './callbacks.js';
import { $, API, FAIL, OK, call, clear, el, field, str } from './dom.js';
import { ruleForm } from './rule-form.js';
import { detailHead, section } from './state.js';
import { appendLive, live, rowFromEntry, rows, statusClass, view } from './table.js';

// --- the why, as `mock get --why` prints it ----------------------------------------------------------------

export interface WhyLine {
  text: string;
  mark?: 'ok' | 'fail' | 'match' | 'nomatch' | 'head';
}

/** Rule-set prefixes by index, from `/__mock/api/workspace` when it lists them (`rule_sets: [{prefix}]`). */
export const prefixes = new Map<number, string>();

/** The lines of `mock get --why` after `-- Why --`, from the `why` object of `mock get --format json`. */
export function whyLines(why: WhyWire): WhyLine[] {
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

export function headersTable(h: readonly WireHeader[]): HTMLElement {
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
export function bodyText(b: WireBody): { text: string; note: string } {
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

export function bodyBlock(b: WireBody): HTMLElement[] {
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
export function streamBlock(entry: WireEntry, events: number): HTMLElement[] {
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

export function closeDetail(): void {
  view.selected = undefined;
  const d = $('detail');
  d.hidden = true;
  clear(d);
  document.querySelector('tr.selected')?.classList.remove('selected');
  document.body.classList.remove('with-detail');
}

export async function openDetail(id: number): Promise<void> {
  view.selected = id;
  document.querySelector('tr.selected')?.classList.remove('selected');
  rows.get(id)?.tr.classList.add('selected');
  const d = $('detail');
  d.hidden = false;
  document.body.classList.add('with-detail');
  clear(d);
  d.append(el('p', 'muted', 'Loading…'));
  const a = await call<WireEntry>('GET', `${API}/requests/${id}`);
  if (view.selected !== id) return;
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
  // the callbacks its answer made, when it made some
  void callbacksSection(id).then((sec) => {
    if (sec !== undefined && view.selected === id) d.insertBefore(sec, make);
  });
}

/** The scenarios an answer read or moved: each one's state before the answer and after it was sent. */
export function stateSection(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): HTMLElement {
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
