// What the contract checks find (`mock validate --against`, `--against-upstream`, `--init --from --update`), one
// model for all of them, and its two renderings: text grouped by kind, and the JSON envelope's `result`.
// A finding names where in the workspace it was found (a rule's `file:line`, a file's path, a recorded exchange)
// and where in the document it points (an RFC 6901 pointer as a URI fragment). See docs/contract.md.
import type { Wire } from '../shared/wire.js';

export type Severity = 'error' | 'warning';

export interface Finding {
  /** one of FINDING_KINDS' keys (a check may add its own; an unknown kind sorts last under its own name) */
  readonly kind: string;
  readonly severity: Severity;
  /** where in the workspace: `rules.toml:12`, `pets/1.json`, `GET /pets/1` */
  readonly where: string;
  /** where in the document: `#/paths/~1pets~1{petId}/get/responses/200` */
  readonly pointer: string;
  readonly message: string;
}

/** The kinds, in the order the text output lists them, with the heading each group is shown under. */
export const FINDING_KINDS: Readonly<Record<string, string>> = {
  // validate --against: the workspace's answers against the document
  undocumented_path: 'answers for an undocumented method and path',
  undocumented_status: 'answers with an undocumented status',
  undocumented_content_type: 'answers with an undocumented content type',
  schema_mismatch: 'answer bodies that break the documented schema',
  unanswered_operation: 'documented operations the workspace does not answer',
  // validate --against-upstream: the recording against the real API
  upstream_status: 'the upstream answers with another status',
  upstream_content_type: 'the upstream answers with another content type',
  upstream_shape: 'the upstream body has another shape',
  upstream_unreachable: 'the upstream could not be asked',
  // --init --from --update: the document against the workspace's earlier import
  removed_operation: 'operations removed from the document',
  edited_changed: 'edited rules whose operation changed in the document',
};

const ORDER = Object.keys(FINDING_KINDS);

function rank(kind: string): number {
  const i = ORDER.indexOf(kind);
  return i < 0 ? ORDER.length : i;
}

/** Findings grouped by kind in FINDING_KINDS' order (unknown kinds last, by name); within a kind, as found. */
export function groupByKind(findings: readonly Finding[]): readonly (readonly [string, readonly Finding[]])[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const g = groups.get(f.kind);
    if (g === undefined) groups.set(f.kind, [f]);
    else g.push(f);
  }
  return [...groups.entries()].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The findings left once `--ignore <kind>` (repeatable) has removed its kinds. */
export function withoutIgnored(findings: readonly Finding[], ignored: readonly string[]): readonly Finding[] {
  if (ignored.length === 0) return findings;
  const drop = new Set(ignored);
  return findings.filter((f) => !drop.has(f.kind));
}

/** The kinds `--ignore` does not know, to refuse them as a usage error (a typo would silently ignore nothing). */
export function unknownKinds(ignored: readonly string[]): readonly string[] {
  return ignored.filter((k) => !(k in FINDING_KINDS));
}

export interface FindingCounts {
  readonly errors: number;
  readonly warnings: number;
}

export function countOf(findings: readonly Finding[]): FindingCounts {
  let errors = 0;
  for (const f of findings) if (f.severity === 'error') errors++;
  return { errors, warnings: findings.length - errors };
}

/** `validate`'s exit code for its findings: 1 when an error remains (or a warning, under `--strict`), else 0. */
export function exitCodeOfFindings(findings: readonly Finding[], strict: boolean): 0 | 1 {
  const c = countOf(findings);
  return c.errors > 0 || (strict && c.warnings > 0) ? 1 : 0;
}

/**
 * The text output: one block per kind, its heading with the count, then one line per finding,
 * `  error: rules.toml:12: GET /pets/{petId} answers 418 (#/paths/~1pets~1{petId}/get/responses)`.
 * '' when there is nothing to show.
 */
export function findingsText(findings: readonly Finding[]): string {
  const out: string[] = [];
  for (const [kind, group] of groupByKind(findings)) {
    out.push(`${FINDING_KINDS[kind] ?? kind} [${kind}] (${group.length}):`);
    for (const f of group) out.push(`  ${f.severity}: ${f.where}: ${f.message} (${f.pointer})`);
    out.push('');
  }
  return out.join('\n');
}

/** The closing line of the text output. */
export function findingsSummaryLine(findings: readonly Finding[], checked: string): string {
  const c = countOf(findings);
  if (findings.length === 0) return `No findings: ${checked}.\n`;
  return `${c.errors} error(s), ${c.warnings} warning(s): ${checked}.\n`;
}

export function findingToWire(f: Finding): Wire {
  return { kind: f.kind, severity: f.severity, where: f.where, pointer: f.pointer, message: f.message };
}

/** The JSON envelope's `result`: `{findings: [...], summary: {errors, warnings, ...extra}}`. */
export function findingsResult(findings: readonly Finding[], extra: Readonly<Record<string, Wire>> = {}): Wire {
  const c = countOf(findings);
  return { findings: findings.map(findingToWire), summary: { errors: c.errors, warnings: c.warnings, ...extra } };
}
