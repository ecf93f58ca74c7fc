import assert from 'node:assert/strict';
import { test } from 'node:test';
import { captureIo } from './io.js';
import { run } from './run.js';

const noFiles = async (): Promise<Uint8Array> => {
  throw Object.assign(new Error('no files here'), { code: 'ENOENT' });
};

test('run: the subcommand table, in-process', async () => {
  const cases: readonly { argv: string[]; code: number; out?: string; err?: string }[] = [
    { argv: ['--version'], code: 0, out: 'mock 9.9.9\n' },
    { argv: ['match-test', '--version'], code: 0, out: 'mock 9.9.9\n' },
    { argv: ['serv'], code: 2, err: "mock: unknown subcommand 'serv'; did you mean 'serve'?\n" },
    { argv: ['match'], code: 2, err: "mock: unknown subcommand 'match'; did you mean 'match-test'?\n" },
    { argv: ['banana', '--help'], code: 2, err: "mock: unknown subcommand 'banana'\n" },
    { argv: ['help'], code: 2, err: "mock: unknown subcommand 'help'\n" },
  ];
  for (const c of cases) {
    const io = captureIo('/nonexistent', noFiles, '9.9.9');
    assert.equal(await run(c.argv, io), c.code, c.argv.join(' '));
    if (c.out !== undefined) assert.equal(io.stdout(), c.out);
    if (c.err !== undefined) assert.ok(io.stderr().startsWith(c.err), io.stderr());
  }
});
