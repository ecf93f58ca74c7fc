import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { snapshotFrom } from '../../dispatch/snapshot.js';
import type { CommitRule, RuleToAppend } from '../../record/commit-port.js';
import { err, ok } from '../../shared/result.js';
import { createRecorder } from './recorder.js';

const enc = new TextEncoder();
const exchange = (method: string, target: string, status: number, body: string) => ({
  request: snapshotFrom({ method, target, headers: [] }),
  response: {
    status,
    headers: [['content-type', 'application/json']] as const,
    body: { kind: 'bytes', bytes: enc.encode(body) } as const,
  },
});

describe('createRecorder', () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const d = realpathSync(mkdtempSync(join(tmpdir(), 'mock-recorder-')));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a rule that cannot be appended leaves no body file behind', async () => {
    const dir = tempDir();
    const recorder = createRecorder({ fallbackDir: dir, dryRun: false, commitRule: async () => err('no room') });
    const out = await recorder.record(exchange('PUT', '/api/x', 200, '{"a":1}'));
    assert.deepEqual(out.lines, ['not saved: PUT /api/x — cannot append the rule: no room']);
    assert.equal(out.saved, undefined);
    assert.equal(existsSync(join(dir, '.mock-recorded', 'PUT', 'api', 'x.json')), false);
  });

  it('concurrent exchanges are recorded one at a time, in arrival order; the first of a path wins', async () => {
    const dir = tempDir();
    const seen: RuleToAppend[] = [];
    let n = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    const commitRule: CommitRule = async (rule) => {
      seen.push(rule);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      // yield to the event loop, so that a recorder that did not wait for this commit would start the next one
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return ok({ ruleNumber: ++n, ruleSet: 'mock-recorded.toml' });
    };
    const recorder = createRecorder({ fallbackDir: dir, dryRun: false, commitRule });
    const outs = await Promise.all([
      recorder.record(exchange('POST', '/a', 201, '{}')),
      recorder.record(exchange('POST', '/a?x=2', 201, '{}')),
      recorder.record(exchange('POST', '/b', 201, '{}')),
      recorder.record(exchange('GET', '/c', 200, '[1]')),
      recorder.record(exchange('GET', '/c?again', 200, '[2]')),
    ]);
    assert.deepEqual(
      outs.map((o) => o.lines.join(' | ')),
      [
        'recorded rule #1 in mock-recorded.toml: POST /a → 201',
        'recorded rule #2 in mock-recorded.toml: POST /a?x=2 → 201',
        'recorded rule #3 in mock-recorded.toml: POST /b → 201',
        'recorded c.json (200, 3 B)',
        'recorded .mock-recorded/GET/c.json (200, 3 B) | recorded rule #4 in mock-recorded.toml: GET /c?again= → 200',
      ],
    );
    assert.deepEqual(outs[3].saved, { kind: 'file', file: 'c.json' });
    assert.deepEqual(outs[0].saved, { kind: 'rule', ruleSet: 'mock-recorded.toml', ruleNumber: 1 });
    assert.deepEqual(readdirSync(dir).sort(), ['.mock-recorded', 'c.json']);
    assert.deepEqual(
      seen.map((r) => [r.method, r.urlPath, r.query, r.status, r.body.kind]),
      [
        ['POST', '/a', undefined, 201, 'text'],
        ['POST', '/a', [['x', '2']], 201, 'text'],
        ['POST', '/b', undefined, 201, 'text'],
        ['GET', '/c', [['again', '']], undefined, 'file'],
      ],
    );
    assert.equal(mostInFlight, 1, 'one commit at a time');
    await recorder.idle();
  });
});
