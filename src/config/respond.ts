// A rule's `respond` table → Respond (docs/files-and-rules.md#rule-sets-mock-rule-settoml).
//   exactly one of file_path / text / json, or status alone (empty body); status goes with any of them
//   (apimock-rs refuses it with file_path; mock allows it, docs/files-and-rules.md); status 100..999; headers string → string (names lower-cased, HTTP-valid); delay a non-negative integer.
// file_path resolves against the respond directory (the root config's folder, joined with
// prefix.respond_dir) and must stay inside it; its existence is checked later through a RespondFileRef.
import type { Respond, RespondBody } from '../model/answer.js';
import { decodeCallbacks } from './callbacks.js';
import { hasUnknownKey, report, type DecodeContext, type KeyPath } from './decode.js';
import { minifyJsonLiteral } from './json-literal.js';
import { MESSAGES } from './messages.js';
import { isWithin, resolvePath } from './read.js';
import type { RespondFileRef } from './respond-files.js';
import { MAX_DELAY_MS, RESPOND_BODY_KEYS, respondTable } from './shapes/rule-set.js';
import type { TomlNode } from './toml.js';
import type { RespondTemplate, TemplateSlot } from '../model/template.js';
import type { TemplateRef } from './templates.js';
import type { WebSocketPlan } from '../model/websocket.js';
import { decodeWebSocket } from './websocket.js';

export { MAX_DELAY_MS };

/** what a request that is not an upgrade gets from a WebSocket rule (with status 426 unless the rule says) */
export const UPGRADE_REQUIRED = 'upgrade required: this path answers WebSocket connections';
const BODY_KEYS = RESPOND_BODY_KEYS;

export interface RespondContext {
  readonly decode: DecodeContext;
  /** 0-based rule index */
  readonly rule: number;
  /** absolute directory respond.file_path resolves against (and must stay inside) */
  readonly respondDir: string;
  /** where file_path references are collected for the existence / JSON checks */
  readonly fileRefs: RespondFileRef[];
  /** the rule set says `template = true` */
  readonly templated: boolean;
  /** the rule set's `template_dialect` */
  readonly dialect?: 'mock' | 'wiremock';
  /** where template slots are collected for compiling (config/templates.ts) */
  readonly templateRefs: TemplateRef[];
}

const RESPOND_KEYS = Object.keys(respondTable.node.kind === 'record' ? respondTable.node.fields : {});

