// `mock validate --against-upstream <url>`: has the real API moved away from the recording? For each recorded
// GET or HEAD exchange (the recording index, record/recorded-index.ts), the same request goes to the real API —
// one at a time, each started at least 1/rate seconds after the one before, with no header but the ones
// `--header` gives (recordings hold no credentials) — and its answer is compared with what the workspace answers
// to that request now: status, content type (its essence: parameters such as charset ignored) and, for JSON
// bodies, their shape (shape.ts). Each difference is a finding (findings.ts) naming the exchange and, for a
// shape, the JSON pointer into the body. See docs/drift.md.
//
// Pure: the workspace's answer, the network and the clock are ports, so the pacing is tested with a fake clock.
import type { Finding } from './findings.js';
import { diffShapes, shapeOf, typesText, type ShapeChange } from './shape.js';

/** `--rate`'s default: requests per second to the real API. */
export const DEFAULT_RATE = 5;
/** Only these are replayed: they change nothing upstream. */
export const REPLAYED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

export interface RecordedExchange {
  readonly method: string;
  /** path and query: `/api/users?q=a` */
  readonly target: string;
  /** what holds the answer, shown with the finding: `api/users.json`, `mock-recorded.toml#3` */
  readonly heldBy: string;
}

export interface SeenAnswer {
  readonly status: number;
  readonly contentType?: string;
  readonly body: Uint8Array;
}

export interface UpstreamPorts {
  /** what the workspace answers to the request (through the dispatch `mock get` uses) */
  readonly answerOf: (x: RecordedExchange) => Promise<SeenAnswer>;
  /** the request sent to the real API; a string: why it could not be asked */
  readonly send: (
    url: string,
    method: string,
    headers: readonly (readonly [string, string])[],
  ) => Promise<SeenAnswer | string>;
  /** milliseconds, monotonic */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

export interface UpstreamCheck {
  /** the real API's base: `http://api.example.com/v2` (no trailing `/`, no query) */
  readonly base: string;
  /** requests per second, > 0 */
  readonly rate: number;
  /** `--header` values, sent with every request */
  readonly headers: readonly (readonly [string, string])[];
}

export interface UpstreamResult {
  readonly findings: readonly Finding[];
  /** exchanges replayed */
  readonly checked: number;
  /** indexed exchanges with another method (never replayed) */
  readonly skipped: number;
}

export function essenceOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

function isJson(essence: string): boolean {
  return essence === 'application/json' || essence.endsWith('+json');
}

function parsed(body: Uint8Array): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(body)) };
  } catch {
    return { ok: false };
  }
}

export async function checkUpstream(
  exchanges: readonly RecordedExchange[],
  c: UpstreamCheck,
  ports: UpstreamPorts,
): Promise<UpstreamResult> {
  const findings: Finding[] = [];
  const interval = 1000 / c.rate;
  let lastStart: number | undefined;
  let checked = 0;
  let skipped = 0;
  for (const x of exchanges) {
    const method = x.method.toUpperCase();
    if (!REPLAYED_METHODS.has(method)) {
      skipped++;
      continue;
    }
    if (lastStart !== undefined) {
      const wait = lastStart + interval - ports.now();
      if (wait > 0) await ports.sleep(wait);
    }
    lastStart = ports.now();
    checked++;
    const where = `${method} ${x.target} (${x.heldBy})`;
    const finding = (kind: string, severity: Finding['severity'], pointer: string, message: string): void =>
      void findings.push({ kind, severity, where, pointer, message });
    const [mine, theirs] = await Promise.all([ports.answerOf(x), ports.send(c.base + x.target, method, c.headers)]);
    if (typeof theirs === 'string') {
      finding('upstream_unreachable', 'error', '#', `the upstream could not be asked: ${theirs}`);
      continue;
    }
    if (mine.status !== theirs.status)
      finding('upstream_status', 'error', '#', `the recording answers ${mine.status}, the upstream ${theirs.status}`);
    const a = essenceOf(mine.contentType);
    const b = essenceOf(theirs.contentType);
    if (a !== b)
      finding(
        'upstream_content_type',
        'error',
        '#',
        `the recording answers ${a === '' ? 'no content type' : a}, the upstream ${b === '' ? 'none' : b}`,
      );
    if (method === 'HEAD' || !isJson(a) || !isJson(b) || mine.status !== theirs.status) continue;
    const was = parsed(mine.body);
    const now = parsed(theirs.body);
    if (!was.ok || !now.ok) {
      if (was.ok !== now.ok)
        finding('upstream_shape', 'error', '#', `the ${was.ok ? 'upstream' : 'recorded'} body is not JSON`);
      continue;
    }
    for (const ch of diffShapes(shapeOf(was.value), shapeOf(now.value))) {
      const s = shapeFinding(ch);
      finding('upstream_shape', s.severity, `#${ch.pointer}`, s.message);
    }
  }
  return { findings, checked, skipped };
}

/** A removed key or another type is an error (a client reading it breaks); a new key, or null on one side, a warning. */
function shapeFinding(ch: ShapeChange): { readonly severity: Finding['severity']; readonly message: string } {
  const at = ch.pointer === '' ? 'the body' : `\`${ch.pointer}\``;
  switch (ch.kind) {
    case 'missing':
      return { severity: 'error', message: `${at} is gone upstream (recorded as ${typesText(ch.was.types)})` };
    case 'added':
      return { severity: 'warning', message: `${at} is new upstream (${typesText(ch.now.types)})` };
    case 'type':
      return {
        severity: ch.nullOnly ? 'warning' : 'error',
        message: `${at} is recorded as ${typesText(ch.was)}, the upstream sends ${typesText(ch.now)}`,
      };
  }
}
