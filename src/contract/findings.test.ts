import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  exitCodeOfFindings,
  type Finding,
  findingsResult,
  findingsText,
  unknownKinds,
  withoutIgnored,
} from './findings.js';

const f = (kind: string, severity: 'error' | 'warning', where: string): Finding => ({
  kind,
  severity,
  where,
  pointer: '#/paths/~1pets/get',
  message: `${kind} at ${where}`,
});

test('text output groups by kind in the fixed order, whatever order the findings came in', () => {
  const text = findingsText([
    f('schema_mismatch', 'error', 'a.json'),
    f('undocumented_path', 'error', 'rules.toml:3'),
    f('schema_mismatch', 'warning', 'b.json'),
  ]);
  const lines = text.split('\n');
  assert.match(lines[0]!, /\[undocumented_path\] \(1\):$/);
  assert.equal(lines[1], '  error: rules.toml:3: undocumented_path at rules.toml:3 (#/paths/~1pets/get)');
  assert.match(lines[3]!, /\[schema_mismatch\] \(2\):$/);
  assert.match(lines[4]!, /^ {2}error: a\.json:/);
  assert.match(lines[5]!, /^ {2}warning: b\.json:/);
});

test('exit code: errors fail; warnings fail only under --strict; --ignore removes a kind', () => {
  const warn = [f('schema_mismatch', 'warning', 'x')];
  assert.equal(exitCodeOfFindings([], true), 0);
  assert.equal(exitCodeOfFindings(warn, false), 0);
  assert.equal(exitCodeOfFindings(warn, true), 1);
  assert.equal(exitCodeOfFindings([f('undocumented_path', 'error', 'x')], false), 1);
  assert.equal(withoutIgnored([...warn, f('undocumented_path', 'error', 'x')], ['undocumented_path']).length, 1);
  assert.deepEqual(unknownKinds(['schema_mismatch', 'nope']), ['nope']);
});

test('the JSON result lists each finding with kind, severity, where, pointer and message', () => {
  assert.deepEqual(findingsResult([f('undocumented_status', 'error', 'r.toml:1')]), {
    findings: [
      {
        kind: 'undocumented_status',
        severity: 'error',
        where: 'r.toml:1',
        pointer: '#/paths/~1pets/get',
        message: 'undocumented_status at r.toml:1',
      },
    ],
    summary: { errors: 1, warnings: 0 },
  });
});
