import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReloadEvent } from '../../model/reload.js';
import type { Workspace } from '../../model/workspace.js';
import { RELOAD_MESSAGES, reloadText } from './reload.js';

const show = (abs: string): string => abs.replace('/w/', './');
const ws = (ruleCounts: readonly number[]): Workspace =>
  ({ ruleSets: ruleCounts.map((n) => ({ rules: Array.from({ length: n }) })), warnings: [] }) as unknown as Workspace;

test('reloadText: the lines for each kind of event', () => {
  const cases: readonly [string, ReloadEvent, readonly string[], string][] = [
    [
      'applied',
      {
        kind: 'applied',
        generation: 4,
        workspace: ws([10, 2]),
        changed: ['/w/rules.toml'],
        ms: 8,
        warnings: [],
        listenerChanges: [],
      },
      ['reloaded generation 4 after change to ./rules.toml (12 rules across 2 rule sets, 8 ms)'],
      '',
    ],
    [
      'singular counts, several files',
      {
        kind: 'applied',
        generation: 2,
        workspace: ws([1]),
        changed: ['/w/a', '/w/b', '/w/c', '/w/d', '/w/e'],
        ms: 1,
        warnings: [],
        listenerChanges: [],
      },
      ['reloaded generation 2 after change to ./a, ./b, ./c and 2 more (1 rule across 1 rule set, 1 ms)'],
      '',
    ],
    [
      'a listener change',
      {
        kind: 'applied',
        generation: 2,
        workspace: ws([]),
        changed: ['/w/mock.toml'],
        ms: 3,
        warnings: [],
        listenerChanges: [{ key: 'listener.port', from: '3001', to: '4000' }],
      },
      [
        'reloaded generation 2 after change to ./mock.toml (0 rules across 0 rule sets, 3 ms)',
        'listener.port changed 3001 → 4000: restart mock to apply; still listening on http://127.0.0.1:3001',
      ],
      '',
    ],
    [
      'rejected',
      {
        kind: 'rejected',
        generation: 3,
        changed: ['/w/rules.toml'],
        ms: 2,
        diagnostics: [
          {
            severity: 'error',
            code: 'unknown_key',
            message: 'unknown key `url_pth`',
            file: '/w/rules.toml',
            line: 3,
            column: 1,
            allowed: ['url_path'],
            suggestion: 'url_path',
          },
        ],
      },
      [],
      'reload rejected; generation 3 keeps serving\n./rules.toml:3:1: error: unknown key `url_pth`; allowed keys: `url_path` (did you mean `url_path`?)\n',
    ],
  ];
  for (const [name, event, out, err] of cases) {
    const t = reloadText(event, show, 'http://127.0.0.1:3001');
    assert.deepEqual(t.out, out, name);
    assert.equal(t.err, err, name);
  }
  assert.equal(RELOAD_MESSAGES.watching(3), 'Watching 3 files for changes (--no-watch to turn off)');
  assert.equal(RELOAD_MESSAGES.watching(1), 'Watching 1 file for changes (--no-watch to turn off)');
});