export function decodeRespond(node: TomlNode, path: KeyPath, rc: RespondContext): Respond | undefined {
  const ctx = rc.decode;
  const t = respondTable(node, path, ctx);
  if (t === undefined || node.kind !== 'table') return undefined;
  const rule = rc.rule + 1;
  const present = BODY_KEYS.filter((k) => node.entries.has(k));
  let failed = false;
  if (present.length > 1) {
    report(
      ctx,
      'invalid_value',
      MESSAGES.respondExclusive(rule, present),
      node.entries.get(present[1]!)!.keyOffset,
      path,
    );
    failed = true;
  } else if (
    present.length === 0 &&
    !node.entries.has('status') &&
    !node.entries.has('fault') &&
    !hasUnknownKey(node, RESPOND_KEYS)
  ) {
    // (with an unknown key, that key is most likely the intended body and is reported already)
    report(ctx, 'missing_key', MESSAGES.respondNoBody(rule), node.offset, path);
    failed = true;
  }

  const dialect = t.template_dialect ?? rc.dialect;
  const wiremock = dialect === 'wiremock' ? ('wiremock' as const) : undefined;
  const templated = rc.templated || t.template === true || wiremock !== undefined;
  if (t.template_file === true && t.file_path === undefined) {
    report(
      ctx,
      'invalid_value',
      MESSAGES.templateFileWithoutPath(rule),
      node.entries.get('template_file')!.keyOffset,
      path,
    );
    failed = true;
  }
  const slots = templated || t.template_file === true ? new TemplateSlots(node, path, rc, wiremock) : undefined;

  let body: RespondBody | undefined = { kind: 'empty' };
  let bodySlot: TemplateSlot | undefined;
  let pathSlot: TemplateSlot | undefined;
  let websocket: WebSocketPlan | undefined;
  if (t.text !== undefined) {
    body = { kind: 'text', text: t.text };
    if (templated) bodySlot = slots!.add('text', t.text, 'text');
  } else if (t.json !== undefined) {
    bodySlot = templated ? slots!.add('json', t.json, 'json') : undefined;
    body =
      bodySlot !== undefined
        ? { kind: 'json', text: t.json }
        : decodeJsonBody(t.json, node.entries.get('json')!.node, [...path, 'json'], rc);
  } else if (t.file_path !== undefined) {
    pathSlot = templated ? slots!.add('path', t.file_path, 'file_path') : undefined;
    body =
      pathSlot !== undefined
        ? { kind: 'file', path: t.file_path, confineTo: rc.respondDir }
        : decodeFileBody(
            t.file_path,
            node.entries.get('file_path')!.node,
            [...path, 'file_path'],
            rc,
            t.template_file === true,
          );
  } else if (t.stream?.file_path !== undefined) {
    body = decodeStreamBody(
      t.stream.file_path,
      t.stream.interval_ms ?? 0,
      node.entries.get('stream')!.node,
      [...path, 'stream'],
      rc,
    );
  } else if (t.websocket !== undefined) {
    websocket = decodeWebSocket(
      t.websocket,
      node.entries.get('websocket')!.node,
      [...path, 'websocket'],
      rc,
      templated,
    );
    body = websocket === undefined ? undefined : { kind: 'text', text: UPGRADE_REQUIRED };
  } else if (present.length > 0) body = undefined; // the body key had the wrong type (reported)

  const headers = t.headers ?? [];
  const headerSlots: (readonly [string, TemplateSlot])[] = [];
  if (templated) {
    for (const [name, value] of headers) {
      const slot = slots!.addHeader(name, value);
      if (slot !== undefined) headerSlots.push([name, slot]);
    }
  }

  if (failed || body === undefined) return undefined;
  const delay = t.delay_response_milliseconds;
  const respond: { -readonly [K in keyof Respond]: Respond[K] } = {
    body,
    headers,
    delayMs: delay?.kind === 'fixed' ? delay.ms : 0,
  };
  if (t.status !== undefined) respond.status = t.status;
  if (websocket !== undefined) {
    respond.websocket = websocket;
    respond.status ??= 426;
  }
  // the extras only when written, so a plain rule's Respond keeps its usual shape
  if (delay !== undefined) respond.delaySet = true;
  if (delay !== undefined && delay.kind !== 'fixed') respond.delay = delay;
  if (t.fault !== undefined) respond.fault = t.fault;
  if (t.chunks?.count !== undefined) respond.chunks = { count: t.chunks.count, intervalMs: t.chunks.interval_ms ?? 0 };
  if (t.set_state !== undefined && Object.keys(t.set_state).length > 0) respond.setState = t.set_state;
  if (t.callbacks !== undefined && t.callbacks.length > 0) {
    const callbacks = decodeCallbacks(
      t.callbacks,
      node.entries.get('callbacks')!.node,
      [...path, 'callbacks'],
      rc,
      templated,
    );
    if (callbacks === undefined) return undefined;
    respond.callbacks = callbacks;
  }
  const streamEvents = templated && body.kind === 'stream';
  if (
    bodySlot !== undefined ||
    pathSlot !== undefined ||
    headerSlots.length > 0 ||
    t.template_file === true ||
    streamEvents
  ) {
    const template: RespondTemplate = {
      where: { file: ctx.file, rule },
      ...(bodySlot !== undefined ? { body: bodySlot } : {}),
      ...(pathSlot !== undefined ? { filePath: pathSlot } : {}),
      headers: headerSlots,
      templateFile: t.template_file === true,
      ...(streamEvents ? { streamEvents } : {}),
      respondDir: rc.respondDir,
      ...(wiremock !== undefined ? { dialect: wiremock } : {}),
    };
    respond.template = template;
  }
  return respond;
}

/** Collects a rule's template slots, each with where its source is written (for a syntax error's position). */
class TemplateSlots {
  constructor(
    private readonly node: TomlNode & { kind: 'table' },
    private readonly path: KeyPath,
    private readonly rc: RespondContext,
    private readonly dialect: 'wiremock' | undefined,
  ) {}
  /** A slot for a value that holds `{{` (anything else is literal, and keeps its load-time checks). */
  add(kind: TemplateSlot['kind'], source: string, key: string): TemplateSlot | undefined {
    if (!source.includes('{{')) return undefined;
    const slot: TemplateSlot = { kind, source, ...(this.dialect !== undefined ? { dialect: this.dialect } : {}) };
    const valueNode = this.node.entries.get(key)!.node;
    this.rc.templateRefs.push({
      slot,
      rule: this.rc.rule,
      get offset() {
        return valueNode.offset;
      },
      keyPath: [...this.path, key],
    });
    return slot;
  }
  addHeader(name: string, value: string): TemplateSlot | undefined {
    if (!value.includes('{{')) return undefined;
    const slot: TemplateSlot = {
      kind: 'header',
      source: value,
      ...(this.dialect !== undefined ? { dialect: this.dialect } : {}),
    };
    pushHeaderTemplate(this.rc, this.node, this.path, name, slot, {});
    return slot;
  }
}

