// Every sentence the loader says, in one table. A message never contains the file or position
// (formatDiagnostic adds them); placeholders are filled by these small functions.

const q = (s: string | bigint | number): string => '`' + String(s) + '`';
const list = (values: readonly string[]): string => values.map(q).join(', ');

/**
 * A key path inside a rule reads as every other message names rules: `rule #2` (1-based), as `get`,
 * `match-test` and `--why` print them, never `rules[1]` (docs/files-and-rules.md, "Rule numbers").
 * `rules[1].respond.status` → { rule: "rule #2: ", rest: "respond.status" }.
 */
function inRule(path: string): { readonly rule: string; readonly rest: string } {
  const m = /^rules\[(\d+)\](?:\.(.*))?$/.exec(path);
  return m === null ? { rule: '', rest: path } : { rule: `rule #${Number(m[1]) + 1}: `, rest: m[2] ?? '' };
}
/** `<path> must be …`: "rule #2: `respond.status` must be", "rule #1 must be" for a whole rule. */
const subject = (path: string): string => {
  const { rule, rest } = inRule(path);
  if (rule === '') return q(path);
  return rest === '' ? rule.slice(0, -2) : `${rule}${q(rest)}`;
};
/** `<sentence> in <path>`, with a rule's number in front. */
const located = (sentence: string, path: string): string => {
  const { rule, rest } = inRule(path);
  if (rule !== '') return `${rule}${sentence}${rest === '' ? '' : ` in ${q(rest)}`}`;
  return `${sentence} ${path === '' ? 'at the top level' : `in ${q(path)}`}`;
};
export const MESSAGES = {
  // response templates
  templateSyntax: (rule: number, reason: string) => `rule ${rule}: the template does not compile: ${reason}`,
  templateUnknownRoot: (path: string) =>
    `the template names ${q(path)}, which is not in the request data (request.method, request.path, request.params, request.query, request.headers, request.cookies, request.body, request.form, request.text)`,
  templateFileWithoutPath: (rule: number) => `rule ${rule}: \`respond.template_file\` needs \`respond.file_path\``,

  // TOML and decoding
  tomlSyntax: (reason: string) => `invalid TOML: ${reason}`,
  wrongType: (path: string, expected: string, found: string) => `${subject(path)} must be ${expected}, found ${found}`,
  outOfRange: (path: string, min: bigint, max: bigint, found: bigint) =>
    `${subject(path)} must be an integer from ${min} to ${max}, found ${found}`,
  notOneOf: (path: string, found: string, values: readonly string[]) =>
    `${subject(path)} has an unknown value ${q(found)}; expected one of ${list(values)}`,
  missingKey: (key: string, path: string) => located(`missing required key ${q(key)}`, path),
  unknownKey: (key: string, path: string) => located(`unknown key ${q(key)}`, path),

  // files
  configMissing: (entry: string) => `config file ${q(entry)} does not exist`,
  configUnreadable: (entry: string, reason: string) => `config file ${q(entry)} cannot be read: ${reason}`,
  ruleSetMissing: (entry: string) => `rule-set file ${q(entry)} does not exist`,
  ruleSetUnreadable: (entry: string, reason: string) => `rule-set file ${q(entry)} cannot be read: ${reason}`,
  lazyDecodeFailed: (entry: string, reason: string) =>
    `rule-set file ${q(entry)}, found valid when the server started, no longer decodes: ${reason}`,
  scriptMissing: (entry: string) => `middleware script ${q(entry)} does not exist`,
  scriptUnreadable: (entry: string, reason: string) => `middleware script ${q(entry)} cannot be read: ${reason}`,
  scriptSyntax: (reason: string) => `middleware script does not compile: ${reason}`,
  dataFileMissing: (entry: string) => `collection data file ${q(entry)} does not exist`,
  deniedCollection: (path: string, pattern: string) =>
    `the data file of the collection at ${path} is one service.deny never serves (${pattern === 'the TLS files this config names' ? pattern : `the pattern ${pattern}`}), and its routes would serve its data: move the data, or narrow service.deny`,
  dataFileUnreadable: (entry: string, reason: string) => `collection data file ${q(entry)} cannot be read: ${reason}`,
  dataFileInvalidJson: (reason: string) => `collection data is not valid JSON: ${reason}`,
  dataFileShape: (what: string) => `collection data: ${what}`,
  dbKeySlash: (key: string) =>
    `the key ${q(key)} holds a '/': a db file's top-level keys are route names (to serve under a path, use --routes, as with json-server)`,
  dbModulePersist: () => '--persist needs a JSON db file: a JavaScript one cannot be written back',
  persistWithoutDb: () => '--persist needs a db file: give --db <file> or set service.db',
  duplicateCollection: (path: string, other: string) =>
    `the collection at ${q(path)} is declared twice (also in ${other})`,
  fallbackDirMissing: (entry: string) => `fallback directory ${q(entry)} does not exist`,
  fallbackDirNotDir: (entry: string) => `fallback directory ${q(entry)} is not a directory`,
  dirFlagMissing: (entry: string) => `fallback directory given with -d (${q(entry)}) does not exist`,
  tlsCertMissing: (entry: string) => `TLS certificate file ${q(entry)} does not exist`,
  tlsKeyMissing: (entry: string) => `TLS private key file ${q(entry)} does not exist`,
  tlsNotFile: (entry: string) => `TLS file ${q(entry)} is not a file`,

  // root config values
  invalidIp: (found: string) =>
    `\`listener.ip_address\` must be an IP address such as 127.0.0.1 or ::1, found ${q(found)}`,

  // strategy
  strategyNeedsTable: (name: string) =>
    `strategy ${q(name)} needs the table form, e.g. ${name} = { tiebreaker = "first_match" }`,
  strategyUnknown: (found: string, values: readonly string[]) =>
    `unknown strategy ${q(found)}; expected one of ${list(values)}`,
  strategyOneKey: () => 'a strategy table must name exactly one strategy, e.g. { weighted_random = { seed = 7 } }',

  // rule sets
  whenEmpty: (rule: number) => `rule #${rule} has an empty \`when.request\`; give at least one condition`,
  bodyPathNotJsonPath: (path: string) =>
    `body path ${q(path)} looks like JSONPath; body paths are plain dotted paths (write \`a.b\`, not \`$.a.b\`), so \`$\` is a literal key`,
  bodyPathNested: (path: string, inner: string) =>
    `body condition ${q(path)} holds a nested table ${q(inner)}; quote a dotted path in TOML, e.g. "${path}.${inner}" = { value = "…" }`,
  invalidRegex: (pattern: string, reason: string) => `invalid regex ${q(pattern)}: ${reason}`,
  notADate: (value: string) =>
    `${q(value)} is not a date: write an ISO 8601 date-time or date, or \`now\`, with an optional offset such as \`+3 days\``,
  notStringList: (op: string) => `\`${op}\` needs a JSON array of strings as its value, such as '["1", "2"]'`,
  notJsonDocument: (op: string, reason: string) => `\`${op}\` needs a JSON document as its value: ${reason}`,
  invalidHeaderName: (name: string) => `${q(name)} is not a valid HTTP header name`,
  invalidScenarioName: (name: string) =>
    `${q(name)} is not a valid scenario name (letters, digits, \`_\`, \`.\` and \`-\`)`,
  invalidHeaderValue: (name: string) =>
    `the value of header ${q(name)} contains characters not allowed in HTTP (such as CR or LF)`,

  // respond
  streamExtension: (rule: number, entry: string) =>
    `rule #${rule}: \`respond.stream.file_path\` "${entry}" must end in \`.sse\` (Server-Sent Events) or \`.ndjson\` (one JSON value per line)`,
  respondNoBody: (rule: number) =>
    `rule #${rule}: \`respond\` needs one of \`file_path\`, \`text\`, \`json\` or \`status\``,
  respondExclusive: (rule: number, keys: readonly string[]) =>
    `rule #${rule}: ${list(keys)} are mutually exclusive; exactly one of \`file_path\`, \`text\`, \`json\` may be set`,
  respondJsonInvalid: (rule: number, reason: string) => `rule #${rule}: \`respond.json\` is not valid JSON: ${reason}`,
  respondJsonOutOfRange: (rule: number, literal: string) =>
    `rule #${rule}: \`respond.json\` holds the integer ${literal}, which is out of range (beyond 64 bits)`,
  respondJsonNotFinite: (rule: number) =>
    `rule #${rule}: \`respond.json\` holds Infinity or NaN, which JSON cannot carry`,
  respondFileMissing: (rule: number, entry: string) => `rule #${rule}: respond file ${q(entry)} does not exist`,
  respondFileUnreadable: (rule: number, entry: string, reason: string) =>
    `rule #${rule}: respond file ${q(entry)} cannot be read: ${reason}`,
  respondDirNoIndex: (rule: number, entry: string) =>
    `rule #${rule}: respond file ${q(entry)} is a directory without index.json, index.json5, index.csv or index.html`,
  respondFileOutside: (rule: number, entry: string, base: string) =>
    `rule #${rule}: respond file ${q(entry)} is outside the respond directory ${q(base)}`,
  streamDelayInvalid: (rule: number, entry: string, line: number, text: string) =>
    `rule #${rule}: stream file ${q(entry)} line ${line}: ${q(text)} is not a delay (expected \`: delay <milliseconds>\`, a whole number)`,
  respondFileInvalidJson: (rule: number, entry: string, reason: string) =>
    `rule #${rule}: respond file ${q(entry)} is not valid JSON: ${reason}`,
  invalidJsonOnReload: (message: string) => `${message} (served as written until fixed; the next start will refuse it)`,
  respondDirMissing: (entry: string) => `\`prefix.respond_dir\` ${q(entry)} does not exist or is not a directory`,

  // summaries (LoadFailure.message)
  loadFailed: (errors: number) => `the configuration has ${errors} error${errors === 1 ? '' : 's'}`,
} as const;
