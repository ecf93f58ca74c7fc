// Runtime overrides (docs/library.md#overrides): rules given as JSON values (the library's `m.use(...)`, the
// management listener's `POST /__mock/api/overrides`) decoded by the very decoder of a rule-set file's
// `[[rules]]`, so a misspelt key gets the same message; it is located by its key path (`rules[0].respond.statsu`)
// since there is no file or line. Pure: the respond-file facts are the caller's (workspace/overrides.ts).
import type { Diagnostic } from '../model/diagnostic.js';
import type { Rule } from '../model/rule-set.js';
import type { Strategy } from '../model/strategy.js';
import { err, ok, type Result } from '../shared/result.js';
import { describePath, report, type DecodeContext, type KeyPath } from './decode.js';
import { checkRuleSetFiles, decodeRuleSetTree, type FileFacts } from './rule-set.js';
import { compileTemplateRefs } from './templates.js';
import type { TomlEntry, TomlNode, TomlTable } from './toml.js';
import { engineIfLoaded } from '../templates/index.js';

export interface OverrideContext {
  /** respond.file_path is relative to this folder (the root config's, as for rule sets) */
  readonly baseDir: string;
  readonly facts?: FileFacts;
}

export const OVERRIDE_MESSAGES = {
  notArray: 'overrides must be a list of rules (objects in the shape of a rule set\u2019s [[rules]])',
  empty: 'no rule given',
  notJson: (what: string) => `a value must be a string, number, boolean, array or object, found ${what}`,
  templates:
    'a templated override needs the template engine, which loads with the first templated rule of the workspace; declare one there',
} as const;

/** `rules[0].respond.statsu: unknown key …`: a diagnostic of an override, as one line. */
export function formatOverrideDiagnostic(d: Diagnostic): string {
  const at = d.keyPath === undefined || d.keyPath.length === 0 ? '' : `${describePath(d.keyPath)}: `;
  let text = `${at}${d.message}`;
  if (d.allowed !== undefined && d.allowed.length > 0)
    text += `; allowed keys: ${d.allowed.map((k) => '`' + k + '`').join(', ')}`;
  if (d.suggestion !== undefined) text += ` (did you mean \`${d.suggestion}\`?)`;
  return text;
}

const FIRST_MATCH: Strategy = Object.freeze({ kind: 'first_match' });

/** Decode override rules (JSON values) into rules, or every problem, each with its key path. */
export function decodeOverrideRules(rules: unknown, ctx: OverrideContext): Result<Rule[], Diagnostic[]> {
  const decode: DecodeContext = { file: '', text: '', diagnostics: [] };
  if (!Array.isArray(rules)) {
    report(decode, 'wrong_type', OVERRIDE_MESSAGES.notArray, 0, ['rules']);
    return err(located(decode.diagnostics));
  }
  if (rules.length === 0) {
    report(decode, 'invalid_value', OVERRIDE_MESSAGES.empty, 0, ['rules']);
    return err(located(decode.diagnostics));
  }
  // a value JSON cannot hold is reported and left out; the rest is decoded, so every problem is reported at once
  const tree = nodeOf(rules, ['rules'], decode);
  if (tree === undefined) return err(located(decode.diagnostics));
  const root: TomlTable = { kind: 'table', offset: 0, entries: new Map([['rules', entry(tree)]]) };
  const draft = decodeRuleSetTree(
    root,
    '',
    { index: -1, entry: '', baseDir: ctx.baseDir, defaultStrategy: FIRST_MATCH },
    decode,
  );
  if (ctx.facts !== undefined) checkRuleSetFiles(draft, ctx.facts);
  if (draft.templateRefs.length > 0) {
    const engine = engineIfLoaded();
    if (engine === undefined) report(decode, 'invalid_value', OVERRIDE_MESSAGES.templates, 0, ['rules']);
    else compileTemplateRefs(draft.templateRefs, engine, decode);
  }
  const problems = decode.diagnostics.filter((d) => d.severity === 'error');
  if (problems.length > 0 || draft.ruleSet === undefined) return err(located(decode.diagnostics));
  return ok([...draft.ruleSet.rules]);
}

/** Diagnostics without the file position they never had (in the order found: the rules' order). */
function located(ds: readonly Diagnostic[]): Diagnostic[] {
  return ds.map(({ file: _f, line: _l, column: _c, ...rest }) => rest);
}

function entry(node: TomlNode): TomlEntry {
  return { keyOffset: 0, node };
}

/** A JSON value as the decoder's value tree (integers as integers, other numbers as floats). */
function nodeOf(v: unknown, path: KeyPath, ctx: DecodeContext): TomlNode | undefined {
  switch (typeof v) {
    case 'string':
      return { kind: 'string', offset: 0, value: v };
    case 'boolean':
      return { kind: 'boolean', offset: 0, value: v };
    case 'bigint':
      return { kind: 'integer', offset: 0, value: v };
    case 'number':
      if (Number.isSafeInteger(v)) return { kind: 'integer', offset: 0, value: BigInt(v) };
      if (Number.isFinite(v)) return { kind: 'float', offset: 0, value: v };
      break;
    case 'object': {
      if (v === null) break;
      if (Array.isArray(v)) {
        const items: TomlNode[] = [];
        v.forEach((x, i) => {
          const n = nodeOf(x, [...path, i], ctx);
          if (n !== undefined) items.push(n);
        });
        return { kind: 'array', offset: 0, items };
      }
      if (v instanceof Date) return { kind: 'datetime', offset: 0, value: v.toISOString() };
      const entries = new Map<string, TomlEntry>();
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined) continue; // as JSON.stringify leaves it out
        const n = nodeOf(x, [...path, k], ctx);
        if (n !== undefined) entries.set(k, entry(n));
      }
      return { kind: 'table', offset: 0, entries };
    }
    default:
      break;
  }
  report(ctx, 'wrong_type', OVERRIDE_MESSAGES.notJson(v === null ? 'null' : typeof v), 0, path);
  return undefined;
}
