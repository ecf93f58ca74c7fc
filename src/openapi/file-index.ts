// The OpenAPI import's file index, `.mock-openapi-index.json` beside mock.toml: every response file an import
// wrote, with the operation and response it answers and the SHA-256 of what was written, so
// `mock --init --from <document> --update` can tell a file the user has edited from one it may replace
// (docs/openapi.md, "Updating an import"). Rules carry the same facts in their `# openapi:` marker comments.
import { sha256Hex } from '../shared/sha256.js';
import type { ImportPlan } from './plan.js';

export const OPENAPI_INDEX_FILE = '.mock-openapi-index.json';
const VERSION = 1;

export interface IndexedFile {
  readonly operation: string;
  readonly response: string;
  /** of the bytes written */
  readonly sha256: string;
}

/** workspace-relative, '/'-separated path → what was generated there */
export type IndexedFiles = ReadonlyMap<string, IndexedFile>;

export interface OpenApiIndex {
  /** the prefix the import was made with (an update makes its rules with the same one) */
  readonly basePath?: string;
  readonly files: IndexedFiles;
}

export function indexFileText(index: OpenApiIndex): string {
  const files: Record<string, IndexedFile> = {};
  for (const [path, f] of [...index.files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    files[path] = { operation: f.operation, response: f.response, sha256: f.sha256 };
  const base = index.basePath === undefined ? {} : { base_path: index.basePath };
  return JSON.stringify({ version: VERSION, ...base, files }, null, 2) + '\n';
}

/** The index read back; a string: what is wrong with it. */
export function parseIndexFile(text: string): OpenApiIndex | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected an object';
  const o = v as Record<string, unknown>;
  if (o['version'] !== VERSION) return `version: expected ${VERSION}`;
  const files = o['files'];
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return 'files: expected an object';
  const out = new Map<string, IndexedFile>();
  for (const [path, f] of Object.entries(files as Record<string, unknown>)) {
    const e = f as Record<string, unknown> | null;
    if (
      typeof e !== 'object' ||
      e === null ||
      typeof e['operation'] !== 'string' ||
      typeof e['response'] !== 'string' ||
      typeof e['sha256'] !== 'string'
    )
      return `files["${path}"]: expected {operation, response, sha256}`;
    // only paths inside the workspace: --update may replace or remove what the index lists
    if (
      path.startsWith('/') ||
      /^[A-Za-z]:/.test(path) ||
      path.split(/[\\/]/).some((seg) => seg === '..' || seg === '')
    )
      return `files["${path}"]: expected a path inside the workspace ('/'-separated, no '..')`;
    out.set(path, { operation: e['operation'], response: e['response'], sha256: e['sha256'] });
  }
  const base = o['base_path'];
  if (base !== undefined && typeof base !== 'string') return 'base_path: expected a string';
  return { ...(base === undefined ? {} : { basePath: base }), files: out };
}

/** The plan's response files, each with the rule that answers with it. */
export function indexOfPlan(plan: ImportPlan): Map<string, IndexedFile> {
  const texts = new Map(plan.files.map((f) => [f.path, f.text]));
  const out = new Map<string, IndexedFile>();
  for (const r of plan.rules) {
    if (r.file === undefined || out.has(r.file)) continue;
    const text = texts.get(r.file);
    if (text === undefined) continue;
    out.set(r.file, { operation: r.operation, response: r.response, sha256: sha256Hex(text) });
  }
  return out;
}
