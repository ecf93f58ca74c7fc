// `respond.callbacks` → CallbackSpec[] (docs/callbacks.md). The shape (shapes/callbacks.ts) decoded each entry's
// keys; here what it cannot check: one body key at most, an absolute http(s) URL when literal, literal JSON text,
// and the template slots (compiled with the rule's other templates, config/templates.ts).
import type { CallbackSpec, CallbackTemplate } from '../model/callback.js';
import { DEFAULT_RETRY_ON } from '../model/callback.js';
import type { DelaySpec } from '../model/answer.js';
import type { TemplateSlot } from '../model/template.js';
import type { HeaderList } from '../shared/headers.js';
import { report, type KeyPath } from './decode.js';
import { minifyJsonLiteral } from './json-literal.js';
import { pushHeaderTemplate, type RespondContext } from './respond.js';
import { CALLBACK_BODY_KEYS, CALLBACK_DEFAULTS } from './shapes/callbacks.js';
import type { TomlNode } from './toml.js';

/** One entry as the shape decoded it (every key optional: a key that failed is reported and absent). */
export interface DecodedCallback {
  url?: string;
  method?: string;
  headers?: unknown;
  body?: string;
  json?: string;
  delay_ms?: DelaySpec;
  template?: boolean;
  retries?: number;
  retry_on?: number[];
  retry_delay_ms?: number;
  timeout_ms?: number;
  on_success?: { set_state?: unknown };
  on_failure?: { set_state?: unknown };
}

/** The callbacks of one rule; undefined when one of them is wrong (each problem reported at its place). */
export function decodeCallbacks(
  decoded: readonly DecodedCallback[],
  node: TomlNode,
  path: KeyPath,
  rc: RespondContext,
  templated: boolean,
): CallbackSpec[] | undefined {
  if (node.kind !== 'array' || decoded.length !== node.items.length) return undefined;
  const out: CallbackSpec[] = [];
  let ok = true;
  node.items.forEach((item, i) => {
    const spec = decodeOne(decoded[i]!, item, [...path, i], rc, templated, i);
    if (spec === undefined) ok = false;
    else out.push(spec);
  });
  return ok ? out : undefined;
}

function decodeOne(
  c: DecodedCallback,
  node: TomlNode,
  path: KeyPath,
  rc: RespondContext,
  ruleTemplated: boolean,
  index: number,
): CallbackSpec | undefined {
  if (node.kind !== 'table' || c.url === undefined) return undefined;
  const ctx = rc.decode;
  const where = `callback ${index + 1} of rule ${rc.rule + 1} of ${ctx.file}`;
  const keyOffset = (k: string): number => node.entries.get(k)?.keyOffset ?? node.offset;
  const valueOffset = (k: string): number => node.entries.get(k)?.node.offset ?? node.offset;
  const present = CALLBACK_BODY_KEYS.filter((k) => node.entries.has(k));
  if (present.length > 1) {
    report(ctx, 'invalid_value', `${where}: \`body\` and \`json\` are mutually exclusive`, keyOffset('json'), path);
    return undefined;
  }
  const templated = c.template ?? ruleTemplated;
  const slots: CallbackSlots = new CallbackSlots(node, path, rc);
  const urlSlot = templated ? slots.add('text', c.url, 'url') : undefined;
  const literalHost = hostOf(c.url);
  if (urlSlot === undefined && literalHost === undefined) {
    report(
      ctx,
      'invalid_value',
      `${where}: \`url\` must be an absolute http:// or https:// URL, found ${JSON.stringify(c.url)}`,
      valueOffset('url'),
      [...path, 'url'],
    );
    return undefined;
  }
  let body: CallbackSpec['body'];
  let bodySlot: TemplateSlot | undefined;
  if (c.json !== undefined) {
    bodySlot = templated ? slots.add('json', c.json, 'json') : undefined;
    if (bodySlot === undefined) {
      const r = minifyJsonLiteral(c.json);
      if (!r.ok) {
        report(ctx, 'invalid_value', `${where}: \`json\` is not valid JSON`, valueOffset('json'), [...path, 'json']);
        return undefined;
      }
      body = { kind: 'json', text: r.value };
    } else body = { kind: 'json', text: c.json };
  } else if (c.body !== undefined) {
    bodySlot = templated ? slots.add('text', c.body, 'body') : undefined;
    body = { kind: 'text', text: c.body };
  }
  const headers = (c.headers ?? []) as HeaderList;
  const headerSlots: (readonly [string, TemplateSlot])[] = [];
  if (templated)
    for (const [name, value] of headers) {
      const slot = slots.addHeader(name, value);
      if (slot !== undefined) headerSlots.push([name, slot]);
    }
  const template: CallbackTemplate | undefined =
    urlSlot === undefined && bodySlot === undefined && headerSlots.length === 0
      ? undefined
      : {
          ...(urlSlot === undefined ? {} : { url: urlSlot }),
          ...(bodySlot === undefined ? {} : { body: bodySlot }),
          headers: headerSlots,
        };
  const success = c.on_success?.set_state as Record<string, string> | undefined;
  const failure = c.on_failure?.set_state as Record<string, string> | undefined;
  return {
    url: c.url,
    method: c.method ?? CALLBACK_DEFAULTS.method,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(c.delay_ms === undefined ? {} : { delay: c.delay_ms }),
    retries: c.retries ?? CALLBACK_DEFAULTS.retries,
    retryOn: c.retry_on ?? DEFAULT_RETRY_ON,
    retryDelayMs: c.retry_delay_ms ?? CALLBACK_DEFAULTS.retryDelayMs,
    timeoutMs: c.timeout_ms ?? CALLBACK_DEFAULTS.timeoutMs,
    ...(success === undefined || Object.keys(success).length === 0 ? {} : { onSuccess: success }),
    ...(failure === undefined || Object.keys(failure).length === 0 ? {} : { onFailure: failure }),
    ...(template === undefined ? {} : { template }),
    ...(literalHost === undefined || literalHost.includes('{{') ? {} : { literalHost }),
    where,
  };
}

/**
 * The host of a URL whose scheme and host are written literally (`https://hooks.example.com/{{…}}` has one;
 * `{{request.body.callbackUrl}}` and `http://{{…}}/` do not), lower-cased; undefined otherwise.
 */
export function hostOf(url: string): string | undefined {
  const m = /^(https?):\/\/([^/?#]*)/i.exec(url);
  if (m === null || m[2]!.includes('{{') || m[2] === '') return undefined;
  try {
    return new URL(`${m[1]!.toLowerCase()}://${m[2]!}/`).hostname;
  } catch {
    return undefined;
  }
}

/** A callback's template slots, each with where its source is written (for a syntax error's position). */
class CallbackSlots {
  constructor(
    private readonly node: TomlNode & { kind: 'table' },
    private readonly path: KeyPath,
    private readonly rc: RespondContext,
  ) {}
  add(kind: TemplateSlot['kind'], source: string, key: string): TemplateSlot | undefined {
    if (!source.includes('{{')) return undefined;
    const slot: TemplateSlot = { kind, source };
    const valueNode = this.node.entries.get(key)!.node;
    this.rc.templateRefs.push({
      slot,
      rule: this.rc.rule,
      get offset() {
        return valueNode.offset;
      },
      keyPath: [...this.path, key],
      callback: true,
    });
    return slot;
  }
  addHeader(name: string, value: string): TemplateSlot | undefined {
    if (!value.includes('{{')) return undefined;
    const slot: TemplateSlot = { kind: 'header', source: value };
    pushHeaderTemplate(this.rc, this.node, this.path, name, slot, { callback: true });
    return slot;
  }
}
