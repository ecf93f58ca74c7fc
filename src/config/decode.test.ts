import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  array,
  bigInt,
  bool,
  describePath,
  int,
  oneOf,
  record,
  string,
  type DecodeContext,
  type Decoder,
} from './decode.js';
import { parseToml } from './toml.js';

function run<T>(decoder: Decoder<T>, text: string): { value: T | undefined; ctx: DecodeContext } {
  const parsed = parseToml(text);
  assert.ok(parsed.ok, text);
  const ctx: DecodeContext = { file: '/w/x.toml', text, diagnostics: [] };
  const node = parsed.value.entries.get('v')?.node ?? parsed.value;
  return { value: decoder(node, ['v'], ctx), ctx };
}

test('primitives accept their type and report anything else with the found type', () => {
  const cases: [string, Decoder<unknown>, string, unknown, RegExp | undefined][] = [
    ['string ok', string, 'v = "a"', 'a', undefined],
    ['string from int', string, 'v = 1', undefined, /`v` must be a string, found an integer/],
    ['bool ok', bool, 'v = false', false, undefined],
    ['bool from string', bool, 'v = "true"', undefined, /must be a boolean \(true or false\), found a string/],
    ['int ok', int(0, 10), 'v = 10', 10, undefined],
    ['int below', int(0, 10), 'v = -1', undefined, /must be an integer from 0 to 10, found -1/],
    ['int above', int(0, 10), 'v = 11', undefined, /found 11/],
    ['int from float', int(0, 10), 'v = 1.0', undefined, /must be an integer, found a float/],
    ['int from date', int(0, 10), 'v = 07:32:00', undefined, /found a date-time/],
    ['bigInt beyond 2^53', bigInt(0n, 1n << 64n), 'v = 9007199254740993', 9007199254740993n, undefined],
    ['array ok', array(string), 'v = ["a", "b"]', ['a', 'b'], undefined],
    [
      'array drops bad items',
      array(string),
      'v = ["a", 2, "c"]',
      ['a', 'c'],
      /`v\[1\]` must be a string, found an integer/,
    ],
    ['array from string', array(string), 'v = "a"', undefined, /must be an array, found a string/],
    ['oneOf ok', oneOf(['first', 'second']), 'v = "second"', 'second', undefined],
    [
      'oneOf unknown',
      oneOf(['first', 'second']),
      'v = "secnd"',
      undefined,
      /unknown value `secnd`; expected one of `first`, `second`/,
    ],
    ['oneOf wrong type', oneOf(['first']), 'v = 1', undefined, /must be a string, found an integer/],
  ];
  for (const [name, decoder, text, want, error] of cases) {
    const { value, ctx } = run(decoder, text);
    assert.deepEqual(value, want, name);
    if (error === undefined) assert.deepEqual(ctx.diagnostics, [], name);
    else {
      assert.equal(ctx.diagnostics.length, 1, name);
      assert.match(ctx.diagnostics[0]!.message, error, name);
      assert.equal(ctx.diagnostics[0]!.file, '/w/x.toml');
      assert.equal(ctx.diagnostics[0]!.line, 1);
    }
  }
});

test('oneOf offers a near match', () => {
  const { ctx } = run(oneOf(['GET', 'POST']), 'v = "get"');
  assert.equal(ctx.diagnostics[0]?.suggestion, 'GET');
  assert.equal(ctx.diagnostics[0]?.code, 'invalid_value');
});

test('record reports every unknown key, with allowed keys, did-you-mean and position, and keeps decoding', () => {
  const decoder = record({ port: int(0, 65535), host: string, verbose: bool }, { required: ['host'] });
  const text = '[v]\nprot = 1\nport = "x"\nverbos = true\nzzz = 0\n';
  const { value, ctx } = run(decoder, text);
  assert.deepEqual(value, {});
  const got = ctx.diagnostics.map((d) => [d.code, d.line, d.column, d.message, d.suggestion, d.allowed?.join(',')]);
  assert.deepEqual(got, [
    ['unknown_key', 2, 1, 'unknown key `prot` in `v`', 'port', 'port,host,verbose'],
    ['wrong_type', 3, 8, '`v.port` must be an integer, found a string', undefined, undefined],
    ['unknown_key', 4, 1, 'unknown key `verbos` in `v`', 'verbose', 'port,host,verbose'],
    ['unknown_key', 5, 1, 'unknown key `zzz` in `v`', undefined, 'port,host,verbose'],
    ['missing_key', 1, 1, 'missing required key `host` in `v`', undefined, undefined],
  ]);
  assert.deepEqual(ctx.diagnostics[0]?.keyPath, ['v', 'prot']);
});

test('record: a misspelt required key is reported once, as unknown', () => {
  const { ctx } = run(record({ request: string }, { required: ['request'] }), '[v]\nreqest = "x"\n');
  assert.deepEqual(
    ctx.diagnostics.map((d) => d.code),
    ['unknown_key'],
  );
});

test('record: partial tables are fine and only present fields appear', () => {
  const { value, ctx } = run(record({ a: int(0, 9), b: string }), 'v = { a = 3 }');
  assert.deepEqual(value, { a: 3 });
  assert.deepEqual(ctx.diagnostics, []);
  const wrong = run(record({ a: int(0, 9) }), 'v = 3');
  assert.equal(wrong.value, undefined);
  assert.match(wrong.ctx.diagnostics[0]!.message, /`v` must be a table, found an integer/);
});

test('describePath renders keys and indices', () => {
  assert.equal(describePath([]), '');
  assert.equal(describePath(['service', 'rule_sets', 0]), 'service.rule_sets[0]');
  assert.equal(describePath(['rules', 2, 'when', 'request']), 'rules[2].when.request');
});

test('record: a key named like an Object.prototype member is an unknown key, not a decoder', () => {
  const { value, ctx } = run(record({ a: int(0, 9) }), 'v = { constructor = 1, toString = 2, a = 3 }');
  assert.deepEqual(value, { a: 3 });
  assert.deepEqual(
    ctx.diagnostics.map((d) => d.code),
    ['unknown_key', 'unknown_key'],
  );
});

test('described: a field keeps its decoder, and its schema gains the doc and default', async () => {
  const { described, string: str } = await import('./decode.js');
  const s = described(int(0, 9), { doc: 'A digit.', default: 3 });
  assert.equal(run(record({ a: s }), 'v = { a = 4 }').value?.a, 4);
  assert.match(run(s, 'v = 10').ctx.diagnostics[0]!.message, /from 0 to 9, found 10/);
  assert.deepEqual(s.schema(), {
    description: 'A digit.\n\nDefault: `3`.',
    markdownDescription: 'A digit.\n\nDefault: `3`.',
    type: 'integer',
    minimum: 0,
    maximum: 9,
    default: 3,
  });
  assert.equal(described(str, { doc: 'x' }).type, 'string');
});
