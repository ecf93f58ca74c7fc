// The rule-set side of `set rule`: a new rule appended as a `[[rules]]` table, or an existing rule changed
// key by key where its keys are written (dotted keys, inline tables, sub-tables), each step re-parsed.
import { err, ok, type Result } from '../../shared/result.js';
import { clone, deleteIn, getIn, isTable, parseFile, setIn, verify } from './data.js';
import {
  appendBlock,
  applyEdits,
  deleteEntry,
  renameAndReplace,
  setPair,
  tomlBasicString,
  tomlDottedKey,
  tomlPreferLiteralString,
  type TextEdit,
} from './patch.js';
import {
  BODY_KINDS,
  SET_RULE_MESSAGES,
  type BodyKind,
  type FieldArg,
  type FileState,
  type HeaderArg,
  type PlanFailure,
  type SetRuleArgs,
} from './plan-types.js';
import { findEntry, parseTomlText, ruleScope, rulesLayout, staticValueOf, type KeyPath, type Scope } from './spans.js';

export interface RuleSetPlan {
  readonly after: string;
  readonly ruleIndex: number;
  readonly added: boolean;
  readonly fields: readonly string[];
}

const P = {
  urlPath: ['when', 'request', 'url_path'],
  method: ['when', 'request', 'method'],
  headers: ['when', 'request', 'headers'],
  status: ['respond', 'status'],
  respond: ['respond'],
  respondHeaders: ['respond', 'headers'],
  delay: ['respond', 'delay_response_milliseconds'],
  template: ['respond', 'template'],
  bodyText: ['when', 'request', 'body', 'text'],
} as const;

/** Where each kind of field condition is written. */
const FIELD_PATHS: Readonly<Record<FieldArg['on'], KeyPath>> = {
  query: ['when', 'request', 'query'],
  cookies: ['when', 'request', 'cookies'],
  params: ['when', 'request', 'params'],
  form: ['when', 'request', 'body', 'form'],
};

/** the last of each (kind, name) given wins */
function dedupeFields(fields: readonly FieldArg[] | undefined): FieldArg[] {
  const byKey = new Map<string, FieldArg>();
  for (const f of fields ?? []) {
    const key = f.on + '\0' + f.name;
    byKey.delete(key);
    byKey.set(key, f);
  }
  return [...byKey.values()];
}

function urlPathText(args: SetRuleArgs, value: string): string {
  return args.pathTemplate === true
    ? `{ value = ${tomlBasicString(value)}, op = "path_template" }`
    : tomlBasicString(value);
}

function urlPathData(args: SetRuleArgs, value: string): unknown {
  return args.pathTemplate === true ? { value, op: 'path_template' } : value;
}

function containsText(value: string): string {
  return `{ value = ${tomlBasicString(value)}, op = "contains" }`;
}

function dedupeHeaders(headers: readonly HeaderArg[]): HeaderArg[] {
  const byName = new Map<string, HeaderArg>();
  for (const h of headers) {
    byName.delete(h.name);
    byName.set(h.name, h);
  }
  return [...byName.values()];
}

function headerCondition(value: string): string {
  return `{ value = ${tomlBasicString(value)}, op = "equal" }`;
}

function bodyText(kind: BodyKind, value: string): string {
  return kind === 'json' ? tomlPreferLiteralString(value) : tomlBasicString(value);
}

/** The `[[rules]]` table for a new rule, as dotted keys, conditions first. */
export function newRuleText(args: SetRuleArgs): string {
  const lines = ['[[rules]]'];
  const line = (path: KeyPath, value: string): void => {
    lines.push(`${tomlDottedKey(path)} = ${value}`);
  };
  if (args.urlPath !== undefined) line(P.urlPath, urlPathText(args, args.urlPath));
  if (args.method !== undefined) line(P.method, tomlBasicString(args.method));
  for (const h of dedupeHeaders(args.headers)) line([...P.headers, h.name], headerCondition(h.value));
  for (const f of dedupeFields(args.fields)) line([...FIELD_PATHS[f.on], f.name], tomlBasicString(f.value));
  if (args.bodyContains !== undefined) line(P.bodyText, containsText(args.bodyContains));
  if (args.status !== undefined) line(P.status, String(args.status));
  if (args.body !== undefined) line([...P.respond, args.body.kind], bodyText(args.body.kind, args.body.value));
  if (args.stream !== undefined) {
    line([...P.respond, 'stream', 'file_path'], tomlBasicString(args.stream.path));
    if (args.stream.intervalMs !== undefined)
      line([...P.respond, 'stream', 'interval_ms'], String(args.stream.intervalMs));
  }
  if (args.websocketScript !== undefined)
    line([...P.respond, 'websocket', 'script'], tomlBasicString(args.websocketScript));
  for (const h of dedupeHeaders(args.respondHeaders ?? []))
    line([...P.respondHeaders, h.name], tomlBasicString(h.value));
  if (args.delayMs !== undefined) line(P.delay, String(args.delayMs));
  if (args.template === true) line(P.template, 'true');
  return lines.join('\n') + '\n';
}

