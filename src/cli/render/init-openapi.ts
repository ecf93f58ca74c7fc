// What `mock --init --from` prints: text (the summary line, then every operation left out and every example that
// contradicts its schema, each with its JSON pointer, and the number of other notes; the files) or the JSON
// envelope's result (one entry per operation: written or skipped, with its rules, files and notes). With
// --verbose, and a document of at most LIST_OPERATIONS operations, one line per operation instead.
import type { ImportPlan, OperationReport } from '../../openapi/plan.js';
import type { Wire } from '../../model/envelope.js';

/** above this many operations even --verbose stops listing them one per line */
export const LIST_OPERATIONS = 40;

export interface ImportView {
  readonly dryRun: boolean;
  /** --verbose: one line per operation */
  readonly verbose?: boolean;
  /** the document as given */
  readonly source: string;
  readonly plan: ImportPlan;
  readonly configShown: string;
  /** the config is new (else service.rule_sets gets the new rule set) */
  readonly configCreated: boolean;
  /** the Swagger version the document was converted from */
  readonly swagger?: string;
}

function createdFiles(v: ImportView): string[] {
  const out = [...v.plan.ruleSets.map((r) => r.path), ...v.plan.files.map((f) => f.path)];
  return v.configCreated ? [v.configShown.replace(/^\.\//, ''), ...out] : out;
}

export function importResult(v: ImportView): Wire {
  const p = v.plan;
  return {
    dry_run: v.dryRun,
    document: {
      file: v.source,
      title: p.title,
      version: p.version,
      openapi: p.openapi,
      ...(v.swagger === undefined ? {} : { swagger: v.swagger }),
    },
    rule_set: p.ruleSets[0]?.path ?? null,
    rule_sets: p.ruleSets.map((r) => r.path),
    prefix: p.basePath ?? null,
    created_files: createdFiles(v),
    changed_files: v.configCreated ? [] : [v.configShown.replace(/^\.\//, '')],
    operations: p.operations.map(operationWire),
  };
}

function operationWire(o: OperationReport): Wire {
  return {
    operation: o.operation,
    method: o.method,
    path: o.path,
    pointer: o.pointer,
    outcome: o.outcome,
    rules: o.rules,
    files: [...o.files],
    notes: [...o.notes],
  };
}

export function importText(v: ImportView): string {
  const p = v.plan;
  const written = p.operations.filter((o) => o.outcome === 'written');
  const skipped = p.operations.length - written.length;
  const rules = written.reduce((n, o) => n + o.rules, 0);
  const lines: string[] = [];
  lines.push(
    `${v.dryRun ? 'Would import' : 'Imported'} ${p.title}${p.version === '' ? '' : ` ${p.version}`} (${v.swagger === undefined ? '' : `Swagger ${v.swagger}, converted to `}OpenAPI ${p.openapi}) from ${v.source}: ` +
      `${written.length} operation${written.length === 1 ? '' : 's'} answered, ${skipped} skipped; ${rules} rules, ${p.files.length} response files` +
      `${p.ruleSets.length > 1 ? `, ${p.ruleSets.length} rule sets` : ''}.`,
  );
  lines.push('');
  if (v.verbose === true && p.operations.length <= LIST_OPERATIONS) {
    const width = Math.min(40, Math.max(0, ...p.operations.map((o) => o.operation.length)));
    for (const o of p.operations) {
      const where = `${o.method} ${o.path}`;
      if (o.outcome === 'written')
        lines.push(`  written  ${o.operation.padEnd(width)}  ${where} (${o.rules} rule${o.rules === 1 ? '' : 's'})`);
      else lines.push(`  skipped  ${o.operation.padEnd(width)}  ${o.pointer}: ${o.notes[0] ?? ''}`);
      const notes = o.outcome === 'written' ? o.notes : o.notes.slice(1);
      for (const n of notes) lines.push(`           - ${n}`);
    }
  } else {
    // one screen: what a user must act on, one line each; the rest counted (every note is in --format json)
    let others = 0;
    for (const o of p.operations) {
      if (o.outcome === 'skipped') lines.push(`  skipped  ${o.pointer}: ${o.notes[0] ?? ''}`);
      else if (o.contradictions.length > 0)
        lines.push(`  example  ${o.contradictions.join(', ')}: contradicts its schema (served as given)`);
      others += o.outcome === 'written' ? o.notes.length - o.contradictions.length : o.notes.length - 1;
    }
    if (others > 0)
      lines.push(
        `  ${others} further note${others === 1 ? '' : 's'} on parts left out (media types, headers, security): see \`--verbose\` or \`--format json\``,
      );
    // nothing left out and nothing to act on: no empty block under the summary line
    if (lines[lines.length - 1] === '') lines.pop();
  }
  lines.push('');
  lines.push(v.dryRun ? 'Would write (--dry-run, nothing written):' : 'Written:');
  const listed = p.ruleSets.length === 1 ? p.ruleSets[0]!.path : `${p.ruleSets.length} rule sets`;
  if (v.configCreated) lines.push(`  - ${v.configShown} (new)`);
  else lines.push(`  - ${v.configShown} (service.rule_sets lists ${listed})`);
  if (p.ruleSets.length <= 3) for (const r of p.ruleSets) lines.push(`  - ./${r.path} (new)`);
  else
    lines.push(
      `  - ${p.ruleSets.length} rule sets under ./${p.ruleSets[0]!.path.split('/')[0]}/ (new), in service.rule_sets order`,
    );
  if (p.files.length > 0)
    lines.push(`  - ${p.files.length} response file${p.files.length === 1 ? '' : 's'} under ./responses/ (new)`);
  lines.push('');
  if (!v.dryRun) {
    lines.push('Start the server with `mock`; each operation answers its first 2xx response.');
    lines.push('Send `Prefer: code=<status>` (or `Prefer: example=<name>`) for the other documented responses.');
  }
  return lines.join('\n') + '\n';
}
