import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTOML } from 'toml-eslint-parser';
import type { SetRuleArgs } from './plan-types.js';
import { planSetRule, type SetRuleInput } from './set-rule.js';

const CONFIG = '[service]\nrule_sets = ["mock-rule-set.toml"]\n';

/** `config` undefined: no config file (pass CONFIG for the usual one) */
function input(ruleSet: string | undefined, config: string | undefined): SetRuleInput {
  return {
    config: { abs: '/w/mock.toml', shown: './mock.toml', text: config },
    ruleSet: { abs: '/w/mock-rule-set.toml', shown: './mock-rule-set.toml', text: ruleSet },
  };
}

function args(a: Partial<SetRuleArgs>): SetRuleArgs {
  return { headers: [], ...a };
}

/** The rule-set text after the plan (the input text when the plan writes nothing to it). */
function ruleSetAfter(ruleSet: string, a: Partial<SetRuleArgs>): string {
  const r = planSetRule(args(a), input(ruleSet, CONFIG));
  if (!r.ok) assert.fail(`plan failed: ${r.error.message}`);
  return r.value.files.find((f) => f.abs === '/w/mock-rule-set.toml')?.after ?? ruleSet;
}

const DOTTED = `# Rules for the demo
strategy = "first_match"

[[rules]]   # first rule
when.request.url_path = "/x"  # path comment
respond.status = 200
respond.text = "x" # body
weight = 2
`;

const INLINE = `[[rules]]
when = { request = { url_path = "/y", method = "GET" } }
respond = { json = '{"ok":true}', status = 201 }   # inline
`;

const SUBTABLES = `[[rules]]
[rules.when.request]
url_path = "/api"   # kept
[rules.when.request.headers.X-Key]
value = "a"
op = "exists"
[rules.respond]
file_path = "data.json"
`;

