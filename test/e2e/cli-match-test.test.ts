// `mock match-test`: the per-rule breakdown, the winner by strategy, --rule, --quiet, JSON, exit codes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, writeTree } from '../helpers/mock-cli.js';

let ws: string;

const ORDERS = `
[[rules]]
when.request.url_path = "/orders"
when.request.method = "POST"
when.request.headers.x-api-key = { op = "absent" }
respond.text = "no key"

[[rules]]
when.request.url_path = "/orders"
when.request.method = "POST"
when.request.headers.x-api-key = { op = "exists" }
when.request.body.json."customer.tier" = { value = "gold" }
respond.text = "gold"

[[rules]]
when.request.url_path = "/orders"
respond.text = "any"
`;

const PRIORITY = `
strategy = { priority = { tiebreaker = "first_match" } }

[[rules]]
when.request.url_path = "/p"
respond.text = "low"

[[rules]]
when.request.url_path = "/p"
priority = 5
respond.text = "high"
`;

const PREFIXED = `
prefix.url_path = "/api"

[[rules]]
when.request.url_path = "/x"
respond.text = "x"
`;

before(async () => {
  ws = makeTempDir();
  await writeTree(ws, {
    'orders.toml': ORDERS,
    'rs/priority.toml': PRIORITY,
    'prefixed.toml': PREFIXED,
    'body.json': '{"customer":{"tier":"gold"}}',
    'bad.toml': '[[rules]]\nwhen.request.url_pth = "/x"\nrespond.text = "x"\n',
  });
});
after(() => removeDir(ws));

