// `mock get <path>`: what the server would answer, from the config on disk, through the very dispatch()
// the server calls (middleware, percent-decoding and query handling included). Delays are not applied.
// Exit 0 for any answer (404 too), 2 for a bad invocation or an unloadable config; never 1.
import { loadWorkspace } from '../../config/load.js';
import { dispatch, type ContractGate } from '../../dispatch/dispatch.js';
import type { Outcome } from '../../dispatch/types.js';
import { snapshotFrom } from '../../dispatch/snapshot.js';
import { readDeliveredFile } from '../../node/delivered-file.js';
import { loadFailure, offlineEnv } from '../../launch/offline.js';
import { GET_FLAGS } from '../flags.js';
import { flagValue, hasFlag, parseArgs, parseFormat } from '../../shared/args.js';
import { successEnvelope } from '../../model/envelope.js';
import { GET_USAGE } from '../help.js';
import type { Io } from '../io.js';
import { setRuleConfigArg, shownPathsFor } from '../../workspace/shown-paths.js';
import { getResult, getText } from '../render/get.js';
import { reportFailure, reportUsage } from '../report.js';
import { requestFromFlags, stateFromFlags } from '../request.js';

const PREFIX = 'mock get';

const FLAGS = GET_FLAGS;

export const ZERO_CONFIG_SOURCE = '(zero-config, no file)';

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, FLAGS, { prefix: PREFIX, root: false });
  if (!parsed.ok) return reportUsage(io, parsed.error, GET_USAGE);
  const args = parsed.value;
  const format = parseFormat(args, PREFIX);
  if (!format.ok) return reportUsage(io, format.error, GET_USAGE);
  const [path, ...extra] = args.positionals;
  if (path === undefined) return reportUsage(io, `${PREFIX}: missing required argument <path>`, GET_USAGE);
  if (extra.length > 0)
    return reportUsage(io, `${PREFIX}: unexpected argument '${extra[0]}' (only one <path> is taken)`, GET_USAGE);
  const raw = await requestFromFlags(args, path, io, PREFIX);
  if (!raw.ok) return reportUsage(io, raw.error, GET_USAGE);
  const state = stateFromFlags(args, PREFIX);
  if (!state.ok) return reportUsage(io, state.error, GET_USAGE);

  const configPath = flagValue(args, 'config');
  const db = flagValue(args, 'db');
  const loaded = await loadWorkspace({
    cwd: io.cwd,
    ...(configPath !== undefined ? { configPath } : {}),
    ...(db !== undefined ? { db } : {}),
  });
  if (!loaded.ok) {
    return reportFailure(io, PREFIX, format.value, loadFailure(loaded.error));
  }
  const ws = loaded.value;
  const shown = shownPathsFor(io.cwd, configPath, ws);

  // service.contract: the server checks each request first (docs/contract.md), so `get` does too
  let contract: ContractGate | undefined;
  if (ws.config.service.contract !== undefined) {
    const r = await (await import('./contract-entry.js')).contractSetup(io.cwd, {}, ws);
    if (!r.ok) return reportFailure(io, PREFIX, format.value, r.error);
    contract = r.value?.gate;
  }

  const req = snapshotFrom(raw.value);
  const dispatched = await dispatch(
    ws,
    req,
    offlineEnv({ state: state.value, log: (line) => io.err(line + '\n'), contract }),
    { explain: true },
  );
  const outcome = await withFileRead(dispatched);
  const configArg = setRuleConfigArg(io.cwd, configPath, ws.configFile);
  const view = { outcome, ws, shown, method: req.method, path, ...(configArg === undefined ? {} : { configArg }) };
  if (format.value === 'json') {
    const source = { config: ws.configFile ?? ZERO_CONFIG_SOURCE, ruleSets: ws.ruleSets.map((rs) => rs.file) };
    io.out(successEnvelope(io.version(), getResult(view, source)));
  } else {
    io.out(getText(view, hasFlag(args, 'why')));
  }
  return 0;
}

/** The server sends a large file from disk as it goes (Delivery `file`); `get` prints it, so it reads it here. */
async function withFileRead(outcome: Outcome): Promise<Outcome> {
  const d = outcome.answer.delivery;
  if (d?.kind !== 'file') return outcome;
  return { ...outcome, answer: { ...outcome.answer, body: await readDeliveredFile(d.path, d.size) } };
}
