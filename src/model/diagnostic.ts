// Problems in the input are data. They accumulate; loaders return Result<T, Diagnostic[]>.

export const DIAGNOSTIC_CODES = [
  'toml_syntax',
  'unknown_key',
  'wrong_type',
  'missing_key',
  'invalid_value',
  'file_not_found',
  'file_unreadable',
  'invalid_json_file',
  'invalid_regex',
  'script_syntax',
  'tls_material',
  'body_path',
  'template_syntax',
  'template_data',
] as const;
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

export interface Diagnostic {
  readonly severity: 'error' | 'warning';
  readonly code: DiagnosticCode;
  /** one sentence, no file or position in it */
  readonly message: string;
  /** absolute */
  readonly file?: string;
  /** 1-based */
  readonly line?: number;
  readonly column?: number;
  /** e.g. ['rules', 2, 'when', 'request', 'bdy'] */
  readonly keyPath?: readonly (string | number)[];
  /** for unknown-key errors */
  readonly allowed?: readonly string[];
  /** did-you-mean */
  readonly suggestion?: string;
}

/** `<file>:<line>:<column>: error: <message>; allowed keys: …; did you mean `x`?` */
export function formatDiagnostic(d: Diagnostic, showFile: (abs: string) => string = (f) => f): string {
  let where = '';
  if (d.file !== undefined) {
    where = showFile(d.file);
    if (d.line !== undefined) where += `:${d.line}`;
    if (d.line !== undefined && d.column !== undefined) where += `:${d.column}`;
    where += ': ';
  }
  let text = `${where}${d.severity}: ${d.message}`;
  if (d.allowed !== undefined && d.allowed.length > 0)
    text += `; allowed keys: ${d.allowed.map((k) => '`' + k + '`').join(', ')}`;
  if (d.suggestion !== undefined) text += ` (did you mean \`${d.suggestion}\`?)`;
  return text;
}
