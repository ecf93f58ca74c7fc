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

describe('--inspect-host and --inspect-token', () => {
  const run = (argv: string[], env: Record<string, string> = {}) => {
    const args = parseArgs(argv, SERVE_FLAGS, { prefix: 'mock', root: true });
    assert.ok(args.ok, args.ok ? '' : args.error);
    return parseInspectFlags(args.value, 'mock', env);
  };
  test('a loopback host needs no token; a token alone turns the check on', () => {
    assert.deepEqual(run(['--inspect', '--inspect-host', '127.0.0.1']), {
      ok: true,
      value: { port: 0, journal: {}, host: '127.0.0.1' },
    });
    assert.deepEqual(run(['--inspect', '--inspect-token', 't0k']), {
      ok: true,
      value: { port: 0, journal: {}, token: 't0k' },
    });
    assert.deepEqual(run(['--inspect'], { MOCK_INSPECT_TOKEN: 'from-env' }), {
      ok: true,
      value: { port: 0, journal: {}, token: 'from-env' },
    });
    assert.deepEqual(
      run(['--inspect', '--inspect-host', '0.0.0.0', '--inspect-token', 'flag'], { MOCK_INSPECT_TOKEN: 'env' }),
      {
        ok: true,
        value: { port: 0, journal: {}, host: '0.0.0.0', token: 'flag' },
      },
    );
  });
  test('beyond loopback without a token, a bad address, an empty token, or either without --inspect: refused', () => {
    const refused = (argv: string[], re: RegExp, env: Record<string, string> = {}) => {
      const r = run(argv, env);
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.error, re);
    };
    refused(
      ['--inspect', '--inspect-host', '0.0.0.0'],
      /beyond loopback: give --inspect-token <token> \(or set MOCK_INSPECT_TOKEN\)/,
    );
    refused(['--inspect', '--inspect-host', '::'], /--inspect-token/);
    refused(['--inspect', '--inspect-host', 'example.com'], /invalid value for --inspect-host/);
    refused(['--inspect', '--inspect-token', ' '], /must not be empty/);
    refused(['--inspect-host', '0.0.0.0', '--inspect-token', 'x'], /--inspect-host goes with --inspect/);
    refused(['--inspect-token', 'x'], /--inspect-token goes with --inspect/);
  });
});
