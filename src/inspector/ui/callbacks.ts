// The callbacks an exchange's answer made (docs/callbacks.md), under its detail: each one's state, where it went,
// its attempts (status or error, timing) and the scenarios its result moved, from `GET /__mock/api/callbacks`.

import { API, call, el, field, num, str } from './dom.js';
import { section } from './state.js';

/** The Callbacks section of request `id`, or undefined when its answer made none. */
export async function callbacksSection(id: number): Promise<HTMLElement | undefined> {
  const a = await call('GET', `${API}/callbacks?request=${id}`);
  if (!a.ok) return undefined;
  const list = field(a.result, 'callbacks');
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const sec = section('Callbacks');
  const table = el('table', 'kv callbacks');
  for (const c of list) {
    const request = field(c, 'request');
    const state = str(field(c, 'state')) ?? '';
    const attempts = field(c, 'attempts');
    const tried = (Array.isArray(attempts) ? attempts : []).map((t) => {
      const status = num(field(t, 'status'));
      const ms = num(field(t, 'ms')) ?? 0;
      return `${status === undefined ? (str(field(t, 'error')) ?? 'error') : String(status)} (${ms.toFixed(0)} ms)`;
    });
    const error = str(field(c, 'error'));
    const moved = field(c, 'moved');
    const facts = [
      `${str(field(request, 'method')) ?? ''} ${str(field(request, 'url')) ?? ''}`,
      `delay ${num(field(c, 'delay_ms')) ?? 0} ms`,
      tried.length === 0 ? 'not sent' : `attempts: ${tried.join(', ')}`,
      ...(error === undefined ? [] : [error]),
      ...(moved === undefined ? [] : [`moved ${JSON.stringify(moved)}`]),
    ];
    const tr = el('tr');
    tr.append(el('th', `callback ${state}`, state), el('td', '', facts.join(' \u00b7 ')));
    table.append(tr);
  }
  sec.append(table);
  return sec;
}
