import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BODY_OPS, type BodyOp } from '../model/operators.js';
import { checkCondition, compileCondition, conditionHolds } from './check.js';
import { body, req } from '../../test/helpers/routing-fixtures.js';

/** [op, JSON body, path, value, expected] */
type Case = readonly [BodyOp, string, string, string, boolean];

const B =
  '{"s":"gold","n":42,"f":1.5,"ns":"42","neg":-3,"t":true,"z":null,"o":{"x":1},"arr":[1,2,"x",{"k":1,"j":2}],"e":[],"big":12345678901234567890,"i64max":9223372036854775807,"huge":18446744073709551616,"sp":" 10","c":"c","str11":"11","exp":"1e1","nested":{"deep":{"v":"yes"}},"objs":[{"a":1,"b":{"c":2,"d":3},"l":[1,2]},{"a":2}]}';

/** numbers written as integers and as floats */
const F =
  '{"i":42,"f":42.0,"e":1e3,"ef":1.5e1,"h":1.5,"arr":[1,2.0,{"k":3.0}],"objs":[{"a":1.0},{"a":2}],"big":9007199254740993,"bigf":9007199254740993.0,"sf":"42.0"}';

const cases: readonly Case[] = [
  // equal / equal_string: stringified comparison
  ['equal', B, 's', 'gold', true],
  ['equal', B, 's', 'Gold', false],
  ['equal', B, 'n', '42', true],
  ['equal', B, 'ns', '42', true],
  ['equal', B, 'z', 'null', true],
  ['equal', B, 't', 'true', true],
  ['equal', B, 'o', '{"x":1}', true],
  ['equal', B, 'o', '{"x": 1}', false],
  ['equal', B, 'e', '[]', true],
  ['equal', B, 'big', '12345678901234567890', true],
  ['equal_string', B, 'n', '42', true],
  ['equal_string', B, 's', '"gold"', false],
  // substring family on the stringified value
  ['contains', B, 'n', '2', true],
  ['contains', B, 'o', 'x', true],
  ['contains', B, 's', 'ol', true],
  ['contains', B, 's', 'x', false],
  ['not_contains', B, 's', 'x', true],
  ['not_contains', B, 's', 'ol', false],
  ['starts_with', B, 's', 'go', true],
  ['starts_with', B, 'arr', '[1,', true],
  ['starts_with', B, 's', 'ld', false],
  ['not_starts_with', B, 's', 'ld', true],
  ['not_starts_with', B, 's', 'go', false],
  ['ends_with', B, 's', 'ld', true],
  ['ends_with', B, 's', 'go', false],
  ['not_ends_with', B, 's', 'go', true],
  ['not_ends_with', B, 's', 'ld', false],
  ['regex', B, 's', '^g.l', true],
  ['regex', B, 'n', '^\\d+$', true],
  ['regex', B, 's', '^x', false],
  ['regex', B, 's', '(', false],
  ['not_regex', B, 's', '^x', true],
  ['not_regex', B, 's', '^g', false],
  ['not_regex', B, 's', '(', true],
  // equal_typed
  ['equal_typed', B, 'n', '42', true],
  ['equal_typed', B, 'n', '"42"', false],
  ['equal_typed', B, 'ns', '"42"', true],
  ['equal_typed', B, 'ns', '42', false],
  ['equal_typed', B, 's', 'gold', false],
  ['equal_typed', B, 'z', 'null', true],
  ['equal_typed', B, 'o', '{ "x" : 1 }', true],
  ['equal_typed', B, 'objs.0', '{"l":[1,2],"b":{"d":3,"c":2},"a":1}', true],
  ['equal_typed', B, 'objs.0', '{"l":[2,1],"b":{"d":3,"c":2},"a":1}', false],
  ['equal_typed', B, 'big', '12345678901234567890', true],
  ['equal_typed', B, 'big', '12345678901234567891', false],
  // equal_number: f64 on both sides
  ['equal_number', B, 'n', '42', true],
  ['equal_number', B, 'ns', '42', true],
  ['equal_number', B, 'n', '42.0', true],
  ['equal_number', B, 'n', '4.2e1', true],
  ['equal_number', B, 'n', '43', false],
  ['equal_number', B, 's', '42', false],
  ['equal_number', B, 'z', '0', false],
  ['equal_number', B, 't', '1', false],
  ['equal_number', B, 'n', 'x', false],
  ['equal_number', '{"v":9007199254740993}', 'v', '9007199254740992', true],
  // ordering: f64, never lexicographic
  ['greater_than', B, 'n', '41', true],
  ['greater_than', B, 'n', '42', false],
  ['greater_than', B, 'str11', '10', true],
  ['greater_than', B, 'n', '1e1', true],
  ['greater_than', B, 'c', 'b', false],
  ['greater_than', B, 'sp', '9', false],
  ['greater_than', B, 't', '0', false],
  ['greater_than', B, 'z', '-1', false],
  ['greater_than', B, 'arr', '0', false],
  ['greater_than', B, 'exp', '9', true],
  ['less_than', B, 'neg', '0', true],
  ['less_than', B, 'f', '1.5', false],
  ['less_than', B, 'n', ' 50', false],
  ['greater_or_equal', B, 'f', '1.5', true],
  ['greater_or_equal', B, 'f', '1.6', false],
  ['less_or_equal', B, 'f', '1.5', true],
  ['less_or_equal', B, 'f', '1.4', false],
  // presence
  ['exists', B, 'z', '', true],
  ['exists', B, 'o.x', '', true],
  ['exists', B, 'o.y', '', false],
  ['absent', B, 'o.y', '', true],
  ['absent', B, 'z', '', false],
  // arrays
  ['array_length_equal', B, 'arr', '4', true],
  ['array_length_equal', B, 'arr', '3', false],
  ['array_length_equal', B, 'e', '0', true],
  ['array_length_equal', B, 's', '4', false],
  ['array_length_equal', B, 'arr', '-1', false],
  ['array_length_at_least', B, 'arr', '4', true],
  ['array_length_at_least', B, 'arr', '+2', true],
  ['array_length_at_least', B, 'arr', '5', false],
  ['array_length_at_least', B, 'o', '0', false],
  ['array_contains', B, 'arr', '2', true],
  ['array_contains', B, 'arr', '"2"', false],
  ['array_contains', B, 'arr', 'x', true],
  ['array_contains', B, 'arr', '"x"', true],
  ['array_contains', B, 'arr', '{"j":2,"k":1}', true],
  ['array_contains', B, 'arr', '{"k":1}', false],
  ['array_contains', B, 'arr', '5', false],
  ['array_contains', B, 's', 'gold', false],
  // equal_integer: exact i64
  ['equal_integer', B, 'n', '42', true],
  ['equal_integer', B, 'ns', '42', true],
  ['equal_integer', B, 'n', '+42', true],
  ['equal_integer', B, 'n', '42.0', false],
  ['equal_integer', B, 'f', '1', false],
  ['equal_integer', B, 'neg', '-3', true],
  ['equal_integer', B, 'i64max', '9223372036854775807', true],
  ['equal_integer', B, 'i64max', '9223372036854775806', false],
  ['equal_integer', '{"v":9007199254740993}', 'v', '9007199254740992', false],
  ['equal_integer', '{"v":9007199254740993}', 'v', '9007199254740993', true],
  ['equal_integer', B, 'big', '12345678901234567890', false],
  ['equal_integer', B, 'huge', '18446744073709551616', false],
  ['equal_integer', B, 's', '42', false],
  ['equal_integer', B, 'sp', '10', false],
  // maps
  ['map_has_key', B, 'o', 'x', true],
  ['map_has_key', B, 'o', 'y', false],
  ['map_has_key', B, 'o', 'toString', false],
  ['map_has_key', B, 'arr', '0', false],
  ['map_does_not_have_key', B, 'o', 'y', true],
  ['map_does_not_have_key', B, 'o', 'x', false],
  ['map_does_not_have_key', B, 'arr', 'x', false],
  ['map_does_not_have_key', B, 's', 'x', false],
  // structural_contains
  ['structural_contains', B, 'objs', '{"a":1}', true],
  ['structural_contains', B, 'objs', '{"b":{"c":2}}', true],
  ['structural_contains', B, 'objs', '{"a":1,"b":{"c":3}}', false],
  ['structural_contains', B, 'objs', '{"l":[1]}', false],
  ['structural_contains', B, 'objs', '{"l":[1,2]}', true],
  ['structural_contains', B, 'objs', '{"a":3}', false],
  ['structural_contains', B, 'objs', '{}', true],
  ['structural_contains', B, 'arr', '{}', true],
  ['structural_contains', '{"v":[1,2,3]}', 'v', '{}', false],
  ['structural_contains', B, 'arr', '2', true],
  ['structural_contains', B, 'arr', 'x', true],
  ['structural_contains', B, 'arr', '"2"', false],
  ['structural_contains', B, 'o', '{"x":1}', false],
  ['structural_contains', B, 'nested', '{"deep":{}}', false],
  // whole JSON documents (WireMock's equalToJson): numbers by value, key order free; placeholders
  ['equal_json', B, 'o', '{"x":1.0}', true],
  ['equal_json', B, 'o', '{"x":1,"y":2}', false],
  ['equal_json', '{"a":[1,2]}', '', '{"a":[1,2]}', true],
  ['equal_json', '{"a":[1,2]}', '', '{"a":[2,1]}', false],
  ['equal_json', B, 'o', '{"x":"${json-unit.any-number}"}', true],
  ['equal_json', B, 'o', '{"x":"${json-unit.any-string}"}', false],
  ['equal_json_any_order', '{"a":[1,2]}', '', '{"a":[2,1]}', true],
  ['equal_json_any_order', '{"a":[1,2,3]}', '', '{"a":[2,1]}', false],
  ['contains_json', B, 'nested', '{"deep":{}}', true],
  ['contains_json', '{"a":[1,2,3]}', 'a', '[1,2]', true],
  ['contains_json', '{"a":[3,1,2]}', 'a', '[1,2]', false],
  ['contains_json_any_order', '{"a":[3,1,2]}', 'a', '[1,2]', true],
  ['contains_json_any_order', '{"a":[3,1]}', 'a', '[1,2]', false],
  // JSON schemas
  ['json_schema', B, 'o', '{"type":"object","required":["x"],"properties":{"x":{"type":"integer","minimum":1}}}', true],
  ['json_schema', B, 'o', '{"type":"object","additionalProperties":false,"properties":{"y":{}}}', false],
  ['json_schema', B, 'arr', '{"type":"array","items":{"type":["integer","string","object"]},"minItems":4}', true],
  ['json_schema', B, 's', '{"anyOf":[{"const":"silver"},{"pattern":"^g"}]}', true],
  ['json_schema', B, 's', '{"enum":["silver"]}', false],
  ['json_schema', B, 'n', '{"$defs":{"p":{"type":"number","exclusiveMaximum":42}},"$ref":"#/$defs/p"}', false],
  // dates written in the body
  ['before', '{"d":"2020-01-01T00:00:00Z"}', 'd', 'now', true],
  ['before', '{"d":"2020-01-01"}', 'd', '2019-12-31T00:00:00Z', false],
  ['after', '{"d":"2020-01-01T00:00:00+02:00"}', 'd', '2019-12-31T21:00:00Z', true],
  ['after', '{"d":"soon"}', 'd', '2019-12-31T23:00:00Z', false],
  ['equal_date_time', '{"d":"2020-01-01T02:00:00+02:00"}', 'd', '2020-01-01T00:00:00Z', true],
  ['equal_date_time', '{"d":"2020-01-01T02:00:00Z"}', 'd', '2020-01-01T00:00:00Z', false],
  // integers and floats stay apart: the body's lexemes and the rule value's lexemes decide (serde_json)
  ['equal_typed', F, 'i', '42', true],
  ['equal_typed', F, 'i', '42.0', false],
  ['equal_typed', F, 'f', '42.0', true],
  ['equal_typed', F, 'f', '42', false],
  ['equal_typed', F, 'f', '4.2e1', true],
  ['equal_typed', F, 'e', '1000.0', true],
  ['equal_typed', F, 'e', '1E3', true],
  ['equal_typed', F, 'e', '1000', false],
  ['equal_typed', F, 'ef', '15.0', true],
  ['equal_typed', F, 'h', '1.5', true],
  ['equal_typed', F, 'h', '15e-1', true],
  ['equal_typed', F, 'arr', '[1,2.0,{"k":3.0}]', true],
  ['equal_typed', F, 'arr', '[1,2,{"k":3}]', false],
  ['equal_typed', F, 'arr', '[1.0,2.0,{"k":3.0}]', false],
  ['equal_typed', F, 'big', '9007199254740993', true],
  ['equal_typed', F, 'bigf', '9007199254740993', false],
  ['equal_typed', F, 'bigf', '9007199254740992.0', true],
  ['equal_typed', '{"s":"v1.0","n":42}', 'n', '42', true],
  ['equal_typed', '{"s":"v1.0","n":42}', 'n', '42.0', false],
  ['equal_integer', F, 'i', '42', true],
  ['equal_integer', F, 'f', '42', false],
  ['equal_integer', F, 'e', '1000', false],
  ['equal_integer', F, 'sf', '42', false],
  ['equal_integer', F, 'big', '9007199254740993', true],
  ['equal_integer', '{"s":"v1.0","n":42}', 'n', '42', true],
  ['array_contains', F, 'arr', '1', true],
  ['array_contains', F, 'arr', '1.0', false],
  ['array_contains', F, 'arr', '2', false],
  ['array_contains', F, 'arr', '2.0', true],
  ['array_contains', F, 'arr', '{"k":3.0}', true],
  ['array_contains', F, 'arr', '{"k":3}', false],
  ['structural_contains', F, 'objs', '{"a":1}', false],
  ['structural_contains', F, 'objs', '{"a":1.0}', true],
  ['structural_contains', F, 'objs', '{"a":2}', true],
  ['structural_contains', F, 'objs', '{"a":2.0}', false],
  // the operators that compare text or f64 do not tell them apart (equal compares the printed number)
  ['equal', F, 'f', '42', true],
  ['equal_number', F, 'f', '42', true],
  ['greater_or_equal', F, 'e', '1000', true],
];

