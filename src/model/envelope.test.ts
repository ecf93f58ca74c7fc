import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERROR_KINDS } from './errors.js';
import { EXIT_CODES, errorEnvelope, successEnvelope } from './envelope.js';

test('every error kind has an exit code: usage and config problems 2, the rest 1', () => {
  assert.deepEqual(Object.keys(EXIT_CODES).sort(), [...ERROR_KINDS].sort());
  const want = { usage: 2, config_invalid: 2, config_unreadable: 2, io: 1, conflict: 1, internal: 1 };
  assert.deepEqual(EXIT_CODES, want);
});

test('envelopes: schema, mock, then result or error; pretty-printed; newline-terminated', () => {
  const ok = successEnvelope('1.2.3', { b: 1, a: [true, null] });
  assert.equal(
    ok,
    '{\n  "schema": 1,\n  "mock": "1.2.3",\n  "result": {\n    "b": 1,\n    "a": [\n      true,\n      null\n    ]\n  }\n}\n',
  );
  const bad = JSON.parse(errorEnvelope('1.2.3', 'usage', 'no')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(bad), ['schema', 'mock', 'error']);
  assert.deepEqual(bad['error'], { kind: 'usage', message: 'no' });
  const withDiag = JSON.parse(
    errorEnvelope('1.2.3', 'config_invalid', 'the configuration has 1 error', [
      {
        severity: 'error',
        code: 'unknown_key',
        message: 'unknown key',
        file: '/a.toml',
        line: 2,
        column: 3,
        keyPath: ['rules', 0],
        allowed: ['x'],
        suggestion: 'x',
      },
    ]),
  ) as { error: { diagnostics: unknown[] } };
  assert.deepEqual(withDiag.error.diagnostics, [
    {
      severity: 'error',
      code: 'unknown_key',
      message: 'unknown key',
      file: '/a.toml',
      line: 2,
      column: 3,
      key_path: ['rules', 0],
      allowed: ['x'],
      suggestion: 'x',
    },
  ]);
});
