// `mock validate --against <openapi>`: the workspace's answers against the document, and the document's
// operations against the workspace. Pure apart from the FileSource it is handed (the CLI lists the fallback
// folder's files and says where each rule is written). See docs/contract.md.
import { dispatch, type DispatchEnv } from '../dispatch/dispatch.js';
import { finalize } from '../dispatch/finalize.js';
import { draftFromRespond } from '../dispatch/respond.js';
import { snapshotFrom } from '../dispatch/snapshot.js';
import type { Answer } from '../model/answer.js';
import type { Collection } from '../model/collection.js';
import type { Rule, RuleSet, UrlPathCondition } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import { deref, isObj, objAt, pointerOf, strAt, type Obj } from '../openapi/document.js';
import { REASONS } from '../openapi/messages.js';
import { sampleSchema } from '../openapi/sample.js';
import { getHeader } from '../shared/headers.js';
import {
  answerViolations,
  findOperation,
  isJsonType,
  pathMatches,
  type Contract,
  type ContractOperation,
  type Match,
} from './contract.js';
import type { Finding } from './findings.js';

export interface AgainstInput {
  readonly ws: Workspace;
  readonly doc: Obj;
  readonly contract: Contract;
  /** files, rotation, log: as `mock get` builds them */
  readonly env: DispatchEnv;
  /** the files under the fallback folder that are served answers (absolute; the CLI leaves out the rest) */
  readonly fallbackFiles: readonly string[];
  /** how a fallback file is named in a finding (its path relative to the current directory) */
  readonly shownFile: (abs: string) => string;
  /** `rules.toml:12`: where a rule is written */
  readonly ruleWhere: (ruleSet: RuleSet, rule: Rule) => string;
}

const PATHS_POINTER = '#/paths';

export async function checkAgainst(input: AgainstInput): Promise<readonly Finding[]> {
  const out: Finding[] = [];
  for (const rs of input.ws.ruleSets) for (const rule of rs.rules) out.push(...(await checkRule(input, rs, rule)));
  for (const file of input.fallbackFiles) out.push(...(await checkFile(input, file)));
  for (const c of input.ws.collections ?? []) out.push(...(await checkCollection(input, c)));
  out.push(...(await checkOperations(input)));
  return out;
}

/** The rule's method (undefined: any) and the documented operations its url_path can reach. */
function reachOf(
  c: Contract,
  rule: Rule,
): { readonly method?: string; readonly shown: string; readonly matches: readonly Match[] } | undefined {
  const method = rule.conditions.find((x) => x.on === 'method')?.value;
  const url = rule.conditions.find((x): x is UrlPathCondition => x.on === 'url_path');
  if (url === undefined) return undefined;
  let matches: readonly Match[];
  switch (url.op) {
    case 'equal':
      matches = pathMatches(c, segmentsOf(url.compareTo));
      break;
    case 'path_template':
      // a rule parameter can stand for any value: `{}` reaches the document's parameters, never its literals
      matches = pathMatches(
        c,
        segmentsOf(url.compareTo).map((s) => (/^\{[^}]*\}$/.test(s) ? '{}' : s)),
      );
      break;
    case 'starts_with':
    case 'regex':
    case 'wild_card': {
      const test =
        url.op === 'starts_with'
          ? (p: string) => p === url.compareTo || p.startsWith(url.compareTo.replace(/\/$/, '') + '/')
          : (p: string) => url.pattern?.test(p) === true;
      matches = c.operations
        .filter((o) => test(c.basePath + samplePath(o)))
        .map((operation) => ({ operation, pathParams: new Map() }));
      break;
    }
    default:
      // ends_with, contains and the negations name no path of their own
      return undefined;
  }
  const shown = `${method ?? '(any method)'} ${url.op === 'equal' || url.op === 'path_template' ? url.compareTo : url.value}`;
  return { ...(method === undefined ? {} : { method }), shown, matches };
}

function segmentsOf(path: string): readonly string[] {
  return path === '/' ? [''] : path.split('/').slice(1);
}

/**
 * The OpenAPI import's guard for `Prefer: code=<status>` asking for a status the operation does not document: it
 * answers the mock's own protocol, not the API, so it is not held against the document.
 */
function isPreferGuard(rule: Rule): boolean {
  const b = rule.respond.body;
  return (
    rule.conditions.some((c) => c.on === 'header' && c.name === 'prefer') &&
    b.kind === 'text' &&
    b.text.endsWith(IMPORT_GUARD_SUFFIX)
  );
}

/** the closing words of that guard's text, as the import writes them */
const IMPORT_GUARD_SUFFIX = ((t: string) => t.slice(t.lastIndexOf(' (')))(REASONS.undocumentedCode('GET /', [200]));

