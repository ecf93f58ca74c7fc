// A path index over a rule set, so long rule lists do not check every rule on every request. Built lazily,
// once per RuleSet object; rule sets are immutable after load. Each rule goes in one bucket:
//   - by exact path: it has a url_path `equal` condition (the common bare-string url_path);
//   - by required text: it has a url_path condition only paths containing some text can pass (starts_with,
//     ends_with, contains, a regex with a literal; see requiredText); a path lacking the text skips the rule;
//   - by template: it has a url_path `path_template` condition; templates sit in a segment trie (path-template.ts)
//     that one walk of the request's segments answers, however many there are;
//   - unindexed: anything else, checked on every request.
// The index only leaves out rules that cannot match; the candidates are then checked in full, in file order.
import type { PathSummary } from '../start-up/lazy-rule-set.js';
import type { Rule, RuleSet } from '../model/rule-set.js';
import { requiredText } from './check.js';
import { addRuleScenarios } from '../state/scenarios.js';
import type { RequestSnapshot } from '../model/request.js';
import {
  appendTo,
  shapeOf,
  shapeOfText,
  shapeText,
  TemplateTrie,
  templateSegments,
  type PathTemplate,
} from './path-template.js';

interface PathIndex {
  /** rules holding a url_path `equal` condition, by the path they need (compareTo), in file order */
  readonly byPath: ReadonlyMap<string, readonly number[]>;
  /** the other rules that need a text in the path, by that text, in file order */
  readonly byText: ReadonlyMap<string, readonly number[]>;
  /** the distinct lengths of byText's keys, ascending */
  readonly textLengths: readonly number[];
  /** every rule in byText, in file order (checked in full when looking each text up would cost more) */
  readonly textRules: readonly number[];
  /** rules holding a url_path template, by segment; undefined when there are none */
  readonly templates: TemplateTrie | undefined;
  /** every other rule, in file order: these can match any path */
  readonly unindexed: readonly number[];
  /** the rule set's rules (for the query splits made on first use) */
  readonly rules: readonly Rule[];
}

const INDEXES = new WeakMap<RuleSet, PathIndex>();

/**
 * The rules that may match `path`, in file order: those whose url_path `equal` names exactly this path, those
 * whose required text the path contains, and those with neither. A rule left out cannot match.
 */
export function candidateRules(ruleSet: RuleSet, path: string, req?: RequestSnapshot): readonly number[] {
  const index = indexOf(ruleSet);
  if (index.templates !== undefined && req !== undefined) {
    let found = index.templates.lookup(templateSegments(req));
    if (found.length >= QUERY_SPLIT_MIN) found = byQueryValue(index, found, req);
    if (found.length > 0) return mergeSorted(found, untemplated(index, path));
  }
  return untemplated(index, path);
}

function untemplated(index: PathIndex, path: string): readonly number[] {
  const exact = index.byPath.get(path);
  const texts = index.textRules.length === 0 ? undefined : textCandidates(index, path);
  if (texts === undefined) return exact === undefined ? index.unindexed : mergeSorted(exact, index.unindexed);
  const some = exact === undefined ? texts : mergeSorted(exact, texts);
  return mergeSorted(some, index.unindexed);
}

/** Build the rule set's index now rather than on the first request (the server's start-up). */
export function preparePathIndex(ruleSet: RuleSet): void {
  indexOf(ruleSet);
}

/** The rule set's index, built on first use. */
function indexOf(ruleSet: RuleSet): PathIndex {
  let index = INDEXES.get(ruleSet);
  if (index === undefined) {
    index = buildIndex(ruleSet.rules);
    INDEXES.set(ruleSet, index);
  }
  return index;
}

/**
 * The text-bucket rules whose text `path` contains: every substring of the path with a key's length is looked
 * up. When that is more lookups than there are such rules, they are all returned (then checked one by one).
 */
function textCandidates(index: PathIndex, path: string): readonly number[] | undefined {
  let lookups = 0;
  for (const len of index.textLengths) if (len <= path.length) lookups += path.length - len + 1;
  if (lookups * 2 > index.textRules.length) return index.textRules;
  let found: readonly number[] | undefined;
  let more: (readonly number[])[] | undefined;
  for (const len of index.textLengths) {
    for (let at = 0; at + len <= path.length; at++) {
      const list = index.byText.get(path.substring(at, at + len));
      if (list === undefined || list === found || more?.includes(list)) continue;
      if (found === undefined) found = list;
      else (more ??= []).push(list);
    }
  }
  if (more === undefined) return found;
  let out = found!;
  for (const list of more) out = mergeSorted(out, list);
  return out;
}