/** The data a new rule holds, for verification. */
function newRuleData(args: SetRuleArgs): Record<string, unknown> {
  const rule: Record<string, unknown> = {};
  if (args.urlPath !== undefined) setIn(rule, P.urlPath, urlPathData(args, args.urlPath));
  if (args.method !== undefined) setIn(rule, P.method, args.method);
  for (const h of dedupeHeaders(args.headers)) setIn(rule, [...P.headers, h.name], { value: h.value, op: 'equal' });
  for (const f of dedupeFields(args.fields)) setIn(rule, [...FIELD_PATHS[f.on], f.name], f.value);
  if (args.bodyContains !== undefined) setIn(rule, P.bodyText, { value: args.bodyContains, op: 'contains' });
  if (args.status !== undefined) setIn(rule, P.status, args.status);
  if (args.body !== undefined) setIn(rule, [...P.respond, args.body.kind], args.body.value);
  if (args.stream !== undefined) {
    setIn(rule, [...P.respond, 'stream', 'file_path'], args.stream.path);
    if (args.stream.intervalMs !== undefined)
      setIn(rule, [...P.respond, 'stream', 'interval_ms'], args.stream.intervalMs);
  }
  if (args.websocketScript !== undefined) setIn(rule, [...P.respond, 'websocket', 'script'], args.websocketScript);
  for (const h of dedupeHeaders(args.respondHeaders ?? [])) setIn(rule, [...P.respondHeaders, h.name], h.value);
  if (args.delayMs !== undefined) setIn(rule, P.delay, args.delayMs);
  if (args.template === true) setIn(rule, P.template, true);
  return rule;
}

export function planRuleSet(args: SetRuleArgs, rs: FileState): Result<RuleSetPlan, PlanFailure> {
  const block = newRuleText(args);
  if (rs.text === undefined) {
    if (args.ruleIndex !== undefined)
      return err({ kind: 'usage', message: SET_RULE_MESSAGES.noSuchRule(args.ruleIndex, 0) });
    return ok({ after: block, ruleIndex: 0, added: true, fields: [] });
  }
  const parsed = parseFile(rs);
  if (!parsed.ok) return parsed;
  const layout = rulesLayout(parsed.value);
  if (layout.notArrayOfTables) return err({ kind: 'usage', message: SET_RULE_MESSAGES.rulesNotTables(rs.shown) });
  const doc = staticValueOf(parsed.value);
  const expected = clone(doc);
  const rules = Array.isArray(expected['rules']) ? (expected['rules'] as unknown[]) : (expected['rules'] = []);

  if (args.ruleIndex === undefined) {
    const after = applyEdits(rs.text, [appendBlock(rs.text, block)]);
    rules.push(newRuleData(args));
    const check = verify(after, expected, rs.shown);
    if (!check.ok) return check;
    return ok({ after, ruleIndex: layout.count, added: true, fields: [] });
  }
  if (args.ruleIndex >= layout.count)
    return err({ kind: 'usage', message: SET_RULE_MESSAGES.noSuchRule(args.ruleIndex, layout.count) });
  const editor = new RuleEditor(rs.text, args.ruleIndex, rules[args.ruleIndex] as Record<string, unknown>);
  editor.apply(args);
  if (editor.failed) return err({ kind: 'config_invalid', message: SET_RULE_MESSAGES.unsafe(rs.shown) });
  const check = verify(editor.text, expected, rs.shown);
  if (!check.ok) return check;
  return ok({ after: editor.text, ruleIndex: args.ruleIndex, added: false, fields: editor.fields });
}

/**
 * Edits one rule a key at a time. Each step re-parses the current text, so every edit is computed
 * against the text it applies to. `rule` is the expected data, kept in step with the edits.
 */
class RuleEditor {
  readonly fields: string[] = [];
  failed = false;

  constructor(
    public text: string,
    private readonly index: number,
    private readonly rule: Record<string, unknown>,
  ) {}

  apply(args: SetRuleArgs): void {
    if (args.urlPath !== undefined)
      this.setCondition(
        P.urlPath,
        args.urlPath,
        tomlBasicString(args.urlPath),
        args.pathTemplate === true ? 'path_template' : 'equal',
      );
    if (args.method !== undefined) this.setScalar(P.method, args.method, tomlBasicString(args.method));
    for (const h of dedupeHeaders(args.headers)) this.setHeader(h);
    for (const f of dedupeFields(args.fields))
      this.setField([...FIELD_PATHS[f.on], f.name], f.value, tomlBasicString(f.value), FIELD_PATHS[f.on]);
    if (args.bodyContains !== undefined)
      this.setTable(P.bodyText, { value: args.bodyContains, op: 'contains' }, containsText(args.bodyContains));
    if (args.status !== undefined) this.setScalar(P.status, args.status, String(args.status));
    if (args.body !== undefined) this.setBody(args.body.kind, args.body.value);
    for (const h of dedupeHeaders(args.respondHeaders ?? []))
      this.setScalar([...P.respondHeaders, h.name], h.value, tomlBasicString(h.value), P.respondHeaders);
    if (args.delayMs !== undefined) this.setScalar(P.delay, args.delayMs, String(args.delayMs));
    if (args.template === true) this.setScalar(P.template, true, 'true');
  }