async function checkRule(input: AgainstInput, rs: RuleSet, rule: Rule): Promise<readonly Finding[]> {
  if (isPreferGuard(rule)) return [];
  const reach = reachOf(input.contract, rule);
  if (reach === undefined) return [];
  const where = input.ruleWhere(rs, rule);
  const forMethod =
    reach.method === undefined
      ? reach.matches
      : reach.matches.filter(
          (m) => m.operation.method === reach.method || (reach.method === 'HEAD' && m.operation.method === 'GET'),
        );
  if (forMethod.length === 0) {
    const others = [...new Set(reach.matches.map((m) => m.operation.method))];
    return [
      {
        kind: 'undocumented_path',
        severity: 'error',
        where,
        pointer: others.length > 0 ? pointerOf(['paths', reach.matches[0]!.operation.path]) : PATHS_POINTER,
        message:
          others.length > 0
            ? `${reach.shown} is not documented (the path is, for ${others.join(', ')})`
            : `${reach.shown} is not documented`,
      },
    ];
  }
  const op = forMethod[0]!.operation;
  const answer = await answerOfRule(input, rule, op);
  const checked =
    answer.status === undefined ? [] : answerViolations(op, answer.status, answer.contentType, answer.body);
  return checked.map((v) => ({ kind: v.kind, severity: 'error', where, pointer: v.pointer, message: v.message }));
}

const NO_BODY = new Uint8Array(0);

/** The rule's answer as the server would give it (its template's body is not rendered: only its status counts). */
async function answerOfRule(
  input: AgainstInput,
  rule: Rule,
  op: ContractOperation,
): Promise<{ readonly status?: number; readonly contentType?: string; readonly body: Uint8Array }> {
  const r = rule.respond;
  if (r.template !== undefined || r.body.kind === 'stream') return { status: r.status ?? 200, body: NO_BODY };
  const req = snapshotFrom({ method: op.method, target: input.contract.basePath + samplePath(op), headers: [] });
  const { draft } = await draftFromRespond(r, input.env.files);
  if (draft.delivery?.kind === 'fault') return { body: NO_BODY };
  // a file too large to keep in memory is sent from disk unread: its status is known, its body is not checked
  if (draft.delivery?.kind === 'file') return { status: draft.status, body: NO_BODY };
  const answer = finalize(draft, req, input.ws.cors);
  const contentType = getHeader(answer.headers, 'content-type');
  return { status: answer.status, ...(contentType === undefined ? {} : { contentType }), body: answer.body };
}

/** The URL a client would ask for a file: its path, `.json`/`.json5`/`.csv` left off, an index as its folder. */
export function urlOfFile(rel: string): string {
  const parts = rel.split('/');
  const last = parts[parts.length - 1]!;
  if (/^index\.(json5?|csv|html)$/.test(last)) parts.pop();
  else parts[parts.length - 1] = last.replace(/\.(json5?|csv)$/, '');
  return '/' + parts.map(encodeURIComponent).join('/');
}

async function checkFile(input: AgainstInput, file: string): Promise<readonly Finding[]> {
  const rel = relativeTo(input.ws.fallbackDir, file);
  const target = urlOfFile(rel);
  const where = input.shownFile(file);
  const found: Finding[] = [];
  for (const method of ['GET', 'HEAD']) {
    const req = snapshotFrom({ method, target, headers: [] });
    const outcome = await dispatch(input.ws, req, input.env);
    // a rule or a script answers here first: the file is not what a client gets (the rule is checked itself)
    if (outcome.stage.kind !== 'fallback' || outcome.file !== file) return found;
    const { match, pathKnown } = findOperation(input.contract, method, req.segments);
    let now: Finding[];
    if (match === undefined) {
      now = [
        {
          kind: 'undocumented_path',
          severity: 'error',
          where,
          pointer: PATHS_POINTER,
          message: pathKnown
            ? `${method} ${target} is not documented (the path is, for other methods)`
            : `${method} ${target} is not documented`,
        },
      ];
    } else now = fromAnswer(match.operation, outcome.answer, where);
    // HEAD repeats GET's findings (its body is empty): only what is new is kept
    for (const f of now) if (!found.some((g) => g.kind === f.kind && g.pointer === f.pointer)) found.push(f);
  }
  return found;
}

/**
 * A collection's reads, as a client makes them (docs/state.md#collections): the list (or the single resource) and
 * its first item by id, each checked like a file's answer when the collection is what answers it.
 */
async function checkCollection(input: AgainstInput, c: Collection): Promise<readonly Finding[]> {
  const where = `collection ${c.path} (${input.shownFile(c.file)})`;
  const first = Array.isArray(c.seed) ? c.seed[0]?.[c.id] : undefined;
  const targets =
    c.kind === 'collection' && (typeof first === 'string' || typeof first === 'number')
      ? [c.path, `${c.path}/${encodeURIComponent(String(first))}`]
      : [c.path];
  const found: Finding[] = [];
  for (const target of targets) {
    const req = snapshotFrom({ method: 'GET', target, headers: [] });
    const outcome = await dispatch(input.ws, req, input.env);
    // a rule answers here first: the collection is not what a client gets (the rule is checked itself)
    if (outcome.stage.kind !== 'collection') continue;
    const { match, pathKnown } = findOperation(input.contract, 'GET', req.segments);
    if (match === undefined)
      found.push({
        kind: 'undocumented_path',
        severity: 'error',
        where,
        pointer: PATHS_POINTER,
        message: pathKnown
          ? `GET ${target} is not documented (the path is, for other methods)`
          : `GET ${target} is not documented`,
      });
    else found.push(...fromAnswer(match.operation, outcome.answer, where));
  }
  return found;
}