function buildIndex(rules: readonly Rule[]): PathIndex {
  const byPath = new Map<string, readonly number[]>();
  const byText = new Map<string, readonly number[]>();
  const grown: number[][] = [];
  const textRules: number[] = [];
  const unindexed: number[] = [];
  let templates: TemplateTrie | undefined;
  rules.forEach((rule, i) => {
    const template = templateOf(rule);
    if (template !== undefined) {
      (templates ??= new TemplateTrie()).add(shapeOf(template), i);
      return;
    }
    const path = exactPathOf(rule);
    const text = path === undefined ? requiredTextOf(rule) : undefined;
    if (path !== undefined) addTo(byPath, path, i, grown);
    else if (text !== undefined) {
      addTo(byText, text, i, grown);
      textRules.push(i);
    } else unindexed.push(i);
  });
  // frozen (a single entry's list always is): shared with every caller, and recognisable as stable (rotation.ts
  // caches their group keys)
  for (const list of grown) Object.freeze(list);
  templates?.seal();
  const textLengths = [...new Set([...byText.keys()].map((k) => k.length))].sort((a, b) => a - b);
  return {
    byPath,
    byText,
    textLengths,
    textRules: Object.freeze(textRules),
    templates,
    unindexed: Object.freeze(unindexed),
    rules,
  };
}

/**
 * What a rule set's rules need of a path, for deciding later, without them, that none can match (a lazy rule set's
 * summary, docs/load-cache.md): the same buckets the index puts them in.
 */
export function pathSummary(rules: readonly Rule[]): PathSummary {
  const paths = new Set<string>();
  const templates = new Set<string>();
  const texts = new Set<string>();
  const scenarios = new Set<string>();
  let any = false;
  for (const rule of rules) {
    addRuleScenarios(rule, scenarios);
    const template = templateOf(rule);
    if (template !== undefined) {
      templates.add(shapeText(shapeOf(template)));
      continue;
    }
    const path = exactPathOf(rule);
    const text = path === undefined ? requiredTextOf(rule) : undefined;
    if (path !== undefined) paths.add(path);
    else if (text !== undefined) texts.add(text);
    else any = true;
  }
  return {
    rules: rules.length,
    paths: [...paths],
    templates: [...templates],
    texts: [...texts],
    any,
    scenarios: [...scenarios],
  };
}

interface SummaryIndex {
  readonly paths: ReadonlySet<string>;
  readonly texts: readonly string[];
  readonly templates: TemplateTrie | undefined;
}

const SUMMARY_INDEXES = new WeakMap<PathSummary, SummaryIndex>();

/** Whether some rule of the summarised rule set may match this request (false: none can, by the index's own buckets). */
export function summaryAdmits(summary: PathSummary, path: string, req: RequestSnapshot): boolean {
  if (summary.any) return true;
  let index = SUMMARY_INDEXES.get(summary);
  if (index === undefined) {
    let templates: TemplateTrie | undefined;
    for (const t of summary.templates) (templates ??= new TemplateTrie()).add(shapeOfText(t), 0);
    index = { paths: new Set(summary.paths), texts: summary.texts, templates };
    SUMMARY_INDEXES.set(summary, index);
  }
  if (index.paths.has(path)) return true;
  for (const text of index.texts) if (path.includes(text)) return true;
  return index.templates !== undefined && index.templates.lookup(templateSegments(req)).length > 0;
}

/** A list of template rules this long or longer is split by a shared query `equal` condition, when it has one. */
const QUERY_SPLIT_MIN = 8;

/**
 * Rules on one template told apart by a query value (`?page=2`), found by a map lookup instead of checked one by
 * one: the split of a trie list by the query name most of its rules test with `equal`, built on first use.
 */
interface QuerySplit {
  readonly name: string;
  /** rules testing `name` with `equal`, by the value they want, in file order */
  readonly byValue: ReadonlyMap<string, readonly number[]>;
  /** the list's other rules, in file order */
  readonly rest: readonly number[];
}

