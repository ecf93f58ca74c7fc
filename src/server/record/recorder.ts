// The recorder: one proxied exchange → planned (record/plan.ts), then written — a plain file under the fallback
// directory, or a rule appended through the injected CommitRule (with its body file written first, under
// `<fallback>/.mock-recorded/`) — or, in a dry run, only described. Returns the lines to print and what was
// saved. Exchanges are handled one at a time, in arrival order, so "the first recording wins" holds under
// concurrency and rule numbers follow one another.
//
// Lines: `recorded api/users.json (200, 1234 B)`, `recorded rule #3 in mock-recorded.toml: POST /api/users → 201`;
// in a dry run `would write …` and `would append rule #3 to mock-recorded.toml: …`; `not saved: <request> — <why>`.
import { mkdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileSource } from '../../files/source.js';
import type { DenyPolicy } from '../../model/workspace.js';
import type { AppendBody, CommitRule } from '../../record/commit-port.js';
import {
  planRecording,
  recordKey,
  type Exchange,
  type PlannedRule,
  type RecordRequest,
  type SkipReason,
} from '../../record/plan.js';
import { uncachedSource } from '../../node/file-cache/uncached-source.js';
import { writeSafely } from '../../node/safe-write.js';
import {
  EMPTY_INDEX,
  indexText,
  parseIndex,
  RECORD_INDEX_FILE,
  withExchange,
  type IndexedExchange,
} from '../../record/recorded-index.js';
import { RECORDED_DIR } from '../../record/plan.js';
import { writeConfined, type WriteOutcome } from './confined-write.js';

export interface RecorderOptions {
  /** absolute */
  readonly fallbackDir: string;
  readonly dryRun: boolean;
  /** appends a rule (launch/record/rules.ts: createRuleCommitter, with the same dryRun) */
  readonly commitRule: CommitRule;
  /** `--record-header` names */
  readonly keepHeaders?: readonly string[];
  /** how planning sees the disk (default: uncached, the disk as it is) */
  readonly files?: FileSource;
  /** the record target as given (`http://host/v2`): noted in the recording index (record/recorded-index.ts) */
  readonly upstream?: string;
}

/** What a recording became, for the journal's `answered_by.saved`. */
export type Saved =
  /** `file` relative to the fallback directory, '/'-separated */
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'rule'; readonly ruleSet: string; readonly ruleNumber: number; readonly file?: string };

export interface RecordOutcome {
  /** lines for the console, in order */
  readonly lines: readonly string[];
  /** undefined: nothing saved (skipped, failed, or a dry run) */
  readonly saved?: Saved;
  /** a dry run: what would have been saved */
  readonly wouldSave?: Saved;
}

export interface Recorder {
  /** plan and save one exchange (never onto a path `deny`, the workspace's service.deny, denies); never rejects */
  record(x: Exchange, deny?: DenyPolicy): Promise<RecordOutcome>;
  /** resolves once every exchange handed over so far is done */
  idle(): Promise<void>;
}

const SKIP_MESSAGES: Readonly<Record<SkipReason, (arg: string) => string>> = {
  method: (m: string) => `${m} is never recorded`,
  recorded: (key: string) => `${key} is recorded already (once per method, path and query)`,
  streamed: () => 'the body is over 32 MiB (streamed, not saved)',
  event_stream: () =>
    'an event stream that did not end by itself (passed to the client as it came; cut by the client, the idle limit or the length limit, docs/record.md)',
  encoded: () => 'the body came in a content-encoding mock cannot decode',
  unsafe_path: () => 'the path climbs above the fallback directory or holds an encoded separator',
  outside: () => 'the file would land outside the fallback directory (an outward symlink)',
  denied: (file: string) =>
    `the file would be written at ${file}, a path service.deny never serves (the answer was passed on as it came)`,
};

