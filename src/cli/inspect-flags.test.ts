import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseArgs } from '../shared/args.js';
import { SERVE_FLAGS } from './commands/serve.js';
import { parseInspectFlags } from './inspect-flags.js';

const parse = (argv: string[]) => {
  const args = parseArgs(argv, SERVE_FLAGS, { prefix: 'mock', root: true });
  assert.ok(args.ok, args.ok ? '' : args.error);
  return parseInspectFlags(args.value, 'mock');
};

describe('--inspect and the journal flags', () => {
  const accepted: readonly { argv: string[]; want: unknown }[] = [
    { argv: [], want: undefined },
    { argv: ['--inspect'], want: { port: 0, journal: {} } },
    // the value is only ever inline: a following word is not taken (bare `mock --inspect serve` stays a positional)
    { argv: ['--inspect', '-p', '0'], want: { port: 0, journal: {} } },
    { argv: ['--inspect=4000'], want: { port: 4000, journal: {} } },
    { argv: ['--inspect=127.0.0.1:4000'], want: { port: 4000, journal: {} } },
    { argv: ['--inspect=localhost:4001'], want: { port: 4001, journal: {} } },
    {
      argv: ['--inspect', '--journal-size', '50', '--journal-max-bytes=1048576'],
      want: { port: 0, journal: { size: 50, maxBytes: 1048576 } },
    },
  ];
  for (const c of accepted)
    test(`accepts ${c.argv.join(' ') || '(nothing)'}`, () =>
      assert.deepEqual(parse(c.argv), { ok: true, value: c.want }));

  const refused: readonly { argv: string[]; message: RegExp }[] = [
    { argv: ['--inspect=0.0.0.0:4000'], message: /127\.0\.0\.1 only/ },
    { argv: ['--inspect=[::]:4000'], message: /127\.0\.0\.1 only/ },
    { argv: ['--inspect=99999'], message: /expected a port 0\.\.65535/ },
    { argv: ['--inspect=abc'], message: /expected a port/ },
    { argv: ['--journal-size', '10'], message: /--journal-size goes with --inspect/ },
    { argv: ['--journal-max-bytes', '100000'], message: /--journal-max-bytes goes with --inspect/ },
    {
      argv: ['--inspect', '--journal-size', '0'],
      message: /--journal-size: '0' \(expected a whole number from 1 to 100000\)/,
    },
    { argv: ['--inspect', '--journal-size', '1e3'], message: /--journal-size/ },
    { argv: ['--inspect', '--journal-max-bytes', '10'], message: /--journal-max-bytes: '10'/ },
  ];
  for (const c of refused) {
    test(`refuses ${c.argv.join(' ')}`, () => {
      const r = parse(c.argv);
      assert.equal(r.ok, false);
      assert.match(r.ok ? '' : r.error, c.message);
    });
  }
});
