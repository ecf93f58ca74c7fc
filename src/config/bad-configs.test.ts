// Every bad configuration in test/fixtures/bad-configs.ts fails to load with a positioned diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { BAD_CONFIGS, materialize } from '../../test/fixtures/bad-configs.js';
import { formatDiagnostic } from '../model/diagnostic.js';
import { loadWorkspace } from './load.js';

test('the bad-configuration table has at least 40 distinct cases', () => {
  assert.ok(BAD_CONFIGS.length >= 40, String(BAD_CONFIGS.length));
  assert.equal(new Set(BAD_CONFIGS.map((c) => c.name)).size, BAD_CONFIGS.length);
});

for (const c of BAD_CONFIGS) {
  test(`bad config: ${c.name}`, async () => {
    const { dir, cleanup } = await materialize(c.files);
    try {
      const r = await loadWorkspace({ cwd: dir });
      assert.equal(r.ok, false, 'the load must fail');
      if (r.ok) return;
      assert.equal(r.error.kind, 'config_invalid');
      const text = r.error.diagnostics.map((d) => formatDiagnostic(d, basename)).join('\n');
      assert.match(text, c.expect);
      for (const d of r.error.diagnostics)
        assert.ok(d.file !== undefined, `every diagnostic names a file: ${formatDiagnostic(d)}`);
    } finally {
      await cleanup();
    }
  });
}
