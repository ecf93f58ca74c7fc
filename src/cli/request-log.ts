// The request log of a serving `mock`, batched. Console writes to a file or pipe are synchronous in Node: the log is
// batched, in order, into one write per event-loop turn when the server is quiet, and at most one per LOG_BATCH_MS
// under load, so logging costs a syscall per batch rather than one per line (or per turn, which under load is every
// few requests). Lines are joined into one string (a rope, flattened once by the write): encoding each line into a
// buffer as it comes costs a call into the runtime per line, about twice as much
// (docs/speed.md#workload-b-one-step-closer-2026-11-27).

/** under load, the request log is written at most once per this many milliseconds… */
const LOG_BATCH_MS = 10;
/** …or once this many bytes are waiting */
const LOG_BATCH_BYTES = 256 * 1024;

export interface RequestLog {
  /** queue one line (without its newline) */
  readonly line: (line: string) => void;
  /** write what is waiting now */
  readonly flush: () => void;
}

export function batchedLog(write: (text: string) => void): RequestLog {
  let pending = '';
  let flushScheduled = false;
  let lastFlush = 0;
  const flush = (): void => {
    flushScheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    lastFlush = Date.now();
    write(text);
  };
  const line = (text: string): void => {
    pending += text + '\n';
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
  return { line, flush };
}
