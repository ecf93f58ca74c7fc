import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UrlPathOp } from '../model/operators.js';
import type { Condition } from '../model/rule-set.js';
import fc from 'fast-check';
import { checkCondition, compileCondition, conditionHolds, requiredLiteral, requiredText } from './check.js';
import { header, method, req, urlPath, type RequestParts } from '../../test/helpers/routing-fixtures.js';
import { cases } from '../../test/helpers/test-loop.js';

interface Case {
  readonly name: string;
  readonly cond: Condition;
  readonly req: RequestParts;
  readonly ok: boolean;
  readonly actual?: string | undefined;
}

// url_path: the loader normalises compareTo; these mirror apimock-rs's observed behaviour, except
// where docs/matching.md says otherwise (ends_with / regex compared as written; a slash-less wild card is rooted).
const urlPathCases: readonly Case[] = [
  {
    name: 'bare without slash',
    cond: urlPath('a/b', 'equal', { bare: true }),
    req: { path: '/a/b' },
    ok: true,
    actual: '/a/b',
  },
  { name: 'trailing slash in rule', cond: urlPath('/a/b/'), req: { path: '/a/b' }, ok: true },
  { name: 'empty rule is root', cond: urlPath(''), req: { path: '/' }, ok: true },
  { name: '"/" is root', cond: urlPath('/'), req: { path: '/' }, ok: true },
  { name: 'case-sensitive', cond: urlPath('/A/b'), req: { path: '/a/b' }, ok: false },
  { name: 'equal is whole', cond: urlPath('/a'), req: { path: '/a/b' }, ok: false },
  { name: 'not_equal', cond: urlPath('/a', 'not_equal'), req: { path: '/b' }, ok: true },
  { name: 'not_equal same', cond: urlPath('a', 'not_equal'), req: { path: '/a' }, ok: false },
  { name: 'starts_with has no boundary', cond: urlPath('/api', 'starts_with'), req: { path: '/apixyz' }, ok: true },
  { name: 'starts_with without slash', cond: urlPath('api', 'starts_with'), req: { path: '/api/1' }, ok: true },
  { name: 'starts_with miss', cond: urlPath('/api', 'starts_with'), req: { path: '/ap' }, ok: false },
  { name: 'not_starts_with', cond: urlPath('/api', 'not_starts_with'), req: { path: '/web' }, ok: true },
  { name: 'not_starts_with miss', cond: urlPath('/api', 'not_starts_with'), req: { path: '/api/1' }, ok: false },
  { name: 'ends_with x', cond: urlPath('x', 'ends_with'), req: { path: '/x' }, ok: true },
  { name: 'ends_with .json as written', cond: urlPath('.json', 'ends_with'), req: { path: '/x.json' }, ok: true },
  {
    name: 'ends_with .json under a prefix',
    cond: urlPath('.json', 'ends_with', { prefix: '/api' }),
    req: { path: '/api/a/x.json' },
    ok: true,
  },
  { name: 'ends_with .json miss', cond: urlPath('.json', 'ends_with'), req: { path: '/x.csv' }, ok: false },
  { name: 'ends_with no slash added', cond: urlPath('x', 'ends_with'), req: { path: '/ax' }, ok: true },
  {
    name: 'ends_with prefixed',
    cond: urlPath('/create', 'ends_with', { prefix: '/widgets' }),
    req: { path: '/widgets/create' },
    ok: true,
  },
  {
    name: 'ends_with prefix not joined',
    cond: urlPath('/create', 'ends_with', { prefix: '/widgets' }),
    req: { path: '/gadgets/create' },
    ok: true,
  },
  {
    name: 'ends_with prefixed miss',
    cond: urlPath('/create', 'ends_with', { prefix: '/widgets' }),
    req: { path: '/widgets/created' },
    ok: false,
  },
  { name: 'not_ends_with .json', cond: urlPath('.json', 'not_ends_with'), req: { path: '/x.json' }, ok: false },
  { name: 'not_ends_with .json other', cond: urlPath('.json', 'not_ends_with'), req: { path: '/x.csv' }, ok: true },
  { name: 'not_ends_with', cond: urlPath('/x', 'not_ends_with'), req: { path: '/y' }, ok: true },
  { name: 'not_ends_with miss', cond: urlPath('/x', 'not_ends_with'), req: { path: '/a/x' }, ok: false },
  { name: 'contains raw value', cond: urlPath('sers/4', 'contains'), req: { path: '/users/42' }, ok: true },
  {
    name: 'contains ignores prefix',
    cond: urlPath('users', 'contains', { prefix: '/api' }),
    req: { path: '/api/users' },
    ok: true,
  },
  { name: 'contains miss', cond: urlPath('admin', 'contains'), req: { path: '/users' }, ok: false },
  { name: 'not_contains', cond: urlPath('admin', 'not_contains'), req: { path: '/users' }, ok: true },
  { name: 'not_contains miss', cond: urlPath('user', 'not_contains'), req: { path: '/users' }, ok: false },
  { name: 'anchored regex works', cond: urlPath('^/api/\\d+$', 'regex'), req: { path: '/api/123' }, ok: true },
  { name: 'regex unanchored', cond: urlPath('\\d+', 'regex'), req: { path: '/api/123' }, ok: true },
  { name: 'regex miss', cond: urlPath('^/api/\\d+$', 'regex'), req: { path: '/api/x' }, ok: false },
  { name: 'not_regex', cond: urlPath('\\d', 'not_regex'), req: { path: '/api/x' }, ok: true },
  { name: 'not_regex miss', cond: urlPath('\\d', 'not_regex'), req: { path: '/api/1' }, ok: false },
  { name: 'wild_card crosses /', cond: urlPath('/api/*', 'wild_card'), req: { path: '/api/1/2' }, ok: true },
  { name: 'wild_card without slash is rooted', cond: urlPath('api/*', 'wild_card'), req: { path: '/api/1' }, ok: true },
  {
    name: 'wild_card without slash, ???',
    cond: urlPath('wild-card/???/*', 'wild_card'),
    req: { path: '/wild-card/abc/d' },
    ok: true,
  },
  {
    name: 'wild_card without slash is rooted, miss',
    cond: urlPath('api/*', 'wild_card'),
    req: { path: '/v1/api/1' },
    ok: false,
  },
  {
    name: 'wild_card starting with * as written',
    cond: urlPath('*api/*', 'wild_card'),
    req: { path: '/v1/api/1' },
    ok: true,
  },
  { name: 'wild_card miss', cond: urlPath('/api/?', 'wild_card'), req: { path: '/api/12' }, ok: false },
];

