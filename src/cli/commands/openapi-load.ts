// Reading an OpenAPI document for `mock --init --from` and `--contract`: the file is parsed here (YAML, which JSON
// is a part of, with line numbers), checked to be OpenAPI 3.0 or 3.1 (a Swagger 2.0 document is converted to
// OpenAPI 3.0 in memory first, by the swagger2openapi package). Then, for the import (`bundled`), the document
// stays as written: every `$ref` is found in one walk and checked to resolve, the files it names beside it (never
// the network) are bundled in by swagger-parser, and the document is validated against the OpenAPI schema as
// written, so both cost what the document's size does (docs/openapi.md#large-documents). For the contract, which
// compiles each schema as a tree, swagger-parser resolves, dereferences and validates it. Every failure names the
// file, the JSON pointer and, where the main file holds it, the line, and what was wrong.
import SwaggerParser from '@apidevtools/swagger-parser';
import validateSchema from '@apidevtools/swagger-parser/lib/validators/schema.js';
import { readFile } from 'node:fs/promises';
import { convertObj } from 'swagger2openapi';
import { dirname, relative, resolve, sep } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { isObj, type Obj } from '../../openapi/document.js';
import { firstRefProblem, refSites, type RefProblem } from '../../openapi/refs.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { Failure } from '../report.js';
import { systemReason } from '../request.js';

export interface LoadedDocument {
  readonly doc: Obj;
  readonly abs: string;
  /** the Swagger version the document was converted from */
  readonly swagger?: string;
}

const BT = '`';
const q = (s: string): string => BT + s + BT;

export const LOAD_MESSAGES = {
  unreadable: (shown: string, why: string) => `cannot read ${q(shown)}: ${why}`,
  notParsed: (at: string, why: string) => `${at}: not valid YAML or JSON: ${why}`,
  notObject: (shown: string) => `${shown}: not an OpenAPI document: the top level is not an object`,
  swagger2: (at: string, v: string) =>
    `${at}: this is a Swagger ${v} document; mock imports Swagger 2.0 and OpenAPI 3.0 and 3.1 only`,
  swaggerConversion: (at: string, why: string) =>
    `${at}: the Swagger 2.0 document does not convert to OpenAPI 3.0: ${why}`,
  notOpenApi: (shown: string) => `${shown}: not an OpenAPI document: it has no \`openapi\` field`,
  badVersion: (at: string, v: string) =>
    `${at}: OpenAPI version ${q(v)} is not supported; mock imports 3.0.x and 3.1.x`,
  invalid: (n: number) => `the document is not valid OpenAPI (${n} problem${n === 1 ? '' : 's'}):`,
  refMissing: (at: string, ref: string, why: string) => `${at}: $ref ${q(ref)} does not resolve: ${why}`,
  refNetwork: (at: string, ref: string) => `${at}: $ref ${q(ref)} names a network address; mock reads local files only`,
  refFile: (at: string, ref: string, why: string) => `${at}: $ref ${q(ref)} names a file that cannot be read: ${why}`,
  otherFile: (why: string) => `a referenced file does not parse: ${why}`,
  other: (why: string) => `the document does not load: ${why}`,
} as const;

interface Located {
  readonly text: Document.Parsed;
  readonly lines: LineCounter;
  readonly shown: string;
}

/** `file:line:column` for a JSON pointer into the main document (`file#pointer` when it is not there). */
function at(l: Located, pointer: string): string {
  const offset = offsetOf(l.text, pointer);
  if (offset === undefined) return `${l.shown}#${pointer}`;
  const { line, col } = l.lines.linePos(offset);
  return `${l.shown}:${line}:${col}: #${pointer}`;
}

function offsetOf(d: Document.Parsed, pointer: string): number | undefined {
  const tokens =
    pointer === ''
      ? []
      : pointer
          .replace(/^\//, '')
          .split('/')
          .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = d.contents;
  let offset = (d.contents as YamlNode | null)?.range?.[0];
  for (const t of tokens) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === t);
      if (pair === undefined) break;
      offset = (pair.key as YamlNode).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(t)];
      if (item === undefined) break;
      node = item;
      offset = (item as YamlNode).range?.[0] ?? offset;
    } else break;
  }
  return offset;
}

/** Every `$ref` in the main document, with its pointer (to find where a failing reference is written). */
function refsOf(d: Document.Parsed): readonly { readonly ref: string; readonly pointer: string }[] {
  const out: { ref: string; pointer: string }[] = [];
  const walk = (node: unknown, pointer: string): void => {
    if (isMap(node)) {
      for (const p of node.items) {
        if (!isScalar(p.key)) continue;
        const key = String(p.key.value);
        const here = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (key === '$ref' && isScalar(p.value) && typeof p.value.value === 'string')
          out.push({ ref: p.value.value, pointer: here });
        else walk(p.value, here);
      }
    } else if (isSeq(node)) node.items.forEach((item, i) => walk(item, `${pointer}/${i}`));
  };
  walk(d.contents, '');
  return out;
}

