// Redaction of an entry's why (docs/output.md, the request log): the values the matcher saw and the values a
// template read are the request's data too, so they hide what the entry's headers, query and body hide, with the
// same denylists (shared/redact.ts). A condition or a template path that names a denylisted header, cookie, query
// parameter, form field or JSON key shows `[redacted]`; a JSON value or body text shown whole has its denylisted
// keys' values redacted (cut text included); a form body's text has its denylisted fields redacted.
// Copy on write: a why with nothing to hide comes back as it is.
import type { WhyConditionView, WhyView } from '../dispatch/explain-view.js';
import type { TemplateUse } from '../dispatch/templated.js';
import type { Json } from '../shared/json.js';
import { isDeniedField, isDeniedHeader, REDACTED, redactJson, redactJsonText, redactQuery } from '../shared/redact.js';

/** what the request's body was, as far as its text needs redacting */
export type BodyTextKind = 'form' | 'other';

export function redactWhy(why: WhyView, body: BodyTextKind): WhyView {
  const conditions = (cs: readonly WhyConditionView[]): readonly WhyConditionView[] => {
    let out: WhyConditionView[] | undefined;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      const actual = c.actual === null ? null : redactActual(c.name, c.actual, body);
      if (out === undefined && actual !== c.actual) out = cs.slice(0, i);
      out?.push(actual === c.actual ? c : { ...c, actual });
    }
    return out ?? cs;
  };
  const ruleSets = why.ruleSets.map((rs) => {
    const rules = rs.rules.map((r) => {
      const cs = conditions(r.conditions);
      return cs === r.conditions ? r : { ...r, conditions: cs };
    });
    return rules.every((r, i) => r === rs.rules[i]) ? rs : { ...rs, rules };
  });
  const overrides = why.overrides?.map((o) => {
    const cs = conditions(o.conditions);
    return cs === o.conditions ? o : { ...o, conditions: cs };
  });
  const template = why.template === undefined ? undefined : redactTemplate(why.template, body);
  const same =
    ruleSets.every((rs, i) => rs === why.ruleSets[i]) &&
    (overrides === undefined || overrides.every((o, i) => o === why.overrides![i])) &&
    template === why.template;
  if (same) return why;
  return {
    ...why,
    ruleSets,
    ...(overrides === undefined ? {} : { overrides }),
    ...(template === undefined ? {} : { template }),
  };
}

/** A condition's actual value, by what the condition names (describeCondition's names). */
function redactActual(name: string, actual: string, body: BodyTextKind): string {
  const colon = name.indexOf(':');
  const on = colon < 0 ? name : name.slice(0, colon);
  const what = colon < 0 ? '' : name.slice(colon + 1);
  switch (on) {
    case 'header':
      return isDeniedHeader(what) ? REDACTED : actual;
    // the Cookie header is hidden whole: so is every cookie read from it
    case 'cookie':
      return REDACTED;
    case 'query':
    case 'body.form':
      return isDeniedField(what) ? REDACTED : actual;
    case 'body.json':
      return pathNamesDenied(what) ? REDACTED : redactJsonText(actual);
    case 'body.text':
      return redactBodyText(actual, body);
    default:
      return actual;
  }
}

function redactBodyText(text: string, body: BodyTextKind): string {
  const json = redactJsonText(text);
  return body === 'form' ? redactQuery(json) : json;
}

/** a JSON path (`$.user.password`, `items[0].token`, `a["api_key"]`) with a denylisted key on the way */
function pathNamesDenied(path: string): boolean {
  return path.split(/[.[\]'"$]+/).some((k) => k !== '' && isDeniedField(k));
}

/** The values a template read: by the path it named (`request.headers.authorization`), then by their keys. */
function redactTemplate(t: TemplateUse, body: BodyTextKind): TemplateUse {
  let changed = false;
  const values = t.values.map((v) => {
    const value = redactTemplateValue(v.path, v.value, body);
    if (value === v.value) return v;
    changed = true;
    return { ...v, value };
  });
  return changed ? { ...t, values } : t;
}

function redactTemplateValue(path: string, value: unknown, body: BodyTextKind): unknown {
  if (value === undefined || value === null) return value;
  const parts = path.split('.');
  const [root, part, ...rest] = parts;
  if (root !== 'request') return redactDeep(value);
  if (part === 'cookies') {
    if (rest.length > 0 || typeof value !== 'object') return REDACTED;
    return Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED]));
  }
  if (part === 'headers' && rest.length > 0) return isDeniedHeader(rest.join('.')) ? REDACTED : value;
  if (part === 'text' && typeof value === 'string') return redactBodyText(value, body);
  if (rest.some((k) => isDeniedField(k))) return REDACTED;
  return redactDeep(value);
}

/** an object or array read whole: its denylisted keys' values hidden (JSON values only; anything else as it is) */
function redactDeep(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return redactJson(value as Json);
  } catch {
    return value;
  }
}
