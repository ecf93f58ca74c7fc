// url_path templates (`op = "path_template"`): `/users/{id}/orders/{order}`, `/files/{rest*}`.
// `{name}` matches exactly one non-empty segment; a last `{name*}` matches the rest of the path (zero or more
// segments). Templates are parsed once, at load (config/path-template.ts); requests are matched segment by segment
// against the snapshot's decoded segments, so a capture is decoded as file routing decodes segments. Long lists of templates are looked up through a segment trie (TemplateTrie,
// used by the path index), never by trying each template in turn.
import type { RequestSnapshot } from '../model/request.js';
import type { PathTemplate } from '../model/rule-set.js';

export type { PathTemplate };

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
    } else if (part.rest) return true;
    else if (segments[i] === undefined || segments[i] === '') return false;
  }
  return segments.length === t.length;
}

interface TrieNode {
  readonly literal: Map<string, TrieNode>;
  param: TrieNode | undefined;
  /** rules whose template ends here */
  readonly end: number[];
  /** rules whose template ends here with a rest parameter (they take any remainder) */
  readonly rest: number[];
}

const NONE: readonly number[] = Object.freeze([]);

const newNode = (): TrieNode => ({ literal: new Map(), param: undefined, end: [], rest: [] });

/** The rules holding a url_path template, by segment: a lookup walks the path once, following literal and parameter branches. */
export class TemplateTrie {
  private readonly root = newNode();
  size = 0;

  add(template: PathTemplate, rule: number): void {
    let node = this.root;
    for (const part of template.segments) {
      if ('literal' in part) {
        let next = node.literal.get(part.literal);
        if (next === undefined) node.literal.set(part.literal, (next = newNode()));
        node = next;
      } else if (part.rest) {
        node.rest.push(rule);
        this.size++;
        return;
      } else node = node.param ??= newNode();
    }
    node.end.push(rule);
    this.size++;
  }

  /** Freeze every node's lists once the trie is built: lookups hand them out as they are. */
  seal(node: TrieNode = this.root): void {
    Object.freeze(node.end);
    Object.freeze(node.rest);
    for (const child of node.literal.values()) this.seal(child);
    if (node.param !== undefined) this.seal(node.param);
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
    if (node.rest.length > 0) out.push(node.rest);
    if (at === segments.length) {
      if (node.end.length > 0) out.push(node.end);
      return;
    }
    const seg = segments[at]!;
    const lit = node.literal.get(seg);
    if (lit !== undefined) this.walk(lit, segments, at + 1, out);
    if (node.param !== undefined && seg !== '') this.walk(node.param, segments, at + 1, out);
  }
}
