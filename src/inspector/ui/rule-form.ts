// "Make rule" from an exchange (POST /__mock/api/rules, which runs `set rule`), and the reload banner.

import type { WireEntry } from '../../journal/wire-types.js';
import { bodyText } from './detail.js';
import { $, API, call, clear, el, field, num, str } from './dom.js';

// --- make rule (POST /__mock/api/rules) --------------------------------------------------------------------

export function input(
  label: string,
  name: string,
  value: string,
  attrs: Record<string, string> = {},
): HTMLLabelElement {
  const l = el('label', '', label);
  const i = el('input');
  i.name = name;
  i.value = value;
  for (const [k, v] of Object.entries(attrs)) i.setAttribute(k, v);
  l.append(i);
  return l;
}

export function ruleForm(entry: WireEntry): HTMLElement {
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
    // the form has text fields only: a value is a string, or null for a field that is not there
    const raw = (k: string): string => {
      const v = f.get(k);
      return typeof v === 'string' ? v : '';
    };
    const get = (k: string): string => raw(k).trim();
    const payload: Record<string, unknown> = { path: get('path') };
    if (get('rule_set') !== '') payload['rule_set'] = get('rule_set');
    if (get('method') !== '') payload['method'] = get('method');
    if (get('status') !== '') payload['status'] = /^\d+$/.test(get('status')) ? Number(get('status')) : get('status');
    if (get('delay') !== '') payload['delay'] = /^\d+$/.test(get('delay')) ? Number(get('delay')) : get('delay');
    const k = get('kind');
    if (k === 'json' || k === 'text') payload[k] = raw('body');
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

export function diagnosticText(d: unknown): string {
  const file = str(field(d, 'file'));
  const line = num(field(d, 'line'));
  const col = num(field(d, 'column'));
  const where =
    file === undefined ? '' : `${file}${line === undefined ? '' : `:${line}${col === undefined ? '' : `:${col}`}`}: `;
  return `${where}${str(field(d, 'message')) ?? ''}`;
}

// --- reload banner -----------------------------------------------------------------------------------------

export function showReload(r: unknown): void {
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