  private scope(): Scope | undefined {
    const parsed = parseTomlText(this.text);
    if (!parsed.ok) return undefined;
    return ruleScope(this.text, parsed.value, this.index);
  }

  private step(make: (scope: Scope) => readonly (TextEdit | undefined)[]): boolean {
    if (this.failed) return false;
    const scope = this.scope();
    const edits = scope === undefined ? [undefined] : make(scope);
    if (edits.some((e) => e === undefined)) {
      this.failed = true;
      return false;
    }
    this.text = applyEdits(this.text, edits as TextEdit[]);
    return true;
  }

  private note(path: KeyPath): void {
    const name = tomlDottedKey(path);
    if (!this.fields.includes(name)) this.fields.push(name);
  }

  /** Write a scalar unless it already holds that value. */
  private setScalar(path: KeyPath, value: unknown, valueText: string, field: KeyPath = path): void {
    if (getIn(this.rule, path) === value) return;
    if (!this.step((scope) => [setPair(this.text, scope, path, valueText)])) return;
    setIn(this.rule, path, value);
    this.note(field);
  }

  /**
   * url_path as a bare string, or, when written as a `{ value, op }` table, its value (and op → equal). A template
   * is always a table: a bare string becomes `{ value, op = "path_template" }`.
   */
  private setCondition(path: KeyPath, value: string, valueText: string, op: 'equal' | 'path_template' = 'equal'): void {
    const current = getIn(this.rule, path);
    if (!isTable(current)) {
      if (op === 'equal') return this.setScalar(path, value, valueText);
      return this.setTable(path, { value, op }, `{ value = ${valueText}, op = "${op}" }`);
    }
    this.setScalar([...path, 'value'], value, valueText, path);
    if ('op' in current || op !== 'equal') this.setScalar([...path, 'op'], op, `"${op}"`, path);
  }

  /** A whole inline table in place of whatever is at `path`. */
  private setTable(path: KeyPath, data: Record<string, unknown>, text: string): void {
    const current = getIn(this.rule, path);
    if (
      isTable(current) &&
      Object.keys(data).every((k) => current[k] === data[k]) &&
      Object.keys(current).length === Object.keys(data).length
    )
      return;
    if (!this.step((scope) => [setPair(this.text, scope, path, text)])) return;
    setIn(this.rule, path, data);
    this.note(path);
  }

  /** A field condition as a bare string (op equal); one written as a table keeps its table, with value and op set. */
  private setField(path: KeyPath, value: string, valueText: string, field: KeyPath): void {
    const current = getIn(this.rule, path);
    if (!isTable(current)) return this.setScalar(path, value, valueText, field);
    this.setScalar([...path, 'value'], value, valueText, field);
    if ('op' in current) this.setScalar([...path, 'op'], 'equal', '"equal"', field);
  }

  /** A header condition layers onto the others; an existing one (any letter case) is updated in place. */
  private setHeader(h: HeaderArg): void {
    const headers = getIn(this.rule, P.headers);
    const existing = isTable(headers) ? Object.keys(headers).find((k) => k.toLowerCase() === h.name) : undefined;
    if (existing === undefined) {
      const path = [...P.headers, h.name];
      if (!this.step((scope) => [setPair(this.text, scope, path, headerCondition(h.value))])) return;
      setIn(this.rule, path, { value: h.value, op: 'equal' });
      this.note(P.headers);
      return;
    }
    const path = [...P.headers, existing];
    const current = getIn(this.rule, path);
    if (!isTable(current)) {
      if (!this.step((scope) => [setPair(this.text, scope, path, headerCondition(h.value))])) return;
      setIn(this.rule, path, { value: h.value, op: 'equal' });
      this.note(P.headers);
      return;
    }
    this.setScalar([...path, 'value'], h.value, tomlBasicString(h.value), P.headers);
    if ('op' in current) this.setScalar([...path, 'op'], 'equal', '"equal"', P.headers);
  }

  /** file_path, text and json exclude each other: the one given replaces whichever is there, in place. */
  private setBody(kind: BodyKind, value: string): void {
    const respond = getIn(this.rule, P.respond);
    const present = isTable(respond) ? BODY_KINDS.filter((k) => k in respond && k !== kind) : [];
    const path = [...P.respond, kind];
    const valueText = bodyText(kind, value);
    const others = present.map((k) => [...P.respond, k]);
    if (getIn(this.rule, path) !== undefined || others.length === 0) {
      this.setScalar(path, value, valueText);
    } else {
      const first = others.shift()!;
      const ok = this.step((scope) => {
        const e = findEntry(scope, first);
        return e === undefined ? [undefined] : renameAndReplace(e, kind, valueText);
      });
      if (!ok) return;
      deleteIn(this.rule, first);
      setIn(this.rule, path, value);
      this.note(path);
    }
    for (const other of others) {
      const ok = this.step((scope) => {
        const e = findEntry(scope, other);
        return [e === undefined ? undefined : deleteEntry(this.text, e)];
      });
      if (!ok) return;
      deleteIn(this.rule, other);
      this.note(path);
    }
  }
}
