import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  appendBlock,
  applyEdits,
  deleteEntry,
  insertPair,
  tomlBasicString,
  tomlKey,
  tomlPreferLiteralString,
} from './patch.js';
import { documentScope, findEntry, parseTomlText, ruleScope, tableSite } from './spans.js';

function parsed(text: string) {
  const r = parseTomlText(text);
  if (!r.ok) assert.fail(r.error.message);
  return r.value;
}

describe('TOML spelling', () => {
  const strings: readonly [string, string][] = [
    ['plain', '"plain"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['tab\tnl\ncr\r', '"tab\\tnl\\ncr\\r"'],
    ['\u0001\u007f', '"\\u0001\\u007F"'],
    ['é €', '"é €"'],
  ];
  for (const [input, expected] of strings)
    it(`basic ${JSON.stringify(input)}`, () => assert.equal(tomlBasicString(input), expected));

  const literal: readonly [string, string][] = [
    ['{"a":1}', `'{"a":1}'`],
    [`{"a":"it's"}`, `"{\\"a\\":\\"it's\\"}"`],
    ['{\n}', '"{\\n}"'],
    ['{\t"a":1}', `'{\t"a":1}'`],
  ];
  for (const [input, expected] of literal)
    it(`literal-or-basic ${JSON.stringify(input)}`, () => assert.equal(tomlPreferLiteralString(input), expected));

  const keys: readonly [string, string][] = [
    ['x-api-key', 'x-api-key'],
    ['a_b9', 'a_b9'],
    ['x.y', '"x.y"'],
    ["x'y", `"x'y"`],
    ['', '""'],
  ];
  for (const [input, expected] of keys)
    it(`key ${JSON.stringify(input)}`, () => assert.equal(tomlKey(input), expected));
});

describe('applyEdits', () => {
  it('applies in offset order and keeps insertions at one offset in the given order', () => {
    assert.equal(
      applyEdits('abcdef', [
        { start: 4, end: 5, text: 'E' },
        { start: 1, end: 1, text: '1' },
        { start: 1, end: 1, text: '2' },
      ]),
      'a12bcdEf',
    );
  });
  it('refuses overlapping edits', () => {
    assert.throws(
      () =>
        applyEdits('abcdef', [
          { start: 1, end: 4, text: '' },
          { start: 2, end: 3, text: '' },
        ]),
      /overlapping/,
    );
  });
});

describe('appendBlock', () => {
  const cases: readonly [string, string, string][] = [
    ['', '[x]\n', '[x]\n'],
    ['a = 1\n', '[x]\n', 'a = 1\n\n[x]\n'],
    ['a = 1', '[x]\n', 'a = 1\n\n[x]\n'],
    ['a = 1\n\n', '[x]\n', 'a = 1\n\n[x]\n'],
    ['a = 1\r\n', '[x]\ny = 2\n', 'a = 1\r\n\r\n[x]\r\ny = 2\r\n'],
  ];
  for (const [text, block, expected] of cases) {
    it(JSON.stringify(text), () => assert.equal(applyEdits(text, [appendBlock(text, block)]), expected));
  }
});

describe('deleteEntry', () => {
  const cases: readonly { text: string; path: string[]; expected: string }[] = [
    { text: '[t]\na = 1\nb = 2 # gone too\nc = 3\n', path: ['t', 'b'], expected: '[t]\na = 1\nc = 3\n' },
    { text: 't = { a = 1, b = 2, c = 3 }\n', path: ['t', 'a'], expected: 't = { b = 2, c = 3 }\n' },
    { text: 't = { a = 1, b = 2, c = 3 }\n', path: ['t', 'b'], expected: 't = { a = 1, c = 3 }\n' },
    { text: 't = { a = 1, b = 2, c = 3 }\n', path: ['t', 'c'], expected: 't = { a = 1, b = 2 }\n' },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.text)} − ${c.path.join('.')}`, () => {
      const scope = documentScope(c.text, parsed(c.text));
      const entry = findEntry(scope, c.path);
      assert.ok(entry !== undefined);
      assert.equal(applyEdits(c.text, [deleteEntry(c.text, entry)]), c.expected);
    });
  }
});

describe('insertPair in a rule', () => {
  const cases: readonly { name: string; text: string; path: string[]; expected: string }[] = [
    {
      name: 'into an empty [[rules]] body, right after its header',
      text: '[[rules]] # c\n[rules.respond]\ntext = "x"\n',
      path: ['when', 'request', 'url_path'],
      expected: '[[rules]] # c\nwhen.request.url_path = "v"\n[rules.respond]\ntext = "x"\n',
    },
    {
      name: 'beside the parent of a deeper header (implicit table)',
      text: '[[rules]]\nrespond.text = "x"\n[rules.when.request.headers.a]\nvalue = "1"\n',
      path: ['when', 'request', 'url_path'],
      expected:
        '[[rules]]\nrespond.text = "x"\nwhen.request.url_path = "v"\n[rules.when.request.headers.a]\nvalue = "1"\n',
    },
    {
      name: 'into an empty inline table',
      text: '[[rules]]\nwhen.request = {}\nrespond.text = "x"\n',
      path: ['when', 'request', 'url_path'],
      expected: '[[rules]]\nwhen.request = { url_path = "v" }\nrespond.text = "x"\n',
    },
    {
      name: 'keeps the indentation of the line it follows',
      text: '[[rules]]\n  when.request.method = "GET"\n  respond.text = "x"\n',
      path: ['when', 'request', 'url_path'],
      expected: '[[rules]]\n  when.request.method = "GET"\n  when.request.url_path = "v"\n  respond.text = "x"\n',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const scope = ruleScope(c.text, parsed(c.text), 0);
      assert.ok(scope !== undefined);
      const edit = insertPair(c.text, scope, c.path, '"v"');
      assert.ok(edit !== undefined);
      const after = applyEdits(c.text, [edit]);
      assert.equal(after, c.expected);
      parsed(after);
    });
  }

  it('tableSite tells how a table exists', () => {
    const text = '[[rules]]\nwhen.request.url_path = "/"\nrespond = { text = "x" }\n[rules.x.y]\nz = 1\n';
    const scope = ruleScope(text, parsed(text), 0)!;
    assert.equal(tableSite(scope, ['when', 'request'])?.kind, 'dotted');
    assert.equal(tableSite(scope, ['respond'])?.kind, 'container');
    assert.equal(tableSite(scope, ['x'])?.kind, 'implicit');
    assert.equal(tableSite(scope, ['nope']), undefined);
  });
});
