// Checks around a render: a rendered JSON document must parse; a header value loses what a header cannot hold;
// data roots a template names that do not exist (`reqest.path`) are told with a did-you-mean.
import { suggest } from '../shared/did-you-mean.js';
import { JsonSyntaxError, parseJson } from '../shared/json.js';
import { lineColumnAt } from '../shared/position.js';
import { DATA_FIELDS } from './names.js';

/** Why a rendered JSON document does not parse (with its line and column in the rendered text), or undefined. */
export function jsonProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (e) {
    // the native parser is the fast check; the project's own parser says where
    try {
      parseJson(text);
    } catch (located) {
      if (located instanceof JsonSyntaxError) {
        const { line, column } = lineColumnAt(text, located.offset);
        return `${located.message.replace(/ at offset \d+$/, '')} at line ${line} column ${column} of the rendered text`;
      }
    }
    return e instanceof Error ? e.message : String(e);
  }
}

/** CR, LF and every other character Node refuses in a header value are removed (no header injection). */
export function headerValue(text: string): string {
  return text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

/** Each named path whose root is not one the data has, with a did-you-mean. */
export function unknownRoots(paths: readonly string[]): { path: string; suggestion?: string }[] {
  const out: { path: string; suggestion?: string }[] = [];
  for (const path of paths) {
    const [root, field, ...rest] = path.split('.');
    if (root === 'this') continue;
    if (root !== 'request') {
      const s = suggest(root!, ['request']);
      out.push(
        s === undefined
          ? { path }
          : { path, suggestion: ['request', field, ...rest].filter((x) => x !== undefined).join('.') },
      );
      continue;
    }
    if (field === undefined || (DATA_FIELDS as readonly string[]).includes(field)) continue;
    const s = suggest(field, DATA_FIELDS);
    out.push(s === undefined ? { path } : { path, suggestion: ['request', s, ...rest].join('.') });
  }
  return out;
}
