// The recording index, `<fallback>/.mock-recorded/index.json`: what record mode saved, one entry per exchange —
// its method, its target (path and query, as the client sent it to mock) and what holds the answer (a file under
// the fallback directory, or a rule in mock-recorded.toml with its body file). A recorded file cannot otherwise be
// told from a hand-written one; `mock validate --against-upstream` replays the index's GET and HEAD exchanges
// against the real API (docs/drift.md). Pure: reading and writing are the recorder's (server/record/).

export const RECORD_INDEX_FILE = 'index.json';
export const RECORD_INDEX_VERSION = 1;

export interface IndexedExchange {
  readonly method: string;
  /** path and query as the client sent them: `/api/users?q=a` (the record target's base path not included) */
  readonly target: string;
  /** the status the upstream answered with when it was recorded */
  readonly status: number;
  /** its content type, when it sent one */
  readonly contentType?: string;
  /** the file holding the answer, relative to the fallback directory, '/'-separated */
  readonly file?: string;
  /** the rule holding the answer: `mock-recorded.toml#3` */
  readonly rule?: string;
}

export interface RecordIndex {
  /** where it was recorded from: `http://api.example.com/v2` (the latest recording's target) */
  readonly upstream?: string;
  readonly exchanges: readonly IndexedExchange[];
}

export const EMPTY_INDEX: RecordIndex = { exchanges: [] };

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The index file's text: stable key order, one exchange a line-group, a trailing newline. */
export function indexText(index: RecordIndex): string {
  const out = {
    version: RECORD_INDEX_VERSION,
    ...(index.upstream === undefined ? {} : { upstream: index.upstream }),
    exchanges: index.exchanges.map((x) => ({
      method: x.method,
      target: x.target,
      status: x.status,
      ...(x.contentType === undefined ? {} : { content_type: x.contentType }),
      ...(x.file === undefined ? {} : { file: x.file }),
      ...(x.rule === undefined ? {} : { rule: x.rule }),
    })),
  };
  return JSON.stringify(out, null, 2) + '\n';
}

/** The index read back; a string: what is wrong with it (`exchanges[2].target: expected a string`). */
export function parseIndex(text: string): RecordIndex | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return `not JSON: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (!isObj(value)) return 'expected an object with `exchanges`';
  if (value['version'] !== RECORD_INDEX_VERSION) return `version: expected ${RECORD_INDEX_VERSION}`;
  const list = value['exchanges'];
  if (!Array.isArray(list)) return 'exchanges: expected an array';
  const exchanges: IndexedExchange[] = [];
  for (const [i, x] of list.entries()) {
    const at = `exchanges[${i}]`;
    if (!isObj(x)) return `${at}: expected an object`;
    const method = x['method'];
    const target = x['target'];
    const status = x['status'];
    if (typeof method !== 'string' || method === '') return `${at}.method: expected a string`;
    if (typeof target !== 'string' || !target.startsWith('/')) return `${at}.target: expected a path starting with /`;
    if (typeof status !== 'number' || !Number.isInteger(status)) return `${at}.status: expected an integer`;
    const optional = (k: string): string | undefined | false => {
      const v = x[k];
      return v === undefined ? undefined : typeof v === 'string' ? v : false;
    };
    const contentType = optional('content_type');
    const file = optional('file');
    const rule = optional('rule');
    if (contentType === false || file === false || rule === false)
      return `${at}: content_type, file and rule are strings`;
    exchanges.push({
      method: method.toUpperCase(),
      target,
      status,
      ...(contentType === undefined ? {} : { contentType }),
      ...(file === undefined ? {} : { file }),
      ...(rule === undefined ? {} : { rule }),
    });
  }
  const upstream = value['upstream'];
  return { ...(typeof upstream === 'string' ? { upstream } : {}), exchanges };
}

/** The index with one more exchange; one per method and target (a later recording of the same replaces it). */
export function withExchange(index: RecordIndex, x: IndexedExchange, upstream: string): RecordIndex {
  const rest = index.exchanges.filter((e) => !(e.method === x.method && e.target === x.target));
  return { upstream, exchanges: [...rest, x] };
}
