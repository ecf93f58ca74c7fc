// The sampler's promise, checked from the outside: for random schemas built from the constructs real
// descriptions use (pattern, format, numeric/length/item bounds, allOf around a $ref, oneOf, nullable), in both
// dialects (OpenAPI 3.0 with `nullable`, 3.1), every value made validates with ajv, and the same schema always
// gives the same value.
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draft07 } from '../../test/helpers/openapi-schema.js';
import { sampleSchema } from './sample.js';
import { cases } from '../../test/helpers/test-loop.js';

type Schema = Record<string, unknown>;
type Dialect = '3.0' | '3.1';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

function validator(dialect: Dialect, schema: Schema, components: Schema): ValidateFunction {
  const options = { strict: false, allErrors: true, logger: false as const };
  const ajv = dialect === '3.1' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  const root = { ...schema, components: { schemas: components } };
  return ajv.compile((dialect === '3.0' ? draft07(root) : root) as Schema);
}

/** patterns seen in real descriptions, with the lengths they allow */
const PATTERNS: readonly Schema[] = [
  { pattern: '^AC[0-9a-fA-F]{32}$' },
  { pattern: '^[a-z]{3,8}$' },
  { pattern: '^\\d{3}-\\d{4}$' },
  { pattern: '^arn:aws:[a-z0-9-]+:[a-z0-9-]*:\\d{12}:.+$' },
  { pattern: '^[A-Z][a-z]+( [A-Z][a-z]+)*$', maxLength: 40 },
  { pattern: '[a-z0-9-]+', minLength: 3, maxLength: 63 },
  { pattern: '^[\\w.-]+$', minLength: 1, maxLength: 64 },
  { pattern: '^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$' },
  { pattern: '^sk_(test|live)_[A-Za-z0-9]{24}$' },
];
const FORMATS = [
  'date-time',
  'date',
  'time',
  'email',
  'uuid',
  'uri',
  'ipv4',
  'ipv6',
  'hostname',
  'byte',
  'duration',
  'uri-reference',
  'json-pointer',
];

function nullable(dialect: Dialect, s: Schema): Schema {
  if (dialect === '3.0') return { ...s, nullable: true };
  return { ...s, type: [s['type'], 'null'] };
}

function arbitraries(dialect: Dialect): fc.Arbitrary<Schema> {
  const str = fc.oneof(
    fc.constantFrom(...PATTERNS).map((p) => ({ type: 'string', ...p })),
    fc.constantFrom(...FORMATS).map((format) => ({ type: 'string', format })),
    fc.tuple(fc.nat(20), fc.nat(20)).map(([a, b]) => ({ type: 'string', minLength: a, maxLength: a + b })),
    fc.constant({ type: 'string', enum: ['open', 'closed'] }),
  );
  const num = fc
    .record({
      integer: fc.boolean(),
      min: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }),
      span: fc.integer({ min: 20, max: 500 }),
      hasMax: fc.boolean(),
      exMin: fc.boolean(),
      exMax: fc.boolean(),
      multipleOf: fc.option(fc.constantFrom(1, 2, 5, 10, 0.5), { nil: undefined }),
    })
    .map((r) => {
      const s: Schema = { type: r.integer ? 'integer' : 'number' };
      if (r.multipleOf !== undefined && !(r.integer && r.multipleOf === 0.5)) s['multipleOf'] = r.multipleOf;
      const lo = r.min;
      const hi = r.hasMax ? (lo ?? 0) + r.span : undefined;
      if (dialect === '3.0') {
        if (lo !== undefined) s['minimum'] = lo;
        if (hi !== undefined) s['maximum'] = hi;
        if (lo !== undefined && r.exMin) s['exclusiveMinimum'] = true;
        if (hi !== undefined && r.exMax) s['exclusiveMaximum'] = true;
      } else {
        if (lo !== undefined) s[r.exMin ? 'exclusiveMinimum' : 'minimum'] = lo;
        if (hi !== undefined) s[r.exMax ? 'exclusiveMaximum' : 'maximum'] = hi;
      }
      return s;
    });
  const scalar = fc.oneof(str, num, fc.constant({ type: 'boolean' }));
  const { node } = fc.letrec<{ node: Schema }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.tuple(scalar, fc.boolean()).map(([s, n]) => (n ? nullable(dialect, s) : s)),
      // an array with bounds (unique items only over values that can differ)
      fc
        .record({ items: tie('node'), min: fc.nat(3), extra: fc.nat(3) })
        .map((r) => ({ type: 'array', items: r.items, minItems: r.min, maxItems: r.min + r.extra })),
      fc.record({ min: fc.nat(4), extra: fc.nat(3) }).map((r) => ({
        type: 'array',
        uniqueItems: true,
        items: { type: 'integer', minimum: 0 },
        minItems: r.min,
        maxItems: r.min + r.extra,
      })),
      // an object: some properties required, additionalProperties sometimes closed
      fc
        .record({
          props: fc.dictionary(
            fc.constantFrom('id', 'name', 'sid', 'count', 'items', 'owner', 'created'),
            tie('node'),
            { minKeys: 1, maxKeys: 4 },
          ),
          req: fc.nat(4),
          closed: fc.boolean(),
        })
        .map((r) => {
          const keys = Object.keys(r.props);
          return {
            type: 'object',
            properties: r.props,
            required: keys.slice(0, Math.min(r.req, keys.length)),
            ...(r.closed ? { additionalProperties: false } : {}),
          };
        }),
      // a map
      fc
        .record({ values: tie('node'), min: fc.nat(2) })
        .map((r) => ({ type: 'object', additionalProperties: r.values, minProperties: r.min })),
      // the AWS / Azure shape: a $ref wrapped with a description (the target is hoisted to components)
      tie('node').map((inner) => ({ 'x-hoist': inner })),
      fc.tuple(tie('node'), tie('node')).map(([a, b]) => ({
        allOf: [{ 'x-hoist': a }, { description: 'wrapped' }, ...(isObject(b) ? [{ required: [] }] : [])],
      })),
      // oneOf between branches of different types (so exactly one can match)
      fc
        .shuffledSubarray(
          [
            str,
            num,
            fc.constant({ type: 'boolean' }),
            fc.constant({ type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['a'] } } }),
          ],
          { minLength: 2, maxLength: 3 },
        )
        .chain((arbs) => fc.tuple(...arbs))
        .map((branches) => ({ oneOf: branches })),
    ),
  }));
  return node;
}

