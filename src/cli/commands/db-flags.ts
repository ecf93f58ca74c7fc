// json-server 0.17's command-line flags, as `mock --db` takes them (docs/coming-from-json-server.md): each with
// json-server's meaning where mock has the feature, else a usage error naming mock's way. Also what `--db` does
// before the server starts (a missing db file is created with json-server's sample) and the start-up line that
// says where the changes go.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { DbOptions, RouteRewrite } from '../../model/collection.js';
import type { Workspace } from '../../model/workspace.js';
import { flagValue, hasFlag, type ParsedArgs } from '../../shared/args.js';

export interface DbFlags {
  readonly dbOptions?: DbOptions;
  /** `--static <dir>` / `-s`: mock's `--dir` */
  readonly dir?: string;
  /** `--host`: listener.ip_address */
  readonly host?: string;
}

/** json-server flags mock has no equivalent of, with the way to do it in mock */
const NOT_TAKEN: readonly (readonly [string, string])[] = [
  [
    'snapshots',
    'mock keeps no snapshot folder: save the live data with `curl http://127.0.0.1:3001/db > snapshot.json`, or add --persist to write every change to the db file',
  ],
  [
    'middlewares',
    'mock runs Rhai middleware scripts, listed in mock.toml as service.middlewares (mock --init --middleware scaffolds one; docs/coming-from-json-server.md#middlewares shows the common json-server middlewares in Rhai)',
  ],
];

/** The json-server flags given, or the usage error they make. `cwd`: where `--routes` is read from. */
export function parseDbFlags(
  args: ParsedArgs,
  cwd: string,
): { ok: true; value: DbFlags } | { ok: false; error: string } {
  for (const [flag, instead] of NOT_TAKEN)
    if (hasFlag(args, flag)) return { ok: false, error: `--${flag} is json-server's; ${instead}` };
  const db = flagValue(args, 'db');
  const jsonServerOnly = ['routes', 'read-only', 'no-cors', 'id', 'foreignKeySuffix', 'delay', 'db-style'].find((f) =>
    hasFlag(args, f),
  );
  if (db === undefined && jsonServerOnly !== undefined)
    return {
      ok: false,
      error: `--${jsonServerOnly} goes with --db <file> (json-server's flags apply to its data file)`,
    };
  const opts: { -readonly [K in keyof DbOptions]: DbOptions[K] } = {};
  const routesFile = flagValue(args, 'routes');
  if (routesFile !== undefined) {
    const routes = readRoutes(resolve(cwd, routesFile), routesFile);
    if (typeof routes === 'string') return { ok: false, error: routes };
    opts.routes = routes;
  }
  const style = flagValue(args, 'db-style');
  if (style !== undefined && style !== 'v0' && style !== 'v1')
    return {
      ok: false,
      error: `--db-style takes v0 (json-server 0.17, the default) or v1 (json-server 1.0), not '${style}'`,
    };
  if (style !== undefined) opts.style = style;
  if (hasFlag(args, 'read-only')) opts.readOnly = true;
  if (hasFlag(args, 'no-cors')) opts.noCors = true;
  const id = flagValue(args, 'id');
  if (id !== undefined) {
    if (id === '') return { ok: false, error: '--id needs a field name (json-server: --id _id)' };
    opts.id = id;
  }
  const fks = flagValue(args, 'foreignKeySuffix');
  if (fks !== undefined) {
    if (fks === '')
      return { ok: false, error: '--foreignKeySuffix needs a suffix (json-server: --foreignKeySuffix _id)' };
    opts.foreignKeySuffix = fks;
  }
  const delay = flagValue(args, 'delay');
  if (delay !== undefined) {
    const ms = Number(delay);
    if (!/^\d+$/.test(delay) || !Number.isSafeInteger(ms))
      return { ok: false, error: `--delay takes whole milliseconds, not '${delay}' (mock's -d is --dir)` };
    opts.delayMs = ms;
  }
  const dir = flagValue(args, 'static');
  if (dir !== undefined && flagValue(args, 'dir') !== undefined)
    return { ok: false, error: '--static is --dir: give one of them' };
  const host = flagValue(args, 'host');
  return {
    ok: true,
    value: {
      ...(Object.keys(opts).length > 0 ? { dbOptions: opts } : {}),
      ...(dir !== undefined ? { dir } : {}),
      ...(host !== undefined ? { host } : {}),
    },
  };
}

/** a routes file: one JSON object of pattern → target, in order */
function readRoutes(abs: string, shown: string): RouteRewrite[] | string {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    return `--routes ${shown}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(e)})`}`;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `--routes ${shown}: not valid JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return `--routes ${shown}: expected one JSON object of rewrites, like { "/api/*": "/$1" }`;
  const out: RouteRewrite[] = [];
  for (const [from, to] of Object.entries(v)) {
    if (typeof to !== 'string') return `--routes ${shown}: the target of "${from}" must be a string, like "/$1"`;
    if (!from.startsWith('/')) return `--routes ${shown}: the pattern "${from}" must start with /`;
    out.push({ from, to });
  }
  return out;
}

/** json-server's sample data, written where a missing db file was named */
const SAMPLE = {
  posts: [{ id: 1, title: 'json-server', author: 'typicode' }],
  comments: [{ id: 1, body: 'some comment', postId: 1 }],
  profile: { name: 'typicode' },
};

/**
 * A `--db` file that does not exist is created with json-server's sample (as json-server does), without replacing
 * one made meanwhile; the line to print, or undefined when it existed. A JavaScript db file is not made up.
 */
export function createMissingDb(cwd: string, db: string): string | undefined {
  const abs = resolve(cwd, db);
  if (existsSync(abs) || /\.c?js$/i.test(abs)) return undefined;
  try {
    writeFileSync(abs, `${JSON.stringify(SAMPLE, null, 2)}\n`, { flag: 'wx' });
  } catch {
    // made meanwhile, or the folder is missing: the load says what is wrong
    return undefined;
  }
  return `[db] ${db} did not exist: created it with sample data (posts, comments, profile), as json-server does`;
}

/** The start-up line of `--db`: where the data comes from, and whether changes reach the file. */
export function dbLine(ws: Workspace, cwd: string): string | undefined {
  const file = ws.config.service.db;
  if (file === undefined) return undefined;
  const rel = relative(cwd, file);
  const shown = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
  const n = (ws.collections ?? []).filter((c) => c.ruleSetIndex === undefined).length;
  const where =
    ws.config.service.dbPersist === true
      ? `changes are written to ${shown} (--persist)`
      : `changes are kept in memory (add --persist to write ${shown})`;
  return `[db] ${shown}: ${n} resource${n === 1 ? '' : 's'}; ${where}`;
}
