// One rule-set file → RuleSet (docs/reference/rule-set.md). Top-level keys: prefix, default, rules, strategy (and guard,
// accepted and ignored). Each [[rules]] entry: when.request (conditions), respond, priority, weight.
// Keys, types and bounds are the shapes' (config/shapes/rule-set.ts). The decoder is pure: respond files are collected as references and checked once file facts are known,
// so loading from disk (async) and `set rule` (any injected check) share this one code path.
import type { HeaderList } from '../shared/headers.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Rule, RuleSet } from '../model/rule-set.js';
import type { Strategy } from '../model/strategy.js';
import { err, ok, type Result } from '../shared/result.js';
import { canonicalPath, decodeRequest, decodeState, joinUrlPath } from './conditions.js';
import { report, wrongType, type DecodeContext, type KeyPath } from './decode.js';
import { MESSAGES } from './messages.js';
import { resolvePath } from './read.js';
import { decodeRespond } from './respond.js';
import {
  checkDir,
  checkRespondFile,
  type DirRef,
  type RespondFileRef,
  type RespondFileStatus,
} from './respond-files.js';
import { RULE_DEFAULTS, ruleSetShape, ruleTable } from './shapes/rule-set.js';
import { parseTomlLazily, type TomlNode, type TomlTable } from './toml.js';
import { compileTemplateRefs, type TemplateRef } from './templates.js';
import { engineIfLoaded, loadEngine, loadFaker } from '../templates/index.js';

export interface RuleSetContext {
  /** 0-based position in service.rule_sets */
  readonly index: number;
  /** as written in service.rule_sets (or as given on the command line) */
  readonly entry: string;
  /** absolute base for respond.file_path and prefix.respond_dir: the root config's folder */
  readonly baseDir: string;
  /** service.strategy: used when the rule set names none */
  readonly defaultStrategy: Strategy;
}

/** What decoding produced before file facts are known. */
export interface RuleSetDraft {
  /** undefined when the TOML itself does not parse */
  readonly ruleSet: RuleSet | undefined;
  readonly decode: DecodeContext;
  readonly fileRefs: readonly RespondFileRef[];
  readonly dirRefs: readonly DirRef[];
  /** response templates to compile (compileDraftTemplates) */
  readonly templateRefs: readonly TemplateRef[];
  /** `[[collections]]`: their data files are read by the loader (config/collections.ts) */
  readonly collectionRefs?: readonly CollectionRef[];
}

/** One `[[collections]]` entry as decoded: the loader reads its data file. */
export interface CollectionRef {
  /** canonical, the prefix joined */
  readonly path: string;
  /** `data` as written, and resolved against the respond folder */
  readonly entry: string;
  readonly file: string;
  readonly id: string;
  readonly persist: boolean;
  /** headers on every answer of the collection */
  readonly headers?: HeaderList;
  /** where `data` is written (a missing file is reported there) */
  readonly offset: number;
  readonly keyPath: KeyPath;
}

const topTable = ruleSetShape;

/** Decode one rule-set file's text. Pure; respond files are only collected (see checkRuleSetFiles). */
export function decodeRuleSetDraft(text: string, file: string, rsc: RuleSetContext): RuleSetDraft {
  const decode: DecodeContext = { file, text, diagnostics: [] };
  const parsed = parseTomlLazily(text);
  if (!parsed.ok) {
    const e = parsed.error;
    report(decode, 'toml_syntax', MESSAGES.tomlSyntax(e.message), e.offset, []);
    return { ruleSet: undefined, decode, fileRefs: [], dirRefs: [], templateRefs: [] };
  }
  return decodeRuleSetTree(parsed.value, file, rsc, decode);
}

/**
 * Decode a rule set from its value tree: a parsed file's, or one made from JSON values (runtime overrides,
 * config/overrides.ts), whose diagnostics then carry only their key path.
 */
