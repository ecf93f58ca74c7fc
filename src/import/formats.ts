// The formats `mock --init --from` reads, as `--from-format` names them. Data only, so the flag check loads
// nothing else.
export const IMPORT_FORMATS = ['openapi', 'swagger', 'har', 'wiremock', 'postman', 'mockoon'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export function isImportFormat(s: string): s is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(s);
}
