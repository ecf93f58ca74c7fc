// `mock --init --from <file>`: an OpenAPI 3.0/3.1 document → a workspace that answers every operation.
// The document is read and validated (openapi-load.ts), mapped purely (openapi/plan.ts), and the result is
// checked with the loader's own decoders before anything is written. In a folder without mock.toml it writes
// the whole workspace; with one, it adds the rule set and lists it in service.rule_sets through `set rule`'s
// planner (comments and formatting kept). No file is ever overwritten: the plan picks free names (-2, -3, …),
// response files are created exclusively (node/safe-write.ts: a temp file, then a hard link), and the rule set and config go in
// atomically through set rule's commit, config last, so the config never lists what is not there. A failure
// removes the response files this run created.
import { existsSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { mkdir } from 'node:fs/promises';
import { createUnreferenced, syncDir } from '../../node/safe-write.js';
import { basename, dirname, resolve } from 'node:path';
import { planConfig } from '../../config/edit/config-edit.js';
import { decodeRootConfig } from '../../config/root-config.js';
import { checkRuleSetFiles, decodeRuleSetDraft, settleRuleSet } from '../../config/rule-set.js';
import { ROOT_CONFIG_FILE } from '../../model/config.js';
import { DEFAULT_STRATEGY } from '../../model/strategy.js';
import { startImport, type ImportPlan } from '../../openapi/plan.js';
import { basePathOf, titleSlug } from '../../openapi/paths.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { OutputFormat } from '../../shared/args.js';
import { successEnvelope } from '../../model/envelope.js';
import { INIT_DEFAULTS, rootConfigText, type InitAnswers } from '../init-files.js';
import type { Io } from '../io.js';
import { importResult, importText, type ImportView } from '../render/init-openapi.js';
import { reportFailure, type Failure } from '../report.js';
import { systemReason } from '../request.js';
import { loadOpenApi } from './openapi-load.js';
import { loadCache } from '../../start-up/load-cache.js';
import { primeLoadCache } from '../../workspace/tracked-load.js';
import { pathSummary } from '../../routing/path-index.js';
import { loadSource } from './import-source.js';
import { planLoadable } from './import-loadable.js';
import { harResult, harText, importHar, type HarView } from './import-har.js';
import { checkTemplates } from './import-templates.js';
import type { ImportFormat } from '../../import/formats.js';
import { planSource, type SourceImport, type SourcePlan } from '../../import/plan.js';
import { sourceResult, sourceText, type SourceView } from '../render/init-import.js';
import type { Obj } from '../../openapi/document.js';
import { askOpenApi, type OpenApiAnswers } from './init-openapi-prompts.js';
import { commitFiles, readFileVersion, type PendingWrite } from '../../config/edit/io/commit.js';
import { indexFileText, indexOfPlan, OPENAPI_INDEX_FILE, parseIndexFile } from '../../openapi/file-index.js';
import { collectGarbage, ImportProgress, ImportStop, Stopped, STOP_MESSAGES } from './init-openapi-progress.js';

const PREFIX = 'mock --init';

export interface OpenApiInitOptions {
  /** the document, as given */
  readonly from: string;
  readonly yes: boolean;
  readonly dryRun: boolean;
  readonly format: OutputFormat;
  /** list every operation in the text summary */
  readonly verbose?: boolean;
  /** what a large import says as it works (init-openapi-progress.ts) */
  readonly progress?: ImportProgress;
  /** Ctrl-C heard from the planning on (init-openapi-progress.ts): made when the planning begins */
  readonly stop?: () => ImportStop;
  /** update the earlier import in place (init-openapi-update.ts) */
  readonly update?: boolean;
  /** `--from-format`: read the source as this format (else told from its content) */
  readonly fromFormat?: ImportFormat;
  /** `--har-host` */
  readonly harHost?: string;
  /** `--include-static` */
  readonly includeStatic?: boolean;
  /** `--postman-env` */
  readonly postmanEnv?: string;
  /** false: --no-load-cache, the import does not fill the load cache */
  readonly loadCache?: boolean;
}

type View =
  | { readonly kind: 'openapi'; readonly view: ImportView }
  | { readonly kind: 'source'; readonly view: SourceView }
  | { readonly kind: 'har'; readonly view: HarView };
type Planned = Pick<ImportPlan, 'ruleSets' | 'files'>;

/** the share of the heap limit at which the import stops with a message (instead of V8's crash without one) */
const HEAP_SHARE = 0.9;
const YOUNG_GENERATION = 48 * 2 ** 20;

class OutOfMemory extends Error {}

/** Stop with a message (not V8's crash) when the heap is nearly full; `where`: how far the import got. */
function checkHeap(where: () => string): void {
  const heap = getHeapStatistics();
  // heap_size_limit includes the young generation (48 MiB on 64-bit); the old space fails first
  const old = Math.max(heap.heap_size_limit / 2, heap.heap_size_limit - YOUNG_GENERATION);
  if (heap.used_heap_size > old * HEAP_SHARE)
    throw new OutOfMemory(MESSAGES.memory(where(), Math.round(old / 2 ** 20)));
}

export async function runOpenApiInit(o: OpenApiInitOptions, io: Io): Promise<number> {
  if (o.update === true) {
    const { runOpenApiUpdate } = await import('./init-openapi-update.js');
    return runOpenApiUpdate(o, io);
  }
  const progress = new ImportProgress(io, sizeOf(resolve(io.cwd, o.from)));
  const holder: { stop?: ImportStop } = {};
  const code = await importAndReport(o, io, progress, holder);
  // the first `mock` after an import starts warm: the new rule sets are decoded once now, into the load cache.
  // Here, after importAndReport returned: the plan is garbage, not held while the workspace loads.
  // A stop asked for while the files were committed: the import is whole, only the load cache is not filled.
  if (code === 0 && !o.dryRun && o.loadCache !== false && holder.stop?.requested !== true) {
    const cache = loadCache({ version: io.version(), env: process.env, summarise: pathSummary });
    if (cache === undefined) return 0;
    // a large import said how far it got: this step takes a while too, so it says what it is doing
    progress.step(MESSAGES.priming);
    if (progress.spoke) collectGarbage();
    await primeLoadCache(io.cwd, cache);
  }
  return code;
}

/** The import and its report; the exit code. */
async function importAndReport(
  o: OpenApiInitOptions,
  io: Io,
  progress: ImportProgress,
  holder: { stop?: ImportStop },
): Promise<number> {
  let outcome: Awaited<ReturnType<typeof importDocument>>;
  try {
    outcome = await importDocument({ ...o, progress, stop: () => (holder.stop ??= new ImportStop(io)) }, io);
  } catch (e) {
    if (e instanceof Stopped) {
      io.err(`${PREFIX}: ${STOP_MESSAGES.stopped}\n`);
      return 130;
    }
    if (!(e instanceof OutOfMemory)) throw e;
    outcome = err({ kind: 'io', message: e.message });
  } finally {
    holder.stop?.dispose();
  }
  if (!outcome.ok) return reportFailure(io, PREFIX, o.format, outcome.error);
  if (outcome.value === undefined) {
    io.err(`${PREFIX}: cancelled; nothing was written\n`);
    return 1;
  }
  const v = outcome.value;
  if (v.kind === 'source')
    io.out(o.format === 'json' ? successEnvelope(io.version(), sourceResult(v.view)) : sourceText(v.view));
  else if (v.kind === 'har')
    io.out(o.format === 'json' ? successEnvelope(io.version(), harResult(v.view)) : harText(v.view));
  else io.out(o.format === 'json' ? successEnvelope(io.version(), importResult(v.view)) : importText(v.view));
  return 0;
}

/** the file's size in bytes (0 when it cannot be told: the load names the problem) */
function sizeOf(abs: string): number {
  try {
    return statSync(abs).size;
  } catch {
    return 0;
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

const MESSAGES = {
  memory: (where: string, limitMb: number) =>
    `the document is too large for the memory Node.js allows (${limitMb} MB): stopped ${where}; nothing was written. ` +
    'Run it again with more, for example `NODE_OPTIONS=--max-old-space-size=4096 mock --init --from …`',
  internal: (shown: string) =>
    `the rule set made from the document would not load (a bug in mock; please report it): ${shown}`,
  configInvalid: (shown: string) => `the root config ${shown} does not load; fix it first (nothing was written)`,
  unreadable: (shown: string, why: string) => `cannot read ${shown}: ${why}`,
  exists: (shown: string) => `${shown} appeared while importing; nothing was written (run it again)`,
  write: (shown: string, why: string) => `cannot write ${shown}: ${why}; nothing was written`,
  priming: 'reading the new rule sets once, so that `mock` starts fast (docs/load-cache.md)',
} as const;

/** undefined: the user cancelled a prompt */
async function importDocument(o: OpenApiInitOptions, io: Io): Promise<Result<View | undefined, Failure>> {
  o.progress?.step(`reading ${o.from} (${megabytes(sizeOf(resolve(io.cwd, o.from)))})`);
  let source = await loadSource(io.cwd, o.from, {
    ...(o.fromFormat === undefined ? {} : { format: o.fromFormat }),
    ...(o.postmanEnv === undefined ? {} : { postmanEnv: o.postmanEnv }),
  });
  if (!source.ok) return source;
  if (source.value.kind === 'har') {
    const har = await importHar(io.cwd, o.from, source.value.data, {
      dryRun: o.dryRun,
      ...(o.harHost === undefined ? {} : { host: o.harHost }),
      ...(o.includeStatic === true ? { includeStatic: true } : {}),
    });
    return har.ok ? ok({ kind: 'har', view: har.value }) : har;
  }
  let doc: Obj | undefined;
  let swagger: string | undefined;
  if (source.value.kind === 'openapi') {
    const loaded = await loadOpenApi(io.cwd, o.from, {
      bundled: true,
      ...(source.value.parsed === undefined ? {} : { parsed: source.value.parsed }),
      phase: () => o.progress?.step('validating: its $refs, and the document against the OpenAPI schema'),
    });
    // the text and the value read to tell the format are not held while planning
    source = ok({ kind: 'openapi', format: source.value.format });
    if (!loaded.ok) return loaded;
    doc = loaded.value.doc;
    swagger = loaded.value.swagger;
  }
  let imp: SourceImport | undefined =
    source.value.kind === 'source' ? await checkTemplates(source.value.imp) : undefined;
  const configAbs = resolve(io.cwd, ROOT_CONFIG_FILE);
  const configShown = `./${ROOT_CONFIG_FILE}`;
  const config = await readFileVersion(configAbs, configShown);
  if (config.problem !== undefined)
    return err({ kind: 'config_unreadable', message: MESSAGES.unreadable(configShown, config.problem) });
  const fresh = config.text === undefined;
  if (!fresh) {
    const root = decodeRootConfig(config.text, configAbs, io.cwd);
    const errors = root.decode.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0)
      return err({ kind: 'config_invalid', message: MESSAGES.configInvalid(configShown), diagnostics: errors });
  }

  let answers: OpenApiAnswers = {
    listener: INIT_DEFAULTS,
    ruleSetName: doc !== undefined ? titleSlug(doc) : slugOf(imp!.title, imp!.format),
    basePath: doc !== undefined ? (basePathOf(doc) ?? '') : '',
  };
  if (doc !== undefined && !o.yes && !o.dryRun && o.format === 'text' && io.interactive) {
    const asked = await askOpenApi(answers, fresh);
    if (asked === undefined) return ok(undefined);
    answers = asked;
  }

  const command = `mock --init --from ${o.from}${o.fromFormat === undefined ? '' : ` --from-format ${o.fromFormat}`}`;
  let plan: Planned;
  let openapiPlan: ImportPlan | undefined;
  let sourcePlan: SourcePlan | undefined;
  const configFor = (planned: Planned): Result<string, Failure> => {
    if (fresh) {
      const listener: InitAnswers = {
        ...answers.listener,
        ...(imp?.listener ?? {}),
        ruleSet: true,
        middleware: false,
        tls: false,
      };
      return ok(
        rootConfigText(
          listener,
          planned.ruleSets.map((r) => r.path),
        ),
      );
    }
    let after = config.text;
    for (const r of planned.ruleSets) {
      const edited = planConfig(
        undefined,
        { abs: configAbs, shown: configShown, text: after },
        { abs: resolve(io.cwd, r.path), shown: r.path, text: undefined },
        r.path,
      );
      if (!edited.ok) return err(edited.error);
      after = edited.value.after ?? after;
    }
    return ok(after);
  };
  let configAfter: string;
  const stop = doc !== undefined ? o.stop?.() : undefined;
  if (doc !== undefined) {
    const progress = o.progress;
    const planner = startImport(doc, {
      source: o.from,
      command,
      ruleSetName: answers.ruleSetName,
      basePath: answers.basePath,
      taken: takenIn(io.cwd),
      progress: (done, total) => {
        if (done % 10 === 0) checkHeap(() => `after ${done} of ${total} operations`);
        progress?.operations(done, total);
      },
    });
    do await stop?.turn();
    while (planner.next());
    plan = openapiPlan = planner.finish();
    doc = undefined; // not held while the plan is checked and written
    const made = configFor(plan);
    if (!made.ok) return made;
    configAfter = made.value;
    o.progress?.step(`checking the ${plan.ruleSets.length} rule sets it makes`);
    const checked = await checkPlan(plan, configAfter, configAbs, io.cwd, stop, o.progress?.spoke === true);
    if (checked !== undefined) return err(checked);
    if (o.progress?.spoke === true) collectGarbage();
  } else {
    const settled = await planLoadable(
      imp!,
      (i) => planSource(i, { source: o.from, command, ruleSetName: answers.ruleSetName, taken: takenIn(io.cwd) }),
      configFor,
      (p, text) => checkPlan(p, text, configAbs, io.cwd, undefined, false),
      (p) => resolve(dirname(configAbs), p),
    );
    if (!settled.ok) return settled;
    imp = settled.value.imp;
    plan = sourcePlan = settled.value.plan;
    configAfter = settled.value.config;
  }

  const view: View =
    openapiPlan !== undefined
      ? {
          kind: 'openapi',
          view: {
            dryRun: o.dryRun,
            verbose: o.verbose === true,
            source: o.from,
            plan: openapiPlan,
            configShown,
            configCreated: fresh,
            ...(swagger === undefined ? {} : { swagger }),
          },
        }
      : {
          kind: 'source',
          view: { dryRun: o.dryRun, source: o.from, imp: imp!, plan: sourcePlan!, configShown, configCreated: fresh },
        };
  if (o.dryRun) return ok(view);
  // an OpenAPI import lists what it generated, for `--update` (docs/openapi.md); the other formats have no update
  let index: PendingWrite | undefined;
  if (openapiPlan !== undefined) {
    const indexVersion = await readFileVersion(resolve(io.cwd, OPENAPI_INDEX_FILE), OPENAPI_INDEX_FILE);
    const earlier = indexVersion.text === undefined ? undefined : parseIndexFile(indexVersion.text);
    const files = new Map(typeof earlier === 'object' ? earlier.files : []);
    for (const [path, f] of indexOfPlan(openapiPlan)) files.set(path, f);
    index = { snapshot: indexVersion, after: indexFileText({ basePath: answers.basePath, files }) };
  }
  o.progress?.step(`writing ${plan.files.length} response files and ${plan.ruleSets.length} rule sets`);
  const written = await writeAll(plan, io.cwd, config, configAfter, index, stop);
  if (written !== undefined) return err(written);
  return ok(view);
}

/** A rule-set name from a source's title: lower case, `-` between words; else the format's name. */
function slugOf(title: string, fallback: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? fallback : slug.slice(0, 60).replace(/-+$/, '');
}

/** Is a workspace-relative path taken? Each folder is listed once (a big import asks for tens of thousands of names). */
export function takenIn(cwd: string): (path: string) => boolean {
  const listed = new Map<string, ReadonlySet<string>>();
  return (p) => {
    const abs = resolve(cwd, p);
    const dir = dirname(abs);
    let names = listed.get(dir);
    if (names === undefined) {
      if (!existsSync(dir)) names = new Set();
      else {
        try {
          names = new Set(readdirSync(dir));
        } catch {
          return existsSync(abs);
        }
      }
      listed.set(dir, names);
    }
    return names.has(basename(abs));
  };
}

/** The edited config and the new rule sets must load with the loader's own decoders (files known from the plan). */
async function checkPlan(
  plan: Planned,
  configText: string,
  configAbs: string,
  cwd: string,
  stop: ImportStop | undefined,
  large: boolean,
): Promise<Failure | undefined> {
  const root = decodeRootConfig(configText, configAbs, cwd);
  const rootErrors = root.decode.diagnostics.filter((d) => d.severity === 'error');
  if (rootErrors.length > 0)
    return { kind: 'internal', message: MESSAGES.internal(ROOT_CONFIG_FILE), diagnostics: rootErrors };
  const baseDir = dirname(configAbs);
  const texts = new Map(plan.files.map((f) => [resolve(baseDir, f.path), f.text]));
  // a file many rules answer with (responses/shared/) is checked as JSON once, with the first rule that names it
  const checkedJson = new Set<string>();
  const collected = (): number => {
    collectGarbage();
    return getHeapStatistics().used_heap_size;
  };
  let held = large ? collected() : 0;
  for (const [i, ruleSet] of plan.ruleSets.entries()) {
    checkHeap(() => `checking rule set ${i + 1} of ${plan.ruleSets.length}`);
    // each rule set decoded is garbage once checked: collected when it is as much again as what is held
    if (large && getHeapStatistics().used_heap_size > 2 * held) held = collected();
    await stop?.turn();
    const ruleSetAbs = resolve(baseDir, ruleSet.path);
    const index = root.ruleSets.findIndex((e) => e.path === ruleSetAbs);
    const draft = decodeRuleSetDraft(String(ruleSet.text), ruleSetAbs, {
      index: Math.max(0, index),
      entry: ruleSet.path,
      baseDir,
      defaultStrategy: root.config.service.strategy ?? DEFAULT_STRATEGY,
    });
    checkRuleSetFiles(draft, {
      respondFile: (p) => {
        const text = texts.get(p);
        if (text === undefined) return { kind: 'missing' };
        // the loader reads only a .json or .json5 file's text (config/read.ts): an HTML or XML body is served as written
        if (typeof text !== 'string' || !/\.json5?$/i.test(p) || checkedJson.has(p)) return { kind: 'file', path: p };
        checkedJson.add(p);
        return { kind: 'file', path: p, text };
      },
      isDir: () => true,
    });
    const settled = settleRuleSet(draft);
    if (!settled.ok)
      return {
        kind: 'internal',
        message: MESSAGES.internal(ruleSet.path),
        diagnostics: settled.error.filter((d) => d.severity === 'error'),
      };
  }
  return undefined;
}

/** at most this many folders are made at once */
const WRITE_BATCH = 64;

/**
 * Response files first (each created exclusively and fsynced, one after the other: no temp file, since nothing
 * names them until the rule sets are written; node/safe-write.ts), their folders synced once, then the rule sets
 * and the config, atomically. A failure or a stop removes the files and folders made here.
 */
async function writeAll(
  plan: Planned,
  cwd: string,
  config: Awaited<ReturnType<typeof readFileVersion>>,
  configAfter: string,
  index: PendingWrite | undefined,
  stop: ImportStop | undefined,
): Promise<Failure | undefined> {
  const created = stop?.created ?? [];
  const fileDirs = new Set(plan.files.map((f) => dirname(resolve(cwd, f.path))));
  const dirs = [...new Set([...fileDirs, ...plan.ruleSets.map((f) => dirname(resolve(cwd, f.path)))])];
  const newDirs = foldersToMake(dirs, cwd);
  const undo = (): void => {
    for (const p of created.splice(0)) rmQuietly(p, false);
    for (const d of newDirs) rmQuietly(d, true);
  };
  try {
    for (let i = 0; i < dirs.length; i += WRITE_BATCH)
      await Promise.all(dirs.slice(i, i + WRITE_BATCH).map((d) => mkdir(d, { recursive: true })));
  } catch (e) {
    undo();
    return { kind: 'io', message: MESSAGES.write('responses/', systemReason(e)) };
  }
  try {
    for (const f of plan.files) {
      await stop?.turn();
      const abs = resolve(cwd, f.path);
      const r = createFile(abs, f.text);
      if (r === undefined) {
        created.push(abs);
        continue;
      }
      undo();
      return r === 'EEXIST'
        ? { kind: 'conflict', message: MESSAGES.exists(f.path) }
        : { kind: 'io', message: MESSAGES.write(f.path, r) };
    }
    for (const d of fileDirs) await syncDir(d);
    const commit = (): Promise<Failure | undefined> =>
      commitFiles([
        ...plan.ruleSets.map((r) => ({
          snapshot: { abs: resolve(cwd, r.path), shown: r.path, bom: false },
          after: String(r.text),
        })),
        ...(index === undefined ? [] : [index]),
        { snapshot: config, after: configAfter },
      ]);
    const failure = await (stop === undefined ? commit() : stop.commit(commit));
    if (failure !== undefined) undo();
    else created.splice(0);
    return failure;
  } catch (e) {
    undo();
    throw e;
  }
}

/** The folders of `dirs` (and the ones above them, up to cwd) that do not exist yet, deepest first. */
function foldersToMake(dirs: readonly string[], cwd: string): string[] {
  const out = new Set<string>();
  for (const d of dirs)
    for (let at = d; at.startsWith(cwd) && at !== cwd && !out.has(at) && !existsSync(at); at = dirname(at)) out.add(at);
  return [...out].sort((a, b) => b.length - a.length);
}

function rmQuietly(abs: string, folder: boolean): void {
  try {
    if (folder) rmdirSync(abs);
    else unlinkSync(abs);
  } catch {
    // gone already, or a folder someone else put a file in meanwhile: left as it is
  }
}

/** A new file, never over an existing one (node/safe-write.ts). undefined: done; 'EEXIST': the name is taken; else
 * the reason it failed. (Synchronous: written one after the other, see writeAll.) */
export function createFile(abs: string, text: string | Uint8Array): string | undefined {
  try {
    return createUnreferenced(abs, text) ? undefined : 'EEXIST';
  } catch (e) {
    return systemReason(e);
  }
}
