// The editor schema and the loader agree: cases generated from the shapes (a valid value, a wrong type, an
// out-of-range integer, a misspelt key with the loader's did-you-mean) and random configs generated with
// fast-check get the same verdict from ajv (draft-07, over the generated schema) and from the loader's decoders.
// Generated values stay clear of what the schema leaves to the loader (files, regexes, JSON text).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { parse as parseToml, stringify } from 'smol-toml';
import type { Diagnostic } from '../../model/diagnostic.js';
import type { ShapeMeta } from '../decode.js';
import { decodeRootConfig } from '../root-config.js';
import { decodeRuleSetDraft } from '../rule-set.js';
import { rootShape } from '../shapes/root.js';
import { RESPOND_BODY_KEYS, ruleSetShape } from '../shapes/rule-set.js';
import { toJsonSchema } from './json-schema.js';
import { keyRows } from './markdown.js';
import { cases, UNIT_LOOP } from '../../../test/helpers/test-loop.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const ajv = new Ajv({ strict: false });
const FILES = {
  root: {
    shape: rootShape,
    validate: ajv.compile(toJsonSchema(rootShape, { id: 'root', title: 'root' })),
    base: (): Obj => ({}),
  },
  ruleSet: {
    shape: ruleSetShape,
    validate: ajv.compile(toJsonSchema(ruleSetShape, { id: 'rs', title: 'rs' })),
    base: (): Obj => ({ rules: [{ when: { request: { url_path: '/a' } }, respond: { text: 'x' } }] }),
  },
} as const;
type Kind = keyof typeof FILES;

function loaderErrors(kind: Kind, doc: Obj): Diagnostic[] {
  const text = stringify(doc);
  const ds =
    kind === 'root'
      ? decodeRootConfig(text, '/w/mock.toml', '/w').decode.diagnostics
      : decodeRuleSetDraft(text, '/w/rs.toml', {
          index: 0,
          entry: 'rs.toml',
          baseDir: '/w',
          defaultStrategy: { kind: 'first_match' },
        }).decode.diagnostics;
  return ds.filter((d) => d.severity === 'error');
}

function verdicts(
  kind: Kind,
  doc: Obj,
): { schema: boolean; loader: boolean; errors: Diagnostic[]; schemaErrors: unknown } {
  const f = FILES[kind];
  const schema = f.validate(doc);
  const errors = loaderErrors(kind, doc);
  return { schema, loader: errors.length === 0, errors, schemaErrors: f.validate.errors };
}

// ---- values from shapes ----------------------------------------------------------------------------

const PLACEHOLDER: Readonly<Record<string, string>> = {
  '<header name>': 'x-test',
  '<dotted path>': 'a.b',
  '<parameter name>': 'id',
  '<scenario name>': 'cart',
};

function exampleValue(s: ShapeMeta): Json | undefined {
  if (s.example !== undefined) return (parseToml(`v = ${s.example}`) as Obj)['v']!;
  return s.default as Json | undefined;
}

function validValue(s: ShapeMeta): Json {
  const ex = exampleValue(s);
  if (ex !== undefined) return ex;
  if (s.values !== undefined) return s.values[0]!;
  if (s.bounds !== undefined) return Number(s.bounds.min);
  const n = s.node;
  switch (n.kind) {
    case 'record': {
      const out: Obj = {};
      for (const k of n.required) out[k] = validValue(n.fields[k]!);
      if (RESPOND_BODY_KEYS.every((k) => k in n.fields) && !('text' in out)) out['text'] = 'x';
      return out;
    }
    case 'map':
      return {};
    case 'array':
      return [];
    case 'union':
      return validValue(n.options[0]!);
    case 'leaf':
      return s.type === 'boolean' ? true : s.type === 'any value' ? 'x' : 'x';
  }
}

const wrongTypeValue = (s: ShapeMeta): Json => (s.type.startsWith('integer') ? 'x' : 1);

/** The path's segments; `[]` is an array item, placeholders become real names. */
const segmentsOf = (path: string): string[] =>
  path === ''
    ? []
    : path.split('.').flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'] : [PLACEHOLDER[p] ?? p]));