test('body operators on resolved values', () => {
  for (const [op, json, path, value, want] of cases) {
    const cond = body(path, op, value);
    assert.equal(checkCondition(cond, req({ json })).ok, want, `${op} ${path} ${value}`);
    assert.equal(conditionHolds(cond, req({ json })), want, `${op} ${path} ${value} (conditionHolds)`);
    assert.equal(compileCondition(cond)(req({ json })), want, `${op} ${path} ${value} (compileCondition)`);
  }
});

test('every body operator is covered by both a match and a miss', () => {
  for (const op of BODY_OPS) {
    const outcomes = new Set(cases.filter((c) => c[0] === op).map((c) => c[4]));
    assert.equal(outcomes.size, 2, op);
  }
});

test('an unresolved path: every operator false except absent, negations included', () => {
  for (const op of BODY_OPS) {
    const got = checkCondition(body('missing.path', op, 'x'), req({ json: B }));
    assert.deepEqual({ ...got }, { ok: op === 'absent', actual: undefined }, op);
    assert.equal(
      compileCondition(body('missing.path', op, 'x'))(req({ json: B })),
      op === 'absent',
      `${op} (compileCondition)`,
    );
  }
});

test('no JSON body: every body condition false, absent included', () => {
  for (const r of [req(), req({ bytes: true })]) {
    for (const op of BODY_OPS) {
      assert.deepEqual({ ...checkCondition(body('a', op, 'x'), r) }, { ok: false, actual: undefined }, op);
      assert.equal(compileCondition(body('a', op, 'x'))(r), false, `${op} (compileCondition)`);
    }
  }
  assert.equal(checkCondition(body('a', 'absent', ''), req({ json: '{}' })).ok, true);
});

