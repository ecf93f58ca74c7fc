// The names templates use: the data roots and the helpers with their aliases. Kept apart from the helpers'
// code so the config shapes (schema, reference) can list them without loading anything else.

/** The data a template may name under `request.` (docs/templates.md). */
export const DATA_FIELDS = ['method', 'path', 'params', 'query', 'headers', 'cookies', 'body', 'form', 'text'] as const;
export const DATA_ROOTS: readonly string[] = DATA_FIELDS.map((f) => `request.${f}`);

/** The helpers under their own names (WireMock's, plus Mockoon's request helpers). */
export const HELPER_NAMES = [
  'toJson',
  'stringify',
  'jsonPath',
  'now',
  'randomValue',
  'uuid',
  'randomInt',
  'randomDecimal',
  'pickRandom',
  'base64',
  'urlEncode',
  'size',
  'default',
  'faker',
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'and',
  'or',
  'not',
  'contains',
  'matches',
  'urlParam',
  'queryParam',
  'header',
  'cookie',
  'body',
  'bodyRaw',
  'method',
  'collection',
] as const;

/** Both names of each helper, WireMock's first (for docs/templates.md and the generated reference). */
export const HELPER_ALIASES: readonly (readonly [wiremock: string, mockoon: string | undefined, what: string])[] = [
  ['toJson', 'stringify', 'the value as JSON (`toJson` compact, or `pretty=true`; `stringify` indented)'],
  ['jsonPath', undefined, 'a value at a JSONPath (`$.a.b[0]`, `$..` not supported) of a value or of JSON text'],
  ['now', 'now', "the date: `offset='7 days'`, `format='yyyy-MM-dd'` (or `epoch`, `unix`), `timezone='Europe/Paris'`"],
  [
    'randomValue',
    undefined,
    'random text: `length=`, `type=` ALPHANUMERIC, ALPHABETIC, NUMERIC, HEXADECIMAL, ALPHANUMERIC_AND_SYMBOLS or UUID, `uppercase=true`',
  ],
  ['uuid', undefined, 'a random version-4 UUID'],
  ['randomInt', 'int', 'an integer from `lower` to `upper` (both included; `int min max`)'],
  ['randomDecimal', 'float', 'a number from `lower` to `upper` (`float min max decimals`)'],
  ['pickRandom', 'oneOf', 'one of its arguments, or one item of an array'],
  ['base64', 'base64', 'Base64 of the text (`decode=true` to decode)'],
  ['urlEncode', undefined, 'percent-encoding (`decode=true` to decode)'],
  ['size', 'len', 'the length of a text or an array, the key count of an object'],
  ['default', undefined, 'the first argument, or the second when the first is absent or empty'],
  [
    'eq',
    'eq',
    'equal (a number and its text are equal); also `ne`, `gt`, `gte`, `lt`, `lte`, `and`, `or`, `not`, `contains`, `matches`',
  ],
  ['faker', 'faker', "a `@faker-js/faker` method by its path: `{{faker 'person.firstName'}}`, arguments after it"],
  [
    'collection',
    undefined,
    'a collection\'s current data (docs/state.md) by its path or last segment: `{{collection "users"}}` (the items), `id=` one item (absent: nothing)',
  ],
];

/** Mockoon's (and WireMock's `neq`) names for the same helpers. */
export const ALIASES: Readonly<Record<string, string>> = {
  int: 'randomInt',
  float: 'randomDecimal',
  oneOf: 'pickRandom',
  len: 'size',
  neq: 'ne',
};
