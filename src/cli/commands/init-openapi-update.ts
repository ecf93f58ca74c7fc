// `mock --init --from <document> --update`: the earlier import of the document, brought up to date in place
// (openapi/update.ts plans it from the `# openapi:` markers and .mock-openapi-index.json). Written like every
// edit: response files created exclusively first, then the rule sets, replaced response files and the index
// together through set rule's commit (a file changed on disk since it was read is a conflict and nothing is
// replaced), then untouched files no rule names any more are removed. `--dry-run` shows the diff. docs/openapi.md.
import { readFileSync } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { commitFiles, readFileVersion, type FileVersion, type PendingWrite } from '../../config/edit/io/commit.js';
import { PAUSE_ENV } from '../../config/edit/io/set-rule.js';
import { unifiedDiff } from '../../config/edit/view.js';
import { decodeRootConfig } from '../../config/root-config.js';
import { findingsResult, findingsText } from '../../contract/findings.js';
import { ROOT_CONFIG_FILE } from '../../model/config.js';
import { successEnvelope } from '../../model/envelope.js';
import { indexFileText, OPENAPI_INDEX_FILE, parseIndexFile, type OpenApiIndex } from '../../openapi/file-index.js';
import { planImport } from '../../openapi/plan.js';
import { titleSlug } from '../../openapi/paths.js';
import { planUpdate, type UpdatePlan } from '../../openapi/update.js';
import { sha256Hex } from '../../shared/sha256.js';
import type { Io } from '../io.js';
import type { Wire } from '../../shared/wire.js';
import { reportFailure, type Failure } from '../report.js';
import { systemReason } from '../request.js';
import { createFile, type OpenApiInitOptions } from './init-openapi.js';
import { loadOpenApi } from './openapi-load.js';

const PREFIX = 'mock --init';

const MESSAGES = {
  noConfig: () => `--update needs the workspace of an earlier import: there is no ./${ROOT_CONFIG_FILE} here`,
  configInvalid: () => `the root config ./${ROOT_CONFIG_FILE} does not load; fix it first (nothing was written)`,
  unreadable: (shown: string, why: string) => `cannot read ${shown}: ${why}`,
  badIndex: (why: string) => `${OPENAPI_INDEX_FILE} does not read (${why}); nothing was written`,
  noMarkers: () =>
    'no rule in the rule sets of ./mock.toml carries an `# openapi:` marker, so there is no earlier import to update ' +
    '(imports made before markers existed cannot be updated: import again beside it; docs/openapi.md)',
  exists: (shown: string) => `${shown} appeared while updating; nothing was written (run it again)`,
} as const;

export async function runOpenApiUpdate(o: OpenApiInitOptions, io: Io): Promise<number> {
  const r = await update(o, io);
  if ('kind' in r) return reportFailure(io, PREFIX, o.format, r);
  const { up, source } = r;
  if (o.format === 'json') {
    io.out(
      successEnvelope(io.version(), {
        ...(findingsResult(up.findings) as Record<string, Wire>),
        dry_run: o.dryRun,
        updated: [...up.updated],
        added: [...up.added],
        removed: [...up.removed],
        changed_files: [...up.ruleSets.map((x) => x.path), ...up.files.map((f) => f.path)],
        removed_files: [...up.removedFiles],
      }),
    );
    return 0;
  }
  let out = `${o.dryRun ? 'Would update (--dry-run, nothing written)' : 'Updated'} the import of ${source}: `;
  out += `${up.updated.length} rule(s) updated, ${up.added.length} added, ${up.removed.length} removed; `;
  out += `${up.files.length} response file(s) written, ${up.removedFiles.length} removed.\n`;
  for (const [what, list] of [
    ['updated', up.updated],
    ['added', up.added],
    ['removed', up.removed],
  ] as const)
    for (const l of list) out += `  ${what}: ${l}\n`;
  for (const f of up.files) out += `  ${f.replace ? 'replaced' : 'created'}: ${f.path}\n`;
  for (const f of up.removedFiles) out += `  deleted: ${f}\n`;
  if (up.findings.length > 0) out += '\n' + findingsText(up.findings);
  if (o.dryRun)
    for (const x of up.ruleSets)
      out += '\n' + unifiedDiff({ abs: resolve(io.cwd, x.path), shown: x.path, before: x.before, after: x.after });
  if (!o.dryRun && up.ruleSets.length === 0 && up.files.length === 0 && up.removedFiles.length === 0)
    out += 'Nothing to change: the workspace follows the document.\n';
  io.out(out);
  return 0;
}

