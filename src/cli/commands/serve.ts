// `mock` / `mock serve` (identical in every respect): load the workspace (./mock.toml when present, else
// zero-config), bind every listener, print the startup lines, serve until SIGINT or SIGTERM (exit 0).
// Unless --no-watch, the workspace is live: workspace/watch.ts reloads it on edits (docs/live-reload.md).
// A config problem exits 2 before anything binds; a bind failure (port in use …) exits 1.
// `--inspect[=<port>]` adds the management listener on 127.0.0.1 and a request journal (launch/launch.ts, the
// one start-up path the library's startMock() shares: this command is that plus its stdout lines and signals).
// `--record <url>` forwards misses to a real service and saves the answers (cli/commands/record-setup.ts,
// server/record/; docs/record.md). `--init` hands over to the init command instead.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractGate } from '../../dispatch/dispatch.js';
import type { Workspace } from '../../model/workspace.js';
import { MockError } from '../../model/errors.js';
import { launch, type Launched } from '../../launch/launch.js';
import { startUpWork, holdYoungGeneration } from '../../start-up/start-up-work.js';
import { SERVE_FLAGS } from '../flags.js';
import { flagValue, hasFlag, parseFormat, parsePort, parseArgs } from '../../shared/args.js';
import { exitCodeFor } from '../../model/envelope.js';
import { ROOT_USAGE } from '../help.js';
import type { Io } from '../io.js';
import { configDisplay, entryDisplay } from '../../workspace/shown-paths.js';
import { startupText } from '../render/startup.js';
import { printDiagnostics, reportFailure, reportUsage } from '../report.js';
import { printReloads, watchFailureLines } from '../live-reload.js';
import { parseInspectFlags, INSPECT_MESSAGES } from '../inspect-flags.js';
import { recordFlags, recordSetup } from './record-setup.js';
import { loadCache } from '../../start-up/load-cache.js';
import { pathSummary } from '../../routing/path-index.js';
import { IMPORT_FORMATS, isImportFormat } from '../../import/formats.js';

const PREFIX = 'mock';

export { SERVE_FLAGS };

/** flags that only go with `--init --from <file>` */
const FROM_ONLY = [
  'dry-run',
  'format',
  'verbose',
  'update',
  'from-format',
  'har-host',
  'include-static',
  'postman-env',
] as const;

