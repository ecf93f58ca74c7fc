// The active overrides panel (`m.use`, POST /__mock/api/overrides), refreshed soon after requests arrive.

import { $, API, call, clear, el, field, num, str, titled } from './dom.js';

// --- active overrides (`m.use`, POST /__mock/api/overrides) ------------------------------------------------

export let overridesTimer: ReturnType<typeof setTimeout> | undefined;
/** at most one refresh a second: a once override goes with the request it answers */
export function overridesSoon(): void {
  overridesTimer ??= setTimeout(() => {
    overridesTimer = undefined;
    void showOverrides();
  }, 1000);
}

export async function showOverrides(): Promise<void> {
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