export function decodeRuleSetTree(
  root: TomlTable,
  file: string,
  rsc: RuleSetContext,
  decode: DecodeContext,
): RuleSetDraft {
  const fileRefs: RespondFileRef[] = [];
  const dirRefs: DirRef[] = [];
  const templateRefs: TemplateRef[] = [];
  const top = topTable(root, [], decode) ?? {};

  let prefix: string | undefined;
  if (top.prefix?.url_path !== undefined) prefix = canonicalPath(top.prefix.url_path);
  let respondDir = rsc.baseDir;
  if (top.prefix?.respond_dir !== undefined) {
    respondDir = resolvePath(rsc.baseDir, top.prefix.respond_dir);
    const at = root.entries.get('prefix')!.node;
    const node = at.kind === 'table' ? at.entries.get('respond_dir')!.node : at;
    dirRefs.push({
      entry: top.prefix.respond_dir,
      path: respondDir,
      get offset() {
        return node.offset;
      },
      keyPath: ['prefix', 'respond_dir'],
    });
  }

  const rules: Rule[] = [];
  const rulesNode = root.entries.get('rules')?.node;
  if (rulesNode !== undefined) {
    if (rulesNode.kind !== 'array') wrongType(decode, rulesNode, ['rules'], 'an array of tables ([[rules]])');
    else {
      // each rule's parsed tree is let go once the rule is decoded: a long file never holds them all at once
      const items: (TomlNode | undefined)[] = [...rulesNode.items];
      const rc: RuleContext = {
        decode,
        prefix,
        respondDir,
        fileRefs,
        templated: top.template === true,
        templateRefs,
        ...(top.template_dialect !== undefined ? { dialect: top.template_dialect } : {}),
      };
      for (let i = 0; i < items.length; i++) {
        const rule = decodeRule(items[i]!, ['rules', i], i, rc);
        items[i] = undefined;
        if (rule !== undefined) rules.push(rule);
      }
    }
  }

  const collectionRefs: CollectionRef[] = [];
  const collectionsNode = root.entries.get('collections')?.node;
  if (top.collections !== undefined && collectionsNode?.kind === 'array') {
    top.collections.forEach((c, i) => {
      if (c.path === undefined || c.data === undefined) return;
      const item = collectionsNode.items[i];
      const dataNode = item?.kind === 'table' ? item.entries.get('data')?.node : undefined;
      collectionRefs.push({
        path: canonicalPath(joinUrlPath(prefix, c.path)),
        entry: c.data,
        file: resolvePath(respondDir, c.data),
        id: c.id ?? 'id',
        persist: c.persist === true,
        ...(c.headers === undefined || c.headers.length === 0
          ? {}
          : { headers: c.headers.map(([k, v]) => [k.toLowerCase(), v] as const) }),
        offset: dataNode?.offset ?? item?.offset ?? 0,
        keyPath: ['collections', i, 'data'],
      });
    });
  }

  const ruleSet: RuleSet = {
    index: rsc.index,
    file,
    entry: rsc.entry,
    ...(prefix === undefined ? {} : { prefix }),
    strategy: top.strategy ?? rsc.defaultStrategy,
    rules,
  };
  return { ruleSet, decode, fileRefs, dirRefs, templateRefs, collectionRefs };
}

interface RuleContext {
  readonly decode: DecodeContext;
  readonly prefix: string | undefined;
  readonly respondDir: string;
  readonly fileRefs: RespondFileRef[];
  readonly templated: boolean;
  readonly templateRefs: TemplateRef[];
  readonly dialect?: 'mock' | 'wiremock';
}

