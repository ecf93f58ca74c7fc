// Parsing a url_path template (`op = "path_template"`) at load; matching it is routing's (routing/path-template.ts).
import type { PathTemplate } from '../model/rule-set.js';

/** A template from its prefix-joined, canonical form (`/api/users/{id}`), or the reason it is not one. */
export function parseTemplate(canonical: string): { ok: true; template: PathTemplate } | { ok: false; error: string } {
  const pieces = canonical === '/' ? [] : canonical.slice(1).split('/');
  const segments: PathTemplate['segments'][number][] = [];
  const names = new Set<string>();
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (!piece.includes('{') && !piece.includes('}')) {
      segments.push({ literal: piece });
      continue;
    }
    const m = /^\{([^{}/*]+)(\*?)\}$/.exec(piece);
    if (m === null) {
      if (/\{\*?\}/.test(piece)) return { ok: false, error: `empty parameter name in segment \`${piece}\`` };
      const mixed = mixedSegment(piece, names);
      if (typeof mixed === 'string') return { ok: false, error: mixed };
      segments.push(mixed);
      continue;
    }
    const name = m[1]!;
    const rest = m[2] === '*';
    if (names.has(name)) return { ok: false, error: `the parameter \`${name}\` is used twice` };
    names.add(name);
    if (rest && i !== pieces.length - 1) return { ok: false, error: `\`{${name}*}\` must be the last segment` };
    segments.push({ name, rest });
  }
  return { ok: true, template: { segments } };
}

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A segment of literal text around captures (`docket.{format}`, `{base}...{head}`) as a pattern over the whole
 * segment; a string: why it is not one. Each capture takes at least one character: the first as many as the rest
 * allows, each later one never the literal text before it, so `{name}.{ext}` reads `a.b.json` as `a.b` and `json`
 * and `{base}...{head}` reads `a.b...c.d` as `a.b` and `c.d`, as Express 5's paths (and so Mockoon) read them.
 */
function mixedSegment(
  piece: string,
  names: Set<string>,
): { readonly pattern: RegExp; readonly names: readonly string[] } | string {
  const own: string[] = [];
  let source = '';
  let rest = piece;
  for (let guard = 0; rest !== '' && guard <= piece.length; guard++) {
    const open = rest.indexOf('{');
    const close = rest.indexOf('}');
    if (open < 0) {
      if (close >= 0) return `unbalanced braces in segment \`${piece}\``;
      source += escapeRe(rest);
      break;
    }
    if (close >= 0 && close < open) return `unbalanced braces in segment \`${piece}\``;
    const end = rest.indexOf('}', open);
    if (end < 0) return `unbalanced braces in segment \`${piece}\``;
    const literal = rest.slice(0, open);
    const name = rest.slice(open + 1, end);
    if (name.includes('{')) return `unbalanced braces in segment \`${piece}\``;
    if (name.endsWith('*')) return `\`${piece}\`: a rest parameter \`{name*}\` must be a whole segment, the last one`;
    if (!/^[^{}/*]+$/.test(name)) return `empty parameter name in segment \`${piece}\``;
    if (names.has(name)) return `the parameter \`${name}\` is used twice`;
    if (source !== '' && literal === '') return `\`${piece}\`: two parameters need literal text between them`;
    names.add(name);
    own.push(name);
    source += escapeRe(literal) + (own.length === 1 ? '(.+)' : `((?:(?!${escapeRe(literal)}).)+)`);
    rest = rest.slice(end + 1);
  }
  return { pattern: new RegExp(`^${source}$`, 's'), names: own };
}
