// Helpers for the record-mode tests through the real program (serve-replay.test.ts, serve-guards.test.ts): the
// workspace they start from, a hash snapshot of a folder, a wait for a console line, one request. Not a test file.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { send, type SimpleResponse } from '../e2e/server-harness.js';
import type { RunningMock } from '../helpers/mock-cli.js';

export const MOCK_TOML =
  '# my workspace\n[service]\nfallback_respond_dir = "public"   # files live here\nrule_sets = ["pre.toml"]  # a prefixed set\n';
export const PRE_TOML =
  'prefix.url_path = "/pre"\n\n[[rules]]\nwhen.request.url_path = "/known"\nrespond.text = "known"\n';

/** Every entry under `dir` (symlinks not followed) → a hash of its content, or its link target. */
export function treeContents(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel === '' ? name : `${rel}/${name}`;
      if (skip(r)) continue;
      const abs = join(dir, r);
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, 'link:' + readlinkSync(abs));
      else if (st.isDirectory()) {
        out.set(r, 'dir');
        walk(r);
      } else out.set(r, createHash('sha256').update(readFileSync(abs)).digest('hex'));
    }
  };
  walk('');
  return out;
}

/** Polls the program's stdout for a line matching `want` (up to 10 s). */
export async function lineMatching(m: RunningMock, want: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const line = m.stdoutLines.find((l) => want.test(l));
    if (line !== undefined) return line;
    if (Date.now() > deadline) assert.fail(`no line matching ${want} in:\n${m.stdoutLines.join('\n')}\n${m.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
}

export const ask = (m: RunningMock, s: Sent, headers: Record<string, string> = {}): Promise<SimpleResponse> =>
  send(m.port, {
    method: s.method,
    path: s.path,
    headers: s.body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(s.body !== undefined ? { body: s.body } : {}),
  });

export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
