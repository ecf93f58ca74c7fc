// The synthetic request of `get` and `match-test`, from -m, -H, -b and --body-file, as the raw parts
// snapshotFrom() takes: the same normaliser the server uses, so both see exactly the same request.
import { resolve } from 'node:path';
import type { RawRequest } from '../dispatch/snapshot.js';
import { JsonSyntaxError, parseJson } from '../shared/json.js';
import { err, ok, type Result } from '../shared/result.js';
import { flagValue, flagValues, type ParsedArgs } from '../shared/args.js';
import type { Io } from './io.js';
import { setScenarios } from '../state/scenarios.js';
import { MemoryStore } from '../state/store.js';
import { SCENARIO_NAME } from '../config/shapes/rule-set.js';

/** An HTTP token (RFC 9110): what a method or a header name may contain. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export { REQUEST_FLAGS } from './flags.js';

/** Builds the raw request; the error is a full message (with the `mock <cmd>: ` prefix). */
export async function requestFromFlags(
  args: ParsedArgs,
  target: string,
  io: Io,
  prefix: string,
): Promise<Result<RawRequest, string>> {
  const method = (flagValue(args, 'method') ?? 'GET').toUpperCase();
  if (!TOKEN.test(method)) return err(`${prefix}: invalid method '${method}'`);

  const headers: [string, string][] = [];
  for (const h of flagValues(args, 'header')) {
    const colon = h.indexOf(':');
    const name = colon > 0 ? h.slice(0, colon).trim() : '';
    if (colon <= 0 || !TOKEN.test(name)) return err(`${prefix}: invalid header '${h}' (expected "Name: value")`);
    headers.push([name, h.slice(colon + 1).trim()]);
  }

  const inline = flagValue(args, 'body');
  const bodyFile = flagValue(args, 'body-file');
  const bodyText = flagValue(args, 'body-text');
  const given = (['body', 'body-file', 'body-text'] as const).filter((f) => flagValue(args, f) !== undefined);
  if (given.length > 1) return err(`${prefix}: --${given[0]} and --${given[1]} are mutually exclusive`);
  let body: Uint8Array | undefined;
  if (bodyText !== undefined) {
    if (!headers.some(([k]) => k.toLowerCase() === 'content-type'))
      headers.push(['content-type', 'text/plain; charset=utf-8']);
    return ok({ method, target, headers, body: new TextEncoder().encode(bodyText) });
  }
  if (inline !== undefined) {
    const problem = jsonProblem(inline);
    if (problem !== undefined) return err(`${prefix}: --body is not valid JSON: ${problem}`);
    body = new TextEncoder().encode(inline);
  } else if (bodyFile !== undefined) {
    try {
      body = await io.readFile(resolve(io.cwd, bodyFile));
    } catch (e) {
      return err(`${prefix}: cannot read --body-file ${bodyFile}: ${systemReason(e)}`);
    }
    const problem = jsonProblem(new TextDecoder().decode(body));
    if (problem !== undefined) return err(`${prefix}: --body-file ${bodyFile} is not valid JSON: ${problem}`);
  }
  if (body !== undefined && !headers.some(([k]) => k.toLowerCase() === 'content-type')) {
    headers.push(['content-type', 'application/json']);
  }
  return ok({ method, target, headers, ...(body !== undefined ? { body } : {}) });
}

function jsonProblem(text: string): string | undefined {
  try {
    parseJson(text);
    return undefined;
  } catch (e) {
    return e instanceof JsonSyntaxError || e instanceof Error ? e.message : String(e);
  }
}

/** "No such file or directory" rather than a stack: the system's own words for an I/O error. */
export function systemReason(e: unknown): string {
  if (typeof e === 'object' && e !== null && 'code' in e) {
    const code = String(e.code);
    const known: Readonly<Record<string, string>> = {
      ENOENT: 'No such file or directory',
      EACCES: 'Permission denied',
      EISDIR: 'Is a directory',
      ENOTDIR: 'Not a directory',
    };
    return known[code] ?? code;
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * The scenario states of `--state cart=paid` (repeatable), in a fresh store: `get` and `match-test` answer from
 * them, every other scenario from `started` (docs/state.md). The last of a repeated scenario wins.
 */
export function stateFromFlags(args: ParsedArgs, prefix: string): Result<MemoryStore, string> {
  const store = new MemoryStore();
  for (const text of flagValues(args, 'state')) {
    const eq = text.indexOf('=');
    const name = eq < 0 ? '' : text.slice(0, eq);
    const state = eq < 0 ? '' : text.slice(eq + 1);
    if (!SCENARIO_NAME.test(name) || state === '')
      return err(
        `${prefix}: invalid value for --state: '${text}' (expected <scenario>=<state>, e.g. cart=paid; a scenario name holds letters, digits, _ . -)`,
      );
    setScenarios(store, { [name]: state });
  }
  return ok(store);
}
