// The scenarios and collections panel (docs/state.md), and the section helpers the detail pane shares.

import { closeDetail } from './detail.js';
import { $, API, call, clear, el, field, isObj, num, str } from './dom.js';

// --- scenarios and collections ------------------------------------------------------------------------------

/** The running server's scenarios and collection sizes (`GET /__mock/api/state`), shown under the files. */
export async function loadState(): Promise<void> {
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

export function detailHead(title: string): HTMLElement {
  const h = el('div', 'pane-head');
  const x = el('button', 'small', '×');
  x.type = 'button';
  x.title = 'Close (Esc)';
  x.addEventListener('click', closeDetail);
  h.append(el('h2', 'title', title), x);
  return h;
}

export function section(title: string): HTMLElement {
  const s = el('section', 'part');
  s.append(el('h3', '', title));
  return s;
}