function decodeRule(node: TomlNode, path: KeyPath, index: number, rc: RuleContext): Rule | undefined {
  const ctx = rc.decode;
  const t = ruleTable(node, path, ctx);
  if (t === undefined || node.kind !== 'table') return undefined;

  let request: ReturnType<typeof decodeRequest>;
  const requestNode = t.when?.request;
  if (requestNode !== undefined) {
    request = decodeRequest(requestNode, [...path, 'when', 'request'], ctx, rc.prefix);
    if (request !== undefined && !request.nonEmpty) {
      report(ctx, 'invalid_value', MESSAGES.whenEmpty(index + 1), requestNode.offset, [...path, 'when', 'request']);
      request = undefined;
    }
  }
  const stateNode = t.when?.state;
  const state = stateNode === undefined ? [] : decodeState(stateNode, [...path, 'when', 'state'], ctx);
  const respondNode = node.entries.get('respond')?.node;
  const respond =
    respondNode === undefined
      ? undefined
      : decodeRespond(respondNode, [...path, 'respond'], {
          decode: ctx,
          rule: index,
          respondDir: rc.respondDir,
          fileRefs: rc.fileRefs,
          templated: rc.templated,
          templateRefs: rc.templateRefs,
          ...(rc.dialect !== undefined ? { dialect: rc.dialect } : {}),
        });
  if (request === undefined || respond === undefined) return undefined;
  return {
    index,
    label: request.label,
    conditions: state.length === 0 ? request.conditions : [...request.conditions, ...state],
    ...(state.length === 0 ? {} : { scenarios: [...new Set(state.map((c) => c.name))] }),
    respond,
    priority: t.priority ?? RULE_DEFAULTS.priority,
    weight: t.weight ?? RULE_DEFAULTS.weight,
    ...(t.limit?.requests === undefined || t.limit.per_ms === undefined
      ? {}
      : { limit: { requests: t.limit.requests, perMs: t.limit.per_ms } }),
  };
}

/** File facts for the checks: how a respond file looks, and whether a directory exists. */
export interface FileFacts {
  readonly respondFile: (abs: string) => RespondFileStatus;
  readonly isDir: (abs: string) => boolean;
}

/** Run the respond-file and respond_dir checks of a draft against known file facts (adds diagnostics). */
export function checkRuleSetFiles(draft: RuleSetDraft, facts: FileFacts): void {
  for (const ref of draft.dirRefs) checkDir(ref, facts.isDir(ref.path), draft.decode);
  for (const ref of draft.fileRefs) checkRespondFile(ref, facts.respondFile(ref.path), draft.decode);
}

export interface DecodedRuleSet {
  readonly ruleSet: RuleSet;
  readonly warnings: readonly Diagnostic[];
}

/**
 * Decode one rule-set file's text, fully: the same code path as loading, for `set rule` to check that an
 * edited file still loads. Without `facts`, respond files are not checked.
 */
export function decodeRuleSetText(
  text: string,
  file: string,
  ctx: RuleSetContext & { readonly facts?: FileFacts },
): Result<DecodedRuleSet, readonly Diagnostic[]> {
  const draft = decodeRuleSetDraft(text, file, ctx);
  if (ctx.facts !== undefined) checkRuleSetFiles(draft, ctx.facts);
  // synchronous: templates are checked when the engine is loaded already (`set rule` loads it for templated rules)
  const engine = draft.templateRefs.length > 0 ? engineIfLoaded() : undefined;
  if (engine !== undefined) compileTemplateRefs(draft.templateRefs, engine, draft.decode);
  return settleRuleSet(draft);
}

/** The decoded rule set when no error was found; else every diagnostic (warnings included). */
export function settleRuleSet(draft: RuleSetDraft): Result<DecodedRuleSet, readonly Diagnostic[]> {
  const diagnostics = sortByPosition(draft.decode.diagnostics);
  const hasError = diagnostics.some((d) => d.severity === 'error');
  if (hasError || draft.ruleSet === undefined) return err(diagnostics);
  return ok({ ruleSet: draft.ruleSet, warnings: diagnostics });
}

/** Source order (line, then column); stable for equal positions. */
export function sortByPosition(ds: readonly Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** Compile a draft's response templates, loading the engine (and faker, when a template uses it) first. */
export async function compileDraftTemplates(draft: RuleSetDraft): Promise<void> {
  if (draft.templateRefs.length === 0) return;
  const engine = await loadEngine();
  if (compileTemplateRefs(draft.templateRefs, engine, draft.decode)) await loadFaker();
}