export const RECORD_MESSAGES = {
  wrote: (dry: boolean, file: string, status: number, bytes: number) =>
    `${dry ? 'would write' : 'recorded'} ${file} (${status}, ${bytes} B)`,
  rule: (dry: boolean, n: number, ruleSet: string, method: string, path: string, status: number) =>
    dry
      ? `would append rule #${n} to ${ruleSet}: ${method} ${path} → ${status}`
      : `recorded rule #${n} in ${ruleSet}: ${method} ${path} → ${status}`,
  notSaved: (request: string, why: string) => `not saved: ${request} — ${why}`,
  skip: SKIP_MESSAGES,
  exists: (file: string) => `${file} exists already (nothing is overwritten)`,
  writeFailed: (file: string, message: string) => `cannot write ${file}: ${message}`,
  ruleFailed: (message: string) => `cannot append the rule: ${message}`,
  indexFailed: (file: string, message: string) => `recorded, but not listed in ${file}: ${message}`,
} as const;

/** One recorder's options, the source it plans with, and the exchanges it saved (once per method, path and query). */
interface RecorderState {
  readonly o: RecorderOptions;
  readonly files: NonNullable<RecorderOptions['files']>;
  readonly recorded: Set<string>;
}

export function createRecorder(o: RecorderOptions): Recorder {
  const state: RecorderState = { o, files: o.files ?? uncachedSource(), recorded: new Set<string>() };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    record(x, deny) {
      const run = queue.then(() => recordOne(state, x, deny));
      queue = run.catch(() => undefined);
      return run.catch((e: unknown) => ({
        lines: [RECORD_MESSAGES.notSaved(requestLine(x.request), e instanceof Error ? e.message : String(e))],
      }));
    },
    async idle() {
      await queue;
    },
  };
}

async function recordOne(r: RecorderState, x: Exchange, deny: DenyPolicy | undefined): Promise<RecordOutcome> {
  const { o, files, recorded } = r;
  const shownRequest = requestLine(x.request);
  const notSaved = (why: string): RecordOutcome => ({ lines: [RECORD_MESSAGES.notSaved(shownRequest, why)] });
  let plan;
  try {
    plan = await planRecording(x, {
      fallbackDir: o.fallbackDir,
      files,
      recorded,
      ...(o.keepHeaders ? { keepHeaders: o.keepHeaders } : {}),
      ...(deny === undefined ? {} : { deny }),
    });
  } catch (e) {
    return notSaved(e instanceof Error ? e.message : String(e));
  }
  if (plan.kind === 'skip') {
    const why = RECORD_MESSAGES.skip[plan.reason];
    return notSaved(
      why(
        plan.reason === 'method'
          ? x.request.method.toUpperCase()
          : plan.reason === 'denied'
            ? (plan.detail ?? '')
            : recordKey(x.request.method, x.request.path, x.request.query),
      ),
    );
  }
  if (plan.kind === 'file') {
    const w = await writeConfined({
      root: o.fallbackDir,
      names: plan.file.names,
      bytes: plan.file.bytes,
      unique: false,
      dryRun: o.dryRun,
    });
    const shown = plan.file.names.join('/');
    if (w.kind !== 'written') return notSaved(writeProblem(w, shown));
    recorded.add(plan.key);
    const saved: Saved = { kind: 'file', file: w.names.join('/') };
    return noted(r, x, {
      lines: [RECORD_MESSAGES.wrote(o.dryRun, saved.file, plan.file.status, plan.file.bytes.byteLength)],
      ...(o.dryRun ? { wouldSave: saved } : { saved }),
    });
  }
  return noted(r, x, await recordRule(r, plan.key, plan.rule, notSaved));
}