test('actual shows a number as the operator compared it: typed for equal_typed, as printed for equal', () => {
  const table: readonly [string, string, string][] = [
    ['f', 'equal_typed', '42.0'],
    ['e', 'equal_integer', '1000.0'],
    ['i', 'equal_typed', '42'],
    ['arr', 'array_contains', '[1,2.0,{"k":3.0}]'],
    ['bigf', 'equal_typed', '9007199254740992.0'],
    ['f', 'equal', '42'],
    ['f', 'exists', '42'],
  ];
  for (const [path, op, want] of table)
    assert.equal(checkCondition(body(path, op as BodyOp, '42'), req({ json: F })).actual, want, `${op} ${path}`);
});

test('actual is the compact JSON of the resolved value', () => {
  const table: readonly [string, string][] = [
    ['s', '"gold"'],
    ['n', '42'],
    ['z', 'null'],
    ['o', '{"x":1}'],
    ['arr', '[1,2,"x",{"k":1,"j":2}]'],
    ['big', '12345678901234567890'],
  ];
  for (const [path, want] of table) {
    const check = checkCondition(body(path, 'exists', ''), req({ json: B }));
    assert.equal(check.actual, want, path);
    assert.equal(JSON.parse(JSON.stringify(check)).actual, want, `${path} survives JSON.stringify`);
  }
});
