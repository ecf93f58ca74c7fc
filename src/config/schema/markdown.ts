// A shape → a Markdown reference: one row per key (its dotted path, type with bounds, default, doc, example),
// grouped by table. Pure; walks the same tree the loader decodes with, so a key cannot be missing here.
import type { Shape, ShapeMeta } from '../decode.js';

/** One key of the reference. `path` is dotted; `<name>` stands for a key a table is keyed by; `[]` an array item. */
export interface KeyRow {
  readonly path: string;
  readonly shape: ShapeMeta;
  readonly required: boolean;
}

/** Every key under a shape, depth first, in declaration order. */
export function keyRows(root: ShapeMeta, prefix = ''): KeyRow[] {
  const out: KeyRow[] = [];
  const join = (p: string, k: string): string => (p === '' ? k : `${p}.${k}`);
  const walk = (s: ShapeMeta, at: string): void => {
    const n = s.node;
    switch (n.kind) {
      case 'record':
        for (const [k, f] of Object.entries(n.fields)) {
          const path = join(at, k);
          out.push({ path, shape: f, required: n.required.includes(k) });
          walk(f, path);
        }
        break;
      case 'map': {
        const path = join(at, `<${n.keyName}>`);
        out.push({ path, shape: n.value, required: false });
        walk(n.value, path);
        break;
      }
      case 'array':
        walk(n.item, `${at}[]`);
        break;
      case 'union':
        for (const o of n.options) walk(o, at);
        break;
      case 'leaf':
        break;
    }
  };
  walk(root, prefix);
  return out;
}

const code = (s: string): string => '`' + s + '`';
const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function typeText(s: ShapeMeta): string {
  if (s.values !== undefined)
    return s.values.length <= 6
      ? `one of ${s.values.map((v) => code(v)).join(', ')}`
      : `string (${s.values.length} values, below)`;
  if (s.node.kind === 'union') return [...new Set(s.node.options.map(typeText))].join(', or ');
  return s.type;
}

function exampleText(row: KeyRow): string {
  const s = row.shape;
  const last = row.path.slice(row.path.lastIndexOf('.') + 1).replace(/\[\]$/, '');
  const value = s.example ?? (s.default === undefined ? undefined : JSON.stringify(s.default));
  if (value === undefined || last.startsWith('<')) return '';
  return code(`${/^[A-Za-z0-9_-]+$/.test(last) ? last : JSON.stringify(last)} = ${value}`);
}

export interface MarkdownOptions {
  readonly title: string;
  /** Markdown paragraphs under the title */
  readonly intro: string;
}

/** The reference page of a file's shape: a table of every key, and the vocabularies too long for a cell. */
export function toMarkdown(shape: Shape<unknown> | ShapeMeta, opts: MarkdownOptions): string {
  const rows = keyRows(shape);
  let out = `# ${opts.title}\n\n${opts.intro.trim()}\n\n`;
  out += '| Key | Type | Default | Description | Example |\n|---|---|---|---|---|\n';
  const lists: KeyRow[] = [];
  for (const row of rows) {
    const s = row.shape;
    const def = s.default === undefined ? (row.required ? 'required' : '') : code(JSON.stringify(s.default));
    out += `| ${code(row.path)} | ${cell(typeText(s))} | ${cell(def)} | ${cell(s.long === undefined ? s.doc : `${s.doc} ${s.long}`)} | ${cell(exampleText(row))} |\n`;
    if (s.values !== undefined && s.values.length > 6) lists.push(row);
  }
  for (const row of lists)
    out += `\n## ${code(row.path)} values\n\n${row.shape.values!.map((v) => `- ${code(v)}`).join('\n')}\n`;
  return out;
}