async function update(o: OpenApiInitOptions, io: Io): Promise<Failure | { up: UpdatePlan; source: string }> {
  const loaded = await loadOpenApi(io.cwd, o.from, { bundled: true });
  if (!loaded.ok) return loaded.error;
  const doc = loaded.value.doc;
  const configAbs = resolve(io.cwd, ROOT_CONFIG_FILE);
  const config = await readFileVersion(configAbs, `./${ROOT_CONFIG_FILE}`);
  if (config.problem !== undefined)
    return { kind: 'config_unreadable', message: MESSAGES.unreadable(`./${ROOT_CONFIG_FILE}`, config.problem) };
  if (config.text === undefined) return { kind: 'usage', message: MESSAGES.noConfig() };
  const root = decodeRootConfig(config.text, configAbs, io.cwd);
  const errors = root.decode.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { kind: 'config_invalid', message: MESSAGES.configInvalid(), diagnostics: errors };
  const baseDir = dirname(configAbs);
  const rel = (abs: string): string => relative(baseDir, abs).split(sep).join('/');

  const indexVersion = await readFileVersion(resolve(baseDir, OPENAPI_INDEX_FILE), OPENAPI_INDEX_FILE);
  let index: OpenApiIndex = { files: new Map() };
  if (indexVersion.problem !== undefined)
    return { kind: 'io', message: MESSAGES.unreadable(OPENAPI_INDEX_FILE, indexVersion.problem) };
  if (indexVersion.text !== undefined) {
    const parsed = parseIndexFile(indexVersion.text);
    if (typeof parsed === 'string') return { kind: 'config_invalid', message: MESSAGES.badIndex(parsed) };
    index = parsed;
  }
  const ruleSetVersions: FileVersion[] = [];
  for (const e of root.ruleSets) {
    const v = await readFileVersion(e.path, rel(e.path));
    if (v.problem !== undefined) return { kind: 'io', message: MESSAGES.unreadable(v.shown, v.problem) };
    if (v.text !== undefined) ruleSetVersions.push(v);
  }

  // made as the first import was: its prefix, its names (a path the index lists is the import's own, so free)
  const exists = (p: string): boolean => hashAt(resolve(baseDir, p)) !== undefined;
  const plan = planImport(doc, {
    source: o.from,
    command: `mock --init --from ${o.from}`,
    ruleSetName: titleSlug(doc),
    basePath: index.basePath ?? '',
    taken: (p) => !index.files.has(p) && exists(p) && !ruleSetVersions.some((v) => v.shown === p),
  });
  const up = planUpdate({
    plan,
    ruleSets: ruleSetVersions.map((v) => ({ path: v.shown, text: v.text! })),
    index: index.files,
    hashOf: (p) => hashAt(resolve(baseDir, p)),
  });
  if (up.marked === 0) return { kind: 'usage', message: MESSAGES.noMarkers() };
  const source = `${plan.title}${plan.version === '' ? '' : ' ' + plan.version} from ${o.from}`;
  if (o.dryRun) return { up, source };

  // new files first (exclusively), then everything else at once
  const created: string[] = [];
  const undo = async (): Promise<void> =>
    void (await Promise.all(created.map((p) => unlink(p).catch(() => undefined))));
  const writes: PendingWrite[] = [];
  for (const f of up.files) {
    const abs = resolve(baseDir, f.path);
    if (f.replace) {
      const v = await readFileVersion(abs, f.path);
      writes.push({ snapshot: v, after: typeof f.text === 'string' ? f.text : new TextDecoder().decode(f.text) });
      continue;
    }
    try {
      await mkdir(dirname(abs), { recursive: true });
    } catch (e) {
      await undo();
      return { kind: 'io', message: `cannot write ${f.path}: ${systemReason(e)}; nothing was written` };
    }
    const made = createFile(abs, f.text);
    if (made !== undefined) {
      await undo();
      return made === 'EEXIST'
        ? { kind: 'conflict', message: MESSAGES.exists(f.path) }
        : { kind: 'io', message: `cannot write ${f.path}: ${made}; nothing was written` };
    }
    created.push(abs);
  }
  for (const x of up.ruleSets) {
    const v = ruleSetVersions.find((r) => r.shown === x.path)!;
    writes.push({ snapshot: v, after: x.after });
  }
  const indexAfter = indexFileText({
    ...(index.basePath === undefined ? {} : { basePath: index.basePath }),
    files: up.index,
  });
  if (indexAfter !== indexVersion.text) writes.push({ snapshot: indexVersion, after: indexAfter });
  const failure = writes.length === 0 ? undefined : await commitFiles(writes, pauseMs());
  if (failure !== undefined) {
    await undo();
    return failure;
  }
  for (const p of up.removedFiles) await unlink(resolve(baseDir, p)).catch(() => undefined);
  return { up, source };
}

/** set rule's test hook: a pause between staging and the conflict check (config/edit/io/set-rule.ts). */
function pauseMs(): number {
  const n = Number(process.env[PAUSE_ENV] ?? 0);
  return Number.isSafeInteger(n) && n > 0 ? Math.min(n, 60_000) : 0;
}

function hashAt(abs: string): string | undefined {
  try {
    return sha256Hex(readFileSync(abs));
  } catch {
    return undefined;
  }
}
