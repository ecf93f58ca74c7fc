// `mock validate --against-upstream <url>`: the recording index (record/recorded-index.ts) read from the
// workspace's fallback directory, each recorded GET and HEAD answered by the workspace (the dispatch `mock get`
// uses) and asked of the real API (fetch, paced by --rate), compared by contract/upstream.ts. docs/drift.md.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  exitCodeOfFindings,
  findingsResult,
  findingsSummaryLine,
  findingsText,
  unknownKinds,
  withoutIgnored,
} from '../../contract/findings.js';
import { checkUpstream, DEFAULT_RATE, type RecordedExchange, type SeenAnswer } from '../../contract/upstream.js';
import { dispatch } from '../../dispatch/dispatch.js';
import { snapshotFrom } from '../../dispatch/snapshot.js';
import { successEnvelope } from '../../model/envelope.js';
import type { Workspace } from '../../model/workspace.js';
import { RECORD_INDEX_FILE } from '../../record/recorded-index.js';
import { readRecordedIndex, sendUpstream } from '../../contract/io/upstream.js';
import { parseRecordTarget } from '../../record/target.js';
import { flagValue, flagValues, hasFlag, type OutputFormat, type ParsedArgs } from '../../shared/args.js';
import type { Io } from '../io.js';
import { reportFailure } from '../report.js';
import { systemReason } from '../request.js';
import { offlineEnv } from '../../launch/offline.js';

const PREFIX = 'mock validate';
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const UPSTREAM_MESSAGES = {
  url: (given: string) => `--against-upstream expects http(s)://host[:port][/base], got '${given}'`,
  rate: (given: string) => `--rate expects a number of requests a second above 0, got '${given}'`,
  header: (given: string) => `--header expects "Name: value", got '${given}'`,
  kind: (kinds: readonly string[]) => `--ignore: unknown finding kind ${kinds.map((k) => `'${k}'`).join(', ')}`,
  alone: (flag: string) => `--${flag} needs --against-upstream`,
  noIndex: (shown: string) =>
    `there is no recording index at ${shown}: record the real API first (\`mock serve --record <url>\`), which writes it`,
  badIndex: (shown: string, why: string) => `the recording index ${shown} does not read: ${why}`,
} as const;

/** A usage problem with the upstream flags (exit 2), else undefined. */
export function upstreamUsage(args: ParsedArgs): string | undefined {
  const url = flagValue(args, 'against-upstream');
  if (url === undefined) {
    // --ignore also filters --against's findings
    for (const f of flagValue(args, 'against') === undefined ? ['rate', 'header', 'ignore'] : ['rate', 'header'])
      if (hasFlag(args, f)) return `${PREFIX}: ${UPSTREAM_MESSAGES.alone(f)}`;
    return undefined;
  }
  if (!parseRecordTarget(url).ok) return `${PREFIX}: ${UPSTREAM_MESSAGES.url(url)}`;
  const rate = flagValue(args, 'rate');
  if (rate !== undefined && !(Number(rate) > 0 && Number.isFinite(Number(rate))))
    return `${PREFIX}: ${UPSTREAM_MESSAGES.rate(rate)}`;
  for (const h of flagValues(args, 'header'))
    if (headerOf(h) === undefined) return `${PREFIX}: ${UPSTREAM_MESSAGES.header(h)}`;
  const unknown = unknownKinds(flagValues(args, 'ignore'));
  if (unknown.length > 0) return `${PREFIX}: ${UPSTREAM_MESSAGES.kind(unknown)}`;
  return undefined;
}

function headerOf(h: string): readonly [string, string] | undefined {
  const colon = h.indexOf(':');
  const name = colon > 0 ? h.slice(0, colon).trim() : '';
  return colon <= 0 || !TOKEN.test(name) ? undefined : [name.toLowerCase(), h.slice(colon + 1).trim()];
}

export async function runAgainstUpstream(
  args: ParsedArgs,
  ws: Workspace,
  io: Io,
  format: OutputFormat,
): Promise<number> {
  const target = parseRecordTarget(flagValue(args, 'against-upstream')!);
  if (!target.ok) return 2; // checked by upstreamUsage
  const base = target.value.origin + target.value.basePath;
  const read = await readRecordedIndex(ws.fallbackDir, systemReason);
  if (!read.ok) {
    const p = read.error;
    return reportFailure(io, PREFIX, format, {
      kind: p.kind === 'invalid' ? 'config_invalid' : 'usage',
      message: p.kind === 'missing' ? UPSTREAM_MESSAGES.noIndex(p.file) : UPSTREAM_MESSAGES.badIndex(p.file, p.reason),
    });
  }
  const index = read.value;

  const env = offlineEnv({ log: (line) => io.err(line + '\n') });
  const answerOf = async (x: RecordedExchange): Promise<SeenAnswer> => {
    const outcome = await dispatch(ws, snapshotFrom({ method: x.method, target: x.target, headers: [] }), env);
    const a = outcome.answer;
    const contentType = a.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    return { status: a.status, body: a.body, ...(contentType === undefined ? {} : { contentType }) };
  };
  const send = (url: string, method: string, headers: readonly (readonly [string, string])[]) =>
    sendUpstream(url, method, headers, systemReason);
  const headers = flagValues(args, 'header').map((h) => headerOf(h)!);
  const rate = Number(flagValue(args, 'rate') ?? DEFAULT_RATE);
  const result = await checkUpstream(
    index.exchanges.map((x) => ({ method: x.method, target: x.target, heldBy: x.rule ?? x.file ?? RECORD_INDEX_FILE })),
    { base, rate, headers },
    { answerOf, send, now: () => performance.now(), sleep: (ms) => sleep(ms) },
  );
  const findings = withoutIgnored(result.findings, flagValues(args, 'ignore'));
  const strict = hasFlag(args, 'strict');
  const checked = `${result.checked} recorded exchange(s) against ${base}${result.skipped > 0 ? ` (${result.skipped} not GET or HEAD, not sent)` : ''}`;
  if (format === 'json') {
    io.out(
      successEnvelope(
        io.version(),
        findingsResult(findings, { checked: result.checked, skipped: result.skipped, upstream: base }),
      ),
    );
  } else {
    const body = findingsText(findings);
    if (body !== '') io.out(body);
    io.out(findingsSummaryLine(findings, checked));
  }
  return exitCodeOfFindings(findings, strict);
}
