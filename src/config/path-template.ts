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
      if (/^\{\*?\}$/.test(piece)) return { ok: false, error: `empty parameter name in segment \`${piece}\`` };
      const opens = piece.split('{').length - 1;
      const closes = piece.split('}').length - 1;
      if (opens !== closes || piece.indexOf('}') < piece.indexOf('{'))
        return { ok: false, error: `unbalanced braces in segment \`${piece}\`` };
      return {
        ok: false,
        error: `\`${piece}\`: a parameter must be a whole segment, \`{name}\` or a last \`{name*}\``,
      };
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
