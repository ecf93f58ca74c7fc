// Running the program as another user, for tests that need file permissions to apply. Root ignores folder and file
// permissions, so a test running as root runs the program as `nobody` (uid/gid 65534) instead.
//
// `nobody` may not be able to reach the checkout (a clone inside a 0700 folder, a home folder): the program is
// therefore run from a copy of dist/bin (and the package.json that names its version) placed in a fresh folder of
// its own under the temp directory, opened to everyone. Before any test relies on it, `nobody` is made to run that
// copy once; if it cannot (Node.js itself out of its reach, a private temp directory, no setuid allowed in this
// sandbox), the caller gets the reason to skip with, never a failure that is not the product's.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MAIN_JS, makeTempDir, type RunResult } from './mock-cli.js';

export const NOBODY = 65534;

export interface OtherUser {
  /** true when the program runs as `nobody`; false when the tests already run as an ordinary user */
  readonly switched: boolean;
  /** runs the program with `argv` in `cwd`, as that user */
  run(argv: readonly string[], cwd: string): Promise<RunResult>;
}

export type OtherUserOrSkip =
  | { readonly ok: true; readonly user: OtherUser }
  | { readonly ok: false; readonly reason: string };

/** True when permission checks do not apply to this process (root). */
export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

function spawnProgram(main: string, argv: readonly string[], cwd: string, uid?: number): Promise<RunResult> {
  return spawnNode([main, ...argv], cwd, { ...process.env, NO_COLOR: '1' }, uid);
}

/** `node <args>` as `nobody` (only meaningful as root, after otherUser() said it can run things). */
export function runNodeAsNobody(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return spawnNode(args, cwd, env, NOBODY);
}

function spawnNode(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, uid?: number): Promise<RunResult> {
  return new Promise((resolveRun) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(uid === undefined ? {} : { uid, gid: uid }),
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolveRun({ code: null, signal: null, stdout, stderr: stderr + String(e) });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
}

/** A copy of dist/bin and package.json in a fresh world-readable folder; returns the copied main.cjs. */
function copyProgram(): string {
  const binDir = dirname(MAIN_JS);
  const home = makeTempDir('mock-as-nobody-');
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
  chmodSync(home, 0o755);
  const bin = join(home, 'bin');
  cpSync(binDir, bin, { recursive: true });
  openToAll(bin);
  // the version the program prints comes from the nearest package.json above it that names it
  writeFileSync(join(home, 'package.json'), JSON.stringify({ name: 'folder-mock', version: programVersion() }));
  chmodSync(join(home, 'package.json'), 0o644);
  return join(bin, 'main.cjs');
}

/** Folders 0755, files 0644, all the way down (the copy must be readable whatever the umask). */
function openToAll(path: string): void {
  if (statSync(path).isDirectory()) {
    chmodSync(path, 0o755);
    for (const f of readdirSync(path)) openToAll(join(path, f));
  } else chmodSync(path, 0o644);
}

function programVersion(): string {
  // dist/bin/main.cjs → the checkout's package.json, two folders up
  try {
    return (JSON.parse(readFileSync(join(dirname(MAIN_JS), '..', '..', 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return '0.0.0';
  }
}

let cached: Promise<OtherUserOrSkip> | undefined;

/**
 * The program, runnable as a user that file permissions apply to. As an ordinary user: the program as it is.
 * As root: a copy run as `nobody`, after checking that `nobody` can run it from a folder it may enter.
 */
export function otherUser(): Promise<OtherUserOrSkip> {
  cached ??= (async (): Promise<OtherUserOrSkip> => {
    if (!runningAsRoot())
      return { ok: true, user: { switched: false, run: (argv, cwd) => spawnProgram(MAIN_JS, argv, cwd) } };
    let main: string;
    try {
      main = copyProgram();
    } catch (e) {
      return {
        ok: false,
        reason: `running as root, and a copy of the program for user nobody could not be made: ${String(e)}`,
      };
    }
    const probe = await spawnProgram(main, ['--version'], dirname(dirname(main)), NOBODY);
    if (probe.code !== 0) {
      const why = (probe.stderr.trim().split('\n')[0] ?? '') || `exit ${String(probe.code ?? probe.signal)}`;
      return {
        ok: false,
        reason: `running as root, and user nobody (uid ${NOBODY}) cannot run the program copied to ${dirname(dirname(main))} (${why}); permissions cannot be tested here`,
      };
    }
    return { ok: true, user: { switched: true, run: (argv, cwd) => spawnProgram(main, argv, cwd, NOBODY) } };
  })();
  return cached;
}
