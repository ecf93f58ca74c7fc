// Io: everything a command needs from the process, as a port. main.ts builds the real one; tests may
// build a captured one. Commands never read process.argv or set an exit code: they return it.

export interface Io {
  /** absolute current directory; every relative path flag resolves against it */
  readonly cwd: string;
  /** writes exactly `text` to stdout (no newline added); bytes are UTF-8 text already encoded (the request log) */
  out(text: string | Uint8Array): void;
  /** writes exactly `text` to stderr */
  err(text: string): void;
  /** the program version (from package.json), read on first use */
  version(): string;
  /** stdin and stdout are both terminals: prompts may be shown */
  readonly interactive: boolean;
  /** whole file bytes; rejects with the system error (ENOENT …) */
  readFile(path: string): Promise<Uint8Array>;
  /** run `handler` once on SIGINT or SIGTERM; returns a function that removes it */
  onShutdown(handler: () => void): () => void;
}

/** An Io that keeps what was written, for in-process tests. */
export interface CapturedIo extends Io {
  readonly stdout: () => string;
  readonly stderr: () => string;
}

export function captureIo(cwd: string, readFile: (path: string) => Promise<Uint8Array>, version = '0.0.0'): CapturedIo {
  let out = '';
  let errText = '';
  return {
    cwd,
    out: (t) => void (out += typeof t === 'string' ? t : new TextDecoder().decode(t)),
    err: (t) => void (errText += t),
    version: () => version,
    interactive: false,
    readFile,
    onShutdown: () => () => undefined,
    stdout: () => out,
    stderr: () => errText,
  };
}
