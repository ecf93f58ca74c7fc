// What `mock --init --from` prints for a source that is not OpenAPI (WireMock mappings, a HAR file): the summary
// line, each part of the source left out with its place and reason, then the files; or the JSON envelope's result.
import { excerpt, FORMAT_NAMES, leftOutLine, type SourceImport, type SourcePlan } from '../../import/plan.js';
import type { Wire } from '../../model/envelope.js';

export interface SourceView {
  readonly dryRun: boolean;
  readonly source: string;
  readonly imp: SourceImport;
  readonly plan: SourcePlan;
  readonly configShown: string;
  readonly configCreated: boolean;
}

function createdFiles(v: SourceView): string[] {
  const out = [...v.plan.ruleSets.map((r) => r.path), ...v.plan.files.map((f) => f.path)];
  return v.configCreated ? [v.configShown.replace(/^\.\//, ''), ...out] : out;
}

export function sourceResult(v: SourceView): Wire {
  return {
    dry_run: v.dryRun,
    source: { file: v.source, format: v.imp.format, title: v.imp.title },
    read: v.imp.read.count,
    rules: v.plan.rules,
    rule_set: v.plan.ruleSets[0]?.path ?? null,
    rule_sets: v.plan.ruleSets.map((r) => r.path),
    created_files: createdFiles(v),
    changed_files: v.configCreated ? [] : [v.configShown.replace(/^\.\//, '')],
    // an excerpt of each, as the text output quotes them: a place is the source's own text (a 1 MiB request name)
    left_out: v.imp.leftOut.map((l) => ({
      place: excerpt(l.place),
      part: excerpt(l.what),
      reason: excerpt(l.reason, 300),
    })),
  };
}

export function sourceText(v: SourceView): string {
  const { imp, plan } = v;
  const lines: string[] = [];
  // response files go under responses/; a collection's data file sits beside the rule set
  const responses = plan.files.filter((f) => f.path.startsWith('responses/'));
  const data = plan.files.filter((f) => !f.path.startsWith('responses/'));
  lines.push(
    `${v.dryRun ? 'Would import' : 'Imported'} ${imp.read.count} ${imp.read.noun} (${FORMAT_NAMES[imp.format]}) from ${v.source}: ` +
      `${plan.rules} rule${plan.rules === 1 ? '' : 's'}, ${responses.length} response file${responses.length === 1 ? '' : 's'}` +
      `${data.length === 0 ? '' : `, ${data.length} collection${data.length === 1 ? '' : 's'}`}` +
      `${imp.leftOut.length === 0 ? '' : `; ${imp.leftOut.length} part${imp.leftOut.length === 1 ? '' : 's'} left out`}.`,
  );
  if (imp.leftOut.length > 0) {
    lines.push('');
    lines.push('Left out (the rule set cannot express these):');
    for (const l of imp.leftOut) lines.push(`  ${leftOutLine(l)}`);
  }
  lines.push('');
  lines.push(v.dryRun ? 'Would write (--dry-run, nothing written):' : 'Written:');
  if (v.configCreated) lines.push(`  - ${v.configShown} (new)`);
  else lines.push(`  - ${v.configShown} (service.rule_sets lists ${plan.ruleSets.map((r) => r.path).join(', ')})`);
  for (const r of plan.ruleSets) lines.push(`  - ./${r.path} (new)`);
  if (responses.length > 0)
    lines.push(`  - ${responses.length} response file${responses.length === 1 ? '' : 's'} under ./responses/ (new)`);
  for (const f of data) lines.push(`  - ./${f.path} (new, a collection's data)`);
  lines.push('');
  if (!v.dryRun) lines.push('Start the server with `mock`.');
  return lines.join('\n') + '\n';
}
