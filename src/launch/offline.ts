// The dispatch environment of everything that answers a request without a server: `mock get`, `validate
// --against` and `--against-upstream`, `match-test`, and the tests' fixtures. Made here only, beside launch(),
// so a new capability's offline default is written once (a test checks that nobody builds one by hand).
import type { ContractGate, DispatchEnv } from '../dispatch/dispatch.js';
import type { LoadFailure } from '../config/load.js';
import type { Failure } from '../model/errors.js';
import type { FileSource } from '../files/source.js';
import { createFsSource } from '../node/file-cache/fs-source.js';
import { RotationState } from '../routing/rotation.js';
import { MemoryStore, type StateStore } from '../state/store.js';

export interface OfflineOptions {
  /** where script output and contract findings go (default: nowhere) */
  readonly log?: (line: string) => void;
  /** the scenario states (`--state`); default a fresh store, every scenario `started` */
  readonly state?: StateStore;
  /** the files the answers read; default the disk, read afresh (no watches) */
  readonly files?: FileSource;
  /** `service.contract`: requests checked as the server checks them */
  readonly contract?: ContractGate | undefined;
}

/** One request's world with no server behind it: fresh round-robin counters and state, the disk as it is now. */
export function offlineEnv(opts: OfflineOptions = {}): DispatchEnv {
  const env: DispatchEnv = {
    files: opts.files ?? createFsSource({ watch: false }),
    rotation: new RotationState(),
    state: opts.state ?? new MemoryStore(),
    random: Math.random,
    log: opts.log ?? (() => {}),
  };
  return opts.contract === undefined ? env : { ...env, contract: opts.contract };
}

/** `failed to load config: …`: how every command reports a workspace that does not load. */
export function loadFailed(message: string): string {
  return `failed to load config: ${message}`;
}

/** A load failure as a command reports it (reportFailure, MockError). */
export function loadFailure(f: LoadFailure): Failure {
  return { kind: f.kind, message: loadFailed(f.message), diagnostics: f.diagnostics };
}