/**
 * Notes a templated header of an answer or a callback (`headers` under `node`) for the compile at load: its
 * position is the header's value as written (its name matched case-insensitively), else the `headers` table.
 */
export function pushHeaderTemplate(
  rc: RespondContext,
  node: Extract<TomlNode, { kind: 'table' }>,
  path: KeyPath,
  name: string,
  slot: TemplateSlot,
  extra: { readonly callback?: true },
): void {
  const headersNode = node.entries.get('headers')!.node;
  const entry =
    headersNode.kind === 'table' ? [...headersNode.entries].find(([k]) => k.toLowerCase() === name) : undefined;
  const at = entry?.[1].node ?? headersNode;
  rc.templateRefs.push({
    slot,
    rule: rc.rule,
    get offset() {
      return at.offset;
    },
    keyPath: [...path, 'headers', entry?.[0] ?? name],
    ...extra,
  });
}

function decodeJsonBody(text: string, node: TomlNode, path: KeyPath, rc: RespondContext): RespondBody | undefined {
  const r = minifyJsonLiteral(text);
  if (r.ok) return { kind: 'json', text: r.value };
  const rule = rc.rule + 1;
  const p = r.error;
  const message =
    p.kind === 'syntax'
      ? MESSAGES.respondJsonInvalid(rule, p.reason)
      : p.kind === 'out_of_range'
        ? MESSAGES.respondJsonOutOfRange(rule, p.literal)
        : MESSAGES.respondJsonNotFinite(rule);
  report(rc.decode, 'invalid_value', message, node.offset, path);
  return undefined;
}

/**
 * A file a rule names, resolved under the respond folder and noted for the load's check that it exists (its offset
 * read only if it turns out to be missing: a lazily located tree parses again for it); outside the folder, `outside`
 * is reported and nothing is noted.
 */
export function confinedFileRef(
  entry: string,
  node: TomlNode,
  path: KeyPath,
  rc: RespondContext,
  outside: string,
  extra: { readonly template?: true },
): string | undefined {
  const abs = resolvePath(rc.respondDir, entry);
  if (!isWithin(rc.respondDir, abs)) {
    report(rc.decode, 'invalid_value', outside, node.offset, path);
    return undefined;
  }
  rc.fileRefs.push({
    rule: rc.rule,
    entry,
    path: abs,
    get offset() {
      return node.offset;
    },
    keyPath: path,
    ...extra,
  });
  return abs;
}

function decodeFileBody(
  entry: string,
  node: TomlNode,
  path: KeyPath,
  rc: RespondContext,
  templateFile = false,
): RespondBody | undefined {
  const abs = confinedFileRef(entry, node, path, rc, MESSAGES.respondFileOutside(rc.rule + 1, entry, rc.respondDir), {
    ...(templateFile ? { template: true } : {}),
  });
  if (abs === undefined) return undefined;
  return { kind: 'file', path: abs, confineTo: rc.respondDir };
}

/** `.sse` or `.ndjson`, by the file's extension; the file itself is read per request like a `file_path`. */
function decodeStreamBody(
  entry: string,
  intervalMs: number,
  node: TomlNode,
  path: KeyPath,
  rc: RespondContext,
): RespondBody | undefined {
  const at: KeyPath = [...path, 'file_path'];
  const fileNode = node.kind === 'table' ? (node.entries.get('file_path')?.node ?? node) : node;
  const format = /\.ndjson$|\.jsonl$/i.test(entry) ? 'ndjson' : /\.sse$/i.test(entry) ? 'sse' : undefined;
  if (format === undefined) {
    report(rc.decode, 'invalid_value', MESSAGES.streamExtension(rc.rule + 1, entry), fileNode.offset, at);
    return undefined;
  }
  const file = decodeFileBody(entry, fileNode, at, rc);
  if (file?.kind !== 'file') return undefined;
  return { kind: 'stream', path: file.path, confineTo: rc.respondDir, format, intervalMs };
}