/** under load, the request log is written at most once per this many milliseconds… */
const LOG_BATCH_MS = 10;
/** …or once this many bytes are waiting */
const LOG_BATCH_BYTES = 256 * 1024;

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, SERVE_FLAGS, { prefix: PREFIX, root: true });
  if (!parsed.ok) return reportUsage(io, parsed.error, ROOT_USAGE);
  const args = parsed.value;
  if (args.positionals.length > 0)
    return reportUsage(io, `${PREFIX}: unexpected argument '${args.positionals[0]}'`, ROOT_USAGE);

  const from = flagValue(args, 'from');
  const record = recordFlags(args);
  if (!record.ok) return reportUsage(io, `${PREFIX}: ${record.error}`, ROOT_USAGE);
  const stray =
    from === undefined
      ? FROM_ONLY.find((f) => hasFlag(args, f) && !(f === 'dry-run' && record.value !== undefined))
      : hasFlag(args, 'middleware')
        ? 'middleware'
        : undefined;
  if ((from !== undefined && !hasFlag(args, 'init')) || stray !== undefined) {
    const flag = from !== undefined && !hasFlag(args, 'init') ? 'from' : stray!;
    const goesWith = flag === 'dry-run' ? '--record <url> or --init --from <file>' : '--init --from <file>';
    return reportUsage(
      io,
      `${PREFIX}: --${flag} ${flag === 'middleware' ? 'does not go with --from' : `goes with ${goesWith}`}`,
      ROOT_USAGE,
    );
  }
  if (from !== undefined) {
    const format = parseFormat(args, PREFIX);
    if (!format.ok) return reportUsage(io, format.error, ROOT_USAGE);
    const fromFormat = flagValue(args, 'from-format');
    const harHost = flagValue(args, 'har-host');
    const postmanEnv = flagValue(args, 'postman-env');
    if (fromFormat !== undefined && !isImportFormat(fromFormat))
      return reportUsage(
        io,
        `${PREFIX}: invalid value for --from-format: '${fromFormat}' (expected ${IMPORT_FORMATS.join(', ')})`,
        ROOT_USAGE,
      );
    const { runOpenApiInit } = await import('./init-openapi.js');
    return runOpenApiInit(
      {
        from,
        yes: hasFlag(args, 'yes'),
        dryRun: hasFlag(args, 'dry-run'),
        format: format.value,
        verbose: hasFlag(args, 'verbose'),
        update: hasFlag(args, 'update'),
        ...(fromFormat === undefined ? {} : { fromFormat }),
        ...(harHost === undefined ? {} : { harHost }),
        ...(postmanEnv === undefined ? {} : { postmanEnv }),
        ...(hasFlag(args, 'include-static') ? { includeStatic: true } : {}),
        ...(hasFlag(args, 'no-load-cache') ? { loadCache: false } : {}),
      },
      io,
    );
  }
  const portText = flagValue(args, 'port');
  const port = portText === undefined ? undefined : parsePort(portText);
  if (portText !== undefined && port === undefined) {
    return reportUsage(io, `${PREFIX}: invalid value for --port: '${portText}' (expected 0..65535)`, ROOT_USAGE);
  }
  if (hasFlag(args, 'init')) {
    const { runInit } = await import('./init.js');
    // `mock --init -p 4000` writes the port it was given (and offers it as the prompt's default)
    return runInit(
      { yes: hasFlag(args, 'yes'), middleware: hasFlag(args, 'middleware'), ...(port === undefined ? {} : { port }) },
      io,
    );
  }
  const inspect = parseInspectFlags(args, PREFIX, process.env);
  if (!inspect.ok) return reportUsage(io, inspect.error, ROOT_USAGE);
  const contractFlag = flagValue(args, 'contract');
  const contractMode = flagValue(args, 'contract-mode');
  if (contractMode !== undefined && contractMode !== 'enforce' && contractMode !== 'warn')
    return reportUsage(
      io,
      `${PREFIX}: invalid value for --contract-mode: '${contractMode}' (expected enforce or warn)`,
      ROOT_USAGE,
    );
  let contractLine: string | undefined;
  // the document is read once the workspace is loaded (service.contract is relative to its config)
  const prepareContract = async (loadedWs: Workspace): Promise<ContractGate | undefined> => {
    if (contractFlag === undefined && loadedWs.config.service.contract === undefined) return undefined;
    const { contractSetup } = await import('./contract-entry.js');
    const r = await contractSetup(
      io.cwd,
      {
        ...(contractFlag !== undefined ? { flag: contractFlag } : {}),
        ...(contractMode !== undefined ? { mode: contractMode } : {}),
      },
      loadedWs,
    );
    if (!r.ok) throw new MockError(r.error.kind, r.error.message);
    contractLine = r.value?.line;
    return r.value?.gate;
  };
  const configPath = flagValue(args, 'config');
  const dir = flagValue(args, 'dir');
  const db = flagValue(args, 'db');
  const persist = hasFlag(args, 'persist');
  const watch = !hasFlag(args, 'no-watch');
  // record mode's settings need the loaded workspace; a layout problem there is a usage error (exit 2)
  const recording = record.value;
  let recordLines: readonly string[] | undefined;
  let recordProblem: string | undefined;
  const prepareRecord =
    recording === undefined
      ? undefined
      : async (loadedWs: Parameters<typeof recordSetup>[1]) => {
          const loadOptions = {
            cwd: io.cwd,
            ...(configPath !== undefined ? { configPath } : {}),
            ...(dir !== undefined ? { dir } : {}),
            ...(port !== undefined ? { port } : {}),
          };
          const r = await recordSetup(recording, loadedWs, loadOptions, process.env);
          if (!r.ok) {
            recordProblem = `${PREFIX}: ${r.error}`;
            throw new MockError('usage', recordProblem);
          }
          recordLines = r.value.lines;
          return r.value.setup;
        };
  // Console writes to a file or pipe are synchronous in Node: the request log is batched, in order, into one
  // write per event-loop turn when the server is quiet, and at most one per LOG_BATCH_MS under load, so logging
  // costs a syscall per batch rather than one per line (or per turn, which under load is every few requests).
  // Lines are joined into one string (a rope, flattened once by the write): encoding each line into a buffer as
  // it comes costs a call into the runtime per line, about twice as much (docs/speed.md#workload-b-one-step-closer-2026-11-27).
  let pending = '';
  let flushScheduled = false;
  let lastFlush = 0;
  const flush = (): void => {
    flushScheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    lastFlush = Date.now();
    io.out(text);
  };
  const log = (line: string): void => {
    pending += line + '\n';
    // at least this many bytes are waiting (a UTF-16 unit is one byte or more in UTF-8)
    if (pending.length >= LOG_BATCH_BYTES) {
      flush();
      return;
    }
    if (flushScheduled) return;
    flushScheduled = true;
    const since = Date.now() - lastFlush;
    if (since >= LOG_BATCH_MS || since < 0) setImmediate(flush);
    else setTimeout(flush, LOG_BATCH_MS - since);
  };
  const cache = hasFlag(args, 'no-load-cache')
    ? undefined
    : loadCache({ version: io.version(), env: process.env, summarise: pathSummary });
  let launched: Launched;
  try {
    launched = await launch({
      cwd: io.cwd,
      ...(configPath !== undefined ? { configPath } : {}),
      ...(dir !== undefined ? { dir } : {}),
      ...(db !== undefined ? { db } : {}),
      ...(persist ? { persist } : {}),
      ...(port !== undefined ? { port } : {}),
      // record mode reloads after a saved rule: it needs the tracked loader even without the watcher
      reloadable: watch || inspect.value !== undefined || recording !== undefined,
      watch,
      ...(cache !== undefined ? { loadCache: cache } : {}),
      ...(inspect.value !== undefined
        ? {
            journal: inspect.value.journal,
            inspect: inspect.value.port,
            ...(inspect.value.host !== undefined ? { inspectHost: inspect.value.host } : {}),
            ...(inspect.value.token !== undefined ? { inspectToken: inspect.value.token } : {}),
          }
        : {}),
      log,
      version: io.version(),
      ...watchFailureLines(io),
      startUp: startUpWork(),
      onLoaded: (loaded) => printDiagnostics(io, loaded.warnings),
      ...(prepareRecord !== undefined ? { record: prepareRecord } : {}),
      contract: prepareContract,
    });
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
  const { ws, server, watcher, management } = launched;
  const letYoungGenerationGo = holdYoungGeneration();

  // listen for SIGINT / SIGTERM before announcing the port: a caller may signal as soon as it reads it
  const shutdown = new Promise<void>((done) => io.onShutdown(done));
  const configShown = configDisplay(io.cwd, configPath, ws.configFile);
  if (watcher !== undefined) printReloads(launched.live, server.addresses, io, log);
  if (management !== undefined) io.out(INSPECT_MESSAGES.listening(management.url, inspect.value?.token !== undefined));
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
      [...denyNote(ws), ...(recordLines ?? []), ...(contractLine === undefined ? [] : [contractLine])],
    ),
  );

  // the watches open a moment after the Listening line, once the first requests have had their turn (a large
  // workspace's files are hundreds of paths to sort into folders); an edit made before they are open is caught by
  // the watcher's check that the files are still as loaded
  const watchSoon = watcher === undefined ? undefined : setTimeout(() => watcher.start(), WATCH_AFTER_MS);

  await shutdown;
  clearTimeout(watchSoon);
  letYoungGenerationGo();
  flush();
  try {
    await launched.close();
  } catch (e) {
    flush();
    io.err(`${PREFIX}: error while closing: ${e instanceof Error ? e.message : String(e)}\n`);
    return exitCodeFor('io');
  }
  flush();
  return 0;
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
