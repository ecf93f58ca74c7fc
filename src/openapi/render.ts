// The imported rule set as TOML text: a header comment, `prefix.url_path`, `strategy = "first_match"`, then one
// commented `[[rules]]` table per rule, keys as dotted keys so each rule reads top to bottom.
import type { Method } from '../model/operators.js';
import { sha256Hex } from '../shared/sha256.js';
import type { UrlPathCondition } from './paths.js';

export type RuleBody =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'none' };

/** Where a request parameter is read. */
export type Place = 'header' | 'query' | 'cookie';

/** A condition on one request parameter, in a form independent of how a rule set writes it. */
export interface ParamCondition {
  readonly in: Place;
  /** lower case for a header */
  readonly name: string;
  readonly op: 'equal' | 'exists' | 'absent';
  readonly value?: string;
}

/**
 * The places a rule set can hold a condition on: a header, the query and a cookie. The plan checks each condition
 * against this set and leaves an operation (or its 401 rule) out with a note where a place is missing, so a place
 * a future document needs (a form field, say) is added here and in `paramLine`.
 */
export const WRITABLE_PLACES: ReadonlySet<Place> = new Set<Place>(['header', 'query', 'cookie']);

function paramLine(c: ParamCondition): string {
  const value = c.op === 'equal' ? tomlString(c.value ?? '') : '""';
  switch (c.in) {
    case 'header':
      return `when.request.headers.${tomlKey(c.name)} = { value = ${value}, op = "${c.op}" }`;
    case 'query':
      return `when.request.query.${tomlKey(c.name)} = { value = ${value}, op = "${c.op}" }`;
    case 'cookie':
      return `when.request.cookies.${tomlKey(c.name)} = { value = ${value}, op = "${c.op}" }`;
  }
}

export interface RuleSpec {
  /** comment lines, without the leading `# ` */
  readonly comment: readonly string[];
  readonly method: Method;
  readonly urlPath: UrlPathCondition;
  /** a regex the `prefer` request header must match */
  readonly prefer?: string;
  /** lower-case request headers that must be absent */
  readonly absent: readonly string[];
  /** further conditions on request parameters (places in WRITABLE_PLACES only) */
  readonly params?: readonly ParamCondition[];
  readonly status: number;
  readonly body: RuleBody;
  readonly headers: readonly (readonly [string, string])[];
  /** the marker `--init --from --update` finds the rule by: its operation and response (marker.ts) */
  readonly mark?: { readonly operation: string; readonly response: string };
  /** `respond.callbacks` (the operation's OpenAPI callbacks) */
  readonly callbacks?: readonly CallbackText[];
}

/** One `respond.callbacks` entry as an import writes it (docs/callbacks.md); every import shares this writer. */
export interface CallbackText {
  readonly url: string;
  /** upper case */
  readonly method: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: { readonly kind: 'text' | 'json'; readonly text: string };
  readonly delay?:
    | number
    | { readonly min: number; readonly max: number }
    | { readonly median: number; readonly sigma: number };
  readonly template: boolean;
}

/** `respond.callbacks = [ … ]`, one inline table per line. */
export function callbacksLine(callbacks: readonly CallbackText[]): string {
  const table = (c: CallbackText): string => {
    const parts = [`url = ${tomlString(c.url)}`];
    if (c.method !== 'POST') parts.push(`method = ${tomlString(c.method)}`);
    if (c.headers.length > 0)
      parts.push(
        `headers = { ${c.headers.map(([k, v]) => `${tomlKey(k.toLowerCase())} = ${tomlString(v)}`).join(', ')} }`,
      );
    if (c.body !== undefined) parts.push(`${c.body.kind === 'json' ? 'json' : 'body'} = ${tomlLiteral(c.body.text)}`);
    const d = c.delay;
    if (d !== undefined && d !== 0)
      parts.push(
        `delay_ms = ${typeof d === 'number' ? d : 'min' in d ? `{ min = ${d.min}, max = ${d.max} }` : `{ median = ${d.median}, sigma = ${d.sigma} }`}`,
      );
    if (c.template) parts.push('template = true');
    return `  { ${parts.join(', ')} },`;
  };
  return ['respond.callbacks = [', ...callbacks.map(table), ']'].join('\n');
}