function displayOf(cwd: string, abs: string): string {
  const r = relative(cwd, abs);
  return r === '' || r.startsWith('..') ? abs : r.split(sep).join('/');
}

export interface LoadOptions {
  /** the document as written, its `$ref`s local (the files it names bundled in), not dereferenced */
  readonly bundled?: boolean;
  /** told as each step begins */
  readonly phase?: (step: 'validating') => void;
  /** the file's text (without a byte order mark) and its JSON value, already read (import-source.ts) */
  readonly parsed?: { readonly text: string; readonly data: unknown };
}

export async function loadOpenApi(
  cwd: string,
  given: string,
  opts: LoadOptions = {},
): Promise<Result<LoadedDocument, Failure>> {
  const abs = resolve(cwd, given);
  let source: string;
  if (opts.parsed !== undefined) source = opts.parsed.text;
  else {
    try {
      source = (await readFile(abs, 'utf8')).replace(/^\uFEFF/, '');
    } catch (e) {
      return err({ kind: 'config_unreadable', message: LOAD_MESSAGES.unreadable(given, systemReason(e)) });
    }
  }
  // JSON parses much faster as JSON; the YAML parse (for line numbers) is then made only if a problem needs one
  let data: unknown = opts.parsed?.data ?? parseJsonQuietly(source);
  let located: Located | undefined;
  const locate = (): Located => (located ??= locatedOf(source, given));
  if (data === undefined) {
    const l = locate();
    if (l.text.errors.length > 0) {
      const e = l.text.errors[0]!;
      const { line, col } = l.lines.linePos(e.pos[0]);
      return err({
        kind: 'config_invalid',
        message: LOAD_MESSAGES.notParsed(`${given}:${line}:${col}`, e.message.split('\n')[0]!),
      });
    }
    try {
      data = l.text.toJS({ maxAliasCount: 10_000 });
    } catch (e) {
      return err({
        kind: 'config_invalid',
        message: LOAD_MESSAGES.notParsed(given, e instanceof Error ? e.message : String(e)),
      });
    }
  }
  if (!isObj(data)) return err({ kind: 'config_invalid', message: LOAD_MESSAGES.notObject(given) });
  let swagger: string | undefined;
  if (data['swagger'] !== undefined) {
    swagger = shownValue(data['swagger']);
    if (swagger !== '2.0')
      return err({ kind: 'config_invalid', message: LOAD_MESSAGES.swagger2(at(locate(), '/swagger'), swagger) });
    try {
      // patch: fix the small mistakes real documents have; the result is validated as OpenAPI 3.0 below
      data = (await convertObj(data, { patch: true, warnOnly: true, resolve: false })).openapi;
    } catch (e) {
      return err({
        kind: 'config_invalid',
        message: LOAD_MESSAGES.swaggerConversion(given, e instanceof Error ? e.message : String(e)),
      });
    }
    if (!isObj(data)) return err({ kind: 'config_invalid', message: LOAD_MESSAGES.notObject(given) });
  }
  if (data['openapi'] === undefined) return err({ kind: 'config_invalid', message: LOAD_MESSAGES.notOpenApi(given) });
  const version = shownValue(data['openapi']);
  if (!/^3\.[01]\.\d+/.test(version))
    return err({ kind: 'config_invalid', message: LOAD_MESSAGES.badVersion(at(locate(), '/openapi'), version) });

  opts.phase?.('validating');
  if (opts.bundled === true) {
    const checked = await bundledDocument(data, abs, locate, cwd);
    return checked.ok ? ok({ doc: checked.value, abs, ...(swagger === undefined ? {} : { swagger }) }) : checked;
  }
  try {
    const api: unknown = await SwaggerParser.validate(abs, data as never, {
      resolve: { http: false, external: true },
      dereference: { circular: 'ignore' },
    });
    return ok({ doc: api as Obj, abs, ...(swagger === undefined ? {} : { swagger }) });
  } catch (e) {
    return err({ kind: 'config_invalid', message: explain(e, locate(), cwd, abs) });
  }
}

/**
 * The document with every `$ref` local and resolving (another file's bundled in by swagger-parser, which follows
 * the `$ref`s of that file only), then validated against the OpenAPI schema as written: swagger-parser's own
 * schema check, so its messages are the ones a dereferenced check gave, pointing where the document says it.
 */
