// TOML syntax errors through the real program: reported at the line and column of the mistake, with the fix for
// the common slips, and the same text from `validate`, the server's start-up and `get` (one loader).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, writeTree } from '../helpers/mock-cli.js';

// [the line written as line 7 of the rule set, expected "line:column: message"]
const CASES: readonly (readonly [string, string])[] = [
  ['[[rules]', '7:9: error: invalid TOML: missing "]" to close [[rules] (an array of tables is written [[rules]])'],
  ['[service', '7:9: error: invalid TOML: missing "]" to close [service (a table header is written [service])'],
  [
    '[rules]]',
    '7:7: error: invalid TOML: one "]" too many: write [rules] for a table or [[rules]] for an array of tables',
  ],
  [
    'respond.json = "{"ok": true}"',
    `7:16: error: invalid TOML: JSON inside "…" ends the string at the first inner quote: use a literal string '{"ok": true}' or a multi-line '''…'''`,
  ],
  [
    'respond.text = ',
    '7:16: error: invalid TOML: missing value after "respond.text =" (a string needs quotes: respond.text = "…")',
  ],
  [
    'respond.text = "hello',
    '7:22: error: invalid TOML: missing closing " (a "…" string ends on the same line; use """…""" for several lines)',
  ],
  [
    "respond.text = 'hello",
    `7:22: error: invalid TOML: missing closing ' (a '…' string ends on the same line; use '''…''' for several lines)`,
  ],
  ['respond.text = hello', '7:16: error: invalid TOML: a string value needs quotes: respond.text = "hello"'],
  [
    'when.request.url_path = /users',
    '7:25: error: invalid TOML: a string value needs quotes: when.request.url_path = "/users"',
  ],
  [
    'weight = True',
    '7:10: error: invalid TOML: True is not a TOML value: write true (booleans are lowercase true and false; text needs quotes)',
  ],
  ['weight == 1', '7:9: error: invalid TOML: one "=" between a key and its value (write key = value)'],
  ['= 1', '7:1: error: invalid TOML: missing key before "=" (write key = value)'],
  ['my key = 1', '7:3: error: invalid TOML: a key with spaces needs quotes: "my key" = …'],
  ['weight = 1,', '7:11: error: invalid TOML: no "," after a value: each key = value stands on its own line'],
  [
    'respond = { status = 200',
    '7:25: error: invalid TOML: missing "}" to close the inline table (an inline table { … } is written on one line)',
  ],
  ['x = [1, 2', '7:10: error: invalid TOML: missing "]" to close the array'],
  ['weight = 01', '7:10: error: invalid TOML: illegal leading zero'],
  // the next line says weight = 2: the second definition is the mistake
  [
    'weight = 1',
    '8:1: error: invalid TOML: the key `weight` is already defined above (a key or table may appear once)',
  ],
];

const HEAD =
  '# six lines before the mistake\n[[rules]]\nwhen.request.url_path = "/a"\nrespond.text = "a"\n\n[[rules]]\n';

let dir: string;
before(async () => {
  dir = makeTempDir();
  const files: Record<string, string> = {};
  CASES.forEach(([line], i) => {
    files[`c${i}/mock.toml`] = '[service]\nrule_sets = ["rules.toml"]\n';
    files[`c${i}/rules.toml`] = `${HEAD}${line}\nweight = 2\n`;
  });
  await writeTree(dir, files);
});
after(() => removeDir(dir));

describe('TOML mistakes: position and fix', () => {
  CASES.forEach(([line, expected], i) => {
    test(JSON.stringify(line), async () => {
      const r = await runMock(['validate'], { cwd: `${dir}/c${i}` });
      assert.equal(r.code, 2, r.stdout);
      assert.equal(r.stderr.split('\n')[1], `./rules.toml:${expected}`);
    });
  });

  test('the server refuses to start with the same text, and get says it too', async () => {
    const serve = await runMock(['-p', '0'], { cwd: `${dir}/c0` });
    assert.equal(serve.code, 2);
    assert.match(serve.stderr, /\.\/rules\.toml:7:9: error: invalid TOML: missing "\]" to close \[\[rules\]/);
    const get = await runMock(['get', '/a'], { cwd: `${dir}/c3` });
    assert.equal(get.code, 2);
    assert.match(get.stderr, /\.\/rules\.toml:7:16: error: invalid TOML: JSON inside "…" ends the string/);
  });
});
