// The root config side of `set rule`: a minimal config for a fresh directory, or the rule set's entry
// appended to service.rule_sets (in the array as written, in [service], or in a new [service] table).
import { dirname, resolve } from 'node:path';
import { err, ok, type Result } from '../../shared/result.js';
import { clone, isTable, parseFile, verify } from './data.js';
import { appendArrayElement, appendBlock, applyEdits, insertPair, tomlBasicString, type TextEdit } from './patch.js';
import { SET_RULE_MESSAGES, type Change, type FileState, type PlanFailure } from './plan-types.js';
import { documentScope, findEntry, staticValueOf, tableSite } from './spans.js';

const q = (s: string): string => '`' + s + '`';

export interface ConfigPlan {
  readonly ruleSetIndex: number;
  readonly after?: string;
  readonly change?: Change;
}

/**
 * A minimal root config listing one rule set; `fallbackDir` is the service.fallback_respond_dir entry, `port`
 * the listener's (record mode keeps the port the recording ran on). Without a port none is written, only the
 * default as a comment: `set rule` cannot know the port of a server already serving the folder (`mock -p 4000`),
 * and a `port = 3001` it never chose would move that server's next start.
 */
export function bootstrapConfigText(entry: string, fallbackDir = '.', port?: number): string {
  return (
    '[listener]\n' +
    'ip_address = "127.0.0.1"\n' +
    (port === undefined ? '# port = 3001 (the default; `mock -p <port>` overrides it)\n' : `port = ${port}\n`) +
    '\n' +
    '[service]\n' +
    `fallback_respond_dir = ${tomlBasicString(fallbackDir)}\n` +
    `rule_sets = [${tomlBasicString(entry)}]\n`
  );
}

export function planConfig(
  ruleIndex: number | undefined,
  config: FileState,
  ruleSet: FileState,
  entry: string,
  fallbackDir?: string,
  port?: number,
): Result<ConfigPlan, PlanFailure> {
  const target = `root config ${q(config.shown)}`;
  if (config.text === undefined) {
    if (ruleIndex !== undefined)
      return err({ kind: 'usage', message: SET_RULE_MESSAGES.notListedNoConfig(ruleSet.shown, config.shown) });
    return ok({
      ruleSetIndex: 0,
      after: bootstrapConfigText(entry, fallbackDir, port),
      change: { kind: 'Added', target, summary: `new file listing rule set #1 (${entry})` },
    });
  }
  const parsed = parseFile(config);
  if (!parsed.ok) return parsed;
  const doc = staticValueOf(parsed.value);
  const service = doc['service'];
  const listed = isTable(service) ? service['rule_sets'] : undefined;
  if (listed !== undefined && !(Array.isArray(listed) && listed.every((x) => typeof x === 'string'))) {
    return err({ kind: 'config_invalid', message: SET_RULE_MESSAGES.ruleSetsNotList(config.shown) });
  }
  const entries = (listed ?? []) as readonly string[];
  const dir = dirname(config.abs);
  const index = entries.findIndex((e) => resolve(dir, e) === ruleSet.abs);
  if (index >= 0) return ok({ ruleSetIndex: index });
  if (ruleIndex !== undefined) return err({ kind: 'usage', message: SET_RULE_MESSAGES.notListed(ruleSet.shown) });

  const text = config.text;
  const scope = documentScope(text, parsed.value);
  const element = tomlBasicString(entry);
  const existing = findEntry(scope, ['service', 'rule_sets']);
  let edits: readonly TextEdit[] | undefined;
  if (existing !== undefined && existing.node.value.type === 'TOMLArray')
    edits = appendArrayElement(text, existing.node.value, element);
  else if (tableSite(scope, ['service']) !== undefined) {
    const edit = insertPair(text, scope, ['service', 'rule_sets'], `[${element}]`);
    if (edit !== undefined) edits = [edit];
  }
  edits ??= [appendBlock(text, `[service]\nrule_sets = [${element}]\n`)];
  const after = applyEdits(text, edits);

  const expected = clone(doc);
  const svc = isTable(expected['service']) ? expected['service'] : (expected['service'] = {});
  svc['rule_sets'] = [...entries, entry];
  const check = verify(after, expected, config.shown);
  if (!check.ok) return check;
  return ok({
    ruleSetIndex: entries.length,
    after,
    change: { kind: 'Updated', target, summary: `service.rule_sets lists rule set #${entries.length + 1} (${entry})` },
  });
}
