// The workspace's file tree (GET /__mock/api/files), one folder at a time.

import { $, API, call, clear, el, field, num, str } from './dom.js';

// --- file tree ---------------------------------------------------------------------------------------------

/** the folder the tree shows */
export const treeView = { dir: '' };

export async function loadTree(dir: string): Promise<void> {
  treeView.dir = dir;
  const tree = $('tree');
  const a = await call('GET', `${API}/files?dir=${encodeURIComponent(dir)}`);
  if (dir !== treeView.dir) return;
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