// Golden before/after texts: every byte outside the edited values must stay as it was.
const GOLDEN: readonly { name: string; before: string; args: Partial<SetRuleArgs>; after: string }[] = [
  {
    name: 'dotted: --json renames text in place, keeping its comment',
    before: DOTTED,
    args: { ruleIndex: 0, body: { kind: 'json', value: '{"a": 1}' } },
    after: DOTTED.replace('respond.text = "x" # body', `respond.json = '{"a": 1}' # body`),
  },
  {
    name: 'dotted: --status alone keeps the body',
    before: DOTTED,
    args: { ruleIndex: 0, status: 404 },
    after: DOTTED.replace('respond.status = 200', 'respond.status = 404'),
  },
  {
    name: 'dotted: --method is added beside the other request keys',
    before: DOTTED,
    args: { ruleIndex: 0, method: 'GET' },
    after: DOTTED.replace('# path comment\n', '# path comment\nwhen.request.method = "GET"\n'),
  },
  {
    name: 'dotted: --delay is added after the last respond key',
    before: DOTTED,
    args: { ruleIndex: 0, delayMs: 50 },
    after: DOTTED.replace(
      'respond.text = "x" # body\n',
      'respond.text = "x" # body\nrespond.delay_response_milliseconds = 50\n',
    ),
  },
  {
    name: 'dotted: -H adds a header condition',
    before: DOTTED,
    args: { ruleIndex: 0, headers: [{ name: 'x-api-key', value: 'k' }] },
    after: DOTTED.replace(
      '# path comment\n',
      '# path comment\nwhen.request.headers.x-api-key = { value = "k", op = "equal" }\n',
    ),
  },
  {
    name: 'dotted: --path replaces the value only',
    before: DOTTED,
    args: { ruleIndex: 0, urlPath: '/new path' },
    after: DOTTED.replace('"/x"', '"/new path"'),
  },
  {
    name: 'inline: --text replaces json inside the braces',
    before: INLINE,
    args: { ruleIndex: 0, body: { kind: 'text', value: 't' } },
    after: INLINE.replace(`json = '{"ok":true}'`, 'text = "t"'),
  },
  {
    name: 'inline: --delay is inserted into the inline table',
    before: INLINE,
    args: { ruleIndex: 0, delayMs: 5 },
    after: INLINE.replace('status = 201 }', 'status = 201, delay_response_milliseconds = 5 }'),
  },
  {
    name: 'inline: -H goes into the nested inline request table',
    before: INLINE,
    args: { ruleIndex: 0, headers: [{ name: 'x-a', value: '1' }] },
    after: INLINE.replace('method = "GET" }', 'method = "GET", headers.x-a = { value = "1", op = "equal" } }'),
  },
  {
    name: 'inline: --path and --method replace in place',
    before: INLINE,
    args: { ruleIndex: 0, urlPath: '/z', method: 'DELETE' },
    after: INLINE.replace('"/y"', '"/z"').replace('"GET"', '"DELETE"'),
  },
  {
    name: 'sub-tables: --json replaces file_path',
    before: SUBTABLES,
    args: { ruleIndex: 0, body: { kind: 'json', value: '[1]' } },
    after: SUBTABLES.replace('file_path = "data.json"', "json = '[1]'"),
  },
  {
    name: 'sub-tables: -H on an existing header (any case) sets value and op',
    before: SUBTABLES,
    args: { ruleIndex: 0, headers: [{ name: 'x-key', value: 'b' }] },
    after: SUBTABLES.replace('value = "a"\nop = "exists"', 'value = "b"\nop = "equal"'),
  },
  {
    name: 'sub-tables: --method goes into [rules.when.request]',
    before: SUBTABLES,
    args: { ruleIndex: 0, method: 'PUT' },
    after: SUBTABLES.replace('url_path = "/api"   # kept\n', 'url_path = "/api"   # kept\nmethod = "PUT"\n'),
  },
  {
    name: 'sub-tables: --status goes into [rules.respond]',
    before: SUBTABLES.replace('file_path = "data.json"', 'text = "x"'),
    args: { ruleIndex: 0, status: 503 },
    after: SUBTABLES.replace('file_path = "data.json"', 'text = "x"\nstatus = 503'),
  },
  {
    name: 'url_path as { value, op }: value set, op becomes equal',
    before: '[[rules]]\nwhen.request.url_path = { value = "/a", op = "starts_with" }\nrespond.text = "x"\n',
    args: { ruleIndex: 0, urlPath: '/a/b' },
    after: '[[rules]]\nwhen.request.url_path = { value = "/a/b", op = "equal" }\nrespond.text = "x"\n',
  },
  {
    name: 'only the addressed rule changes',
    before:
      DOTTED +
      '\n[[rules]]\nwhen.request.url_path = "/2"\nrespond.text = "2"\n\n[[rules]]\nwhen.request.url_path = "/3"\nrespond.text = "3"\n',
    args: { ruleIndex: 1, status: 201 },
    after:
      DOTTED +
      '\n[[rules]]\nwhen.request.url_path = "/2"\nrespond.text = "2"\nrespond.status = 201\n\n[[rules]]\nwhen.request.url_path = "/3"\nrespond.text = "3"\n',
  },
  {
    name: 'append: a new [[rules]] table at the very end, after a blank line',
    before: DOTTED,
    args: {
      urlPath: '/new',
      method: 'POST',
      headers: [{ name: 'x-a', value: 'v' }],
      status: 201,
      body: { kind: 'json', value: '{"id":1}' },
      delayMs: 10,
    },
    after:
      DOTTED +
      '\n[[rules]]\nwhen.request.url_path = "/new"\nwhen.request.method = "POST"\nwhen.request.headers.x-a = { value = "v", op = "equal" }\n' +
      `respond.status = 201\nrespond.json = '{"id":1}'\nrespond.delay_response_milliseconds = 10\n`,
  },
  {
    name: 'append: a file without a final newline',
    before: '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"',
    args: { urlPath: '/b', body: { kind: 'text', value: 'b' } },
    after:
      '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n\n[[rules]]\nwhen.request.url_path = "/b"\nrespond.text = "b"\n',
  },
  {
    name: 'append: CRLF line endings are kept',
    before: '[[rules]]\r\nwhen.request.url_path = "/a"\r\nrespond.text = "a"\r\n',
    args: { urlPath: '/b', status: 204 },
    after:
      '[[rules]]\r\nwhen.request.url_path = "/a"\r\nrespond.text = "a"\r\n\r\n[[rules]]\r\nwhen.request.url_path = "/b"\r\nrespond.status = 204\r\n',
  },
  {
    name: 'append: after other tables (a prefix table at the end)',
    before: '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n\n[prefix]\nurl_path = "/api"\n',
    args: { urlPath: '/b', status: 204 },
    after:
      '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n\n[prefix]\nurl_path = "/api"\n\n[[rules]]\nwhen.request.url_path = "/b"\nrespond.status = 204\n',
  },
  {
    name: 'append: respond headers after the body, names as keys',
    before: '',
    args: {
      urlPath: '/u',
      method: 'POST',
      status: 201,
      body: { kind: 'text', value: '{}' },
      respondHeaders: [
        { name: 'content-type', value: 'application/json' },
        { name: 'location', value: '/u/1' },
      ],
    },
    after:
      '[[rules]]\nwhen.request.url_path = "/u"\nwhen.request.method = "POST"\nrespond.status = 201\nrespond.text = "{}"\nrespond.headers.content-type = "application/json"\nrespond.headers.location = "/u/1"\n',
  },
  {
    name: 'dotted: a respond header is added to an existing rule',
    before: DOTTED,
    args: { ruleIndex: 0, respondHeaders: [{ name: 'x-total-count', value: '3' }] },
    after: DOTTED.replace(
      'respond.text = "x" # body\n',
      'respond.text = "x" # body\nrespond.headers.x-total-count = "3"\n',
    ),
  },
  {
    name: 'strings: text with quotes, backslashes and newlines is escaped; json with a quote uses a basic string',
    before: '',
    args: { urlPath: '/q', body: { kind: 'json', value: `{"a":"it's"}` } },
    after: `[[rules]]\nwhen.request.url_path = "/q"\nrespond.json = "{\\"a\\":\\"it's\\"}"\n`,
  },
];

