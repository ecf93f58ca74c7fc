// The README runner's parsers: console steps, shell words, the curl subset.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { consoleSteps, parseCurl, shellWords } from './readme.js';

test('consoleSteps: each $ line with the lines after it, only inside console blocks', () => {
  const md = [
    'text',
    '```sh',
    '$ not run',
    '```',
    '```console',
    '$ curl -s localhost:3001/a',
    'one',
    'two',
    '',
    '$ mock validate',
    'ok',
    '```',
    '',
  ].join('\n');
  assert.deepEqual(consoleSteps(md), [
    { command: 'curl -s localhost:3001/a', expected: 'one\ntwo', line: 6 },
    { command: 'mock validate', expected: 'ok', line: 10 },
  ]);
});

test('shellWords: quotes group, escapes inside double quotes', () => {
  const cases: [string, string[]][] = [
    [`curl -H 'Authorization: Bearer x' a`, ['curl', '-H', 'Authorization: Bearer x', 'a']],
    [`-d '{"a":1}'`, ['-d', '{"a":1}']],
    [`-w "%{http_code}\\n" x"y z"`, ['-w', '%{http_code}\\n', 'xy z']],
    [`a  b`, ['a', 'b']],
  ];
  for (const [line, want] of cases) assert.deepEqual(shellWords(line), want, line);
});

test('parseCurl: the supported options, and anything else refused', () => {
  const c = parseCurl(['-si', '-X', 'PUT', '-H', 'Content-Type: application/json', '-d', '{}', 'localhost:3001/x']);
  assert.equal(c.method, 'PUT');
  assert.equal(c.url, 'http://localhost:3001/x');
  assert.equal(c.include, true);
  assert.equal(c.body, '{}');
  assert.deepEqual(c.headers, [['Content-Type', 'application/json']]);
  assert.equal(parseCurl(['-d', 'a=1', 'h:1/']).method, 'POST');
  assert.deepEqual(parseCurl(['-d', 'a=1', 'h:1/']).headers, [['Content-Type', 'application/x-www-form-urlencoded']]);
  const k = parseCurl([
    '-sk',
    '--cacert',
    'c.pem',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}\\n',
    'https://localhost:3443/',
  ]);
  assert.deepEqual([k.insecure, k.cacert, k.discardBody, k.writeOut], [true, 'c.pem', true, '%{http_code}\\n']);
  assert.throws(() => parseCurl(['--compressed', 'h:1/']), /unsupported option --compressed/);
  assert.throws(() => parseCurl(['-o', 'out.txt', 'h:1/']), /only -o \/dev\/null/);
});
