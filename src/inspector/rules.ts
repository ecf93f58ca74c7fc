// `POST /__mock/api/rules`: `mock set rule` over HTTP. The JSON body carries the flags; they become the very
// argument list the command parses, and set rule's core (config/edit/io/set-rule.ts) runs it, so the checks, the
// planner, the confinement of the rule set to the config's folder, the load check, the conflict check and the
// atomic write are the command's own, and so is the envelope's `result`. The config and the folder paths resolve against are the server's, never the
// caller's: `config`, `format` and `allow_outside` are not accepted over HTTP.
//
// Body keys (each optional, as the flag of the same name with `_` for `-`): rule_set, rule, path, method,
// header (a "Name: value" string or an array of them), status, json (JSON text, as --json takes it), text, file,
// delay, dry_run. Errors: usage 400, config_invalid 422, conflict 409, io and config_unreadable 500.
import { parseSetRuleFlags, setRule } from '../config/edit/io/set-rule.js';
import { setRuleResult } from '../config/edit/view.js';
import { failure, result, type JsonAnswer } from './envelope.js';
import type { Route } from './router.js';

export const RULES_PATH = '/__mock/api/rules';

export interface RulesOptions {
  /** the folder relative paths resolve against (the server's working directory) */
  readonly cwd: () => string;
  /** the root config the server loaded (as given to -c), or undefined for ./mock.toml in cwd */
  readonly configPath: () => string | undefined;
  /** called after a write that changed files (the live workspace may reload at once instead of waiting for the watcher) */
  readonly onWritten?: (files: readonly string[]) => void | Promise<void>;
}

type KeySpec = { readonly flag: string; readonly type: 'string' | 'integer' | 'boolean' | 'strings' };

/** The accepted body keys and the flag each becomes. */
export const RULE_BODY_KEYS: Readonly<Record<string, KeySpec>> = {
  rule_set: { flag: 'rule-set', type: 'string' },
  rule: { flag: 'rule', type: 'integer' },
  path: { flag: 'path', type: 'string' },
  method: { flag: 'method', type: 'string' },
  header: { flag: 'header', type: 'strings' },
  path_template: { flag: 'path-template', type: 'string' },
  query: { flag: 'query', type: 'strings' },
  cookie: { flag: 'cookie', type: 'strings' },
  param: { flag: 'param', type: 'strings' },
  form: { flag: 'form', type: 'strings' },
  body_contains: { flag: 'body-contains', type: 'string' },
  status: { flag: 'status', type: 'integer' },
  json: { flag: 'json', type: 'string' },
  text: { flag: 'text', type: 'string' },
  file: { flag: 'file', type: 'string' },
  delay: { flag: 'delay', type: 'integer' },
  dry_run: { flag: 'dry-run', type: 'boolean' },
};

const MESSAGES = {
  notObject: 'the body must be a JSON object of set rule flags, e.g. {"path": "/api/users", "json": "[]"}',
  unknownKey: (key: string) => `unknown key \`${key}\` (allowed: ${Object.keys(RULE_BODY_KEYS).join(', ')})`,
  badType: (key: string, type: KeySpec['type']) =>
    `\`${key}\` must be ${type === 'strings' ? 'a string or an array of strings' : type === 'integer' ? 'a whole number' : `a ${type}`}`,
} as const;

/** The flags as the command line would carry them (`--name=value`, so no value is ever read as a flag). */
export function bodyToArgv(body: unknown): { ok: true; argv: string[] } | { ok: false; message: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, message: MESSAGES.notObject };
  const argv: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const spec = RULE_BODY_KEYS[key];
    if (spec === undefined || !Object.hasOwn(RULE_BODY_KEYS, key))
      return { ok: false, message: MESSAGES.unknownKey(key) };
    if (value === null || value === undefined) continue;
    switch (spec.type) {
      case 'string':
        if (typeof value !== 'string') return { ok: false, message: MESSAGES.badType(key, spec.type) };
        argv.push(`--${spec.flag}=${value}`);
        break;
      case 'integer':
        if (typeof value === 'number' && Number.isSafeInteger(value)) argv.push(`--${spec.flag}=${value}`);
        else if (typeof value === 'string')
          argv.push(`--${spec.flag}=${value}`); // the flag's own check reports it
        else return { ok: false, message: MESSAGES.badType(key, spec.type) };
        break;
      case 'boolean':
        if (typeof value !== 'boolean') return { ok: false, message: MESSAGES.badType(key, spec.type) };
        if (value) argv.push(`--${spec.flag}`);
        break;
      case 'strings': {
        const list: unknown[] = Array.isArray(value) ? value : [value];
        if (!list.every((v) => typeof v === 'string')) return { ok: false, message: MESSAGES.badType(key, spec.type) };
        for (const v of list) argv.push(`--${spec.flag}=${v}`);
        break;
      }
    }
  }
  return { ok: true, argv };
}

/** Apply one rules POST body: the envelope answer. */
export async function postRule(body: unknown, options: RulesOptions): Promise<JsonAnswer> {
  const mapped = bodyToArgv(body);
  if (!mapped.ok) return failure('usage', mapped.message);
  const config = options.configPath();
  const flags = parseSetRuleFlags([...(config === undefined ? [] : [`--config=${config}`]), ...mapped.argv]);
  if (!flags.ok) return failure('usage', flags.error);
  const outcome = await setRule(flags.value, options.cwd());
  if (!outcome.ok) return failure(outcome.error.kind, outcome.error.message, outcome.error.diagnostics);
  if (outcome.value.changedFiles.length > 0) await options.onWritten?.(outcome.value.changedFiles);
  return result(setRuleResult(outcome.value));
}

export function rulesRoute(options: RulesOptions): Route {
  return { method: 'POST', path: RULES_PATH, handle: async (ctx) => postRule(await ctx.body(), options) };
}
