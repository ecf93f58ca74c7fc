// `mock` / `mock serve` (identical in every respect): load the workspace (./mock.toml when present, else
// zero-config), bind every listener, print the startup lines, serve until SIGINT or SIGTERM (exit 0).
// Unless --no-watch, the workspace is live: workspace/watch.ts reloads it on edits (docs/live-reload.md).
// A config problem exits 2 before anything binds; a bind failure (port in use …) exits 1.
// `--inspect[=<port>]` adds the management listener on 127.0.0.1 and a request journal (launch/launch.ts, the
// one start-up path the library's startMock() shares: this command is that plus its stdout lines and signals).
// `--record <url>` forwards misses to a real service and saves the answers (the flags: record-setup.ts; the set-up:
// launch/record/; the proxying: server/record/; docs/record.md). `--init` hands over to the init command instead.
// The command line is read in serve-args.ts: this file launches, prints and waits.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractGate } from '../../dispatch/dispatch.js';
import type { Workspace } from '../../model/workspace.js';
import { MockError } from '../../model/errors.js';
import { launch, type Launched } from '../../launch/launch.js';
import { startUpWork, holdYoungGeneration } from '../../start-up/start-up-work.js';
import { SERVE_FLAGS } from '../flags.js';
import { exitCodeFor } from '../../model/envelope.js';
import { ROOT_USAGE } from '../help.js';
import type { Io } from '../io.js';
import { configDisplay, entryDisplay } from '../../workspace/shown-paths.js';
import { startupText } from '../render/startup.js';
import { printDiagnostics, reportFailure, reportUsage } from '../report.js';
import { printReloads, watchFailureLines } from '../live-reload.js';
import { INSPECT_MESSAGES } from '../inspect-flags.js';
import { recordSetup } from '../../launch/record/setup.js';
import { loadCache } from '../../start-up/load-cache.js';
import { pathSummary } from '../../routing/path-index.js';
import { PREFIX, parseServe, type ServeOptions } from './serve-args.js';
import { batchedLog, type RequestLog } from '../request-log.js';
import { createMissingDb, dbLine } from './db-flags.js';

export { SERVE_FLAGS };

/** parse → launch → print → serve until SIGINT / SIGTERM */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const request = parseServe(argv, process.env, io.cwd);
  switch (request.kind) {
    case 'usage':
      return reportUsage(io, request.message, ROOT_USAGE);
    case 'init-from':
      return (await import('./init-openapi.js')).runOpenApiInit(request.options, io);
    case 'init':
      return (await import('./init.js')).runInit(request.options, io);
    case 'serve': {
      // json-server's habit: a db file that is not there yet is made with its sample
      const created = request.options.db === undefined ? undefined : createMissingDb(io.cwd, request.options.db);
      if (created !== undefined) io.out(created + '\n');
      const log = batchedLog((text) => io.out(text));
      const started = await launchServer(request.options, io, log);
      if (typeof started === 'number') return started;
      return serveUntilShutdown(started, request.options, io, log);
    }
  }
}

/** what the launch adds to the startup lines */
interface Started {
  readonly launched: Launched;
  readonly extraLines: readonly string[];
}

/** the launched server, or the exit code of its failure (reported) */
async function launchServer(o: ServeOptions, io: Io, log: RequestLog): Promise<Started | number> {
  const extra = { contract: undefined as string | undefined, record: [] as readonly string[] };
  let recordProblem: string | undefined;
  // the document is read once the workspace is loaded (service.contract is relative to its config)
  const prepareContract = async (loadedWs: Workspace): Promise<ContractGate | undefined> => {
    if (o.contractFlag === undefined && loadedWs.config.service.contract === undefined) return undefined;
    const { contractSetup } = await import('./contract-entry.js');
    const given = {
      ...(o.contractFlag !== undefined ? { flag: o.contractFlag } : {}),
      ...(o.contractMode !== undefined ? { mode: o.contractMode } : {}),
    };
    const r = await contractSetup(io.cwd, given, loadedWs);
    if (!r.ok) throw new MockError(r.error.kind, r.error.message);
    extra.contract = r.value?.line;
    return r.value?.gate;
  };
  // record mode's settings need the loaded workspace; a layout problem there is a usage error (exit 2)
  const recording = o.record;
  const prepareRecord =
    recording === undefined
      ? undefined
      : async (loadedWs: Parameters<typeof recordSetup>[1]) => {
          const r = await recordSetup(recording, loadedWs, loadOptions(o, io), process.env);
          if (!r.ok) {
            recordProblem = `${PREFIX}: ${r.error}`;
            throw new MockError('usage', recordProblem);
          }
          extra.record = r.value.lines;
          return r.value.setup;
        };
  const cache = o.loadCache
    ? loadCache({ version: io.version(), env: process.env, summarise: pathSummary })
    : undefined;
  const inspect = o.inspect;
  try {
    const launched = await launch({
      ...loadOptions(o, io),
      ...(o.db !== undefined ? { db: o.db } : {}),
      ...(o.persist ? { persist: true } : {}),
      ...(o.dbOptions !== undefined ? { dbOptions: o.dbOptions } : {}),
      ...(o.host !== undefined ? { host: o.host } : {}),
      // record mode reloads after a saved rule: it needs the tracked loader even without the watcher
      reloadable: o.watch || inspect !== undefined || recording !== undefined,
      watch: o.watch,
      ...(cache !== undefined ? { loadCache: cache } : {}),
      ...(inspect !== undefined
        ? {
            journal: inspect.journal,
            inspect: inspect.port,
            ...(inspect.host !== undefined ? { inspectHost: inspect.host } : {}),
            ...(inspect.token !== undefined ? { inspectToken: inspect.token } : {}),
          }
        : {}),
      log: log.line,
      version: io.version(),
      ...watchFailureLines(io),
      startUp: startUpWork(),
      onLoaded: (loaded) => printDiagnostics(io, loaded.warnings),
      ...(prepareRecord !== undefined ? { record: prepareRecord } : {}),
      contract: prepareContract,
    });
    return { launched, extraLines: [...extra.record, ...(extra.contract === undefined ? [] : [extra.contract])] };
  } catch (e) {
    if (!(e instanceof MockError)) throw e;
    if (recordProblem !== undefined) return reportUsage(io, recordProblem, ROOT_USAGE);
    // the port is the command line's to change: say how
    const hint =
      e.kind === 'io' && e.message.includes('address already in use')
        ? ' (pick another with -p <port>, or -p 0 for any free port)'
        : '';
    return reportFailure(io, PREFIX, 'text', { kind: e.kind, message: e.message + hint, diagnostics: e.diagnostics });
  }
}