async function bundledDocument(
  data: Obj,
  abs: string,
  locate: () => Located,
  cwd: string,
): Promise<Result<Obj, Failure>> {
  let doc = data;
  let problem = firstRefProblem(doc, refSites(doc));
  if (problem?.kind === 'external') {
    try {
      const bundled: unknown = await SwaggerParser.bundle(abs, doc as never, {
        resolve: { http: false, external: true },
      });
      if (!isObj(bundled)) return err({ kind: 'config_invalid', message: LOAD_MESSAGES.notObject(abs) });
      doc = bundled;
    } catch (e) {
      return err({ kind: 'config_invalid', message: explain(e, locate(), cwd, abs) });
    }
    problem = firstRefProblem(doc, refSites(doc));
  }
  if (problem !== undefined) return err({ kind: 'config_invalid', message: refMessage(problem, locate()) });
  try {
    validateSchema(doc);
  } catch (e) {
    return err({ kind: 'config_invalid', message: explain(e, locate(), cwd, abs) });
  }
  return ok(doc);
}

function refMessage(p: RefProblem, l: Located): string {
  const written = `${p.site.pointer}/$ref`;
  switch (p.kind) {
    case 'network':
      return LOAD_MESSAGES.refNetwork(at(l, written), p.site.ref);
    case 'external':
      // a bundled document names no other file: a file's `$ref` that stayed is one the bundler could not take in
      return LOAD_MESSAGES.refFile(at(l, written), p.site.ref, 'it was not bundled');
    case 'missing':
      return LOAD_MESSAGES.refMissing(at(l, p.site.pointer), p.site.ref, p.why);
  }
}

function parseJsonQuietly(text: string): unknown {
  if (!/^\s*\{/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function locatedOf(text: string, shown: string): Located {
  const lines = new LineCounter();
  return { text: parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true }), lines, shown };
}

interface ParserErrorShape {
  readonly name?: string;
  readonly message?: string;
  readonly source?: string;
  readonly parentPath?: string;
  readonly targetRef?: string;
  readonly details?: readonly {
    readonly instancePath?: string;
    readonly message?: string;
    readonly params?: unknown;
  }[];
}

/** a scalar as written; anything else as JSON */
function shownValue(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}

function explain(raw: unknown, l: Located, cwd: string, abs: string): string {
  const e: ParserErrorShape = typeof raw === 'object' && raw !== null ? raw : { message: String(raw) };
  const message = (e.message ?? '').replace(new RegExp(escape(dirname(abs) + sep), 'g'), '');
  const details = e.details ?? [];
  if (details.length > 0) {
    const shown = details
      .slice(0, 8)
      .map((d) => `  ${at(l, d.instancePath ?? '')}: ${d.message ?? 'invalid'}${extra(d.params)}`);
    const more = details.length > 8 ? [`  … and ${details.length - 8} more`] : [];
    return [LOAD_MESSAGES.invalid(details.length), ...shown, ...more].join('\n');
  }
  const refs = refsOf(l.text);
  if (e.name === 'MissingPointerError') {
    const parent = e.parentPath ?? '';
    const hash = parent.indexOf('#');
    const file = hash < 0 ? parent : parent.slice(0, hash);
    const pointer = hash < 0 ? '' : parent.slice(hash + 1);
    const inMain = file === abs || file === '';
    const where = inMain ? at(l, pointer) : `${displayOf(cwd, file)}#${pointer}`;
    const written = inMain ? refs.find((r) => r.pointer === `${pointer}/$ref`)?.ref : undefined;
    return LOAD_MESSAGES.refMissing(where, written ?? e.targetRef ?? '?', message);
  }
  if (e.name === 'ResolverError' && e.source !== undefined) {
    const target = e.source;
    const found = refs.find(
      (r) => r.ref.split('#')[0] !== '' && resolve(dirname(abs), r.ref.split('#')[0]!) === target,
    );
    const why = message.replace(/^Error opening file [^:]*: /, '');
    return LOAD_MESSAGES.refFile(
      found === undefined ? l.shown : at(l, found.pointer),
      found?.ref ?? displayOf(cwd, target),
      why,
    );
  }
  const network = refs.find((r) => /^[a-z][a-z0-9+.-]*:\/\//i.test(r.ref));
  if (network !== undefined && /Unable to resolve \$ref/.test(message))
    return LOAD_MESSAGES.refNetwork(at(l, network.pointer), network.ref);
  if (e.name === 'ParserError') return LOAD_MESSAGES.otherFile(message.replace(/^Error parsing /, ''));
  return LOAD_MESSAGES.other(message.trim());
}

function extra(params: unknown): string {
  if (!isObj(params)) return '';
  const allowed = params['allowedValues'];
  if (Array.isArray(allowed)) return ` (one of ${allowed.map(String).join(', ')})`;
  const prop = params['additionalProperty'];
  if (typeof prop === 'string') return ` (${q(prop)})`;
  return '';
}

function escape(s: string): string {
  return s.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}