/** A document with `value` at `path`, every record on the way completed with its required keys. */
function docWith(kind: Kind, path: string, value: Json): Obj {
  const doc = FILES[kind].base();
  const segs = segmentsOf(path);
  let shape: ShapeMeta = FILES[kind].shape;
  let at: Json = doc;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const last = i === segs.length - 1;
    if (seg === '[]') {
      shape = (shape.node as { item: ShapeMeta }).item;
      const arr = at as Json[];
      if (arr.length === 0) arr.push(validValue(shape));
      at = arr[0]!;
      continue;
    }
    const obj = at as Obj;
    const n = shape.node;
    let next: ShapeMeta | undefined = n.kind === 'record' ? n.fields[seg] : n.kind === 'map' ? n.value : undefined;
    assert.ok(next !== undefined, `no shape at ${seg} of ${path}`);
    // a union on the way: the table form that has the next key
    const after = segs[i + 1];
    if (!last && next.node.kind === 'union' && after !== undefined) {
      next = next.node.options.find((o) => o.node.kind === 'record' && after in o.node.fields) ?? next;
    }
    // `when.request` and `respond` are rebuilt around the key under test
    if (seg === 'request' || seg === 'respond') obj[seg] = {};
    // `params` tests a template's captures: the request gets a template naming the example's parameter
    if (seg === 'request' && segs[i + 1] === 'params')
      (obj[seg] as Obj)['url_path'] = { value: '/u/{id}', op: 'path_template' };
    if (last) obj[seg] = value;
    else {
      const cur = obj[seg];
      if (cur === undefined || typeof cur !== 'object' || cur === null)
        obj[seg] = next.node.kind === 'array' ? [] : validValue(next);
    }
    if (seg === 'respond' && !last) {
      const key = segs[i + 1]!;
      // `template_file` renders a file: it goes with `file_path`
      if (key === 'template_file') (obj[seg] as Obj)['file_path'] = 'x.txt';
      else if (![...RESPOND_BODY_KEYS, 'status'].includes(key)) (obj[seg] as Obj)['text'] = 'x';
    }
    shape = next;
    at = obj[seg]!;
  }
  return doc;
}

function misspell(key: string): string {
  const swapped = key.length >= 2 ? key.slice(0, -2) + key[key.length - 1] + key[key.length - 2] : key + 'x';
  return swapped === key ? key + 'x' : swapped;
}

// ---- generated cases -------------------------------------------------------------------------------

for (const kind of ['root', 'ruleSet'] as const) {
  const rows = keyRows(FILES[kind].shape);
  describe(`schema and loader agree on every key (${kind})`, () => {
    test('a valid value: both accept', () => {
      for (const row of rows) {
        if (row.path.endsWith('>')) continue; // a map entry: its value's keys are covered below
        const doc = docWith(kind, row.path, validValue(row.shape));
        const v = verdicts(kind, doc);
        assert.deepEqual(
          [v.schema, v.loader],
          [true, true],
          `${row.path}: ${stringify(doc)}\n${JSON.stringify(v.errors)}${JSON.stringify(v.schemaErrors)}`,
        );
      }
    });
    test('a wrong type: both reject', () => {
      let n = 0;
      for (const row of rows) {
        if (row.shape.type === 'any value') continue;
        const doc = docWith(kind, row.path, wrongTypeValue(row.shape));
        const v = verdicts(kind, doc);
        assert.deepEqual([v.schema, v.loader], [false, false], `${row.path}: ${stringify(doc)}`);
        n++;
      }
      assert.ok(n > 10);
    });
    test('an out-of-range integer: both reject', () => {
      let n = 0;
      for (const row of rows) {
        const b = row.shape.bounds;
        if (b === undefined) continue;
        for (const out of [b.min - 1n, b.max + 1n]) {
          if (out < BigInt(Number.MIN_SAFE_INTEGER) || out > BigInt(Number.MAX_SAFE_INTEGER)) continue;
          const doc = docWith(kind, row.path, Number(out));
          const v = verdicts(kind, doc);
          assert.deepEqual([v.schema, v.loader], [false, false], `${row.path} = ${out}`);
          n++;
        }
      }
      assert.ok(n > 3);
    });
    test('a misspelt key in every fixed-key table: both reject, and the loader suggests the key', () => {
      const tables: { path: string; shape: ShapeMeta }[] = [{ path: '', shape: FILES[kind].shape }];
      for (const row of rows) {
        const n = row.shape.node;
        if (n.kind === 'record') tables.push({ path: row.path, shape: row.shape });
        if (n.kind === 'union')
          for (const o of n.options) if (o.node.kind === 'record') tables.push({ path: row.path, shape: o });
      }
      for (const t of tables) {
        if (t.shape.node.kind !== 'record') continue;
        const fields = Object.entries(t.shape.node.fields);
        if (fields.length === 0) continue;
        const [key, field] = fields[0]!;
        const wrong = misspell(key);
        const value = validValue(t.shape) as Obj;
        delete value[key];
        value[wrong] = validValue(field);
        const doc = t.path === '' ? { ...FILES[kind].base(), ...value } : docWith(kind, t.path, value);
        const v = verdicts(kind, doc);
        assert.deepEqual([v.schema, v.loader], [false, false], `${t.path}.${wrong}`);
        assert.ok(
          v.errors.some((d) => d.suggestion === key && d.message.includes('`' + wrong + '`')),
          `${t.path}.${wrong}: ${JSON.stringify(v.errors)}`,
        );
      }
      assert.ok(tables.length > 8);
    });
  });
}

