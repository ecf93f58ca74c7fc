// The editor schema rejects every structural bad configuration of the reliability suite (test/fixtures/bad-configs.ts):
// each TOML file whose decoding reports a key, type, bound or vocabulary error is refused by the schema too.
// What the schema leaves to the loader (TOML syntax, files, regexes, wild cards, JSON text) is not asked of it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { parse } from 'smol-toml';
import { BAD_CONFIGS } from '../../../test/fixtures/bad-configs.js';
import type { DiagnosticCode } from '../../model/diagnostic.js';
import { decodeRootConfig } from '../root-config.js';
import { decodeRuleSetDraft } from '../rule-set.js';
import { rootShape } from '../shapes/root.js';
import { ruleSetShape } from '../shapes/rule-set.js';
import { toJsonSchema } from './json-schema.js';

const STRUCTURAL: readonly DiagnosticCode[] = ['unknown_key', 'wrong_type', 'missing_key', 'invalid_value'];
const LEFT_TO_LOADER = /`respond\.json`|outside the respond directory/;

const ajv = new Ajv({ strict: false });
const validateRoot = ajv.compile(toJsonSchema(rootShape, { id: 'root', title: 'root' }));
const validateRuleSet = ajv.compile(toJsonSchema(ruleSetShape, { id: 'rs', title: 'rs' }));

test('the schema rejects every structural bad config', () => {
  let structural = 0;
  const missed: string[] = [];
  for (const c of BAD_CONFIGS) {
    for (const [name, text] of Object.entries(c.files)) {
      if (!name.endsWith('.toml')) continue;
      let data: unknown;
      try {
        data = parse(text);
      } catch {
        continue; // TOML syntax: the editor's parser says so, not the schema
      }
      const root = name === 'mock.toml';
      const ds = root
        ? decodeRootConfig(text, '/w/mock.toml', '/w').decode.diagnostics
        : decodeRuleSetDraft(text, `/w/${name}`, {
            index: 0,
            entry: name,
            baseDir: '/w',
            defaultStrategy: { kind: 'first_match' },
          }).decode.diagnostics;
      const isStructural = ds.some(
        (d) => d.severity === 'error' && STRUCTURAL.includes(d.code) && !LEFT_TO_LOADER.test(d.message),
      );
      if (!isStructural) continue;
      structural++;
      const ok = (root ? validateRoot : validateRuleSet)(data);
      if (ok) missed.push(`${c.name} (${name})`);
    }
  }
  assert.deepEqual(missed, []);
  assert.ok(structural >= 30, `only ${structural} structural cases`);
});
