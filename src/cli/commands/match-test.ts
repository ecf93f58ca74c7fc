// `mock match-test`: a synthetic request checked against one rule-set file, no server and no root config.
// The rule set's prefix applies; the winner follows its strategy (random ones with a fresh rotation).
// Exit 0 matched, 1 no rule matched, 2 an argument or input error.
import { resolve } from 'node:path';
import { loadRuleSetFile } from '../../config/load.js';
import { snapshotFrom } from '../../dispatch/snapshot.js';
import type { RuleCheck } from '../../model/rule-set.js';
import { evaluateRuleSet } from '../../routing/evaluate.js';
import { offlineEnv } from '../../launch/offline.js';
import { MATCH_TEST_FLAGS } from '../flags.js';
import { flagValue, hasFlag, parseArgs, parseFormat } from '../../shared/args.js';
import { successEnvelope } from '../../model/envelope.js';
import { MATCH_TEST_USAGE } from '../help.js';
import type { Io } from '../io.js';
import { type MatchView, matchTestResult, matchTestText } from '../render/match-test.js';
import { reportFailure, reportUsage } from '../report.js';
import { requestFromFlags, stateFromFlags } from '../request.js';
import { fileDisplay } from '../../workspace/shown-paths.js';

const PREFIX = 'mock match-test';

const FLAGS = MATCH_TEST_FLAGS;

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, FLAGS, { prefix: PREFIX, root: false });
  if (!parsed.ok) return reportUsage(io, parsed.error, MATCH_TEST_USAGE);
  const args = parsed.value;
  const format = parseFormat(args, PREFIX);
  if (!format.ok) return reportUsage(io, format.error, MATCH_TEST_USAGE);
  if (args.positionals.length > 0)
    return reportUsage(io, `${PREFIX}: unexpected argument '${args.positionals[0]}'`, MATCH_TEST_USAGE);
  const ruleSetPath = flagValue(args, 'rule-set');
  if (ruleSetPath === undefined) return reportUsage(io, `${PREFIX}: --rule-set <path> is required`, MATCH_TEST_USAGE);
  // one spelling whatever the user typed (`x.toml`, `./x.toml`): the one `get --why` and `set rule` print
  const ruleSetShown = fileDisplay(io.cwd, resolve(io.cwd, ruleSetPath));

  let onlyRule: number | undefined;
  const ruleText = flagValue(args, 'rule');
  if (ruleText !== undefined) {
    if (!/^\d+$/.test(ruleText))
      return reportUsage(
        io,
        `${PREFIX}: invalid value for --rule: '${ruleText}' (a 1-based rule number)`,
        MATCH_TEST_USAGE,
      );
    onlyRule = Number(ruleText);
    if (onlyRule === 0)
      return reportUsage(io, `${PREFIX}: --rule is 1-based; use 1 for the first rule`, MATCH_TEST_USAGE);
  }

  const path = flagValue(args, 'path') ?? '/';
  const raw = await requestFromFlags(args, path, io, PREFIX);
  if (!raw.ok) return reportUsage(io, raw.error, MATCH_TEST_USAGE);
  const state = stateFromFlags(args, PREFIX);
  if (!state.ok) return reportUsage(io, state.error, MATCH_TEST_USAGE);

  const loaded = await loadRuleSetFile(ruleSetPath, { cwd: io.cwd });
  if (!loaded.ok) {
    const f = loaded.error;
    return reportFailure(io, PREFIX, format.value, {
      kind: f.kind,
      message: `failed to load rule set ${ruleSetShown}: ${f.message}`,
      diagnostics: f.diagnostics,
    });
  }
  const ruleSet = loaded.value;
  if (onlyRule !== undefined && onlyRule > ruleSet.rules.length) {
    const n = ruleSet.rules.length;
    return reportFailure(io, PREFIX, format.value, {
      kind: 'usage',
      message: `rule #${onlyRule} does not exist (rule set has ${n} rule${n === 1 ? '' : 's'})`,
    });
  }

  const req = snapshotFrom(raw.value);
  const env = offlineEnv({ state: state.value });
  const ev = evaluateRuleSet(ruleSet, req, {
    rotation: env.rotation,
    random: env.random,
    explain: true,
    state: env.state,
  });
  const consulted = ruleSet.prefix === undefined || ev.underPrefix;
  const all: readonly RuleCheck[] = consulted
    ? (ev.checks ?? [])
    : ruleSet.rules.map((r) => ({ ruleIndex: r.index, matched: false, conditions: [] }));
  let rules = all;
  let winner = ev.winner;
  if (onlyRule !== undefined) {
    const wanted = onlyRule - 1;
    rules = all.filter((c) => c.ruleIndex === wanted);
    winner = rules[0]?.matched ? wanted : undefined;
  }
  const view: MatchView = {
    ruleSet,
    request: { method: req.method, path },
    matchedPath: req.path,
    consulted,
    rules,
    winner,
    ruleSetShown,
  };
  if (format.value === 'json') io.out(successEnvelope(io.version(), matchTestResult(view)));
  else if (!hasFlag(args, 'quiet')) io.out(matchTestText(view));
  return winner !== undefined ? 0 : 1;
}
