import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lineColumnAt } from '../shared/position.js';
import { describeKind, locate, parseToml, parseTomlLazily, type TomlNode } from './toml.js';

const DOC = `title = "t"
a.b.c = 1
[listener]
port = 3001
ip = '::1'
[service]
rule_sets = ["a.toml", "b.toml"]
strategy = { priority = { tiebreaker = "first_match" } }
[[rules]]
when.request.url_path = "/x"
[rules.respond]
text = "one"
[[rules]]
weight = 2.5
flag = true
when = 1979-05-27T07:32:00Z
big = 9223372036854775807
`;

function at(text: string, offset: number | undefined): string {
  assert.ok(offset !== undefined);
  const { line, column } = lineColumnAt(text, offset);
  return `${line}:${column}`;
}

/** plain JS view of a node, for deepEqual */
function plain(n: TomlNode): unknown {
  switch (n.kind) {
    case 'array':
      return n.items.map(plain);
    case 'table':
      return Object.fromEntries([...n.entries].map(([k, e]) => [k, plain(e.node)]));
    default:
      return n.value;
  }
}

test('parseToml builds a located tree from every TOML construct', () => {
  const r = parseToml(DOC);
  assert.ok(r.ok);
  assert.deepEqual(plain(r.value), {
    title: 't',
    a: { b: { c: 1n } },
    listener: { port: 3001n, ip: '::1' },
    service: { rule_sets: ['a.toml', 'b.toml'], strategy: { priority: { tiebreaker: 'first_match' } } },
    rules: [
      { when: { request: { url_path: '/x' } }, respond: { text: 'one' } },
      { weight: 2.5, flag: true, when: '1979-05-27T07:32:00Z', big: 9223372036854775807n },
    ],
  });
  assert.deepEqual([...r.value.entries.keys()], ['title', 'a', 'listener', 'service', 'rules']);
});

test('locate gives the key and value positions of any key path', () => {
  const r = parseToml(DOC);
  assert.ok(r.ok);
  const cases: [(string | number)[], string, string | undefined][] = [
    [['title'], '1:9', '1:1'],
    [['a', 'b', 'c'], '2:9', '2:5'],
    [['listener', 'port'], '4:8', '4:1'],
    [['listener'], '3:1', '3:2'],
    [['service', 'rule_sets', 1], '7:24', undefined],
    [['service', 'strategy', 'priority', 'tiebreaker'], '8:40', '8:27'],
    [['rules', 0, 'when', 'request', 'url_path'], '10:25', '10:14'],
    [['rules', 0, 'respond', 'text'], '12:8', '12:1'],
    [['rules', 1], '13:1', undefined],
    [['rules', 1, 'weight'], '14:10', '14:1'],
  ];
  for (const [path, value, key] of cases) {
    const loc = locate(r.value, path);
    assert.ok(loc, path.join('.'));
    assert.equal(at(DOC, loc.offset), value, `value of ${path.join('.')}`);
    if (key !== undefined) assert.equal(at(DOC, loc.keyOffset), key, `key of ${path.join('.')}`);
  }
  assert.equal(locate(r.value, ['nope']), undefined);
  assert.equal(locate(r.value, ['rules', 5]), undefined);
  assert.equal(locate(r.value, ['title', 'x']), undefined);
});

test('syntax errors come back as values with line and column', () => {
  const cases: [string, string, RegExp][] = [
    ['[service', '1:9', /missing "\]" to close \[service/],
    ['[service\n', '1:9', /missing "\]" to close \[service/],
    ['x = "abc\ny = 1\n', '1:9', /missing closing "/],
    ['a = ', '1:5', /missing value after "a ="/],
    ['a = 1\na = 2', '2:1', /the key `a` is already defined above/],
    ['x = "abc', '1:9', /missing closing "/],
    ['a = 1 b = 2', '1:7', /must be followed by an end-of-line/],
    ['[a]\n[a]', '2:2', /the key `a` is already defined above/],
  ];
  for (const [text, pos, message] of cases) {
    const r = parseToml(text);
    assert.equal(r.ok, false, text);
    if (r.ok) continue;
    assert.equal(`${r.error.line}:${r.error.column}`, pos, text);
    assert.match(r.error.message, message);
    assert.match(r.error.message, /^[a-z]/, 'lower-case start, to follow "invalid TOML: "');
  }
});

test('describeKind names every node kind', () => {
  const r = parseToml('s = "x"\ni = 1\nf = 1.5\nb = true\nd = 1979-05-27\na = []\nt = {}\n');
  assert.ok(r.ok);
  const kinds = [...r.value.entries.values()].map((e) => describeKind(e.node));
  assert.deepEqual(kinds, ['a string', 'an integer', 'a float', 'a boolean', 'a date-time', 'an array', 'a table']);
});

describe('parseTomlLazily', () => {
  /** the whole tree with every offset read (which makes the lazy tree locate itself) */
  const plain = (n: TomlNode): unknown => {
    switch (n.kind) {
      case 'array':
        return { kind: n.kind, offset: n.offset, items: n.items.map(plain) };
      case 'table':
        return {
          kind: n.kind,
          offset: n.offset,
          entries: [...n.entries].map(([k, e]) => [k, e.keyOffset, plain(e.node)]),
        };
      default:
        return { kind: n.kind, offset: n.offset, value: n.value };
    }
  };
  const docs = [
    '[[rules]]\nwhen.request.url_path = "/a"\nwhen.request.headers.x-tenant = { value = "t1", op = "equal" }\nrespond = { json = \'{"a":1}\', status = 201 }\n\n[[rules]]\nwhen.request.method = "POST"\nrespond.text = "b"\nrespond.headers = { b = "1", a = "2" }\n',
    'prefix = { url_path = "/api", respond_dir = "data" }\nstrategy = "round_robin"\n[[rules]]\n[rules.when.request]\nurl_path = "x"\n[rules.respond]\nfile_path = "x.json"\ndelay_response_milliseconds = 5\n',
    'a = [1, 2.5, true, "s", [3], { b = 0x10 }]\n"quoted key" = \'lit\'\nbig = 9223372036854775807\nf = inf\n[t.u.v]\nw = """multi\nline"""\n',
    '# only a comment\n',
    '[headers]\n2 = "two"\n1 = "one"\n', // integer-like keys: the located parser keeps their written order
    'when = 1979-05-27T07:32:00Z\n', // a date-time: the located parser
  ];
  for (const [i, text] of docs.entries()) {
    test(`document ${i}: the same values, order and offsets as parseToml`, () => {
      const lazy = parseTomlLazily(text);
      const located = parseToml(text);
      assert.ok(lazy.ok && located.ok);
      assert.deepEqual(plain(lazy.value), plain(located.value));
    });
  }
  test('a syntax error is reported exactly as parseToml reports it', () => {
    for (const text of ['a = \n', '[[rules]\n', 'a = "unterminated\nb = 1\n', 'a = 1\na = 2\n']) {
      assert.deepEqual(parseTomlLazily(text), parseToml(text), JSON.stringify(text));
    }
  });
});
