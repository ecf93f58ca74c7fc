// `set rule` output: the text report (with a unified diff of each file under --dry-run) and the
// envelope's `result` (docs/output.md: changed_files, changes [{kind, summary, target}], dry_run,
// requires_reload, rule_set — the same fields with or without --dry-run). Pure data → text.
import type { Change, FileWrite } from './plan-types.js';
import type { Wire } from '../../model/envelope.js';

export interface SetRuleView {
  readonly dryRun: boolean;
  /** the rule set as shown to the user (cwd-relative, as `get` prints matched.rule_set_file) */
  readonly ruleSet: string;
  readonly ruleIndex: number;
  readonly added: boolean;
  readonly changes: readonly Change[];
  /** the planned writes (shown as a diff under --dry-run) */
  readonly files: readonly FileWrite[];
  /** the files actually written (empty under --dry-run) */
  readonly changedFiles: readonly string[];
  /** said after the changes: where a new rule set sits among the others, a rule that can never answer */
  readonly notes?: readonly string[];
}

export const APPLIED_HEADER = 'Applied:';
export const DRY_RUN_HEADER = 'Would apply (--dry-run, nothing written):';
const EM_DASH = '\u2014';

export function setRuleResult(v: SetRuleView): Wire {
  return {
    changed_files: [...v.changedFiles],
    changes: v.changes.map((c) => ({ kind: c.kind, summary: c.summary, target: c.target })),
    dry_run: v.dryRun,
    requires_reload: !v.dryRun && v.changedFiles.length > 0,
    rule_set: v.ruleSet,
  };
}

export function setRuleText(v: SetRuleView): string {
  const lines = [v.dryRun ? DRY_RUN_HEADER : APPLIED_HEADER];
  lines.push(`  rule set: ${v.ruleSet}${v.added ? ' (new rule)' : `, rule #${v.ruleIndex + 1}`}`);
  for (const c of v.changes) lines.push(`  ${c.kind}: ${c.target} ${EM_DASH} ${c.summary}`);
  if (v.changes.length === 0) lines.push(`  Unchanged: rule #${v.ruleIndex + 1} already says that; nothing to write`);
  for (const n of v.notes ?? []) lines.push(`  note: ${n}`);
  let out = lines.join('\n') + '\n';
  if (v.dryRun) for (const f of v.files) out += '\n' + unifiedDiff(f);
  return out;
}

// --- a small unified diff (LCS over the lines between the common head and tail) ----------------------

type Op = { readonly tag: ' ' | '-' | '+'; readonly line: string; readonly a: number; readonly b: number };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** The whole edit script: ' ' kept, '-' removed, '+' added; a and b are 0-based line numbers. */
export function diffLines(before: string, after: string): Op[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const am = a.slice(head, a.length - tail);
  const bm = b.slice(head, b.length - tail);
  const ops: Op[] = [];
  for (let i = 0; i < head; i++) ops.push({ tag: ' ', line: a[i]!, a: i, b: i });
  ops.push(...middle(am, bm, head));
  for (let i = tail; i > 0; i--) ops.push({ tag: ' ', line: a[a.length - i]!, a: a.length - i, b: b.length - i });
  return ops;
}

function middle(a: readonly string[], b: readonly string[], at: number): Op[] {
  const ops: Op[] = [];
  if (a.length * b.length > 4_000_000) {
    a.forEach((line, i) => ops.push({ tag: '-', line, a: at + i, b: at }));
    b.forEach((line, j) => ops.push({ tag: '+', line, a: at + a.length, b: at + j }));
    return ops;
  }
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ tag: ' ', line: a[i]!, a: at + i++, b: at + j++ });
    else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!))
      ops.push({ tag: '+', line: b[j]!, a: at + i, b: at + j++ });
    else ops.push({ tag: '-', line: a[i]!, a: at + i++, b: at + j });
  }
  return ops;
}

const CONTEXT = 3;

/** `--- old` / `+++ new` and one `@@` hunk per group of changes, with three lines of context. */
export function unifiedDiff(f: FileWrite): string {
  const ops = diffLines(f.before ?? '', f.after);
  let out = `--- ${f.before === undefined ? '/dev/null' : f.shown}\n+++ ${f.shown}\n`;
  const changed = ops.map((o, i) => (o.tag === ' ' ? -1 : i)).filter((i) => i >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k]! - CONTEXT);
    let end = changed[k]! + CONTEXT;
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= end + 1) end = changed[++k]! + CONTEXT;
    k++;
    const hunk = ops.slice(start, Math.min(ops.length, end + 1));
    const aLines = hunk.filter((o) => o.tag !== '+').length;
    const bLines = hunk.filter((o) => o.tag !== '-').length;
    const first = hunk[0]!;
    const aStart = aLines === 0 ? first.a : first.a + 1;
    const bStart = bLines === 0 ? first.b : first.b + 1;
    out += `@@ -${aStart},${aLines} +${bStart},${bLines} @@\n`;
    for (const o of hunk) out += o.tag + o.line + '\n';
  }
  return out;
}