describe('planSetRule: golden edits', () => {
  for (const c of GOLDEN) {
    it(c.name, () => {
      const after = ruleSetAfter(c.before, c.args);
      assert.equal(after, c.after);
      assert.doesNotThrow(() => parseTOML(after));
    });
  }
});

describe('planSetRule: text escaping round-trips', () => {
  const values = [
    'plain',
    'quote " and \\ backslash',
    'line\nbreak\ttab',
    "single ' quote",
    'ctrl \u0001 \u007f',
    'ünï €',
  ];
  for (const value of values) {
    it(JSON.stringify(value), () => {
      for (const kind of ['text', 'json'] as const) {
        const after = ruleSetAfter('', { urlPath: '/a', body: { kind, value } });
        const data = parseTOML(after);
        const kv = data.body[0].body[0]!;
        assert.equal(kv.type, 'TOMLTable');
        const last = after.split('\n').find((l) => l.startsWith(`respond.${kind}`));
        assert.ok(last !== undefined);
        // the static value of the key is exactly the given string
        const table = kv.type === 'TOMLTable' ? kv.body : [];
        const pair = table.find(
          (p) => p.key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value)).join('.') === `respond.${kind}`,
        );
        assert.ok(pair !== undefined && pair.value.type === 'TOMLValue');
        assert.equal(pair.value.value, value);
      }
    });
  }
});