function fromAnswer(op: ContractOperation, answer: Answer, where: string): Finding[] {
  return answerViolations(op, answer.status, getHeader(answer.headers, 'content-type'), answer.body).map((v) => ({
    kind: v.kind,
    severity: 'error',
    where,
    pointer: v.pointer,
    message: v.message,
  }));
}

function relativeTo(root: string, abs: string): string {
  const r = abs.startsWith(root) ? abs.slice(root.length) : abs;
  return r.replace(/\\/g, '/').replace(/^\/+/, '');
}

/** Each documented operation, asked through dispatch() as a client would ask it. */
async function checkOperations(input: AgainstInput): Promise<readonly Finding[]> {
  const out: Finding[] = [];
  for (const op of input.contract.operations) {
    const req = snapshotFrom(sampleRequest(input.doc, input.contract, op));
    const outcome = await dispatch(input.ws, req, input.env);
    const shown = `${op.method} ${req.rawPath}${req.query === '' ? '' : '?' + req.query}`;
    const k = outcome.stage.kind;
    if (k === 'miss' || k === 'prefix_miss') {
      out.push({
        kind: 'unanswered_operation',
        severity: 'error',
        where: shown,
        pointer: op.pointer,
        message: `${op.method} ${op.path} is documented, but ${shown} finds no answer (404)`,
      });
    } else if (k === 'middleware') {
      // a script's answers are seen only here: rules and files are checked on their own
      out.push(...fromAnswer(op, outcome.answer, `${shown} (${relativeTo(input.ws.baseDir, outcome.stage.file)})`));
    }
  }
  return out;
}

/** The operation's path with each parameter filled from its example or schema. */
export function samplePath(op: ContractOperation, doc?: Obj): string {
  return op.path
    .split('#')[0]!
    .replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(paramSample(op, name, 'path', doc)));
}

function paramSample(op: ContractOperation, name: string, place: string, doc: Obj | undefined): string {
  const p = op.parameters.find((x) => strAt(x, 'name') === name && strAt(x, 'in') === place);
  return p === undefined ? '1' : textOf(sampleOf(p, doc));
}

function sampleOf(p: Obj, doc: Obj | undefined): unknown {
  if (p['example'] !== undefined) return p['example'];
  const examples = objAt(p, 'examples');
  const first = examples === undefined ? undefined : Object.values(examples)[0];
  if (isObj(first) && first['value'] !== undefined) return first['value'];
  const schema = p['schema'];
  if (isObj(schema)) {
    if (schema['example'] !== undefined) return schema['example'];
    if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
    if (schema['default'] !== undefined) return schema['default'];
    if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
    if (doc !== undefined) return sampleSchema(schema, doc);
  }
  return '1';
}

function textOf(v: unknown): string {
  if (Array.isArray(v)) return v.map(textOf).join(',');
  if (v === null || v === undefined) return '1';
  if (typeof v === 'string') return v;
  return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : JSON.stringify(v);
}

/** The request a client would send for an operation: path parameters, required query and headers, a body. */
export function sampleRequest(
  doc: Obj,
  contract: Contract,
  op: ContractOperation,
): { method: string; target: string; headers: [string, string][]; body?: Uint8Array } {
  const query: string[] = [];
  const headers: [string, string][] = [];
  const all = op.parameters;
  for (const p of all) {
    if (p['required'] !== true) continue;
    const name = strAt(p, 'name') ?? '';
    const value = sampleOf(p, doc);
    if (strAt(p, 'in') === 'query') {
      for (const v of Array.isArray(value) ? value : [value])
        query.push(`${encodeURIComponent(name)}=${encodeURIComponent(textOf(v))}`);
    } else if (strAt(p, 'in') === 'header') headers.push([name, textOf(value)]);
    else if (strAt(p, 'in') === 'cookie') headers.push(['cookie', `${name}=${textOf(value)}`]);
  }
  const path = op.path.split('#')[0]!.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const p = all.find((x) => strAt(x, 'name') === name && strAt(x, 'in') === 'path');
    return encodeURIComponent(p === undefined ? '1' : textOf(sampleOf(p, doc)));
  });
  const target = contract.basePath + path + (query.length > 0 ? '?' + query.join('&') : '');
  const rb = deref(doc, op.op['requestBody']);
  if (!isObj(rb) || rb['required'] !== true) return { method: op.method, target, headers };
  const content = objAt(rb, 'content');
  const type = content === undefined ? undefined : Object.keys(content).find(isJsonType);
  if (type === undefined || content === undefined) return { method: op.method, target, headers };
  const media = deref(doc, content[type]);
  const value = isObj(media) ? (media['example'] ?? sampleSchema(media['schema'], doc, { skip: 'readOnly' })) : {};
  headers.push(['content-type', type]);
  return { method: op.method, target, headers, body: new TextEncoder().encode(JSON.stringify(value ?? {})) };
}