function isObject(s: Schema): boolean {
  return s['type'] === 'object';
}

/** Move every `x-hoist` subtree into components.schemas and point a `$ref` at it. */
function hoist(s: unknown, components: Schema): unknown {
  if (Array.isArray(s)) return s.map((x) => hoist(x, components));
  if (typeof s !== 'object' || s === null) return s;
  const o = s as Schema;
  if (o['x-hoist'] !== undefined) {
    const name = `S${Object.keys(components).length}`;
    components[name] = {};
    components[name] = hoist(o['x-hoist'], components);
    return { $ref: `#/components/schemas/${name}` };
  }
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === 'enum' ? v : hoist(v, components)]));
}

for (const dialect of ['3.0', '3.1'] as const) {
  test(`sampleSchema (OpenAPI ${dialect}): every value made from a random schema validates with ajv, and is always the same`, () => {
    fc.assert(
      fc.property(arbitraries(dialect), (raw) => {
        const components: Schema = {};
        const schema = hoist(raw, components) as Schema;
        const doc = { openapi: dialect === '3.0' ? '3.0.3' : '3.1.0', components: { schemas: components } };
        const value = sampleSchema(schema, doc);
        const validate = validator(dialect, schema, components);
        assert.ok(
          validate(value),
          `${JSON.stringify(value)} breaks ${JSON.stringify({ schema, components })}: ${JSON.stringify(validate.errors)}`,
        );
        assert.deepEqual(sampleSchema(schema, doc), value);
      }),
      cases(300, dialect === '3.0' ? 36 : 3601),
    );
  });
}

test('sampleSchema: the shapes the import used to get wrong', () => {
  const doc = {
    components: {
      schemas: { Sid: { type: 'string', pattern: '^AC[0-9a-fA-F]{32}$' }, Count: { type: 'integer', minimum: 5 } },
    },
  };
  const v = sampleSchema(
    {
      type: 'object',
      properties: {
        account_sid: { allOf: [{ $ref: '#/components/schemas/Sid' }, { description: 'the account' }] },
        created: { type: 'string', format: 'date-time' },
        tags: { type: 'array', minItems: 2, items: { type: 'string' } },
        count: { allOf: [{ $ref: '#/components/schemas/Count' }], description: 'how many' },
      },
    },
    doc,
  ) as Record<string, unknown>;
  assert.match(String(v['account_sid']), /^AC[0-9a-fA-F]{32}$/);
  assert.equal(v['created'], '2024-01-01T00:00:00Z');
  assert.equal((v['tags'] as unknown[]).length, 2);
  assert.ok((v['count'] as number) >= 5);
  // a recursive schema ends
  const tree = {
    components: {
      schemas: {
        Node: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
          },
        },
      },
    },
  };
  assert.doesNotThrow(() => JSON.stringify(sampleSchema({ $ref: '#/components/schemas/Node' }, tree)));
});