describe('planSetRule: the root config', () => {
  const cases: readonly { name: string; config: string | undefined; after: string; summary: string }[] = [
    {
      name: 'missing: the minimal starting config',
      config: undefined,
      after:
        '[listener]\nip_address = "127.0.0.1"\n# port = 3001 (the default; `mock -p <port>` overrides it)\n\n[service]\nfallback_respond_dir = "."\nrule_sets = ["mock-rule-set.toml"]\n',
      summary: 'new file listing rule set #1 (mock-rule-set.toml)',
    },
    {
      name: 'one-line array',
      config: '[service]\nrule_sets = ["a.toml"]  # listed\n',
      after: '[service]\nrule_sets = ["a.toml", "mock-rule-set.toml"]  # listed\n',
      summary: 'service.rule_sets lists rule set #2 (mock-rule-set.toml)',
    },
    {
      name: 'empty array',
      config: '[service]\nrule_sets = []\n',
      after: '[service]\nrule_sets = ["mock-rule-set.toml"]\n',
      summary: 'service.rule_sets lists rule set #1 (mock-rule-set.toml)',
    },
    {
      name: 'one element per line, trailing comma, comments',
      config: '# top\n[service] # s\nrule_sets = [\n    "a.toml", # a\n    "b.toml", # b\n]\n',
      after:
        '# top\n[service] # s\nrule_sets = [\n    "a.toml", # a\n    "b.toml", # b\n    "mock-rule-set.toml",\n]\n',
      summary: 'service.rule_sets lists rule set #3 (mock-rule-set.toml)',
    },
    {
      name: 'one element per line, no trailing comma',
      config: '[service]\nrule_sets = [\n  "a.toml" # a\n]\n',
      after: '[service]\nrule_sets = [\n  "a.toml", # a\n  "mock-rule-set.toml"\n]\n',
      summary: 'service.rule_sets lists rule set #2 (mock-rule-set.toml)',
    },
    {
      name: '[service] without rule_sets',
      config: '[service]\nfallback_respond_dir = "."\n\n[log]\nverbose.header = true\n',
      after:
        '[service]\nfallback_respond_dir = "."\nrule_sets = ["mock-rule-set.toml"]\n\n[log]\nverbose.header = true\n',
      summary: 'service.rule_sets lists rule set #1 (mock-rule-set.toml)',
    },
    {
      name: 'no [service] at all',
      config: '[listener]\nport = 4000\n',
      after: '[listener]\nport = 4000\n\n[service]\nrule_sets = ["mock-rule-set.toml"]\n',
      summary: 'service.rule_sets lists rule set #1 (mock-rule-set.toml)',
    },
    {
      name: 'service written with dotted keys at the top level',
      config: 'service.fallback_respond_dir = "."\n[listener]\nport = 4000\n',
      after:
        'service.fallback_respond_dir = "."\nservice.rule_sets = ["mock-rule-set.toml"]\n[listener]\nport = 4000\n',
      summary: 'service.rule_sets lists rule set #1 (mock-rule-set.toml)',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = planSetRule(args({ urlPath: '/a', status: 200 }), input('', c.config));
      if (!r.ok) assert.fail(r.error.message);
      const cfg = r.value.files.find((f) => f.abs === '/w/mock.toml');
      assert.equal(cfg?.after, c.after);
      assert.equal(r.value.files[0]?.abs, '/w/mock-rule-set.toml', 'the rule set is written first');
      assert.ok(
        r.value.changes.some((ch) => ch.summary === c.summary),
        JSON.stringify(r.value.changes),
      );
    });
  }

  it('a listed rule set (any spelling) leaves the config alone and gives its index', () => {
    const r = planSetRule(
      args({ urlPath: '/a', status: 200 }),
      input('', '[service]\nrule_sets = ["x.toml", "./mock-rule-set.toml"]\n'),
    );
    if (!r.ok) assert.fail(r.error.message);
    assert.deepEqual(
      r.value.files.map((f) => f.abs),
      ['/w/mock-rule-set.toml'],
    );
    assert.equal(r.value.ruleSetIndex, 1);
    assert.deepEqual(r.value.changes, [
      { kind: 'Added', target: 'rule set `./mock-rule-set.toml`, rule #1', summary: 'added rule #1 in rule set #2' },
    ]);
  });
});

