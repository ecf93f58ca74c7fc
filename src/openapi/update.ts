// `mock --init --from <document> --update`, planned purely: the new import plan (made as the first import was)
// against the workspace's rule sets and response files, through the `# openapi:` markers on the rules
// (render.ts) and the file index (file-index.ts). A rule or file is untouched when its text still hashes to its
// marker (or index entry); untouched ones follow the document, edited ones are never changed or removed.
//
// - a planned rule whose marker is found: untouched and different → replaced in place; edited and the document's
//   version differs from the one it was made from → reported (`edited_changed`, both versions), left alone;
// - a planned rule not found → added, just before the next planned rule found in the same rule set (else after
//   the previous one, else at the end of the last marked rule set), so match order follows the document's;
// - a marked rule not planned any more → removed when untouched, kept when edited; an operation gone from the
//   document is reported (`removed_operation`);
// - response files: an untouched one whose planned bytes differ is replaced, a missing one created, one no rule
//   names any more removed when untouched; an edited one is kept (and reported when the document changed it).
// Comments and formatting outside the replaced rules are kept byte for byte. Left out: reading, writing.
import { sha256Hex } from '../shared/sha256.js';
import type { IndexedFile, IndexedFiles } from './file-index.js';
import type { ImportPlan, PlannedRule } from './plan.js';
import { MARKER, normalizedText, ruleHash } from './render.js';

/** The findings model's shape (contract/findings.ts), so `--update` reports the way `validate` does. */
export interface UpdateFinding {
  readonly kind: 'removed_operation' | 'edited_changed';
  readonly severity: 'error' | 'warning';
  readonly where: string;
  readonly pointer: string;
  readonly message: string;
}

export interface ExistingRuleSet {
  /** config-relative, as service.rule_sets lists it */
  readonly path: string;
  readonly text: string;
}

export interface UpdateInput {
  readonly plan: ImportPlan;
  readonly ruleSets: readonly ExistingRuleSet[];
  readonly index: IndexedFiles;
  /** the SHA-256 of a workspace file as it is now; undefined when it is missing */
  readonly hashOf: (path: string) => string | undefined;
}

export interface UpdatePlan {
  /** changed rule sets only */
  readonly ruleSets: readonly { readonly path: string; readonly before: string; readonly after: string }[];
  /** response files to write: created (missing) or replaced (untouched and different) */
  readonly files: readonly { readonly path: string; readonly text: string | Uint8Array; readonly replace: boolean }[];
  /** untouched response files no rule names any more */
  readonly removedFiles: readonly string[];
  readonly index: IndexedFiles;
  /** `showPetById 404` labels */
  readonly updated: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly findings: readonly UpdateFinding[];
  /** rules with markers found in the workspace */
  readonly marked: number;
}

interface Block {
  /** the marker's operation and response, when it has one */
  readonly key?: string;
  readonly operation?: string;
  readonly response?: string;
  readonly hash?: string;
  /** its lines (comment block through the table, trailing blank lines not included) */
  lines: string[];
  /** blank lines after it */
  tail: string[];
  /** 1-based line of `[[rules]]` in the file as read */
  readonly line: number;
  readonly edited: boolean;
  removed?: boolean;
  before?: string[][];
  after?: string[][];
}

interface ParsedRuleSet {
  readonly path: string;
  readonly text: string;
  readonly head: string[];
  readonly blocks: Block[];
  readonly newline: string;
}

const keyOf = (operation: string, response: string): string => `${operation}\u0000${response}`;

/** A rule set's lines cut into its header and one block per `[[rules]]` with the comment lines just above. */
export function parseRuleSet(path: string, text: string): ParsedRuleSet {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const starts: number[] = [];
  const tables: number[] = [];
  for (const [i, l] of lines.entries()) {
    if (l.trim() !== '[[rules]]') continue;
    let s = i;
    while (s > 0 && lines[s - 1]!.trimStart().startsWith('#') && (starts.length === 0 || s - 1 > tables.at(-1)!)) s--;
    starts.push(s);
    tables.push(i);
  }
  const blocks: Block[] = [];
  for (const [n, s] of starts.entries()) {
    const end = n + 1 < starts.length ? starts[n + 1]! : lines.length;
    let last = end;
    while (last > tables[n]! + 1 && lines[last - 1]!.trim() === '') last--;
    const own = lines.slice(s, last);
    const markerAt = own.findIndex((l, i) => s + i < tables[n]! && MARKER.test(l.trim()));
    const common = { lines: own, tail: lines.slice(last, end), line: tables[n]! + 1 };
    if (markerAt < 0) {
      blocks.push({ ...common, edited: true });
      continue;
    }
    const m = MARKER.exec(own[markerAt]!.trim())!;
    const unmarked = own.filter((_, i) => i !== markerAt).join('\n');
    const hash = m[3]!;
    blocks.push({
      ...common,
      key: keyOf(m[1]!, m[2]!),
      operation: m[1]!,
      response: m[2]!,
      hash,
      edited: ruleHash(unmarked) !== hash.slice(0, 16),
    });
  }
  return { path, text, head: lines.slice(0, starts[0] ?? lines.length), blocks, newline };
}

