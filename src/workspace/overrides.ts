// Runtime overrides decoded against a workspace (docs/library.md#overrides): the rule-set decoder
// (config/overrides.ts) with respond files resolved from the workspace's folder and checked on disk now, so an
// override naming a missing file is refused when it is added, as a rule set naming one is refused at load.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { decodeOverrideRules } from '../config/overrides.js';
import type { RespondFileStatus } from '../config/respond-files.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Rule } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import type { Result } from '../shared/result.js';

export { formatOverrideDiagnostic } from '../config/overrides.js';

export function decodeOverrides(rules: unknown, ws: Workspace): Result<Rule[], Diagnostic[]> {
  return decodeOverrideRules(rules, { baseDir: ws.baseDir, facts: { respondFile, isDir } });
}

const INDEX_FILES = ['index.json', 'index.json5', 'index.csv', 'index.html'];
const JSON_EXTENSIONS = new Set(['.json', '.json5']);

function kind(abs: string): 'file' | 'dir' | 'missing' | 'other' {
  try {
    const s = statSync(abs);
    return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'missing';
  }
}

function isDir(abs: string): boolean {
  return kind(abs) === 'dir';
}

/** config/read.ts's respondFileStatus, synchronously: an override is checked inside the call that adds it */
function respondFile(abs: string): RespondFileStatus {
  const k = kind(abs);
  if (k === 'missing') return { kind: 'missing' };
  let file = abs;
  if (k === 'dir') {
    let names: string[] = [];
    try {
      names = readdirSync(abs);
    } catch {
      // unreadable: as empty
    }
    const index = INDEX_FILES.find((n) => names.includes(n));
    if (index === undefined) return { kind: 'dir_without_index' };
    file = join(abs, index);
  }
  if (!JSON_EXTENSIONS.has(extname(file).toLowerCase())) return { kind: 'file', path: file };
  try {
    return { kind: 'file', path: file, text: readFileSync(file, 'utf8') };
  } catch (e) {
    return { kind: 'unreadable', path: file, reason: e instanceof Error ? e.message : String(e) };
  }
}
