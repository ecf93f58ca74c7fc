// Plain-data helpers for planning: the TOML document as data (getStaticTOMLValue), read and changed by
// key path, and the check that an edited text holds exactly the data it should.
import { err, ok, type Result } from '../../shared/result.js';
import { SET_RULE_MESSAGES, type FileState, type PlanFailure } from './plan-types.js';
import { parseTomlText, staticValueOf, type KeyPath, type TomlProgram } from './spans.js';

export function parseFile(f: FileState): Result<TomlProgram, PlanFailure> {
  const r = parseTomlText(f.text ?? '');
  if (r.ok) return r;
  const { line, column, message } = r.error;
  return err({ kind: 'config_invalid', message: SET_RULE_MESSAGES.syntax(f.shown, line, column, message) });
}

/** The edited text must parse and hold exactly the expected data: nothing else may have moved. */
export function verify(after: string, expected: unknown, shown: string): Result<true, PlanFailure> {
  const parsed = parseTomlText(after);
  if (parsed.ok && deepEqual(staticValueOf(parsed.value), expected)) return ok(true);
  return err({ kind: 'config_invalid', message: SET_RULE_MESSAGES.unsafe(shown) });
}

export type Table = Record<string, unknown>;

export function isTable(v: unknown): v is Table {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

export function getIn(obj: Table, path: KeyPath): unknown {
  let cur: unknown = obj;
  for (const k of path) {
    if (!isTable(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

export function setIn(obj: Table, path: KeyPath, value: unknown): void {
  let cur = obj;
  for (const k of path.slice(0, -1)) {
    const next = cur[k];
    cur = isTable(next) ? next : (cur[k] = {});
  }
  cur[path[path.length - 1]!] = value;
}

export function deleteIn(obj: Table, path: KeyPath): void {
  const parent = getIn(obj, path.slice(0, -1));
  if (isTable(parent)) delete parent[path[path.length - 1]!];
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isTable(a) && isTable(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}