export const NO_RULES: readonly number[] = Object.freeze([]);

const SPLITS = new WeakMap<readonly number[], QuerySplit | null>();

/** The rules of `list` the request's query could satisfy: those wanting one of its values for the split name, and the rest. */
function byQueryValue(index: PathIndex, list: readonly number[], req: RequestSnapshot): readonly number[] {
  let split = SPLITS.get(list);
  if (split === undefined) SPLITS.set(list, (split = splitByQuery(index.rules, list)));
  if (split === null) return list;
  const values = req.parts.query.get(split.name);
  if (values === undefined) return split.rest;
  if (values.length === 1) return mergeSorted(split.rest, split.byValue.get(values[0]!) ?? NO_RULES);
  let out = split.rest;
  for (const v of new Set(values)) {
    const hit = split.byValue.get(v);
    if (hit !== undefined) out = mergeSorted(out, hit);
  }
  return out;
}

function splitByQuery(rules: readonly Rule[], list: readonly number[]): QuerySplit | null {
  const counts = new Map<string, number>();
  for (const i of list)
    for (const name of new Set(queryEquals(rules[i]!).map(([n]) => n))) counts.set(name, (counts.get(name) ?? 0) + 1);
  let name: string | undefined;
  let best = 0;
  for (const [n, c] of counts) if (c > best) [name, best] = [n, c];
  if (name === undefined || best < QUERY_SPLIT_MIN) return null;
  const byValue = new Map<string, number[]>();
  const rest: number[] = [];
  for (const i of list) {
    const wants = queryEquals(rules[i]!).filter(([n]) => n === name);
    // a rule wanting two values for one name can match neither request well: keep it with the rest
    if (wants.length !== 1) rest.push(i);
    else {
      const v = wants[0]![1];
      const l = byValue.get(v);
      if (l === undefined) byValue.set(v, [i]);
      else l.push(i);
    }
  }
  for (const l of byValue.values()) Object.freeze(l);
  return { name, byValue, rest: Object.freeze(rest) };
}

/** A rule's query `equal` conditions, as [name, value]. */
function queryEquals(rule: Rule): (readonly [string, string])[] {
  const out: (readonly [string, string])[] = [];
  for (const c of rule.conditions) if (c.on === 'query' && c.op === 'equal') out.push([c.name, c.value]);
  return out;
}

/** The template a rule requires when one of its (ANDed) conditions is url_path `path_template`. */
function templateOf(rule: Rule): PathTemplate | undefined {
  for (const c of rule.conditions) if (c.on === 'url_path' && c.op === 'path_template') return c.template;
  return undefined;
}

/** The path a rule requires when one of its (ANDed) conditions is url_path `equal`. */
function exactPathOf(rule: Rule): string | undefined {
  for (const c of rule.conditions) if (c.on === 'url_path' && c.op === 'equal') return c.compareTo;
  return undefined;
}

/** The longest text one of a rule's (ANDed) conditions requires of the path. */
function requiredTextOf(rule: Rule): string | undefined {
  let best: string | undefined;
  for (const c of rule.conditions) {
    const text = requiredText(c);
    if (text !== undefined && (best === undefined || text.length > best.length)) best = text;
  }
  return best;
}

function mergeSorted(a: readonly number[], b: readonly number[]): readonly number[] {
  if (b.length === 0) return a;
  if (a.length === 0) return b;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]! < b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** `n` added to the list of `key` (appendTo: one-entry lists are shared singles, `grown` holds those made longer) */
export function addTo(map: Map<string, readonly number[]>, key: string, n: number, grown: number[][]): void {
  const list = map.get(key);
  const now = appendTo(list, n, grown);
  if (now !== list) map.set(key, now);
}

/** the rule set has rules tried for every path, or for a text in it */
export function hasAnyOrText(rs: RuleSet): boolean {
  const index = indexOf(rs);
  return index.unindexed.length > 0 || index.textRules.length > 0;
}

/** the exact paths the rule set’s rules are for */
export function exactPaths(rs: RuleSet): readonly string[] {
  return [...indexOf(rs).byPath.keys()];
}

export function templatesOf(rs: RuleSet): PathTemplate[] {
  const out: PathTemplate[] = [];
  for (const rule of rs.rules) {
    const t = templateOf(rule);
    if (t !== undefined) out.push(t);
  }
  return out;
}