// ---- random configs --------------------------------------------------------------------------------

const SAFE_STRINGS = ['/a', '/b/c', 'x1'];

/** Mostly valid values, sometimes a wrong type, an out-of-range integer, an unknown key or a bad name. */
function arb(s: ShapeMeta, depth = 0): fc.Arbitrary<Json> {
  const wrong = fc.constantFrom<Json>(wrongTypeValue(s));
  const mix = (valid: fc.Arbitrary<Json>, ...bad: fc.Arbitrary<Json>[]): fc.Arbitrary<Json> =>
    fc.oneof({ arbitrary: valid, weight: 12 }, ...bad.map((b) => ({ arbitrary: b, weight: 1 })));
  const ex = exampleValue(s);
  if (s.values !== undefined) return mix(fc.constantFrom<Json>(...s.values), fc.constant('bogus'), wrong);
  if (s.bounds !== undefined) {
    const lo = s.bounds.min < -1_000_000n ? -1_000_000 : Number(s.bounds.min);
    const hi = s.bounds.max > 1_000_000n ? 1_000_000 : Number(s.bounds.max);
    const bad: fc.Arbitrary<Json>[] = [wrong];
    if (s.bounds.min > BigInt(Number.MIN_SAFE_INTEGER)) bad.push(fc.constant(Number(s.bounds.min) - 1));
    if (s.bounds.max < BigInt(Number.MAX_SAFE_INTEGER)) bad.push(fc.constant(Number(s.bounds.max) + 1));
    return mix(fc.integer({ min: lo, max: hi }), ...bad);
  }
  const n = s.node;
  switch (n.kind) {
    case 'record': {
      const model: Record<string, fc.Arbitrary<Json>> = {};
      for (const [k, f] of Object.entries(n.fields)) model[k] = arb(f, depth + 1);
      const rec = fc.record(model, { requiredKeys: [...n.required] }) as fc.Arbitrary<Obj>;
      const withExtra = fc
        .tuple(rec, fc.constantFrom(...Object.keys(n.fields).map(misspell), 'zzz'))
        .map(([r, k]) => ({ ...r, [k]: 1 }));
      return mix(rec, withExtra, wrong);
    }
    case 'map': {
      const keys =
        n.keyPattern === undefined ? fc.constantFrom('a.b', 'c', '0') : fc.constantFrom('x-a', 'X-B', 'bad name');
      return mix(fc.dictionary(keys, arb(n.value, depth + 1), { maxKeys: 2 }), wrong);
    }
    case 'array':
      return mix(fc.array(arb(n.item, depth + 1), { maxLength: depth === 0 ? 3 : 2 }), wrong);
    case 'union':
      return fc.oneof(...n.options.map((o) => arb(o, depth + 1)));
    case 'leaf':
      if (s.type === 'any value') return fc.constant('x');
      if (s.type === 'boolean') return mix(fc.boolean(), wrong);
      if (s.type.includes('IP'))
        return mix(
          fc.constantFrom('127.0.0.1', '::1', '0.0.0.0', 'fe80::1'),
          fc.constantFrom('localhost', '1.2.3'),
          wrong,
        );
      return mix(
        ex !== undefined && typeof ex === 'string' ? fc.constant(ex) : fc.constantFrom(...SAFE_STRINGS),
        wrong,
      );
  }
}

describe('random configs generated from the shapes get the same verdict from schema and loader', () => {
  for (const kind of ['root', 'ruleSet'] as const) {
    test(kind, () => {
      let accepted = 0;
      let rejected = 0;
      fc.assert(
        fc.property(arb(FILES[kind].shape), (doc) => {
          if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return; // a whole file is a table
          const v = verdicts(kind, doc);
          if (v.schema) accepted++;
          else rejected++;
          assert.equal(
            v.schema,
            v.loader,
            `${stringify(doc)}\nloader: ${JSON.stringify(v.errors.map((d) => d.message))}\nschema: ${JSON.stringify(v.schemaErrors)}`,
          );
        }),
        cases(600, 22),
      );
      // the unit loop's few cases need not reach the floor: the full run checks both verdicts are well exercised
      const floor = UNIT_LOOP ? 0 : 10;
      assert.ok(accepted > floor && rejected > floor, `accepted ${accepted}, rejected ${rejected}`);
    });
  }
});
