// One line per operator, for editor hovers (the schema's x-taplo.docs.enumValues) and docs/reference/operators.md.
// Typed by the operator tables: an operator added there fails to compile until it is described here.
import type { BodyOp, HeaderOp, UrlPathOp } from '../../model/operators.js';

/**
 * url_path, header, query, cookie, params, body.form and body.text operators (a string compared with the
 * request's). A query name or form field given more than once holds a positive operator when any of its values
 * does, and a negated one (`not_…`) when none holds the positive one.
 */
export const STRING_OP_DOCS: Readonly<Record<HeaderOp | UrlPathOp, string>> = {
  equal: 'Equal to `value` (a url_path value is joined to the prefix and gets its leading `/`).',
  not_equal: 'Not equal to `value`.',
  starts_with: 'Starts with `value` (a url_path value is joined to the prefix and gets its leading `/`).',
  not_starts_with: 'Does not start with `value`.',
  ends_with: 'Ends with `value`, compared as written (`".json"` matches `/x.json`).',
  not_ends_with: 'Does not end with `value`, compared as written.',
  contains: 'Contains `value`.',
  not_contains: 'Does not contain `value`.',
  wild_card:
    '`value` is a wild card: `*` any run of characters, `?` one character; a url_path value not starting with `/`, `*` or `?` gets a `/`.',
  regex: '`value` is a regular expression (Rust syntax) that matches somewhere.',
  not_regex: '`value` is a regular expression that matches nowhere.',
  exists:
    'The header, query name, cookie, path parameter or form field is present (any value, empty included; not for url_path or body.text).',
  absent:
    'The header, query name, cookie, path parameter or form field is not present (not for url_path or body.text).',
  before:
    "A date before `value`: an ISO 8601 date-time or date, or `now`, with an optional offset (`now +3 days`, `2021-06-14T00:00:00Z -1 hours`); the request's value is read as ISO 8601, an HTTP date, or `format`; `truncate_expected` / `truncate_actual` round either side (docs/matching.md#dates).",
  after: 'A date after `value` (as `before`).',
  equal_date_time: 'The same moment as `value` (as `before`; truncations make it "the same day", "the same month"…).',
  includes:
    'Among its values (a repeated query name, form field or header) are each of `value`, a JSON array of strings: `\'["1", "2"]\'`.',
  has_exactly: 'Its values are exactly those of `value` (a JSON array of strings), in any order, none more.',
  path_template:
    'url_path only: `value` is a template such as `/users/{id}/orders/{order}`: `{name}` matches one non-empty segment, a last `{name*}` the rest (zero or more segments); joined to the prefix like `equal`. The captures are tested with `params.<name>`.',
};

/** body.json operators (the value at a dotted path compared with `value`). */
export const BODY_OP_DOCS: Readonly<Record<BodyOp, string>> = {
  equal: 'Its text (a string without quotes, anything else as compact JSON) equals `value`.',
  equal_string: 'The same as `equal`.',
  contains: 'Its text contains `value`.',
  not_contains: 'Its text does not contain `value`.',
  starts_with: 'Its text starts with `value`.',
  not_starts_with: 'Its text does not start with `value`.',
  ends_with: 'Its text ends with `value`.',
  not_ends_with: 'Its text does not end with `value`.',
  regex: 'Its text matches the regular expression `value`.',
  not_regex: 'Its text does not match the regular expression `value`.',
  equal_typed: 'It equals `value` read as JSON (type included: `"1"` is not `1`).',
  equal_number: 'It is a number equal to `value`.',
  greater_than: 'It is a number greater than `value`.',
  less_than: 'It is a number less than `value`.',
  greater_or_equal: 'It is a number greater than or equal to `value`.',
  less_or_equal: 'It is a number less than or equal to `value`.',
  exists: 'The path resolves (any value).',
  absent: 'The path does not resolve.',
  array_length_equal: 'It is an array of exactly `value` items.',
  array_length_at_least: 'It is an array of at least `value` items.',
  array_contains: 'It is an array with an item equal to `value` (read as JSON).',
  equal_integer: 'It is an integer equal to `value` (64-bit exact).',
  map_has_key: 'It is an object with the key `value`.',
  map_does_not_have_key: 'It is an object without the key `value`.',
  structural_contains: 'It is an array with an item that holds every key and value of `value` (JSON).',
  equal_json:
    'It equals the JSON document `value`: numbers by value (`1` is `1.0`), keys in any order, no field or item more; `${json-unit.ignore}`, `${json-unit.any-string}`, `${json-unit.any-number}`, `${json-unit.any-boolean}` and `${json-unit.regex}<pattern>` stand for a value (docs/matching.md). The path `""` is the whole body.',
  equal_json_any_order: 'As `equal_json`, with array items in any order.',
  contains_json:
    'As `equal_json`, but it may hold more: more object fields, and more array items after the expected ones.',
  before: 'It is a date before `value` (as the header operator `before`).',
  after: 'It is a date after `value` (as the header operator `after`).',
  equal_date_time: 'It is the moment `value` (as the header operator `equal_date_time`).',
  json_schema:
    'It is valid against the JSON Schema `value` (type, enum, const, properties, required, additionalProperties, items, lengths and bounds, pattern, allOf / anyOf / oneOf / not, if / then / else, local `$ref`; `format` is not checked). The path `""` is the whole body.',
  contains_json_any_order:
    'As `contains_json`, with array items in any order (each expected item matches one of its own).',
};
