import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type FlagSpec, findMetaFlag, parseArgs, parsePort } from './args.js';

const SPECS: readonly FlagSpec[] = [
  { long: 'config', short: 'c', takesValue: true, path: true },
  { long: 'method', short: 'm', takesValue: true },
  { long: 'header', short: 'H', takesValue: true, repeat: true },
  { long: 'body', short: 'b', takesValue: true },
  { long: 'why', takesValue: false },
  { long: 'json', takesValue: false, hidden: true },
];
const SUB = { prefix: 'mock get', root: false };
const ROOT = { prefix: 'mock', root: true };

describe('parseArgs accepts', () => {
  const cases: readonly { argv: string[]; flags: Record<string, string[]>; positionals: string[] }[] = [
    { argv: ['/x'], flags: {}, positionals: ['/x'] },
    { argv: ['/x', '-c', 'a.toml'], flags: { config: ['a.toml'] }, positionals: ['/x'] },
    { argv: ['--config=a.toml', '/x'], flags: { config: ['a.toml'] }, positionals: ['/x'] },
    { argv: ['-c=a.toml'], flags: { config: ['a.toml'] }, positionals: [] },
    { argv: ['-ca.toml'], flags: { config: ['a.toml'] }, positionals: [] },
    {
      argv: ['-H', 'A: 1', '--header', 'B: 2', '-H=C: 3'],
      flags: { header: ['A: 1', 'B: 2', 'C: 3'] },
      positionals: [],
    },
    { argv: ['-m', 'get', '-m', 'post'], flags: { method: ['post'] }, positionals: [] },
    { argv: ['-b', '-1'], flags: { body: ['-1'] }, positionals: [] },
    { argv: ['--why', '--', '--not-a-flag'], flags: { why: [''] }, positionals: ['--not-a-flag'] },
    { argv: ['-', '-5'], flags: {}, positionals: ['-', '-5'] },
    { argv: ['--json'], flags: { json: [''] }, positionals: [] },
  ];
  for (const c of cases) {
    test(c.argv.join(' '), () => {
      const r = parseArgs(c.argv, SPECS, SUB);
      assert.ok(r.ok, r.ok ? '' : r.error);
      assert.deepEqual(Object.fromEntries(r.value.flags), c.flags);
      assert.deepEqual(r.value.positionals, c.positionals);
    });
  }
});

describe('parseArgs refuses', () => {
  const cases: readonly { argv: string[]; root?: boolean; error: string }[] = [
    { argv: ['--methd', 'x'], error: "mock get: unknown option '--methd'; did you mean '--method'?" },
    { argv: ['--bogus'], error: "mock get: unrecognized argument '--bogus'" },
    { argv: ['--bogus'], root: true, error: "mock: unknown option '--bogus'" },
    { argv: ['-x'], error: "mock get: unknown option '-x'; did you mean '-c'?" },
    { argv: ['--jsn'], error: "mock get: unrecognized argument '--jsn'" },
    { argv: ['--why=yes'], error: 'mock get: --why does not take a value' },
    { argv: ['-m'], error: 'mock get: --method / -m requires a value' },
    { argv: ['-m', '--why'], error: 'mock get: --method / -m requires a value' },
    { argv: ['--config='], error: "mock get: --config / -c must be a non-empty path, got ''" },
    { argv: ['-c', ''], error: "mock get: --config / -c must be a non-empty path, got ''" },
  ];
  for (const c of cases) {
    test(`${c.root ? '(root) ' : ''}${c.argv.join(' ')}`, () => {
      const r = parseArgs(c.argv, SPECS, c.root ? ROOT : SUB);
      assert.equal(r.ok, false);
      if (!r.ok) assert.equal(r.error, c.error);
    });
  }
});

test('findMetaFlag: --help / -h / --version win, up to a --', () => {
  const cases: readonly [string[], ReturnType<typeof findMetaFlag>][] = [
    [['--bogus', '--version'], 'version'],
    [['-h', '--version'], 'help'],
    [['-p', '1', '--help'], 'help'],
    [['--', '--help'], undefined],
    [['--helpx'], undefined],
  ];
  for (const [argv, want] of cases) assert.equal(findMetaFlag(argv), want, argv.join(' '));
});

test('parsePort: 0..65535 in plain digits only', () => {
  const cases: readonly [string, number | undefined][] = [
    ['0', 0],
    ['3001', 3001],
    ['65535', 65535],
    ['65536', undefined],
    ['-1', undefined],
    ['1e3', undefined],
    ['', undefined],
    [' 80', undefined],
  ];
  for (const [text, want] of cases) assert.equal(parsePort(text), want, text);
});