export interface RuleSetText {
  readonly header: readonly string[];
  readonly basePath?: string;
  readonly rules: readonly RuleSpec[];
}

/** A TOML basic string (control characters escaped). */
export function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** A TOML literal string when the text allows one (no `'`, no control characters: regexes stay readable). */
export function tomlLiteral(s: string): string {
  return /^[^'\x00-\x08\x0a-\x1f\x7f]*$/.test(s) ? `'${s}'` : tomlString(s);
}

/** A key, bare when TOML allows it. */
export function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

function comment(line: string): string {
  return line === '' ? '#' : `# ${line.replace(/[\r\n]+/g, ' ')}`;
}

function unmarkedText(r: RuleSpec): string {
  const lines = r.comment.map(comment);
  lines.push('[[rules]]');
  lines.push(`when.request.method = ${tomlString(r.method)}`);
  lines.push(
    r.urlPath.op === 'equal'
      ? `when.request.url_path = ${tomlString(r.urlPath.value)}`
      : `when.request.url_path = { value = ${tomlLiteral(r.urlPath.value)}, op = "${r.urlPath.op}" }`,
  );
  for (const c of r.params ?? []) lines.push(paramLine(c));
  for (const h of r.absent) lines.push(`when.request.headers.${tomlKey(h)} = { value = "", op = "absent" }`);
  if (r.prefer !== undefined)
    lines.push(`when.request.headers.prefer = { value = ${tomlLiteral(r.prefer)}, op = "regex" }`);
  if (r.status !== 200 || r.body.kind === 'none') lines.push(`respond.status = ${r.status}`);
  if (r.body.kind === 'file') lines.push(`respond.file_path = ${tomlString(r.body.path)}`);
  else if (r.body.kind === 'text') lines.push(`respond.text = ${tomlString(r.body.text)}`);
  if (r.headers.length > 0) {
    lines.push(`respond.headers = { ${r.headers.map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`).join(', ')} }`);
  }
  if (r.callbacks !== undefined && r.callbacks.length > 0) lines.push(callbacksLine(r.callbacks));
  return lines.join('\n') + '\n';
}

/** each rule's text, made once (the rule set's text and the plan's marked rules both need it) */
const ruleTexts = new WeakMap<RuleSpec, string>();

/** A rule's text as generated, its marker line just above `[[rules]]` (the marker's hash is of the rest). */
export function ruleText(r: RuleSpec): string {
  let made = ruleTexts.get(r);
  if (made !== undefined) return made;
  const text = unmarkedText(r);
  if (r.mark === undefined) made = text;
  else {
    const at = text.lastIndexOf('[[rules]]\n');
    made = `${text.slice(0, at)}${markerLine(r.mark.operation, r.mark.response, ruleHash(text))}\n${text.slice(at)}`;
  }
  ruleTexts.set(r, made);
  return made;
}

/** The marker comment: `# openapi: showPetById 404 gone sha256:<the first 16 hex digits>`. */
export function markerLine(operation: string, response: string, hash: string): string {
  return comment(`openapi: ${operation} ${response} sha256:${hash}`);
}

/** `# openapi: <operation> <response: a status, then words> sha256:<hex>` */
export const MARKER = /^#\s*openapi:\s+(.+?)\s+([1-5]\d\d(?:\s.*?)?)\s+sha256:([0-9a-f]{16,64})\s*$/;

/** Lines with trailing spaces removed, trailing blank lines dropped: how a rule's text is compared and hashed. */
export function normalizedText(text: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.trimEnd());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.join('\n') + '\n';
}

/** The hash in a rule's marker: of its text without the marker line, normalized. */
export function ruleHash(unmarked: string): string {
  return sha256Hex(normalizedText(unmarked)).slice(0, 16);
}

export function renderRuleSet(rs: RuleSetText): string {
  let out = rs.header.map(comment).join('\n') + '\n\n';
  out += 'strategy = "first_match"\n';
  if (rs.basePath !== undefined) out += `prefix.url_path = ${tomlString(rs.basePath)}\n`;
  for (const r of rs.rules) out += '\n' + ruleText(r);
  return out;
}
