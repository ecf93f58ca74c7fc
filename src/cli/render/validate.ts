// `mock validate` output (docs/reference/cli.md, docs/output.md).
import type { Diagnostic } from '../../model/diagnostic.js';
import { diagnosticToWire, type Wire } from '../../model/envelope.js';

export interface ValidateSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly ruleSets: number;
  readonly rules: number;
}

export function passedLine(s: ValidateSummary): string {
  return `Validation passed (${s.rules} rules across ${s.ruleSets} rule set(s)).\n`;
}

export function validateResult(diagnostics: readonly Diagnostic[], s: ValidateSummary): Wire {
  return {
    diagnostics: diagnostics.map(diagnosticToWire),
    summary: { errors: s.errors, warnings: s.warnings, rule_sets: s.ruleSets, rules: s.rules },
  };
}
