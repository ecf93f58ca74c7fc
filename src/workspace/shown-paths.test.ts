import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configDisplay, entryDisplay, fileDisplay } from './shown-paths.js';

test('entryDisplay: the config dir as given joined with the entry as written', () => {
  const cases: readonly [config: string | undefined, entry: string, want: string][] = [
    ['./mock.toml', 'mock-rule-set.toml', './mock-rule-set.toml'],
    ['mock.toml', 'mock-rule-set.toml', './mock-rule-set.toml'],
    ['./mock.toml', './rs/a.toml', './rs/a.toml'],
    ['cfg/mock.toml', 'rs/rules.toml', './cfg/rs/rules.toml'],
    ['./cfg/mock.toml', 'rs/rules.toml', './cfg/rs/rules.toml'],
    ['cfg/mock.toml', '../shared.toml', './shared.toml'],
    ['./mock.toml', '../up.toml', '../up.toml'],
    ['/etc/mock/mock.toml', 'rs.toml', '/etc/mock/rs.toml'],
    ['cfg/mock.toml', '/abs/rs.toml', '/abs/rs.toml'],
    [undefined, 'rs.toml', '/abs/fallback/rs.toml'],
  ];
  for (const [config, entry, want] of cases)
    assert.equal(entryDisplay(config, entry, '/abs/fallback/rs.toml'), want, `${config} + ${entry}`);
});

test('configDisplay: as given, or ./<relative> when found automatically', () => {
  assert.equal(configDisplay('/w', 'cfg/mock.toml', '/w/cfg/mock.toml'), 'cfg/mock.toml');
  assert.equal(configDisplay('/w', undefined, '/w/mock.toml'), './mock.toml');
  assert.equal(configDisplay('/w', undefined, undefined), undefined);
});

test('fileDisplay: ./relative inside the current directory, absolute outside it', () => {
  assert.equal(fileDisplay('/w', '/w/a/b.toml'), './a/b.toml');
  assert.equal(fileDisplay('/w', '/elsewhere/b.toml'), '/elsewhere/b.toml');
  assert.equal(fileDisplay('/w', '/w'), '/w');
});
