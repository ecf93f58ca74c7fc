import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeOverrideRules, formatOverrideDiagnostic } from './overrides.js';

const ctx = { baseDir: '/ws' };

test("override rules decode as a rule set's [[rules]] do: integers, tables, conditions, limit", () => {
  const r = decodeOverrideRules(
    [
      { when: { request: { url_path: '/cart', method: 'POST' } }, respond: { status: 500, headers: { 'x-a': 'b' } } },
      {
        when: { request: { url_path: '/a' } },
        respond: { json: '{"a":1}' },
        priority: 3,
        limit: { requests: 2, per_ms: 1000 },
      },
    ],
    ctx,
  );
  assert.ok(r.ok, r.ok ? '' : r.error.map(formatOverrideDiagnostic).join('\n'));
  const [a, b] = r.value;
  assert.equal(a!.respond.status, 500);
  assert.equal(a!.conditions.length, 2);
  assert.equal(b!.priority, 3);
  assert.deepEqual(b!.limit, { requests: 2, perMs: 1000 });
});

test("problems are located by key path, with the decoder's own messages, and every one is reported", () => {
  const r = decodeOverrideRules(
    [
      { when: { request: { url_path: '/x' } }, respond: { statsu: 404 } },
      { when: { request: { url_path: '/y' } }, respond: { status: 'teapot' } },
      { when: { request: { url_path: null } }, respond: {} },
    ],
    ctx,
  );
  assert.equal(r.ok, false);
  if (r.ok) return;
  const lines = r.error.map(formatOverrideDiagnostic);
  assert.match(
    lines.find((l) => l.startsWith('rules[0]')) ?? '',
    /^rules\[0\]\.respond\.statsu: .*unknown key `statsu`.*\(did you mean `status`\?\)$/,
  );
  assert.ok(
    lines.some((l) => l.startsWith('rules[1].respond.status: ')),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => l.startsWith('rules[2].when.request.url_path: ') && /found null/.test(l)),
    lines.join('\n'),
  );
  for (const d of r.error) {
    assert.equal(d.file, undefined);
    assert.equal(d.line, undefined);
  }
});

test('not a list, or an empty one, is refused', () => {
  for (const v of [{}, 'x', []]) {
    const r = decodeOverrideRules(v, ctx);
    assert.equal(r.ok, false);
  }
});
