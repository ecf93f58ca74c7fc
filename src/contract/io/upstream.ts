// The I/O half of `mock validate --against-upstream`: record mode's index read from disk, and each recorded
// request sent to the real service. The comparison itself is pure (contract/upstream.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SeenAnswer } from '../upstream.js';
import { RECORDED_DIR } from '../../record/plan.js';
import { parseIndex, RECORD_INDEX_FILE } from '../../record/recorded-index.js';
import { err, ok, type Result } from '../../shared/result.js';

/** one request to the real service is given up after this long */
const REQUEST_TIMEOUT_MS = 30_000;

export type RecordedIndex = Exclude<ReturnType<typeof parseIndex>, string>;

/** why the index could not be read: missing, unreadable (with the system's reason) or not an index */
export type IndexProblem =
  | { readonly kind: 'missing'; readonly file: string }
  | { readonly kind: 'unreadable' | 'invalid'; readonly file: string; readonly reason: string };

export async function readRecordedIndex(
  fallbackDir: string,
  reasonOf: (e: unknown) => string,
): Promise<Result<RecordedIndex, IndexProblem>> {
  const file = join(fallbackDir, RECORDED_DIR, RECORD_INDEX_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') return err({ kind: 'missing', file });
    return err({ kind: 'unreadable', file, reason: reasonOf(e) });
  }
  const index = parseIndex(text);
  return typeof index === 'string' ? err({ kind: 'invalid', file, reason: index }) : ok(index);
}

/** sends one request to the real service: its answer, or why none came (the system's reason) */
export async function sendUpstream(
  url: string,
  method: string,
  headers: readonly (readonly [string, string])[],
  reasonOf: (e: unknown) => string,
): Promise<SeenAnswer | string> {
  try {
    const res = await fetch(url, {
      method,
      headers: headers.map(([k, v]): [string, string] => [k, v]),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = new Uint8Array(await res.arrayBuffer());
    const contentType = res.headers.get('content-type');
    return { status: res.status, body, ...(contentType === null ? {} : { contentType }) };
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
    return reasonOf(cause);
  }
}