function render(p: ParsedRuleSet): string {
  const out: string[] = [...p.head];
  for (const b of p.blocks) {
    for (const x of b.before ?? []) out.push(...x, '');
    if (!b.removed) out.push(...b.lines);
    for (const x of b.after ?? []) out.push('', ...x);
    if (!b.removed || b.tail.length > 0) out.push(...(b.removed ? [] : b.tail));
  }
  while (out.length > 0 && out.at(-1) === '') out.pop();
  return out.join(p.newline) + p.newline;
}

function textLines(text: string): string[] {
  return normalizedText(text).replace(/\n$/, '').split('\n');
}

const labelOf = (r: { readonly operation?: string; readonly response?: string }): string =>
  `${r.operation} ${r.response}`;

export function planUpdate(input: UpdateInput): UpdatePlan {
  const parsed = input.ruleSets.map((rs) => parseRuleSet(rs.path, rs.text));
  const found = new Map<string, Found>();
  for (const rs of parsed)
    for (const block of rs.blocks)
      if (block.key !== undefined && !found.has(block.key)) found.set(block.key, { rs, block });
  const pointers = new Map(input.plan.operations.map((o) => [o.operation.replace(/\s+/g, ' '), o.pointer]));
  const u: UpdateState = {
    planned: input.plan.rules,
    found,
    findings: [],
    updated: [],
    added: [],
    removed: [],
    responsePointer: (r) => {
      const op = pointers.get(r.operation) ?? '#/paths';
      const status = /^\d+/.exec(r.response)?.[0];
      return status === undefined ? op : `${op}/responses/${status}`;
    },
  };
  placePlannedRules(u, parsed);
  dropUnplannedRules(u, parsed, pointers);
  const ruleSets = parsed
    .map((rs) => ({ path: rs.path, before: rs.text, after: render(rs) }))
    .filter((x) => x.after !== x.before);
  const { files, wanted, index } = fileEdits(u, input);
  const finalTexts = parsed.map((rs) => ruleSets.find((x) => x.path === rs.path)?.after ?? rs.text);
  const removedFiles = dropUnwantedFiles(input, wanted, index, finalTexts);
  return {
    ruleSets,
    files,
    removedFiles,
    index,
    updated: u.updated,
    added: u.added,
    removed: u.removed,
    findings: u.findings,
    marked: found.size,
  };
}

interface Found {
  readonly rs: ParsedRuleSet;
  readonly block: Block;
}

/** One update's planned rules, the marked blocks found by their key, and what it reports as it goes. */
interface UpdateState {
  readonly planned: readonly PlannedRule[];
  readonly found: ReadonlyMap<string, Found>;
  readonly findings: UpdateFinding[];
  readonly updated: string[];
  readonly added: string[];
  readonly removed: string[];
  /** the JSON pointer of a planned rule's response in the document */
  readonly responsePointer: (r: PlannedRule) => string;
}

/** The planned rules: replaced (not edited), reported (edited, and the document changed) or added. */
function placePlannedRules(u: UpdateState, parsed: readonly ParsedRuleSet[]): void {
  const { planned, found, findings, updated, added, responsePointer } = u;
  const lastMarked = [...parsed].reverse().find((rs) => rs.blocks.some((b) => b.key !== undefined));
  for (const [i, r] of planned.entries()) {
    const here = found.get(keyOf(r.operation, r.response));
    if (here !== undefined) {
      const { rs, block } = here;
      if (block.hash === r.hash) continue;
      if (!block.edited) {
        block.lines = textLines(r.text);
        updated.push(labelOf(r));
        continue;
      }
      findings.push({
        kind: 'edited_changed',
        severity: 'warning',
        where: `${rs.path}:${block.line}`,
        pointer: responsePointer(r),
        message:
          `${labelOf(r)}: you edited this rule and the document changed what it answers; yours is kept. ` +
          `Yours:\n${block.lines.join('\n')}\nThe document's:\n${normalizedText(r.text)}` +
          `(delete yours to take the document's on the next --update, or set its marker to sha256:${r.hash} to keep yours quietly)`,
      });
      continue;
    }
    // added: beside its planned neighbours, in match order
    const lines = textLines(r.text);
    const sameSet = (j: number): boolean => planned[j]!.ruleSet === r.ruleSet;
    let anchored = false;
    for (let j = i + 1; j < planned.length && sameSet(j) && !anchored; j++) {
      const next = found.get(keyOf(planned[j]!.operation, planned[j]!.response));
      if (next === undefined) continue;
      (next.block.before ??= []).push(lines);
      anchored = true;
    }
    for (let j = i - 1; j >= 0 && sameSet(j) && !anchored; j--) {
      const prev = found.get(keyOf(planned[j]!.operation, planned[j]!.response));
      if (prev === undefined) continue;
      // after the previous one, and after anything already added after it (keeps the planned order)
      (prev.block.after ??= []).push(lines);
      anchored = true;
    }
    if (!anchored && lastMarked !== undefined) {
      const last = lastMarked.blocks.at(-1)!;
      (last.after ??= []).push(lines);
      anchored = true;
    }
    if (anchored) added.push(labelOf(r));
  }
}

