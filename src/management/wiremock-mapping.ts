// A WireMock stub mapping posted over `/__admin` → the rules an override holds. The mapping goes through the
// import's own translation (import/wiremock.ts's decodeWireMock, then import/plan.ts's planSource, the rule-set
// text `mock --init --from mappings/` would write for it), so a stub answers the same posted as imported; the
// response files that text names are put inline (an override holds no file of its own). What the import would
// leave out is a refusal naming each part: a stub that silently matched more than it says would be worse than
// none (docs/coming-from-wiremock.md).
import { parse as parseToml } from 'smol-toml';
import { planSource, leftOutLine, type PlannedFile } from '../import/plan.js';
import { decodeWireMock } from '../import/wiremock.js';
import { err, ok, type Result } from '../shared/result.js';

export type Obj = { readonly [k: string]: unknown };
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Translated {
  /** rules in the rule-set shape (`when`, `respond`, `priority`), as `POST /__mock/api/overrides` takes them */
  readonly rules: readonly Record<string, unknown>[];
  /** a rule is a template: the engine must be loaded before the rules are decoded */
  readonly templated: boolean;
}

export const MAPPING_MESSAGES = {
  notObject: 'a stub mapping must be a JSON object with `request` and `response`',
  leftOut: (lines: readonly string[]) =>
    `mock cannot express every part of this stub yet, so it is not added: ${lines.join('; ')}`,
  binary: (file: string) => `the body (${file}) is not text, and an override holds text or JSON bodies only`,
} as const;

/** The override rules of one mapping, or why it cannot be one. */
export function translateMapping(mapping: unknown): Result<Translated, string> {
  if (!isObj(mapping)) return err(MAPPING_MESSAGES.notObject);
  // the admin API names no files, and `bodyFileName` cannot reach the workspace's `__files/`
  const decoded = decodeWireMock({
    title: 'admin API',
    files: [{ name: 'stub', data: withPriority(mapping) }],
    bodyFile: () => undefined,
  });
  if (!decoded.ok) return err(`${decoded.error.place}: ${decoded.error.message}`);
  if (decoded.value.leftOut.length > 0) return err(MAPPING_MESSAGES.leftOut(decoded.value.leftOut.map(leftOutLine)));
  const plan = planSource(decoded.value, {
    source: 'the admin API',
    command: 'POST /__admin/mappings',
    ruleSetName: 'admin',
    taken: () => false,
  });
  const planned = plan.ruleSets[0]?.text ?? '';
  const text = typeof planned === 'string' ? planned : new TextDecoder().decode(planned);
  const doc = parseToml(text) as { rules?: Record<string, unknown>[] };
  const rules = doc.rules ?? [];
  if (rules.length !== decoded.value.rules.length || rules.length === 0)
    return err(MAPPING_MESSAGES.leftOut([leftOutComment(text)]));
  const files = new Map(plan.files.map((f) => [f.path, f]));
  const out: Record<string, unknown>[] = [];
  let templated = false;
  for (const rule of rules) {
    const inlined = inlineBody(rule, files);
    if (!inlined.ok) return inlined;
    const respond = inlined.value['respond'] as Obj | undefined;
    templated ||= respond?.['template'] === true || respond?.['template_dialect'] === 'wiremock';
    out.push(inlined.value);
  }
  return ok({ rules: out, templated });
}

/**
 * WireMock's priority as the import writes it (`priority = -p`, 5 when unset), on every stub: the stubs of the
 * admin API sit in one list and must compare among themselves.
 */
function withPriority(m: Obj): Obj {
  return typeof m['priority'] === 'number' ? m : { ...m, priority: 5 };
}

/** the import's "left out: …" comment of a rule it could not write */
function leftOutComment(text: string): string {
  const line = text.split('\n').find((l) => l.startsWith('# left out: '));
  return line === undefined ? 'the stub has no rule' : line.slice('# left out: '.length);
}

/** `respond.file_path` of a planned file → `respond.json` or `respond.text` with its content */
function inlineBody(
  rule: Record<string, unknown>,
  files: ReadonlyMap<string, PlannedFile>,
): Result<Record<string, unknown>, string> {
  const respond = rule['respond'];
  if (!isObj(respond) || typeof respond['file_path'] !== 'string') return ok(rule);
  const file = files.get(respond['file_path']);
  if (file === undefined) return ok(rule);
  const { file_path: _path, template_file: _file, ...rest } = respond;
  let text: string;
  if (typeof file.text === 'string') text = file.text;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(file.text);
    } catch {
      return err(MAPPING_MESSAGES.binary(file.path));
    }
  }
  const key = file.path.endsWith('.json') ? 'json' : 'text';
  return ok({ ...rule, respond: { ...rest, [key]: text } });
}
