// url_path templates (`op = "path_template"`): `/users/{id}/orders/{order}`, `/files/{rest*}`.
// `{name}` matches exactly one non-empty segment; a last `{name*}` matches the rest of the path (zero or more
// segments); a segment of literal text around captures (`docket.{format}`) matches by its pattern. Templates are parsed once, at load (config/path-template.ts); requests are matched segment by segment
// against the snapshot's decoded segments, so a capture is decoded as file routing decodes segments. Long lists of templates are looked up through a segment trie (TemplateTrie,
// used by each rule set's path index), never by trying each template in turn.
import type { RequestSnapshot } from '../model/request.js';
import type { PathTemplate, TemplateShape } from '../model/rule-set.js';

export type { PathTemplate, TemplateShape };

/** The request's path segments as templates see them: decoded, a trailing empty segment (a trailing '/') dropped. */
export function templateSegments(req: RequestSnapshot): readonly string[] {
  const s = req.segments;
  return s.length > 0 && s[s.length - 1] === '' ? s.slice(0, -1) : s;
}

/** The captures when the path matches the template (a rest capture joins its segments with '/'); undefined when not. */
export function matchTemplate(template: PathTemplate, segments: readonly string[]): Record<string, string> | undefined {
  const t = template.segments;
  const out: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const part = t[i]!;
    if ('literal' in part) {
      if (segments[i] !== part.literal) return undefined;
    } else if ('pattern' in part) {
      const m = part.pattern.exec(segments[i] ?? '');
      if (m === null) return undefined;
      part.names.forEach((name, j) => (out[name] = m[j + 1]!));
    } else if (part.rest) {
      out[part.name] = segments.slice(i).join('/');
      return out;
    } else {
      const seg = segments[i];
      if (seg === undefined || seg === '') return undefined;
      out[part.name] = seg;
    }
  }
  return segments.length === t.length ? out : undefined;
}

/** The decision alone, without building the captures (rule selection). */
export function templateMatches(template: PathTemplate, segments: readonly string[]): boolean {
  const t = template.segments;
  for (let i = 0; i < t.length; i++) {
    const part = t[i]!;
    if ('literal' in part) {
      if (segments[i] !== part.literal) return false;
    } else if ('pattern' in part) {
      if (!part.pattern.test(segments[i] ?? '')) return false;
    } else if (part.rest) return true;
    else if (segments[i] === undefined || segments[i] === '') return false;
  }
  return segments.length === t.length;
}

interface TrieNode {
  /** children by literal segment (made with the first) */
  literal: Map<string, TrieNode> | undefined;
  param: TrieNode | undefined;
  /** rules whose template ends here */
  end: readonly number[] | undefined;
  /** rules whose template ends here with a rest parameter: they take any remainder */
  rest: readonly number[] | undefined;
}

const NONE: readonly number[] = Object.freeze([]);

// A node holds no map or list until it needs one: an imported workspace's trie has thousands of nodes, built
// while the server starts, most of them with one child or one rule.
const newNode = (): TrieNode => ({ literal: undefined, param: undefined, end: undefined, rest: undefined });

const SINGLES: (readonly number[])[] = [];
/**
 * `[n]`, frozen, one per number and shared by every trie and index: most of their lists hold one entry, and an
 * imported workspace would otherwise make thousands of them while the server starts.
 */
export function single(n: number): readonly number[] {
  return (SINGLES[n] ??= Object.freeze([n]));
}

/**
 * `list` with `n` added at its end (once: a list never repeats its last entry). A shared single becomes a new list,
 * which `grown` is told of (to be frozen once built); a list already grown is added to in place.
 */
export function appendTo(list: readonly number[] | undefined, n: number, grown: number[][]): readonly number[] {
  if (list === undefined) return single(n);
  const last = list[list.length - 1]!;
  if (last === n) return list;
  if (list.length === 1 && SINGLES[last] === list) {
    const out = [last, n];
    grown.push(out);
    return out;
  }
  (list as number[]).push(n);
  return list;
}

