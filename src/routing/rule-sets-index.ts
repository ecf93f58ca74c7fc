// Which rule sets of a workspace may hold a candidate for a request, so that a workspace of many rule-set files
// (an OpenAPI import puts each tag in its own) is looked up once per request instead of rule set by rule set. Each
// rule set's own index is path-index.ts; this one is built over the list of rule sets, once.
import { undecoded } from '../start-up/lazy-rule-set.js';
import type { RequestSnapshot } from '../model/request.js';
import type { RuleSet } from '../model/rule-set.js';
import { addTo, exactPaths, hasAnyOrText, NO_RULES, templatesOf } from './path-index.js';
import { literalPrefix, shapeOf, shapeText, templateSegments } from './path-template.js';

/**
 * Which rule sets of a workspace may hold a candidate for a path: built once per list of rule sets, so that a
 * workspace split into many rule-set files (an OpenAPI import puts each tag in its own) looks a request up once
 * instead of walking every rule set's index. A rule set with a prefix, or with rules for any path or for a text in
 * the path, is always tried; the others only when one of their exact paths or templates fits.
 */
interface SetsIndex {
  readonly byPath: ReadonlyMap<string, readonly number[]>;
  /**
   * rule sets with templates, by each template's literal prefix (its segments before the first parameter, joined
   * by '/'): a request is looked up by its own prefixes of those lengths. A superset of the rule sets whose
   * templates match, which is all this lookup must give; a map entry per template, where a segment trie was
   * thousands of nodes to build while the server starts (an imported workspace's 6,667 templates: 8 ms).
   */
  readonly byPrefix: ReadonlyMap<string, readonly number[]>;
  /** the distinct lengths of byPrefix's prefixes (in segments), ascending */
  readonly prefixLengths: readonly number[];
  /** positions of the rule sets tried for every path, ascending */
  readonly always: readonly number[];
}

/** Fewer rule sets than this are tried one by one: looking them up would cost about as much. */
const SETS_INDEX_MIN = 8;

const SETS_INDEXES = new WeakMap<readonly RuleSet[], SetsIndex | null>();

/**
 * The positions (in `ruleSets`) of the rule sets that may have a candidate for this request, ascending; undefined
 * when every rule set is to be tried (few of them). A rule set left out would evaluate to no candidate at all.
 */
export function ruleSetsFor(ruleSets: readonly RuleSet[], req: RequestSnapshot): readonly number[] | undefined {
  let index = SETS_INDEXES.get(ruleSets);
  if (index === undefined) SETS_INDEXES.set(ruleSets, (index = buildSetsIndex(ruleSets)));
  if (index === null) return undefined;
  const exact = index.byPath.get(req.path);
  const templated = index.prefixLengths.length === 0 ? NO_RULES : byPrefixes(index, templateSegments(req));
  const always = index.always;
  // the common cases hand out a list the index holds (frozen), with nothing made per request
  if (always.length === 0 && templated.length === 0) return exact ?? NO_RULES;
  if (always.length === 0 && exact === undefined && templated.length === 1) return templated;
  let out = always;
  if (exact !== undefined) out = mergeUnique(out, exact);
  if (templated.length > 0) out = mergeUnique(out, templated);
  return out;
}

/** Build the lookup over these rule sets now rather than on the first request (the server's start-up). */
export function prepareRuleSetsLookup(ruleSets: readonly RuleSet[]): void {
  if (!SETS_INDEXES.has(ruleSets)) SETS_INDEXES.set(ruleSets, buildSetsIndex(ruleSets));
}

/** The rule sets of every prefix of `segments` byPrefix holds, ascending. */
function byPrefixes(index: SetsIndex, segments: readonly string[]): readonly number[] {
  let out: readonly number[] = NO_RULES;
  let key = '';
  let length = 0;
  for (const want of index.prefixLengths) {
    if (want > segments.length) break;
    for (; length < want; length++) key = length === 0 ? segments[0]! : key + '/' + segments[length]!;
    const list = index.byPrefix.get(key);
    if (list !== undefined) out = out.length === 0 ? list : mergeUnique(out, list);
  }
  return out;
}

function buildSetsIndex(ruleSets: readonly RuleSet[]): SetsIndex | null {
  if (ruleSets.length < SETS_INDEX_MIN) return null;
  const byPath = new Map<string, readonly number[]>();
  const byPrefix = new Map<string, readonly number[]>();
  const lengths = new Set<number>();
  const grown: number[][] = [];
  const always: number[] = [];
  ruleSets.forEach((rs, at) => {
    if (rs.prefix !== undefined) return void always.push(at);
    // a rule set not decoded yet is placed by its summary (the same buckets), so building this decodes nothing
    const summary = undecoded(rs) ? rs.summary : undefined;
    const paths = summary?.paths ?? exactPaths(rs);
    const any = summary !== undefined ? summary.any || summary.texts.length > 0 : hasAnyOrText(rs);
    if (any) return void always.push(at);
    for (const p of paths) addTo(byPath, p, at, grown);
    const texts = summary?.templates ?? templatesOf(rs).map((t) => shapeText(shapeOf(t)));
    for (const text of texts) {
      const { key, length } = literalPrefix(text);
      addTo(byPrefix, key, at, grown);
      lengths.add(length);
    }
  });
  for (const list of grown) Object.freeze(list);
  return {
    byPath,
    byPrefix,
    prefixLengths: Object.freeze([...lengths].sort((a, b) => a - b)),
    always: Object.freeze(always),
  };
}

/** Two ascending lists as one, ascending, each position once. */
function mergeUnique(a: readonly number[], b: readonly number[]): readonly number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out.length === 0 || out[out.length - 1] !== next) out.push(next);
  }
  return out;
}