/** A saved exchange listed in the recording index (read, amended, replaced atomically; the queue serialises). */
async function noted(r: RecorderState, x: Exchange, out: RecordOutcome): Promise<RecordOutcome> {
  const { o } = r;
  const saved = out.saved;
  if (saved === undefined) return out;
  const dir = join(o.fallbackDir, RECORDED_DIR);
  const abs = join(dir, RECORD_INDEX_FILE);
  const shown = `${RECORDED_DIR}/${RECORD_INDEX_FILE}`;
  const contentType = x.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const entry: IndexedExchange = {
    method: x.request.method.toUpperCase(),
    target: x.request.rawPath + (x.request.query === '' ? '' : '?' + x.request.query),
    status: x.response.status,
    ...(contentType === undefined ? {} : { contentType }),
    ...(saved.file === undefined ? {} : { file: saved.file }),
    ...(saved.kind === 'rule' ? { rule: `${saved.ruleSet}#${saved.ruleNumber}` } : {}),
  };
  try {
    let text: string | undefined;
    try {
      text = await readFile(abs, 'utf8');
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
    }
    const index = text === undefined ? EMPTY_INDEX : parseIndex(text);
    if (typeof index === 'string') throw new Error(`it does not read (${index}); left as it is`);
    await mkdir(dir, { recursive: true });
    await writeSafely(abs, indexText(withExchange(index, entry, o.upstream ?? index.upstream ?? '')), {
      placement: 'replace',
    });
  } catch (e) {
    return {
      ...out,
      lines: [...out.lines, RECORD_MESSAGES.indexFailed(shown, e instanceof Error ? e.message : String(e))],
    };
  }
  return out;
}

async function recordRule(
  r: RecorderState,
  key: string,
  rule: PlannedRule,
  notSaved: (why: string) => RecordOutcome,
): Promise<RecordOutcome> {
  const { o, recorded } = r;
  const lines: string[] = [];
  let body: AppendBody;
  let written: string | undefined;
  let file: string | undefined;
  if (rule.body.kind === 'file' || rule.body.kind === 'stream') {
    // a file answer and a recorded stream are both bytes written beside the recordings, then named by the rule
    const w = await writeConfined({
      root: o.fallbackDir,
      names: rule.body.names,
      bytes: rule.body.bytes,
      unique: true,
      dryRun: o.dryRun,
    });
    if (w.kind !== 'written') return notSaved(writeProblem(w, rule.body.names.join('/')));
    file = w.names.join('/');
    if (!o.dryRun) written = w.abs;
    lines.push(RECORD_MESSAGES.wrote(o.dryRun, file, rule.status ?? 200, rule.body.bytes.byteLength));
    body =
      rule.body.kind === 'file'
        ? { kind: 'file', abs: w.abs, bytes: rule.body.bytes }
        : {
            kind: 'stream',
            abs: w.abs,
            bytes: rule.body.bytes,
            ...(rule.body.intervalMs === undefined ? {} : { intervalMs: rule.body.intervalMs }),
          };
  } else body = rule.body;
  const appended = await o.commitRule({
    urlPath: rule.urlPath,
    method: rule.method,
    ...(rule.query.length > 0 ? { query: rule.query } : {}),
    ...(rule.status === undefined ? {} : { status: rule.status }),
    body,
    headers: rule.headers,
  });
  if (!appended.ok) {
    if (written !== undefined) await removeQuietly(written);
    return notSaved(RECORD_MESSAGES.ruleFailed(appended.error));
  }
  recorded.add(key);
  const { ruleNumber, ruleSet } = appended.value;
  const shownPath =
    rule.query.length > 0
      ? `${rule.urlPath}?${new URLSearchParams(rule.query.map(([k, v]): [string, string] => [k, v])).toString()}`
      : rule.urlPath;
  lines.push(RECORD_MESSAGES.rule(o.dryRun, ruleNumber, ruleSet, rule.method, shownPath, rule.status ?? 200));
  const saved: Saved = { kind: 'rule', ruleSet, ruleNumber, ...(file === undefined ? {} : { file }) };
  return { lines, ...(o.dryRun ? { wouldSave: saved } : { saved }) };
}

function requestLine(r: RecordRequest): string {
  return `${r.method.toUpperCase()} ${r.rawPath}${r.query === '' ? '' : '?' + r.query}`;
}

function writeProblem(w: Exclude<WriteOutcome, { kind: 'written' }>, shown: string): string {
  if (w.kind === 'failed') return RECORD_MESSAGES.writeFailed(shown, w.message);
  if (w.reason === 'exists') return RECORD_MESSAGES.exists(shown);
  return RECORD_MESSAGES.skip[w.reason]('');
}

async function removeQuietly(abs: string): Promise<void> {
  await unlink(abs).catch(() => undefined);
}