/**
 * A template's shape (model/rule-set.ts TemplateShape): its literal segments, 0 for a parameter, 1 for a rest. A
 * segment with literal text around captures is a parameter here: the lookup finds candidates, the match decides.
 */
export function shapeOf(template: PathTemplate): TemplateShape {
  return template.segments.map((part) => ('literal' in part ? part.literal : 'pattern' in part || !part.rest ? 0 : 1));
}

/**
 * A template's shape as text, as the load cache keeps it: each segment after a '/', a parameter as `{}` and a rest
 * parameter as `{*}` (`/users/{}/files/{*}`). Literal segments hold no '/', '{' or '}' (config/path-template.ts
 * refuses them), so the text reads back exactly.
 */
export function shapeText(shape: TemplateShape): string {
  let out = '';
  for (const part of shape) out += '/' + (part === 0 ? '{}' : part === 1 ? '{*}' : part);
  return out;
}

export function shapeOfText(text: string): TemplateShape {
  if (text === '') return [];
  return text
    .slice(1)
    .split('/')
    .map((part) => (part === '{}' ? 0 : part === '{*}' ? 1 : part));
}

/**
 * A shape text's literal prefix: its segments before the first parameter joined by '/' (`users/me` for
 * `/users/me/{}`), and how many segments that is.
 */
export function literalPrefix(text: string): { readonly key: string; readonly length: number } {
  const cut = text.indexOf('/{');
  const end = cut < 0 ? text.length : cut;
  let length = 0;
  for (let i = text.indexOf('/'); i >= 0 && i < end; i = text.indexOf('/', i + 1)) length++;
  return { key: text.slice(1, end), length };
}

/** The rules holding a url_path template, by segment: a lookup walks the path once, following literal and parameter branches. */
export class TemplateTrie {
  private readonly root = newNode();
  /** lists made to hold more than one rule, frozen by seal() */
  private readonly grown: number[][] = [];
  size = 0;

  add(shape: TemplateShape, rule: number): void {
    let node = this.root;
    for (const part of shape) {
      if (part === 1) return this.addRest(node, rule);
      if (part === 0) node = node.param ??= newNode();
      else {
        const map = (node.literal ??= new Map<string, TrieNode>());
        let next = map.get(part);
        if (next === undefined) map.set(part, (next = newNode()));
        node = next;
      }
    }
    this.addEnd(node, rule);
  }

  private addEnd(node: TrieNode, rule: number): void {
    node.end = appendTo(node.end, rule, this.grown);
    this.size++;
  }

  private addRest(node: TrieNode, rule: number): void {
    node.rest = appendTo(node.rest, rule, this.grown);
    this.size++;
  }

  /** Freeze the lists that grew past one entry once the trie is built: lookups hand them out as they are. */
  seal(): void {
    for (const list of this.grown) Object.freeze(list);
    this.grown.length = 0;
  }

  /**
   * The rules whose template matches these segments, in file order. The common case, one trie node holding them
   * all, returns that node's own list (frozen: shared, never copied).
   */
  lookup(segments: readonly string[]): readonly number[] {
    const lists: (readonly number[])[] = [];
    this.walk(this.root, segments, 0, lists);
    if (lists.length === 0) return NONE;
    if (lists.length === 1) return lists[0]!;
    const out: number[] = [];
    for (const list of lists) for (const r of list) out.push(r);
    return out.sort((a, b) => a - b);
  }

  private walk(node: TrieNode, segments: readonly string[], at: number, out: (readonly number[])[]): void {
    if (node.rest !== undefined) out.push(node.rest);
    if (at === segments.length) {
      if (node.end !== undefined) out.push(node.end);
      return;
    }
    const seg = segments[at]!;
    const lit = node.literal?.get(seg);
    if (lit !== undefined) this.walk(lit, segments, at + 1, out);
    if (node.param !== undefined && seg !== '') this.walk(node.param, segments, at + 1, out);
  }
}
