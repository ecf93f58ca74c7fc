// url_path templates (`op = "path_template"`): `/users/{id}/orders/{order}`, `/files/{rest*}`.
// `{name}` matches exactly one non-empty segment; a last `{name*}` matches the rest of the path (zero or more
// segments). Templates are parsed once, at load (config/path-template.ts); requests are matched segment by segment
// against the snapshot's decoded segments, so a capture is decoded as file routing decodes segments. Long lists of templates are looked up through a segment trie (TemplateTrie,
// used by the path index), never by trying each template in turn.
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
  /** children by literal segment (made with the first) */
  literal: Map<string, TrieNode> | undefined;
  param: TrieNode | undefined;
  /** rules whose template ends here (made with the first) */
  end: number[] | undefined;
  /** rules whose template ends here with a rest parameter: they take any remainder (made with the first) */
  rest: number[] | undefined;
}

const NONE: readonly number[] = Object.freeze([]);

// A node holds no map or list until it needs one: an imported workspace's trie has thousands of nodes, built
// while the server starts, most of them with one child or one rule.
const newNode = (): TrieNode => ({ literal: undefined, param: undefined, end: undefined, rest: undefined });

export function shapeOf(template: PathTemplate): TemplateShape {
  return template.segments.map((part) => ('literal' in part ? part.literal : part.rest ? 1 : 0));
}

/** The rules holding a url_path template, by segment: a lookup walks the path once, following literal and parameter branches. */
export class TemplateTrie {
  private readonly root = newNode();
  size = 0;

  add(template: PathTemplate, rule: number): void {
    let node = this.root;
    for (const part of template.segments) {
      if (!('literal' in part) && part.rest) return this.addRest(node, rule);
      node = 'literal' in part ? literalChild(node, part.literal) : (node.param ??= newNode());
    }
    this.addEnd(node, rule);
  }

  addShape(shape: TemplateShape, rule: number): void {
    let node = this.root;
    for (const part of shape) {
      if (part === 1) return this.addRest(node, rule);
      node = part === 0 ? (node.param ??= newNode()) : literalChild(node, part);
    }
    this.addEnd(node, rule);
  }

  private addEnd(node: TrieNode, rule: number): void {
    (node.end ??= []).push(rule);
    this.size++;
  }

  private addRest(node: TrieNode, rule: number): void {
    (node.rest ??= []).push(rule);
    this.size++;
  }

  /** Freeze every node's lists once the trie is built: lookups hand them out as they are. */
  seal(node: TrieNode = this.root): void {
    if (node.end !== undefined) Object.freeze(node.end);
    if (node.rest !== undefined) Object.freeze(node.rest);
    if (node.literal !== undefined) for (const child of node.literal.values()) this.seal(child);
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

function literalChild(node: TrieNode, literal: string): TrieNode {
  const map = (node.literal ??= new Map<string, TrieNode>());
  let next = map.get(literal);
  if (next === undefined) map.set(literal, (next = newNode()));
  return next;
}
