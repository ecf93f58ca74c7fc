// The differences between WireMock's answer and mock's to one request, and the report over the corpus.
// Compared: the status (or the connection error a fault gives), the body (as text; two bodies that are the same
// JSON document count as alike), and each header the stub sets, i.e. every header WireMock sends but its own.
// An unmatched request is compared by status alone: both servers explain a miss in a body of their own.

/** headers WireMock sends on every answer, whatever the stub says */
const WIREMOCK_OWN = new Set([
  'matched-stub-id',
  'matched-stub-name',
  'vary',
  'server',
  'date',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'connection',
  'keep-alive',
]);

function sameBody(a, b) {
  if (a === b) return true;
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

const short = (s) => {
  const t = JSON.stringify(s ?? null);
  return t.length > 120 ? `${t.slice(0, 120)}…` : t;
};

/** [{ field, wiremock, mock }] for one exchange */
export function differences(wm, mk) {
  if (wm.error !== undefined || mk.error !== undefined) {
    // a fault: both must fail (the error itself may be told differently by the two stacks)
    if (wm.error !== undefined && mk.error !== undefined) return [];
    return [{ field: 'outcome', wiremock: wm.error ?? wm.status, mock: mk.error ?? mk.status }];
  }
  const out = [];
  if (wm.status !== mk.status) out.push({ field: 'status', wiremock: wm.status, mock: mk.status });
  const unmatched = wm.status === 404 && wm.headers['matched-stub-id'] === undefined;
  if (unmatched) return out;
  if (!sameBody(wm.body, mk.body)) out.push({ field: 'body', wiremock: wm.body, mock: mk.body });
  for (const [name, value] of Object.entries(wm.headers)) {
    if (WIREMOCK_OWN.has(name)) continue;
    const theirs = mk.headers[name];
    if (String(theirs) !== String(value)) out.push({ field: `header:${name}`, wiremock: value, mock: theirs });
  }
  return out;
}

/** every exchange's differences, each known one told apart by its listing in known-differences.json */
export function diffExchanges(exchanges, known) {
  const lines = [];
  let agree = 0;
  let knownCount = 0;
  let unlisted = 0;
  const used = new Set();
  for (const x of exchanges) {
    const r = x.request;
    const diffs = differences(x.wiremock, x.mock);
    if (diffs.length === 0) {
      agree++;
      continue;
    }
    const listed = known.find((k) => k.part === r.part && k.request === r.name);
    const what = `${r.part}: ${r.name} (${r.method ?? 'GET'} ${r.path})`;
    if (listed !== undefined) {
      used.add(listed);
      knownCount++;
      lines.push(`known  ${what}: ${diffs.map((d) => d.field).join(', ')} (${listed.reason})`);
      continue;
    }
    unlisted++;
    lines.push(`DIFFER ${what}`);
    for (const d of diffs) lines.push(`         ${d.field}: WireMock ${short(d.wiremock)}, mock ${short(d.mock)}`);
  }
  for (const k of known)
    if (!used.has(k) && exchanges.some((x) => x.request.part === k.part && x.request.name === k.request))
      lines.push(`note   ${k.part}: ${k.request} is listed as a known difference but answered alike`);
  return { total: exchanges.length, agree, known: knownCount, unlisted, lines };
}
