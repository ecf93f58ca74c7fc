// Loading collection data (docs/state.md, "Collections"): `[[collections]]` data files and the `service.db` /
// `--db` file. A data file that does not parse, or holds something other than objects, is a load error naming the
// file and the line. The data is frozen: each state store seeds its own copy from it.
import type { Collection, CollectionData, CollectionItem } from '../model/collection.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { JsonSyntaxError, parseJson } from '../shared/json.js';
import { lineColumnAt } from '../shared/position.js';
import { report, type DecodeContext } from './decode.js';
import { MESSAGES } from './messages.js';
import { isDataModule, readDataModule, readTextFile, type ReadTracker } from './read.js';
import type { CollectionRef } from './rule-set.js';
import { canonicalPath } from './conditions.js';

type Parsed = { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly diagnostic: Diagnostic };

function parseData(text: string, file: string): Parsed {
  try {
    return { ok: true, data: JSON.parse(text) as unknown };
  } catch {
    try {
      parseJson(text);
    } catch (e) {
      if (e instanceof JsonSyntaxError) {
        const { line, column } = lineColumnAt(text, e.offset);
        const diagnostic: Diagnostic = {
          severity: 'error',
          code: 'invalid_json_file',
          message: MESSAGES.dataFileInvalidJson(e.message),
          file,
          line,
          column,
        };
        return { ok: false, diagnostic };
      }
      throw e;
    }
    return { ok: true, data: JSON.parse(text) as unknown };
  }
}

function isObject(v: unknown): v is CollectionItem {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** What a value of a data file becomes: an array of objects is a collection, an object a single resource. */
function dataKind(v: unknown, what: string): { kind: Collection['kind'] } | { problem: string } {
  if (Array.isArray(v)) {
    const bad = v.findIndex((item) => !isObject(item));
    if (bad >= 0) return { problem: `${what}[${bad}] is not an object (a collection holds objects)` };
    return { kind: 'collection' };
  }
  if (isObject(v)) return { kind: 'resource' };
  return { problem: `${what} is ${v === null ? 'null' : typeof v}: expected an array of objects or an object` };
}

function shapeProblem(file: string, message: string): Diagnostic {
  return { severity: 'error', code: 'invalid_value', message: MESSAGES.dataFileShape(message), file };
}

/** The collections of one rule set: each `[[collections]]` data file read (tracked) and checked. */
export async function loadRuleSetCollections(
  refs: readonly CollectionRef[],
  ruleSetIndex: number,
  decode: DecodeContext,
  track: ReadTracker | undefined,
): Promise<{ collections: Collection[]; diagnostics: Diagnostic[] }> {
  const collections: Collection[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const ref of refs) {
    const read = await readTextFile(ref.file, track);
    if (read.kind === 'missing') {
      report(decode, 'file_not_found', MESSAGES.dataFileMissing(ref.entry), ref.offset, ref.keyPath);
      continue;
    }
    if (read.kind === 'unreadable') {
      report(decode, 'file_unreadable', MESSAGES.dataFileUnreadable(ref.entry, read.reason), ref.offset, ref.keyPath);
      continue;
    }
    const parsed = parseData(read.text, ref.file);
    if (!parsed.ok) {
      diagnostics.push(parsed.diagnostic);
      continue;
    }
    const k = dataKind(parsed.data, 'the file');
    if ('problem' in k) {
      diagnostics.push(shapeProblem(ref.file, k.problem));
      continue;
    }
    collections.push({
      path: ref.path,
      kind: k.kind,
      id: ref.id,
      file: ref.file,
      seed: parsed.data as CollectionData,
      persist: ref.persist,
      ...(ref.headers === undefined ? {} : { headers: ref.headers }),
      ruleSetIndex,
      sourceText: read.text,
    });
  }
  return { collections, diagnostics };
}

/** The `service.db` file: each top-level array a collection at `/<key>`, each object a single resource. */
export async function loadDb(
  file: string,
  entry: string,
  persist: boolean,
  track: ReadTracker | undefined,
  idField = 'id',
): Promise<{ collections: Collection[]; diagnostics: Diagnostic[] }> {
  const read = isDataModule(file) ? await readDataModule(file, track) : await readTextFile(file, track);
  const fail = (d: Diagnostic): { collections: Collection[]; diagnostics: Diagnostic[] } => ({
    collections: [],
    diagnostics: [d],
  });
  if (read.kind === 'missing')
    return fail({ severity: 'error', code: 'file_not_found', message: MESSAGES.dataFileMissing(entry), file });
  if (read.kind === 'unreadable')
    return fail({
      severity: 'error',
      code: 'file_unreadable',
      message: MESSAGES.dataFileUnreadable(entry, read.reason),
      file,
    });
  const parsed = parseData(read.text, file);
  if (!parsed.ok) return fail(parsed.diagnostic);
  const db = parsed.data;
  if (!isObject(db)) return fail(shapeProblem(file, 'a db file holds one object whose keys name the collections'));
  const collections: Collection[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [key, value] of Object.entries(db)) {
    if (key === '$schema') continue;
    if (key.includes('/')) {
      // json-server refuses to start too: a route cannot be a key (--routes rewrites paths)
      diagnostics.push({ ...shapeProblem(file, MESSAGES.dbKeySlash(key)), ...keyLine(read.text, key) });
      continue;
    }
    const k = dataKind(value, `"${key}"`);
    if ('problem' in k) {
      diagnostics.push({ ...shapeProblem(file, k.problem), ...keyLine(read.text, key) });
      continue;
    }
    collections.push({
      path: canonicalPath(key),
      kind: k.kind,
      id: idField,
      file,
      key,
      seed: value as CollectionData,
      persist,
      sourceText: read.text,
    });
  }
  return { collections, diagnostics };
}

/** The line of a top-level key in the db file's text (the first `"key":`), for a diagnostic. */
function keyLine(text: string, key: string): { line?: number; column?: number } {
  const at = text.indexOf(`${JSON.stringify(key)}`);
  return at < 0 ? {} : lineColumnAt(text, at);
}