const methodCases: readonly Case[] = [
  { name: 'method equal', cond: method('POST'), req: { method: 'POST' }, ok: true, actual: 'POST' },
  { name: 'method differs', cond: method('POST'), req: { method: 'GET' }, ok: false, actual: 'GET' },
];

const headerCases: readonly Case[] = [
  { name: 'equal', cond: header('X-K', 'equal', 'v'), req: { headers: [['x-k', 'v']] }, ok: true, actual: 'v' },
  {
    name: 'name case-insensitive',
    cond: header('X-Api-Key', 'exists'),
    req: { headers: [['X-API-KEY', 'k']] },
    ok: true,
    actual: 'k',
  },
  {
    name: 'value case-sensitive',
    cond: header('x-k', 'equal', 'V'),
    req: { headers: [['x-k', 'v']] },
    ok: false,
    actual: 'v',
  },
  {
    name: 'first value of a repeat',
    cond: header('x-k', 'equal', 'a'),
    req: {
      headers: [
        ['x-k', 'a'],
        ['x-k', 'b'],
      ],
    },
    ok: true,
    actual: 'a',
  },
  {
    name: 'second value is not it',
    cond: header('x-k', 'equal', 'b'),
    req: {
      headers: [
        ['x-k', 'a'],
        ['x-k', 'b'],
      ],
    },
    ok: false,
  },
  {
    name: 'not joined',
    cond: header('x-k', 'equal', 'a, b'),
    req: {
      headers: [
        ['x-k', 'a'],
        ['x-k', 'b'],
      ],
    },
    ok: false,
  },
  {
    name: 'starts_with',
    cond: header('authorization', 'starts_with', 'Bearer '),
    req: { headers: [['authorization', 'Bearer t']] },
    ok: true,
  },
  {
    name: 'not_equal present',
    cond: header('x-k', 'not_equal', 'z'),
    req: { headers: [['x-k', 'y']] },
    ok: true,
    actual: 'y',
  },
  {
    name: 'exists with empty value',
    cond: header('x-k', 'exists'),
    req: { headers: [['x-k', '']] },
    ok: true,
    actual: '',
  },
  { name: 'exists missing', cond: header('x-k', 'exists'), req: {}, ok: false, actual: undefined },
  {
    name: 'absent missing',
    cond: header('x-k', 'absent'),
    req: { headers: [['x-other', '1']] },
    ok: true,
    actual: undefined,
  },
  {
    name: 'absent present',
    cond: header('x-k', 'absent', 'ignored'),
    req: { headers: [['x-k', '1']] },
    ok: false,
    actual: '1',
  },
  { name: 'regex on header', cond: header('x-k', 'regex', '^\\d+$'), req: { headers: [['x-k', '123']] }, ok: true },
  {
    name: 'wild_card on header',
    cond: header('x-k', 'wild_card', 'Bearer *'),
    req: { headers: [['x-k', 'Bearer abc']] },
    ok: true,
  },
];

