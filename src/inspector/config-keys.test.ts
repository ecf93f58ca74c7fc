// The loader accepts every `file_tree_view` key the file tree reads (docs/reference/mock-toml.md), with its default when absent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeRootConfig } from '../config/root-config.js';
import { DEFAULTS, type Config } from '../model/config.js';

const ROWS: readonly (readonly [string, Partial<Config['fileTreeView']>])[] = [
  ['', {}],
  ['[file_tree_view]\nshow_hidden = true', { showHidden: true }],
  ['[file_tree_view]\nbuiltin_excludes = false', { builtinExcludes: false }],
  ['[file_tree_view]\nextra_excludes = ["*.log", "tmp/"]', { extraExcludes: ['*.log', 'tmp/'] }],
  ['[file_tree_view]\ninclude = "*.json"', { include: ['*.json'] }],
  ['[file_tree_view]\ninclude = ["*.json", "*.csv"]', { include: ['*.json', '*.csv'] }],
  ['[file_tree_view]\nrespect_gitignore = true', { respectGitignore: true }],
];

for (const [text, expected] of ROWS) {
  test(`file_tree_view: ${JSON.stringify(text)}`, () => {
    const r = decodeRootConfig(text, '/w/mock.toml', '/w');
    assert.deepEqual(r.decode.diagnostics, []);
    assert.deepEqual(r.config.fileTreeView, { ...DEFAULTS.fileTreeView, ...expected });
  });
}

test('the defaults: hidden off, built-in excludes on, no extra excludes, no include, .gitignore ignored', () => {
  assert.deepEqual(DEFAULTS.fileTreeView, {
    showHidden: false,
    builtinExcludes: true,
    extraExcludes: [],
    include: [],
    respectGitignore: false,
  });
});