/** where the workspace is: the command line's config, folder and port */
function loadOptions(o: ServeOptions, io: Io) {
  return {
    cwd: io.cwd,
    ...(o.configPath !== undefined ? { configPath: o.configPath } : {}),
    ...(o.dir !== undefined ? { dir: o.dir } : {}),
    ...(o.port !== undefined ? { port: o.port } : {}),
  };
}

async function serveUntilShutdown(started: Started, o: ServeOptions, io: Io, log: RequestLog): Promise<number> {
  const { launched } = started;
  const { ws, server, watcher, management } = launched;
  const letYoungGenerationGo = holdYoungGeneration();

  // listen for SIGINT / SIGTERM before announcing the port: a caller may signal as soon as it reads it
  const shutdown = new Promise<void>((done) => io.onShutdown(done));
  const configShown = configDisplay(io.cwd, o.configPath, ws.configFile);
  if (watcher !== undefined) printReloads(launched.live, server.addresses, io, log.line);
  if (management !== undefined) io.out(INSPECT_MESSAGES.listening(management.url, o.inspect?.token !== undefined));
  io.out(
    startupText(
      ws,
      {
        config: configShown,
        ruleSet: (i) => entryDisplay(configShown, ws.ruleSets[i]?.entry ?? '', ws.ruleSets[i]?.file ?? ''),
        middleware: (i) => entryDisplay(configShown, ws.middlewares[i]?.entry ?? '', ws.middlewares[i]?.file ?? ''),
        fallbackDir: ws.fallbackDir,
      },
      server.addresses,
      watcher?.watching,
      [...denyNote(ws), ...dbNote(ws, io.cwd), ...started.extraLines],
    ),
  );

  // the watches open a moment after the Listening line, once the first requests have had their turn (a large
  // workspace's files are hundreds of paths to sort into folders); an edit made before they are open is caught by
  // the watcher's check that the files are still as loaded
  const watchSoon = watcher === undefined ? undefined : setTimeout(() => watcher.start(), WATCH_AFTER_MS);

  await shutdown;
  clearTimeout(watchSoon);
  letYoungGenerationGo();
  log.flush();
  try {
    await launched.close();
  } catch (e) {
    log.flush();
    io.err(`${PREFIX}: error while closing: ${e instanceof Error ? e.message : String(e)}\n`);
    return exitCodeFor('io');
  }
  log.flush();
  return 0;
}

function dbNote(ws: Workspace, cwd: string): string[] {
  const line = dbLine(ws, cwd);
  return line === undefined ? [] : [line];
}

/** how long after the Listening line the watches open */
const WATCH_AFTER_MS = 50;

/**
 * Zero-config in a project folder (one holding `.git` or `package.json`) serves the whole folder: one line says
 * so, and what is kept back (docs/files-and-rules.md, "Never served").
 */
function denyNote(ws: Workspace): string[] {
  if (ws.configFile !== undefined || ws.deny === undefined) return [];
  if (!['.git', 'package.json'].some((name) => existsSync(join(ws.fallbackDir, name)))) return [];
  return [
    `[deny] serving every file under ${ws.fallbackDir} except ${ws.deny.patterns.join(' ')} (service.deny in a mock.toml changes this)`,
  ];
}
