// How a condition reads in explanations (`get --why`, `match-test`): a display name and
// an expectation. Renderers put them together as `<name> <expectation>`, e.g.
// `url_path equal "/x"`, `url_path  starts with  "/api"`, `header:x-k  exists ""`, `method GET`.
import { BODY_OP_WORDS, STRING_OP_WORDS } from '../model/operators.js';
import type { Condition, Rule } from '../model/rule-set.js';
import { assertNever } from '../shared/result.js';

export interface ConditionDescription {
  /**
   * `url_path`, `method`, `header:<lower-cased name>`, `body.json:<path>`, `query:<name>`, `cookie:<name>`,
   * `param:<name>`, `body.form:<field>`, `body.text`, `state:<scenario>`
   */
  readonly name: string;
  /**
   * A bare url_path: `equal "<raw value>"`. Method: the method name. Otherwise the operator's display
   * words with a space on each side (only a leading one for exists / absent), a space, and the value
   * quoted Rust-debug style.
   */
  readonly expectation: string;
}

export function describeCondition(cond: Condition): ConditionDescription {
  switch (cond.on) {
    case 'url_path':
      return {
        name: 'url_path',
        expectation: cond.bare
          ? `equal ${debugQuote(cond.value)}`
          : `${opDisplay(STRING_OP_WORDS[cond.op], cond.op)} ${debugQuote(cond.value)}`,
      };
    case 'method':
      return { name: 'method', expectation: cond.value };
    case 'header':
      return {
        name: `header:${cond.name}`,
        expectation: `${opDisplay(STRING_OP_WORDS[cond.op], cond.op)} ${debugQuote(cond.value)}`,
      };
    case 'body':
      return {
        name: `body.json:${cond.path}`,
        expectation: `${opDisplay(BODY_OP_WORDS[cond.op], cond.op)} ${debugQuote(cond.value)}`,
      };
    case 'query':
    case 'cookie':
    case 'param':
    case 'form':
      return {
        name: `${FIELD_NAMES[cond.on]}:${cond.name}`,
        expectation: `${opDisplay(STRING_OP_WORDS[cond.op], cond.op)} ${debugQuote(cond.value)}`,
      };
    case 'url':
      return {
        name: 'url',
        expectation: `${opDisplay(STRING_OP_WORDS[cond.op], cond.op)} ${debugQuote(cond.value)}`,
      };
    case 'body_text':
      return {
        name: 'body.text',
        expectation: `${opDisplay(STRING_OP_WORDS[cond.op], cond.op)} ${debugQuote(cond.value)}`,
      };
    case 'state':
      return {
        name: `state:${cond.name}`,
        expectation: `${opDisplay(STRING_OP_WORDS[cond.op], cond.op)} ${debugQuote(cond.value)}`,
      };
    default:
      return assertNever(cond, 'condition');
  }
}

/** the display prefix of each named condition */
export const FIELD_NAMES = { query: 'query', cookie: 'cookie', param: 'param', form: 'body.form' } as const;

/** `<name> <expectation>`, the condition as one line of text. */
export function conditionText(cond: Condition): string {
  const d = describeCondition(cond);
  return `${d.name} ${d.expectation}`;
}

/**
 * What a rule matches, in a few words: `GET /b`, `any method /b`, `POST url_path starts with "/api"`, plus
 * `and 2 more conditions` when it also checks headers or the body. For `set rule`'s summary line.
 */
export function ruleMatchesText(rule: Rule): string {
  let method = 'any method';
  let path = 'any path';
  let more = 0;
  for (const c of rule.conditions) {
    if (c.on === 'method') method = c.value;
    else if (c.on === 'url_path' && path === 'any path') path = c.bare || c.op === 'equal' ? c.value : conditionText(c);
    else more++;
  }
  return `${method} ${path}${more === 0 ? '' : ` and ${more} more condition${more === 1 ? '' : 's'}`}`;
}

function opDisplay(words: string, op: string): string {
  return op === 'exists' || op === 'absent' ? ` ${words}` : ` ${words} `;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\0': '\\0',
};

/** A string quoted as Rust's `{:?}` prints it: `"` and `\` escaped, control characters as `\n` or `\u{1b}`. */
export function debugQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const simple = SIMPLE_ESCAPES[ch];
    if (simple !== undefined) out += simple;
    else {
      const cp = ch.codePointAt(0)!;
      out += cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ? `\\u{${cp.toString(16)}}` : ch;
    }
  }
  return out + '"';
}