describe('mock match-test, text', () => {
  test('every rule, marks per condition, the winner starred, the result line', async () => {
    const r = await runMock(
      [
        'match-test',
        '-r',
        'orders.toml',
        '-p',
        '/orders',
        '-m',
        'post',
        '-H',
        'X-Api-Key: k',
        '--body-file',
        'body.json',
      ],
      { cwd: ws },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        '',
        'Rule #1: /orders  NO MATCH',
        '  \u2713  url_path equal "/orders"',
        '  \u2713  method POST (actual: POST)',
        '  \u2717  header "x-api-key"  absent ""',
        '',
        'Rule #2: /orders  MATCH \u2605',
        '  \u2713  url_path equal "/orders"',
        '  \u2713  method POST (actual: POST)',
        '  \u2713  header "x-api-key"  exists ""',
        '  \u2713  body.json "customer.tier"  ==  "gold"  (actual: "gold")',
        '',
        'Rule #3: /orders  MATCH',
        '  \u2713  url_path equal "/orders"',
        '',
        'edit with: mock set rule --rule-set ./orders.toml --rule 1',
        'Result: MATCH (rule #2)',
        '',
      ].join('\n'),
    );
  });

  test('no match: exit 1 and Result: NO MATCH', async () => {
    const r = await runMock(['match-test', '--rule-set', 'orders.toml', '--path', '/nothing'], { cwd: ws });
    assert.equal(r.code, 1);
    assert.ok(r.stdout.endsWith('\nResult: NO MATCH\n'));
    assert.match(r.stdout, /Rule #3: \/orders {2}NO MATCH\n {2}\u2717 {2}url_path equal "\/orders"\n/);
  });

  test('the winner follows the rule set strategy (priority), not file order', async () => {
    const r = await runMock(['match-test', '-r', 'rs/priority.toml', '-p', '/p'], { cwd: ws });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Rule #1: \/p {2}MATCH\n/);
    assert.match(r.stdout, /Rule #2: \/p {2}MATCH \u2605\n/);
    assert.ok(r.stdout.endsWith('Result: MATCH (rule #2)\n'));
  });

  test('a bare relative path and a ./ path name the same rule set', async () => {
    const a = await runMock(['match-test', '-r', 'rs/priority.toml', '-p', '/p'], { cwd: ws });
    const b = await runMock(['match-test', '-r', './rs/priority.toml', '-p', '/p'], { cwd: ws });
    // one spelling of the path in the output, whichever was typed
    assert.equal(a.stdout, b.stdout);
    assert.match(
      b.stdout,
      /\nedit with: mock set rule --rule-set \.\/rs\/priority\.toml --rule 1\nResult: MATCH \(rule #2\)\n$/,
    );
  });

  test('the prefix applies: a path it does not claim matches nothing', async () => {
    const outside = await runMock(['match-test', '-r', 'prefixed.toml', '-p', '/x'], { cwd: ws });
    assert.equal(outside.code, 1);
    assert.match(outside.stdout, /\u2717 {2}prefix "\/api" does not claim "\/x"/);
    const inside = await runMock(['match-test', '-r', 'prefixed.toml', '-p', '/api/x'], { cwd: ws });
    assert.equal(inside.code, 0);
  });

  test('--rule checks only that rule (1-based)', async () => {
    const r = await runMock(['match-test', '-r', 'orders.toml', '-p', '/orders', '--rule', '3'], { cwd: ws });
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      '\nRule #3: /orders  MATCH \u2605\n  \u2713  url_path equal "/orders"\n\nedit with: mock set rule --rule-set ./orders.toml --rule 2\nResult: MATCH (rule #3)\n',
    );
    const miss = await runMock(['match-test', '-r', 'orders.toml', '-p', '/orders', '--rule', '1'], { cwd: ws });
    assert.equal(miss.code, 1);
  });

  test('--quiet prints nothing; the exit code tells', async () => {
    const hit = await runMock(['match-test', '-r', 'orders.toml', '-p', '/orders', '-q'], { cwd: ws });
    assert.deepEqual([hit.code, hit.stdout, hit.stderr], [0, '', '']);
    const miss = await runMock(['match-test', '-r', 'orders.toml', '-p', '/zzz', '--quiet'], { cwd: ws });
    assert.deepEqual([miss.code, miss.stdout, miss.stderr], [1, '', '']);
  });
});

describe('mock match-test --format json', () => {
  test('result: request, rules, matched, match_rule_index (0-based)', async () => {
    const r = await runMock(['match-test', '-r', 'orders.toml', '-p', '/orders', '--format', 'json', '--quiet'], {
      cwd: ws,
    });
    assert.equal(r.code, 0);
    const env = JSON.parse(r.stdout) as { schema: number; mock: string; result: Record<string, unknown> };
    assert.deepEqual(Object.keys(env), ['schema', 'mock', 'result']);
    assert.deepEqual(Object.keys(env.result), ['request', 'rules', 'matched', 'match_rule_index']);
    assert.deepEqual(env.result['request'], { method: 'GET', path: '/orders' });
    assert.equal(env.result['matched'], true);
    assert.equal(env.result['match_rule_index'], 2);
    const rules = env.result['rules'] as { rule_index: number; matched: boolean; conditions: unknown[] }[];
    assert.deepEqual(
      rules.map((x) => [x.rule_index, x.matched]),
      [
        [0, false],
        [1, false],
        [2, true],
      ],
    );
    assert.deepEqual(rules[2]!.conditions, [
      { name: 'url_path', expectation: 'equal "/orders"', actual: '/orders', matched: true },
    ]);
  });

  test('no match: matched false, match_rule_index null, exit 1', async () => {
    const r = await runMock(['match-test', '-r', 'orders.toml', '-p', '/none', '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 1);
    const env = JSON.parse(r.stdout) as { result: Record<string, unknown> };
    assert.equal(env.result['matched'], false);
    assert.equal(env.result['match_rule_index'], null);
  });
});

describe('mock match-test input errors exit 2', () => {
  test('a missing rule-set file: config_unreadable', async () => {
    const r = await runMock(['match-test', '-r', 'nope.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^mock match-test: failed to load rule set \.\/nope\.toml: .*nope\.toml/);
    const j = await runMock(['match-test', '-r', 'nope.toml', '--format', 'json'], { cwd: ws });
    assert.equal(j.code, 2);
    assert.equal((JSON.parse(j.stdout) as { error: { kind: string } }).error.kind, 'config_unreadable');
  });

  test('an invalid rule set: config_invalid with the position', async () => {
    const r = await runMock(['match-test', '-r', 'bad.toml'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\.\/bad\.toml:2:14: error: .*url_pth/);
    const j = await runMock(['match-test', '-r', 'bad.toml', '--format', 'json'], { cwd: ws });
    assert.equal((JSON.parse(j.stdout) as { error: { kind: string } }).error.kind, 'config_invalid');
  });

  test('--rule past the end', async () => {
    const r = await runMock(['match-test', '-r', 'orders.toml', '--rule', '9'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'mock match-test: rule #9 does not exist (rule set has 3 rules)\n');
  });

  test('invalid --body JSON', async () => {
    const r = await runMock(['match-test', '-r', 'orders.toml', '-b', '{'], { cwd: ws });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^mock match-test: --body is not valid JSON/);
  });
});
