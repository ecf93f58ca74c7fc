// Vocabulary tables: the single source of truth for operator and method names.
// Each yields a union type, a guard, did-you-mean candidates and help text.

/** The eleven value operators every string condition has (url_path, headers, query, cookies, params, forms, body text). */
export const STRING_OPS = [
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
] as const;
export type StringOp = (typeof STRING_OPS)[number];
export function isStringOp(s: string): s is StringOp {
  return (STRING_OPS as readonly string[]).includes(s);
}

/** url_path: the value operators plus `path_template` (`/users/{id}`: named segments, see routing/path-template.ts). */
export const URL_PATH_OPS = [...STRING_OPS, 'path_template'] as const;
export type UrlPathOp = (typeof URL_PATH_OPS)[number];
export function isUrlPathOp(s: string): s is UrlPathOp {
  return (URL_PATH_OPS as readonly string[]).includes(s);
}

/** headers, query, cookies, params and form fields: the value operators plus presence. */
export const HEADER_OPS = [
  ...STRING_OPS,
  'exists',
  'absent',
  'before',
  'after',
  'equal_date_time',
  'includes',
  'has_exactly',
] as const;
export type HeaderOp = (typeof HEADER_OPS)[number];
export function isHeaderOp(s: string): s is HeaderOp {
  return (HEADER_OPS as readonly string[]).includes(s);
}

export const BODY_OPS = [
  'equal',
  'equal_string',
  'contains',
  'not_contains',
  'starts_with',
  'not_starts_with',
  'ends_with',
  'not_ends_with',
  'regex',
  'not_regex',
  'equal_typed',
  'equal_number',
  'greater_than',
  'less_than',
  'greater_or_equal',
  'less_or_equal',
  'exists',
  'absent',
  'array_length_equal',
  'array_length_at_least',
  'array_contains',
  'equal_integer',
  'map_has_key',
  'map_does_not_have_key',
  'structural_contains',
  'equal_json',
  'equal_json_any_order',
  'contains_json',
  'contains_json_any_order',
  'json_schema',
  'before',
  'after',
  'equal_date_time',
] as const;
export type BodyOp = (typeof BODY_OPS)[number];
export function isBodyOp(s: string): s is BodyOp {
  return (BODY_OPS as readonly string[]).includes(s);
}

/** Methods a rule's `when.request.method` may name. */
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const;
export type Method = (typeof METHODS)[number];
export function isMethod(s: string): s is Method {
  return (METHODS as readonly string[]).includes(s);
}

/** Display words for url_path and header operators (get --why, match-test, startup listing). */
export const STRING_OP_WORDS: Readonly<Record<HeaderOp | 'path_template', string>> = {
  equal: '==',
  not_equal: '!=',
  starts_with: 'starts with',
  not_starts_with: 'does not start with',
  ends_with: 'ends with',
  not_ends_with: 'does not end with',
  contains: 'contains',
  not_contains: 'does not contain',
  wild_card: 'wild card matches',
  regex: 'matches regex',
  not_regex: 'does not match regex',
  exists: 'exists',
  absent: 'absent',
  before: 'is before',
  after: 'is after',
  equal_date_time: 'is the moment',
  includes: 'has among its values',
  has_exactly: 'has exactly the values',
  path_template: 'matches template',
};

/** The negated value operators: on a repeated query name or form field they hold when no value holds the positive one. */
export const NEGATED_STRING_OPS: Readonly<Partial<Record<StringOp, StringOp>>> = {
  not_equal: 'equal',
  not_starts_with: 'starts_with',
  not_ends_with: 'ends_with',
  not_contains: 'contains',
  not_regex: 'regex',
};

/** Display words for body operators. */
export const BODY_OP_WORDS: Readonly<Record<BodyOp, string>> = {
  equal: '==',
  equal_string: '== (string)',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts_with',
  not_starts_with: 'does not start_with',
  ends_with: 'ends_with',
  not_ends_with: 'does not end_with',
  regex: 'matches regex',
  not_regex: 'does not match regex',
  equal_typed: '== (typed)',
  equal_number: '== (number)',
  greater_than: '>',
  less_than: '<',
  greater_or_equal: '>=',
  less_or_equal: '<=',
  exists: 'exists',
  absent: 'absent',
  array_length_equal: 'array_length ==',
  array_length_at_least: 'array_length >=',
  array_contains: 'array_contains',
  equal_integer: '== (integer)',
  map_has_key: 'map_has_key',
  map_does_not_have_key: 'map_does_not_have_key',
  structural_contains: 'structural_contains',
  equal_json: '== (JSON document)',
  equal_json_any_order: '== (JSON document, arrays in any order)',
  contains_json: 'holds (JSON document)',
  contains_json_any_order: 'holds (JSON document, arrays in any order)',
  json_schema: 'is valid against the JSON schema',
  before: 'is before',
  after: 'is after',
  equal_date_time: 'is the moment',
};