// Every value operator on a missing header is false, negations included.
const missingHeaderCases: readonly Case[] = (
  [
    'equal',
    'not_equal',
    'starts_with',
    'not_starts_with',
    'ends_with',
    'not_ends_with',
    'contains',
    'not_contains',
    'wild_card',
    'regex',
    'not_regex',
  ] as const
).map((op) => ({ name: `missing header ${op}`, cond: header('x-k', op, 'v'), req: {}, ok: false, actual: undefined }));

test('checkCondition: url_path, method and headers', () => {
  for (const c of [...urlPathCases, ...methodCases, ...headerCases, ...missingHeaderCases]) {
    const r = req(c.req);
    const got = checkCondition(c.cond, r);
    assert.equal(got.ok, c.ok, c.name);
    assert.equal(conditionHolds(c.cond, r), c.ok, `${c.name} (conditionHolds)`);
    assert.equal(compileCondition(c.cond)(r), c.ok, `${c.name} (compileCondition)`);
    if ('actual' in c) assert.equal(got.actual, c.actual, `${c.name} (actual)`);
  }
});

test('checkCondition: url_path actual is the canonical request path', () => {
  assert.deepEqual(checkCondition(urlPath('/a'), req({ path: '/a b' })), { ok: false, actual: '/a b' });
});

test('requiredLiteral: every string a pattern matches contains the literal (property, random patterns)', () => {
  const tokens = [
    'a',
    'b',
    '/',
    '-',
    '\\.',
    '\\/',
    '.',
    '?',
    '*',
    '+',
    '[ab]',
    '(a|b)',
    '(?:ab)',
    '\\d',
    '^',
    '$',
    '{2}',
    '{0,1}',
    '|',
    '1',
  ];
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 8 }),
      fc.array(fc.string({ unit: fc.constantFrom('a', 'b', '/', '.', '1', '-'), maxLength: 12 }), {
        minLength: 1,
        maxLength: 20,
      }),
      fc.boolean(),
      (parts, inputs, ignoreCase) => {
        let pattern: RegExp;
        try {
          pattern = new RegExp(parts.join(''), ignoreCase ? 'iu' : 'u');
        } catch {
          return; // not a valid pattern
        }
        const literal = requiredLiteral(pattern);
        if (literal === undefined) return;
        for (const s of inputs)
          if (pattern.test(s))
            assert.ok(
              s.includes(literal),
              `${pattern} matched ${JSON.stringify(s)} without ${JSON.stringify(literal)}`,
            );
        const cond = urlPath(parts.join(''), 'regex');
        for (const s of inputs)
          assert.equal(
            compileCondition({ ...cond, pattern })(req({ path: '/' + s })),
            conditionHolds({ ...cond, pattern }, req({ path: '/' + s })),
          );
      },
    ),
    cases(3000),
  );
});

test('requiredText: every path a url_path condition accepts contains the text (property)', () => {
  const chars = fc.constantFrom('a', 'b', '/', '.', '1');
  fc.assert(
    fc.property(
      fc.constantFrom(
        'starts_with',
        'ends_with',
        'contains',
        'regex',
        'equal',
        'not_contains',
        'wild_card',
      ) as fc.Arbitrary<UrlPathOp>,
      fc.string({ unit: chars, maxLength: 5 }),
      fc.array(fc.string({ unit: chars, maxLength: 10 }), { minLength: 1, maxLength: 20 }),
      (op, value, paths) => {
        const cond = urlPath(value, op);
        const text = requiredText(cond);
        if (text === undefined) return;
        assert.ok(text.length > 0);
        for (const p of paths) {
          const r = req({ path: '/' + p });
          if (conditionHolds(cond, r))
            assert.ok(
              r.path.includes(text),
              `${op} ${JSON.stringify(value)} accepted ${JSON.stringify(r.path)} without ${JSON.stringify(text)}`,
            );
        }
      },
    ),
    cases(3000),
  );
});
