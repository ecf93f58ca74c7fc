// The flags of `mock set rule`, read and checked one by one (the syntax every command shares: shared/args.ts).
// Each value error is an argument-level usage error: plain text, then the one-line usage, exit 2.
import type { BodyKind, FieldArg, SetRuleArgs } from './plan-types.js';
import { HEADER_NAME } from '../conditions.js';
import { MAX_DELAY_MS } from '../respond.js';
import { isMethod, METHODS, type Method } from '../../model/operators.js';
import { JsonSyntaxError, parseJson } from '../../shared/json.js';
import { lineColumnAt } from '../../shared/position.js';
import { err, ok, type Result } from '../../shared/result.js';
import { SET_RULE_FLAGS } from './set-rule-flag-table.js';
import { flagValues, hasFlag, parseFormat, type OutputFormat, type ParsedArgs } from '../../shared/args.js';

export const PREFIX = 'mock set rule';

export { SET_RULE_FLAGS };

/** the flags that may be given more than once (conditions that layer) */
const REPEATED = new Set(['header', 'query', 'cookie', 'param', 'form']);
const FIELD_FLAGS: readonly (readonly [string, FieldArg['on']])[] = [
  ['query', 'query'],
  ['cookie', 'cookies'],
  ['param', 'params'],
  ['form', 'form'],
];

export const FLAGS = SET_RULE_FLAGS;

export interface SetRuleFlags {
  readonly args: Omit<SetRuleArgs, 'body'>;
  readonly body?:
    | { readonly kind: Exclude<BodyKind, 'file_path'>; readonly value: string }
    | { readonly kind: 'file'; readonly path: string };
  readonly config?: string;
  readonly ruleSet?: string;
  readonly dryRun: boolean;
  readonly allowOutside: boolean;
  readonly format: OutputFormat;
  /** a --json / --text value holding `{{` without --template: written literally, with this hint */
  readonly hint?: string;
}

export function readFlags(a: ParsedArgs): Result<SetRuleFlags, string> {
  if (a.positionals.length > 0) return err(`unexpected argument '${a.positionals[0]}'`);
  for (const spec of FLAGS) {
    if (!REPEATED.has(spec.long) && flagValues(a, spec.long).length > 1)
      return err(`--${spec.long} was given more than once`);
  }
  const one = (name: string): string | undefined => flagValues(a, name)[0];
  const format = parseFormat(a, PREFIX);
  if (!format.ok) return err(format.error.slice(PREFIX.length + 2));

  const args: { -readonly [K in keyof SetRuleArgs]: SetRuleArgs[K] } = { headers: [] };
  const rule = one('rule');
  if (rule !== undefined) {
    if (!/^\d{1,9}$/.test(rule)) return err(`--rule must be a 0-based rule index (0, 1, 2, …), got '${rule}'`);
    args.ruleIndex = Number(rule);
  }
  const path = one('path');
  const template = one('path-template');
  if (path !== undefined && template !== undefined) return err('--path and --path-template are mutually exclusive');
  if (path !== undefined) args.urlPath = path;
  if (template !== undefined) {
    args.urlPath = template;
    args.pathTemplate = true;
  }
  const fields: FieldArg[] = [];
  for (const [flag, on] of FIELD_FLAGS) {
    for (const pair of flagValues(a, flag)) {
      const eq = pair.indexOf('=');
      if (eq <= 0) return err(`--${flag} expects name=value, got '${pair}'`);
      fields.push({ on, name: pair.slice(0, eq), value: pair.slice(eq + 1) });
    }
  }
  if (fields.length > 0) args.fields = fields;
  const contains = one('body-contains');
  if (contains !== undefined) args.bodyContains = contains;
  const method = one('method');
  if (method !== undefined) {
    const m = method.toUpperCase();
    if (!isMethod(m)) return err(`unsupported HTTP method \`${method}\` — supported: ${METHODS.join(', ')}`);
    args.method = m satisfies Method;
  }
  const headers = [];
  for (const h of flagValues(a, 'header')) {
    const colon = h.indexOf(':');
    const name = colon < 0 ? '' : h.slice(0, colon).trim();
    if (colon < 0 || name === '') return err(`--header / -H expects "Name: value", got '${h}'`);
    if (!HEADER_NAME.test(name)) return err(`--header / -H: '${name}' is not a valid HTTP header name`);
    headers.push({ name: name.toLowerCase(), value: h.slice(colon + 1).trim() });
  }
  args.headers = headers;
  const status = one('status');
  if (status !== undefined) {
    const n = /^\d{1,3}$/.test(status) ? Number(status) : NaN;
    if (!(n >= 100 && n <= 999)) return err(`--status must be a valid HTTP status code (100-999), got '${status}'`);
    args.status = n;
  }
  const delay = one('delay');
  if (delay !== undefined) {
    const n = /^\d{1,10}$/.test(delay) ? Number(delay) : NaN;
    if (!(n <= MAX_DELAY_MS))
      return err(`--delay must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS}, got '${delay}'`);
    args.delayMs = n;
  }

  const given = (['json', 'text', 'file'] as const).filter((k) => hasFlag(a, k));
  if (given.length > 1) return err(`--${given[0]} and --${given[1]} are mutually exclusive`);
  let body: SetRuleFlags['body'];
  const json = one('json');
  const text = one('text');
  const file = one('file');
  const templated = hasFlag(a, 'template');
  if (templated) args.template = true;
  const hint = !templated && [json, text].some((v) => v?.includes('{{') === true) ? TEMPLATE_HINT : undefined;
  if (json !== undefined && templated) body = { kind: 'json', value: json };
  else if (json !== undefined) {
    const problem = jsonProblem(json);
    if (problem !== undefined) return err(`--json is not valid JSON: ${problem}`);
    body = { kind: 'json', value: json };
  } else if (text !== undefined) body = { kind: 'text', value: text };
  else if (file !== undefined) body = { kind: 'file', path: file };

  const config = one('config');
  const ruleSet = one('rule-set');
  return ok({
    args,
    ...(body === undefined ? {} : { body }),
    ...(config === undefined ? {} : { config }),
    ...(ruleSet === undefined ? {} : { ruleSet }),
    dryRun: hasFlag(a, 'dry-run'),
    allowOutside: hasFlag(a, 'allow-outside'),
    format: format.value,
    ...(hint === undefined ? {} : { hint }),
  });
}

const TEMPLATE_HINT =
  'hint: the body holds `{{`, written literally; with --template it would be a response template built from the request (docs/templates.md)';

function jsonProblem(text: string): string | undefined {
  try {
    parseJson(text);
    return undefined;
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) return String(e);
    const { line, column } = lineColumnAt(text, e.offset);
    return `${e.message.replace(/ at offset \d+$/, '')} at line ${line} column ${column}`;
  }
}
