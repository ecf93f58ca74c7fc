// Reading a `mock --init --from` source of any format: a folder (WireMock's mappings/ and __files/) or a file,
// whose format is told from its content (import/detect.ts) unless `--from-format` names it. OpenAPI and Swagger
// go on to openapi-load.ts; the others are read here and decoded by their pure decoders in import/. Every failure
// names the file (and the line and column, or the place in the mapping) and what was expected.
import { json5ToJson } from '../../files/json5.js';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parse } from 'yaml';
import { detectFormat } from '../../import/detect.js';
import type { ImportFormat } from '../../import/formats.js';
import type { SourceImport } from '../../import/plan.js';
import { decodeWireMock, type WireMockFile } from '../../import/wiremock.js';
import { decodePostman, variablesOf } from '../../import/postman.js';
import { decodeMockoon } from '../../import/mockoon.js';
import { err, ok, type Result } from '../../shared/result.js';
import type { Failure } from '../report.js';
import { systemReason } from '../request.js';

export type LoadedSource =
  | {
      readonly kind: 'openapi';
      readonly format: 'openapi' | 'swagger';
      /** the JSON text and its value, when the file was parsed to tell its format (not parsed again) */
      readonly parsed?: { readonly text: string; readonly data: unknown };
    }
  | { readonly kind: 'source'; readonly imp: SourceImport }
  /** a HAR file, parsed: record mode's recorder saves its entries (import-har.ts) */
  | { readonly kind: 'har'; readonly data: unknown };

export interface SourceOptions {
  /** `--from-format`: skip detection */
  readonly format?: ImportFormat;
  /** `--postman-env`: a Postman environment file whose variables a collection's `{{name}}`s take */
  readonly postmanEnv?: string;
}

const MESSAGES = {
  unreadable: (shown: string, why: string) => `cannot read \`${shown}\`: ${why}`,
  notJson: (at: string, why: string) => `${at}: not valid JSON: ${why}`,
  unknown: (shown: string) =>
    `${shown}: the format is not recognised (expected OpenAPI 3.x, Swagger 2.0, a HAR file, WireMock mappings, a Postman collection or a Mockoon environment); name it with --from-format`,
  unsupported: (shown: string, what: string, hint: string) => `${shown}: this is ${what}; ${hint}`,
  folderNotWireMock: (shown: string) =>
    `${shown}: a folder is read as WireMock mappings (a \`mappings/\` folder, or JSON mapping files), but it holds no .json files`,
  tooManyFiles: (shown: string, n: number) => `${shown}: more than ${n} files; import a smaller folder`,
} as const;

/** at most this many files are read from a WireMock folder (mappings and __files each) */
const MAX_FILES = 20_000;

function shownOf(cwd: string, abs: string): string {
  const r = relative(cwd, abs);
  return r === '' ? '.' : r.startsWith('..') ? abs : r.split(sep).join('/');
}

/** `file:line:col` for a JSON.parse failure (its message names a position, or the end of the input). */
function jsonFailure(shown: string, text: string, e: unknown): Failure {
  const message = e instanceof Error ? e.message : String(e);
  const m = /position (\d+)/.exec(message);
  const pos = m !== null ? Number(m[1]) : text.length;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - before.lastIndexOf('\n');
  const why =
    /end of JSON input/i.test(message) || pos >= text.trimEnd().length
      ? 'the input ends early (truncated?)'
      : message.replace(/ in JSON at position \d+.*$/, '');
  return { kind: 'config_invalid', message: MESSAGES.notJson(`${shown}:${line}:${col}`, why) };
}

export async function loadSource(cwd: string, given: string, o: SourceOptions): Promise<Result<LoadedSource, Failure>> {
  const abs = resolve(cwd, given);
  let isDir: boolean;
  try {
    isDir = (await stat(abs)).isDirectory();
  } catch (e) {
    return err({ kind: 'config_unreadable', message: MESSAGES.unreadable(given, systemReason(e)) });
  }
  if (isDir || o.format === 'wiremock') {
    if (o.format !== undefined && o.format !== 'wiremock')
      return err({ kind: 'config_invalid', message: MESSAGES.unreadable(given, 'it is a folder') });
    return loadWireMock(cwd, abs, isDir);
  }
  if (o.format === 'openapi' || o.format === 'swagger') return ok({ kind: 'openapi', format: o.format });
  let text: string;
  try {
    text = (await readFile(abs, 'utf8')).replace(/^\uFEFF/, '');
  } catch (e) {
    return err({ kind: 'config_unreadable', message: MESSAGES.unreadable(given, systemReason(e)) });
  }
  // YAML is OpenAPI's or Swagger's; every other format is JSON
  if (!/^\s*[{[]/.test(text)) return ok({ kind: 'openapi', format: 'openapi' });
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (e) {
    // a YAML flow mapping (`{openapi: 3.0.0, …}`) starts like JSON: OpenAPI's loader reads it
    if (isOpenApiYaml(text)) return ok({ kind: 'openapi', format: 'openapi' });
    // a WireMock mapping file may hold comments
    try {
      data = JSON.parse(json5ToJson(text)) as unknown;
    } catch {
      return err(jsonFailure(given, text, e));
    }
  }
  const detected = o.format === undefined ? detectFormat(data) : ({ kind: 'format', format: o.format } as const);
  if (detected.kind === 'unknown') return err({ kind: 'config_invalid', message: MESSAGES.unknown(given) });
  if (detected.kind === 'unsupported')
    return err({ kind: 'config_invalid', message: MESSAGES.unsupported(given, detected.what, detected.hint) });
  switch (detected.format) {
    case 'openapi':
    case 'swagger':
      return ok({ kind: 'openapi', format: detected.format, parsed: { text, data } });
    case 'wiremock':
      return loadWireMock(cwd, abs, false, data);
    case 'har':
      return ok({ kind: 'har', data });
    case 'postman':
      return loadPostman(cwd, given, data, o.postmanEnv);
    case 'mockoon': {
      const decoded = decodeMockoon(data);
      if (!decoded.ok)
        return err({ kind: 'config_invalid', message: `${given}: ${decoded.error.place}: ${decoded.error.message}` });
      return ok({ kind: 'source', imp: decoded.value });
    }
  }
}

function isOpenApiYaml(text: string): boolean {
  try {
    const data: unknown = parse(text);
    return typeof data === 'object' && data !== null && ('openapi' in data || 'swagger' in data);
  } catch {
    return false;
  }
}

async function loadPostman(
  cwd: string,
  given: string,
  data: unknown,
  envFile: string | undefined,
): Promise<Result<LoadedSource, Failure>> {
  let environment: Map<string, string> | undefined;
  if (envFile !== undefined) {
    const read = await readJson(cwd, resolve(cwd, envFile));
    if (!read.ok) return read;
    const env = read.value.data;
    if (typeof env !== 'object' || env === null || !Array.isArray((env as { values?: unknown }).values))
      return err({
        kind: 'config_invalid',
        message: `${envFile}: not a Postman environment (expected an object with a \`values\` array)`,
      });
    environment = variablesOf((env as { values: unknown }).values);
  }
  const decoded = decodePostman(data, environment === undefined ? {} : { environment });
  if (!decoded.ok)
    return err({ kind: 'config_invalid', message: `${given}: ${decoded.error.place}: ${decoded.error.message}` });
  return ok({ kind: 'source', imp: decoded.value });
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length > MAX_FILES) return;
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push(p);
    }
  };
  await walk(dir);
  return out;
}

