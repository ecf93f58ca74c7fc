// The library's public types, as a user's TypeScript sees them through `exports` (`folder-mock` → dist/lib's .d.ts).
// Checked by the build's `tsc -p .` (part of `npm test`): every `@ts-expect-error` line must be an error, or the
// build fails. Never run: the function below is only type-checked.
import {
  JournalOverflowError,
  MockError,
  startMock,
  type Entry,
  type MockHandle,
  type MockOptions,
  type OverrideHandle,
  type OverrideRule,
  type RequestFilter,
} from 'folder-mock';

export async function typeChecks(): Promise<void> {
  const m: MockHandle = await startMock({
    root: 'fixtures/shop',
    port: 0,
    journal: { size: 100 },
    inspect: 4000,
    log: (line) => void line,
  });
  const url: string = m.url;
  const inspect: string | undefined = m.inspectUrl;
  const gen: number = m.generation;
  const entries: readonly Entry[] = m.requests({
    path: /^\/api\//,
    method: 'post',
    since: m.cursor(),
    stage: 'rule_set',
    rule: { ruleSet: 0, rule: 1 },
    limit: 5,
  });
  const e: Entry = await m.waitForRequest({ path: '/api/cart' }, { timeoutMs: 500 });
  const status: number = e.response.status;
  const kind: string = e.answeredBy.kind;
  const r = await m.reload();
  const ok: boolean = r.ok;
  m.reset();
  await m.close();
  const f: RequestFilter = { since: new Date() };
  const opts: MockOptions = { journal: false, watch: true, redact: false, host: '::1' };
  void [url, inspect, gen, entries, status, kind, ok, f, opts];
  try {
    m.requests({ since: 1 });
  } catch (err) {
    if (err instanceof JournalOverflowError) void err.code;
    if (err instanceof MockError) void err.diagnostics;
  }

  // @ts-expect-error: port is a number
  await startMock({ port: '3000' });
  // @ts-expect-error: no such option
  await startMock({ dir: 'x' });
  // @ts-expect-error: journal is false or its bounds
  await startMock({ journal: true });
  // @ts-expect-error: size is a number
  await startMock({ journal: { size: '10' } });
  // @ts-expect-error: log is a function or a boolean
  await startMock({ log: 'yes' });
  // @ts-expect-error: stage is one of the journal's stages
  m.requests({ stage: 'rules' });
  // @ts-expect-error: a rule filter names its rule set
  m.requests({ rule: { rule: 1 } });
  // @ts-expect-error: the handle is read-only
  m.url = 'x';
}

// use(): the rule's type is generated from the rule-set shapes (npm run gen), so a misspelt key fails to compile
export function overrideChecks(m: MockHandle): void {
  const o: OverrideHandle = m.use(
    { when: { request: { url_path: '/cart', method: 'POST' } }, respond: { status: 500, headers: { 'x-a': 'b' } } },
    {
      when: { request: { url_path: { value: '/u/{id}', op: 'path_template' }, params: { id: '7' } } },
      respond: { text: 'x' },
    },
    { once: true },
  );
  const id: number = o.id;
  const answered: readonly Entry[] = o.requests({ limit: 1 });
  const gone: boolean = o.remove();
  const rule: OverrideRule = {
    when: { request: { headers: { accept: { op: 'exists' } } }, state: { cart: 'paid' } },
    respond: {
      json: '{"a":1}',
      delay_response_milliseconds: { min: 1, max: 5 },
      fault: 'timeout',
      set_state: { cart: 'x' },
    },
    priority: 1,
  };
  m.session('a').use(rule).remove();
  void [id, answered, gone];

  // @ts-expect-error: a misspelt respond key (status)
  m.use({ when: { request: { url_path: '/cart' } }, respond: { statsu: 500 } });
  // @ts-expect-error: a misspelt condition key (url_path)
  m.use({ when: { request: { url_paht: '/cart' } }, respond: { status: 500 } });
  // @ts-expect-error: status is a number
  m.use({ when: { request: { url_path: '/cart' } }, respond: { status: '500' } });
  // @ts-expect-error: an operator the shape does not list
  m.use({ when: { request: { url_path: { value: '/c', op: 'equals' } } }, respond: {} });
  // @ts-expect-error: a fault the shape does not list
  m.use({ when: { request: { method: 'GET' } }, respond: { fault: 'reset' } });
  // @ts-expect-error: sessions is a boolean
  void startMock({ sessions: 'yes' });
}