describe('planSetRule: outcomes and refusals', () => {
  const cases: readonly {
    name: string;
    a: Partial<SetRuleArgs>;
    rs: string | undefined;
    cfg?: string | undefined;
    kind?: string;
    message?: RegExp;
  }[] = [
    {
      name: 'unknown index',
      a: { ruleIndex: 3, status: 200 },
      rs: DOTTED,
      kind: 'usage',
      message: /^no such rule: --rule 3 is 0-based \(rule #4\), and this rule set has 1 rule \(--rule 0 to --rule 0\)$/,
    },
    {
      name: 'index in a missing rule set',
      a: { ruleIndex: 0, status: 200 },
      rs: undefined,
      kind: 'usage',
      message: /^no such rule: --rule 0 is 0-based \(rule #1\), and this rule set has 0 rules$/,
    },
    {
      name: 'edit in an unlisted rule set',
      a: { ruleIndex: 0, status: 200 },
      rs: DOTTED,
      cfg: '[service]\n',
      kind: 'usage',
      message: /not in service\.rule_sets/,
    },
    {
      name: 'edit with no config',
      a: { ruleIndex: 0, status: 200 },
      rs: DOTTED,
      cfg: undefined,
      kind: 'usage',
      message: /no config at/,
    },
    { name: 'nothing to change', a: { ruleIndex: 0 }, rs: DOTTED, kind: 'usage', message: /^nothing to change/ },
    {
      name: 'add without a respond flag',
      a: { urlPath: '/a', delayMs: 3 },
      rs: DOTTED,
      kind: 'usage',
      message: /^nothing to respond with/,
    },
    { name: 'add without a condition', a: { status: 200 }, rs: DOTTED, kind: 'usage', message: /--path/ },
    {
      name: 'rule set with a TOML syntax error',
      a: { urlPath: '/a', status: 200 },
      rs: '[[rules]\n',
      kind: 'config_invalid',
      message: /^\.\/mock-rule-set\.toml:\d+:\d+: \S/,
    },
    {
      name: 'rules as an inline array',
      a: { urlPath: '/a', status: 200 },
      rs: 'rules = [{ respond = { text = "x" } }]\n',
      kind: 'usage',
      message: /\[\[rules\]\] tables/,
    },
    {
      name: 'a rule whose `when` is not a table cannot be edited safely',
      a: { ruleIndex: 0, urlPath: '/a' },
      rs: '[[rules]]\nwhen = "x"\nrespond.text = "a"\n',
      kind: 'config_invalid',
      message: /without disturbing the rest of the file/,
    },
    {
      name: 'config with rule_sets of the wrong type',
      a: { urlPath: '/a', status: 200 },
      rs: '',
      cfg: '[service]\nrule_sets = "x"\n',
      kind: 'config_invalid',
      message: /must be an array/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = planSetRule(args(c.a), input(c.rs, 'cfg' in c ? c.cfg : CONFIG));
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.error.kind, c.kind);
      assert.match(r.error.message, c.message!);
    });
  }

  it('setting what is already there writes nothing and reports no change', () => {
    const r = planSetRule(
      args({ ruleIndex: 0, status: 200, urlPath: '/x', body: { kind: 'text', value: 'x' } }),
      input(DOTTED, CONFIG),
    );
    if (!r.ok) assert.fail(r.error.message);
    assert.deepEqual(r.value.files, []);
    assert.deepEqual(r.value.changes, []);
  });

  it('an update names the rule 0-based in the target and 1-based in the summary', () => {
    const r = planSetRule(
      args({ ruleIndex: 0, status: 201, body: { kind: 'json', value: '{}' } }),
      input(DOTTED, CONFIG),
    );
    if (!r.ok) assert.fail(r.error.message);
    assert.deepEqual(r.value.changes, [
      {
        kind: 'Updated',
        target: 'rule set `./mock-rule-set.toml`, rule #1',
        summary: 'rule #1 in rule set #1: respond.status, respond.json',
      },
    ]);
  });

  it('several body keys (an invalid rule) collapse to the one given', () => {
    const before =
      '[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\nrespond.json = "1"\nrespond.file_path = "f"\n';
    assert.equal(
      ruleSetAfter(before, { ruleIndex: 0, body: { kind: 'json', value: '2' } }),
      '[[rules]]\nwhen.request.url_path = "/a"\nrespond.json = \'2\'\n',
    );
  });

  it('a bootstrap adds three changes: the rule, the rule-set file, the config', () => {
    const r = planSetRule(
      args({ urlPath: '/a', status: 200, body: { kind: 'json', value: '{"b":2,"a":1}' } }),
      input(undefined, undefined),
    );
    if (!r.ok) assert.fail(r.error.message);
    assert.equal(
      r.value.files[0]?.after,
      `[[rules]]\nwhen.request.url_path = "/a"\nrespond.status = 200\nrespond.json = '{"b":2,"a":1}'\n`,
    );
    assert.deepEqual(
      r.value.changes.map((c) => `${c.kind}: ${c.target} — ${c.summary}`),
      [
        'Added: rule set `./mock-rule-set.toml`, rule #1 — added rule #1 in rule set #1',
        'Added: rule set `./mock-rule-set.toml` — new file, rule set #1 (mock-rule-set.toml)',
        'Added: root config `./mock.toml` — new file listing rule set #1 (mock-rule-set.toml)',
      ],
    );
  });
});