async function exists(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A folder holding `mappings/` (and `__files/`), a `mappings/` folder itself (`__files/` beside it), or one
 * mapping file (`__files/` beside it, or beside the `mappings/` folder it is in).
 */
async function loadWireMock(
  cwd: string,
  abs: string,
  isDir: boolean,
  /** the file's content, parsed already */
  single?: unknown,
): Promise<Result<LoadedSource, Failure>> {
  let mappingsDir: string | undefined;
  let root: string;
  if (isDir) {
    if (await exists(join(abs, 'mappings'))) {
      mappingsDir = join(abs, 'mappings');
      root = abs;
    } else {
      mappingsDir = abs;
      root = dirname(abs);
    }
  } else root = basename(dirname(abs)) === 'mappings' ? dirname(dirname(abs)) : dirname(abs);
  const filesDir = join(root, '__files');
  const files: WireMockFile[] = [];
  // named from the WireMock root (`mappings/orders.json`), as WireMock users know them
  if (single !== undefined) files.push({ name: shownOf(root, abs), data: single });
  else if (!isDir) {
    const read = await readJson(root, abs);
    if (!read.ok) return read;
    files.push(read.value);
  } else {
    const names = (await filesUnder(mappingsDir!)).filter((p) => p.toLowerCase().endsWith('.json'));
    if (names.length > MAX_FILES)
      return err({ kind: 'config_invalid', message: MESSAGES.tooManyFiles(shownOf(cwd, mappingsDir!), MAX_FILES) });
    if (names.length === 0)
      return err({ kind: 'config_invalid', message: MESSAGES.folderNotWireMock(shownOf(cwd, abs)) });
    for (const p of names) {
      const read = await readJson(root, p);
      if (!read.ok) return read;
      files.push(read.value);
    }
  }
  const bodies = new Map<string, Uint8Array>();
  const bodyPaths = await filesUnder(filesDir);
  if (bodyPaths.length > MAX_FILES)
    return err({ kind: 'config_invalid', message: MESSAGES.tooManyFiles(shownOf(cwd, filesDir), MAX_FILES) });
  for (const p of bodyPaths) {
    try {
      bodies.set(relative(filesDir, p).split(sep).join('/'), await readFile(p));
    } catch (e) {
      return err({ kind: 'config_unreadable', message: MESSAGES.unreadable(shownOf(cwd, p), systemReason(e)) });
    }
  }
  const title = basename(isDir ? abs : root) || 'wiremock';
  const decoded = decodeWireMock({
    title: title === 'mappings' ? basename(root) || 'wiremock' : title,
    files,
    bodyFile: (name) => bodies.get(name.replace(/^\/+/, '')),
  });
  if (!decoded.ok) return err({ kind: 'config_invalid', message: `${decoded.error.place}: ${decoded.error.message}` });
  return ok({ kind: 'source', imp: decoded.value });
}

async function readJson(cwd: string, abs: string): Promise<Result<WireMockFile, Failure>> {
  const shown = shownOf(cwd, abs);
  let text: string;
  try {
    text = (await readFile(abs, 'utf8')).replace(/^\uFEFF/, '');
  } catch (e) {
    return err({ kind: 'config_unreadable', message: MESSAGES.unreadable(shown, systemReason(e)) });
  }
  try {
    return ok({ name: shown, data: JSON.parse(text) as unknown });
  } catch (e) {
    // WireMock reads mapping files with `//` and `/* */` comments (and JSON5's other relaxations)
    try {
      return ok({ name: shown, data: JSON.parse(json5ToJson(text)) as unknown });
    } catch {
      return err(jsonFailure(shown, text, e));
    }
  }
}