/** Marked rules the document no longer plans: removed unless edited, each gone operation reported once. */
function dropUnplannedRules(
  u: UpdateState,
  parsed: readonly ParsedRuleSet[],
  pointers: ReadonlyMap<string, string>,
): void {
  const { planned, findings, removed } = u;
  const plannedKeys = new Set(planned.map((r) => keyOf(r.operation, r.response)));
  const plannedOps = new Set(planned.map((r) => r.operation));
  const reportedOps = new Set<string>();
  for (const rs of parsed) {
    for (const block of rs.blocks) {
      if (block.key === undefined || plannedKeys.has(block.key)) continue;
      const gone = !plannedOps.has(block.operation!);
      if (!block.edited) {
        block.removed = true;
        removed.push(labelOf(block));
      }
      if (gone && !reportedOps.has(block.operation!)) {
        reportedOps.add(block.operation!);
        const kept = rs.blocks.filter((b) => b.operation === block.operation && b.edited).length;
        findings.push({
          kind: 'removed_operation',
          severity: 'warning',
          where: `${rs.path}:${block.line}`,
          pointer: '#/paths',
          message:
            `${block.operation} is no longer in the document` +
            (kept > 0 ? `; ${kept} rule(s) you edited are kept (remove them by hand)` : '; its rules are removed'),
        });
      } else if (!gone && block.edited) {
        findings.push({
          kind: 'edited_changed',
          severity: 'warning',
          where: `${rs.path}:${block.line}`,
          pointer: pointers.get(block.operation!) ?? '#/paths',
          message: `${labelOf(block)}: you edited this rule and the document no longer has this response; yours is kept`,
        });
      }
    }
  }
}

/** The response files to write (new, or replacing one not edited since) and the update index as it will be. */
function fileEdits(
  u: UpdateState,
  input: UpdateInput,
): {
  files: { path: string; text: string | Uint8Array; replace: boolean }[];
  wanted: Set<string>;
  index: Map<string, IndexedFile>;
} {
  const { planned, found, findings, responsePointer } = u;
  const texts = new Map(input.plan.files.map((f) => [f.path, f.text]));
  const index = new Map<string, IndexedFile>(input.index);
  const files: { path: string; text: string | Uint8Array; replace: boolean }[] = [];
  const wanted = new Set<string>();
  for (const r of planned) {
    if (r.file === undefined || wanted.has(r.file)) continue;
    const text = texts.get(r.file);
    if (text === undefined) continue;
    wanted.add(r.file);
    // a rule kept as the user edited it names its files itself
    const here = found.get(keyOf(r.operation, r.response));
    if (here !== undefined && here.block.edited && here.block.hash !== r.hash) continue;
    const want = sha256Hex(text);
    const now = input.hashOf(r.file);
    const was = input.index.get(r.file);
    const entry = { operation: r.operation, response: r.response, sha256: want };
    if (now === undefined) {
      files.push({ path: r.file, text, replace: false });
      index.set(r.file, entry);
    } else if (now === want) {
      index.set(r.file, entry);
    } else if (was !== undefined && now === was.sha256) {
      files.push({ path: r.file, text, replace: true });
      index.set(r.file, entry);
    } else if (was !== undefined && was.sha256 !== want) {
      findings.push({
        kind: 'edited_changed',
        severity: 'warning',
        where: r.file,
        pointer: responsePointer(r),
        message: `${labelOf(r)}: you edited this file and the document changed it; yours is kept`,
      });
    }
  }
  return { files, wanted, index };
}

/** Indexed files no planned rule wants any more: removed when unedited and no rule names them. */
function dropUnwantedFiles(
  input: UpdateInput,
  wanted: ReadonlySet<string>,
  index: Map<string, IndexedFile>,
  finalTexts: readonly string[],
): string[] {
  const removedFiles: string[] = [];
  for (const [path, entry] of input.index) {
    if (wanted.has(path)) continue;
    // a rule still names it (one the user edited, say): it stays
    if (finalTexts.some((t) => t.includes(`"${path}"`))) continue;
    const now = input.hashOf(path);
    if (now === undefined) index.delete(path);
    else if (now === entry.sha256) {
      removedFiles.push(path);
      index.delete(path);
    }
  }
  return removedFiles;
}
