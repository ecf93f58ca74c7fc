import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { test } from 'node:test';
import type { Outcome, Stage } from '../dispatch/dispatch.js';
import { publishTrace, TRACE_CHANNEL_NAME, traceChannel, traceEventFor } from './trace.js';

function outcome(stage: Stage, status: number, file?: string): Outcome {
  return {
    answer: { status, headers: [], body: new Uint8Array(0), delayMs: 0 },
    stage,
    ...(file !== undefined ? { file } : {}),
  };
}

test('events built from the stage', () => {
  const cases: [string, Outcome, unknown][] = [
    [
      'rule',
      outcome({ kind: 'rule_set', ruleSetIndex: 1, ruleIndex: 2 }, 200),
      { kind: 'matched', rule_set_index: 1, rule_index: 2 },
    ],
    [
      'middleware',
      outcome({ kind: 'middleware', index: 0, file: '/w/mw.rhai' }, 200, '/w/a.json'),
      { kind: 'middleware', file_path: '/w/mw.rhai', status: 200 },
    ],
    [
      'fallback',
      outcome({ kind: 'fallback', file: '/w/a.json' }, 200, '/w/a.json'),
      { kind: 'fallback', file_path: '/w/a.json', status: 200 },
    ],
    [
      'fallback error',
      outcome({ kind: 'fallback', file: '/w/b.csv' }, 500, '/w/b.csv'),
      { kind: 'fallback', file_path: '/w/b.csv', status: 500 },
    ],
    ['miss', outcome({ kind: 'miss' }, 404), { kind: 'miss', status: 404 }],
    ['prefix miss', outcome({ kind: 'prefix_miss', ruleSetIndex: 0 }, 404), { kind: 'miss', status: 404 }],
    ['options', outcome({ kind: 'options' }, 204), undefined],
    ['bad request', outcome({ kind: 'bad_request' }, 400), undefined],
  ];
  for (const [name, o, want] of cases) assert.deepEqual(traceEventFor(o), want, name);
});

test('publishes on mock:trace only to subscribers', () => {
  assert.equal(TRACE_CHANNEL_NAME, 'mock:trace');
  assert.equal(traceChannel.hasSubscribers, false);
  const seen: unknown[] = [];
  const fn = (m: unknown): void => void seen.push(m);
  publishTrace(outcome({ kind: 'miss' }, 404)); // nobody listening
  subscribe(TRACE_CHANNEL_NAME, fn);
  try {
    publishTrace(outcome({ kind: 'miss' }, 404));
    publishTrace(outcome({ kind: 'options' }, 204));
    publishTrace(outcome({ kind: 'rule_set', ruleSetIndex: 0, ruleIndex: 3 }, 201));
  } finally {
    unsubscribe(TRACE_CHANNEL_NAME, fn);
  }
  assert.deepEqual(seen, [
    { kind: 'miss', status: 404 },
    { kind: 'matched', rule_set_index: 0, rule_index: 3 },
  ]);
});
