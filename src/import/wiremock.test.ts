// The WireMock decoder, table-tested: each mapping shape in, the neutral rule (or the left-out part, or the error
// naming the place) out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeWireMock, scenarioKeys, simpleJsonPath } from './wiremock.js';
import { leftOutLine, type SourceImport, type SourceRule } from './plan.js';

const FILES: Record<string, Uint8Array> = { 'body.txt': new TextEncoder().encode('from a file\n') };

function decode(...mappings: unknown[]): SourceImport {
  const r = decodeWireMock({
    title: 't',
    files: mappings.map((data, i) => ({ name: `mappings/m${i}.json`, data })),
    bodyFile: (n) => FILES[n],
  });
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

function one(mapping: unknown): SourceRule {
  const imp = decode(mapping);
  assert.equal(imp.rules.length, 1, JSON.stringify(imp.leftOut));
  return imp.rules[0]!;
}

const OK = { status: 200, body: 'x' };

test('request matchers map to conditions', () => {
  const cases: [string, unknown, Partial<SourceRule>][] = [
    ['url', { method: 'GET', url: '/a' }, { method: 'GET', urlPath: { op: 'equal', value: '/a' } }],
    [
      'url with a query: the path and query as sent, exactly',
      { url: '/a?x=1&y=two' },
      { urlPath: { op: 'equal', value: '/a' }, url: { op: 'equal', value: '/a?x=1&y=two' } },
    ],
    ['urlPath', { urlPath: '/b' }, { urlPath: { op: 'equal', value: '/b' } }],
    ['urlPathPattern', { urlPathPattern: '/c/[0-9]+' }, { urlPath: { op: 'regex', value: '^(?:/c/[0-9]+)$' } }],
    ['urlPattern: over the path and query', { urlPattern: '/d/.*' }, { url: { op: 'regex', value: '^(?:/d/.*)$' } }],
    [
      'urlPattern spelling out a query',
      { urlPattern: '/d/[a-z]+\\?q=1' },
      { url: { op: 'regex', value: '^(?:/d/[a-z]+\\?q=1)$' } },
    ],
    [
      'pathParameters of a urlPathTemplate',
      { urlPathTemplate: '/e/{id}', pathParameters: { id: { matches: '[0-9]+' } } },
      { params: [['id', { op: 'regex', value: '^(?:[0-9]+)$' }]] },
    ],
    [
      'formParameters',
      { urlPath: '/f', formParameters: { user: { equalTo: 'alice' } } },
      { form: [['user', { op: 'equal', value: 'alice' }]] },
    ],
    [
      'a multipart pattern naming its part',
      {
        urlPath: '/m',
        multipartPatterns: [
          { headers: { 'Content-Disposition': { contains: 'name="info"' } }, bodyPatterns: [{ contains: 'hi' }] },
        ],
      },
      { form: [['info', { op: 'contains', value: 'hi' }]] },
    ],
    [
      'or and not as one pattern',
      { urlPath: '/l', headers: { A: { or: [{ equalTo: 'x' }, { matches: 'y+' }] }, B: { not: { contains: 'z' } } } },
      {
        headers: [
          ['a', { op: 'regex', value: '(?:^x$)|(?:^(?:y+)$)' }],
          ['b', { op: 'not_regex', value: 'z' }],
        ],
      },
    ],
    [
      'basicAuth, the spelling of the documentation',
      { urlPath: '/b', basicAuth: { username: 'u', password: 'p' } },
      { headers: [['authorization', { op: 'equal', value: 'Basic dTpw' }]] },
    ],
    ['urlPathTemplate', { urlPathTemplate: '/e/{id}' }, { urlPath: { op: 'path_template', value: '/e/{id}' } }],
    [
      'headers (lower-cased) and case-insensitive equalTo',
      {
        urlPath: '/h',
        headers: { Accept: { contains: 'json' }, 'X-Mode': { equalTo: 'Fast', caseInsensitive: true } },
      },
      {
        headers: [
          ['accept', { op: 'contains', value: 'json' }],
          ['x-mode', { op: 'regex', value: '(?i)^Fast$' }],
        ],
      },
    ],
    [
      'query parameters, absent and doesNotMatch',
      {
        urlPath: '/q',
        queryParameters: { page: { matches: '[0-9]+' }, debug: { absent: true }, q: { doesNotMatch: 'x' } },
      },
      {
        query: [
          ['page', { op: 'regex', value: '^(?:[0-9]+)$' }],
          ['debug', { op: 'absent' }],
          ['q', { op: 'not_regex', value: '^(?:x)$' }],
        ],
      },
    ],
    [
      'cookies',
      { urlPath: '/k', cookies: { session: { equalTo: 'abc' } } },
      { cookies: [['session', { op: 'equal', value: 'abc' }]] },
    ],
    [
      'basic auth',
      { urlPath: '/b', basicAuthCredentials: { username: 'u', password: 'p' } },
      { headers: [['authorization', { op: 'equal', value: 'Basic dTpw' }]] },
    ],
    [
      'body contains',
      { urlPath: '/p', bodyPatterns: [{ contains: 'milk' }] },
      { bodyText: { op: 'contains', value: 'milk' } },
    ],
    [
      'body equalToJson: the whole body as a document',
      { urlPath: '/p', bodyPatterns: [{ equalToJson: '{"a": {"b": 1}, "c": [true]}' }] },
      { bodyJson: [['', { op: 'equal_json', value: '{"a":{"b":1},"c":[true]}' }]] },
    ],
    [
      'equalToJson options pick the operator; a matchesJsonPath on one of its fields stays',
      {
        urlPath: '/p',
        bodyPatterns: [
          { equalToJson: { name: 'a' }, ignoreExtraElements: true, ignoreArrayOrder: true },
          { matchesJsonPath: '$.name' },
        ],
      },
      {
        bodyJson: [
          ['', { op: 'contains_json_any_order', value: '{"name":"a"}' }],
          ['name', { op: 'exists', value: '' }],
        ],
      },
    ],
    [
      'a JSONPath filter on one field',
      { urlPath: '/p', bodyPatterns: [{ matchesJsonPath: "$.things[?(@.name == 'X')]" }] },
      { bodyJson: [['things', { op: 'structural_contains', value: '{"name":"X"}' }]] },
    ],
    [
      'binaryEqualTo of UTF-8 text',
      { urlPath: '/p', bodyPatterns: [{ binaryEqualTo: 'aGk=' }] },
      { bodyText: { op: 'equal', value: 'hi' } },
    ],
    [
      'body matchesJsonPath, plain and with a matcher',
      {
        urlPath: '/p',
        bodyPatterns: [
          { matchesJsonPath: '$.items[0].sku' },
          { matchesJsonPath: { expression: '$.tier', equalTo: 'gold' } },
        ],
      },
      {
        bodyJson: [
          ['items.0.sku', { op: 'exists', value: '' }],
          ['tier', { op: 'equal_string', value: 'gold' }],
        ],
      },
    ],
  ];
  for (const [name, request, expected] of cases) {
    const r = one({ request, response: OK });
    for (const [k, v] of Object.entries(expected))
      assert.deepEqual((r as unknown as Record<string, unknown>)[k], v, `${name}: ${k}`);
  }
});

test('responses: bodies, headers, delays, faults, templates', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  const cases: [string, unknown, Partial<SourceRule>][] = [
    ['text body', { status: 201, body: 'hi' }, { status: 201, body: { kind: 'text', text: 'hi' } }],
    ['no body', { status: 204 }, { status: 204, body: { kind: 'none' } }],
    ['jsonBody', { jsonBody: { a: [1, 2] } }, { body: { kind: 'file', data: '{"a":[1,2]}', ext: 'json' } }],
    [
      'base64Body with its content type',
      { base64Body: 'aGk=', headers: { 'Content-Type': 'text/plain' } },
      { body: { kind: 'file', data: Buffer.from('hi'), ext: 'txt' }, respondHeaders: [['content-type', 'text/plain']] },
    ],
    ['bodyFileName', { bodyFileName: 'body.txt' }, { body: { kind: 'file', data: enc('from a file\n'), ext: 'txt' } }],
    ['multi-valued header', { headers: { Vary: ['a', 'b'] } }, { respondHeaders: [['vary', 'a, b']] }],
    ['fixed delay', { fixedDelayMilliseconds: 250 }, { delay: 250 }],
    [
      'uniform delay',
      { delayDistribution: { type: 'uniform', lower: 10, upper: 20 } },
      { delay: { min: 10, max: 20 } },
    ],
    [
      'lognormal delay',
      { delayDistribution: { type: 'lognormal', median: 80, sigma: 0.4 } },
      { delay: { median: 80, sigma: 0.4 } },
    ],
    ['fault', { fault: 'CONNECTION_RESET_BY_PEER' }, { fault: 'connection_reset' }],
    ['empty-response fault', { fault: 'EMPTY_RESPONSE' }, { fault: 'empty_response' }],
    ['template', { body: '{{request.path}}', transformers: ['response-template'] }, { template: 'wiremock' }],
  ];
  for (const [name, response, expected] of cases) {
    const r = one({ request: { urlPath: '/x' }, response });
    for (const [k, v] of Object.entries(expected))
      assert.deepEqual((r as unknown as Record<string, unknown>)[k], v, `${name}: ${k}`);
  }
});

test('priority is inverted (WireMock: lowest wins; here highest), 5 when unset', () => {
  const imp = decode(
    { request: { urlPath: '/a' }, response: OK, priority: 1 },
    { request: { urlPath: '/a' }, response: OK },
  );
  assert.equal(imp.strategy, 'priority');
  assert.deepEqual(
    imp.rules.map((r) => r.priority),
    [-5, -1],
  );
  assert.equal(decode({ request: { urlPath: '/a' }, response: OK }).strategy, 'first_match');
});

test('parts a rule set cannot express are left out with their place and reason', () => {
  const imp = decode(
    { request: { urlPath: '/o', bodyPatterns: [{ contains: 'a' }, { matchesXPath: '/order' }] }, response: OK },
    { request: { urlPath: '/p' }, response: { proxyBaseUrl: 'http://example.com' } },
    { request: { urlPath: '/f' }, response: { bodyFileName: 'missing.json' } },
    { request: { method: 'OPTIONS', urlPath: '/g' }, response: OK },
    { request: { urlPath: '/j', bodyPatterns: [{ matchesJsonPath: '$..a' }] }, response: OK },
    { request: { urlPath: '/x', bodyPatterns: [{ equalToXml: '<a/>', ignoreOrderOfSameNode: true }] }, response: OK },
  );
  assert.deepEqual(imp.leftOut.map(leftOutLine), [
    'mappings/m0.json: request.bodyPatterns[1].matchesXPath: XPath is not supported',
    'mappings/m1.json: response.proxyBaseUrl: proxying is not supported',
    'mappings/m2.json: response.bodyFileName: `__files/missing.json` does not exist',
    'mappings/m3.json: the method OPTIONS cannot be matched by a rule',
    'mappings/m4.json: request.bodyPatterns[0].matchesJsonPath: only simple JSONPath expressions ($.a.b[0], $.list[?(@.k == v)]) are supported',
    'mappings/m5.json: request.bodyPatterns[0].equalToXml: XML comparison is not supported',
  ]);
  // the mapping read last is tried first, as WireMock does
  assert.deepEqual(
    imp.rules.map((r) => r.place),
    ['mappings/m5.json', 'mappings/m4.json', 'mappings/m0.json'],
  );
});

test('scenarios: Started is started, the required state a condition, the new state a move', () => {
  const imp = decode({
    mappings: [
      { scenarioName: 'To do', requiredScenarioState: 'Started', request: { urlPath: '/t' }, response: OK },
      {
        scenarioName: 'To do',
        requiredScenarioState: 'Started',
        newScenarioState: 'Added',
        request: { method: 'POST', urlPath: '/t' },
        response: { status: 201 },
      },
      { scenarioName: 'To do', requiredScenarioState: 'Added', request: { urlPath: '/t' }, response: OK },
      { scenarioName: 'cart', newScenarioState: 'Started', request: { urlPath: '/reset' }, response: OK },
    ],
  });
  assert.deepEqual(imp.leftOut, []);
  assert.deepEqual(
    imp.rules.map((r) => [r.whenState, r.setState]),
    [
      [undefined, [['cart', 'started']]],
      [[['To_do', 'Added']], undefined],
      [[['To_do', 'started']], [['To_do', 'Added']]],
      [[['To_do', 'started']], undefined],
    ],
  );
  assert.deepEqual(imp.notes, [
    '',
    'WireMock tries the mapping read last first: the rules are in the reverse of the order read (files by name).',
    '',
    'WireMock scenarios renamed (a name here holds letters, digits, `_`, `.` and `-`):',
    '  "To do" is To_do',
  ]);
});

test('scenario names: free text becomes a valid name, and two names never meet', () => {
  assert.deepEqual(
    [...scenarioKeys(['a b', 'a_b', 'a/b', 'ok.name-1', '***'])],
    [
      ['a_b', 'a_b'],
      ['ok.name-1', 'ok.name-1'],
      ['a b', 'a_b_2'],
      ['a/b', 'a_b_3'],
      ['***', '_'],
    ],
  );
});

test('an unknown matcher is an error at its place', () => {
  const r = decodeWireMock({
    title: 't',
    files: [{ name: 'mappings/bad.json', data: { request: { headers: { A: { equalsTo: 'x' } } }, response: OK } }],
    bodyFile: () => undefined,
  });
  assert.ok(!r.ok);
  assert.equal(r.error.place, 'mappings/bad.json: request.headers.A.equalsTo');
  assert.match(r.error.message, /unknown matcher `equalsTo`/);
});

test('a valid option of a matcher is never an error; a matcher WireMock knows is named when left out', () => {
  const imp = decode({
    request: {
      urlPath: '/x',
      headers: { D: { before: 'now +3 days', truncateActual: 'first day of month' } },
      bodyPatterns: [{ equalToXml: '<a/>', namespaceAwareness: 'LEGACY', ignoreOrderOfSameNode: true }],
    },
    response: OK,
  });
  assert.equal(imp.rules.length, 1);
  assert.deepEqual(imp.leftOut.map(leftOutLine), [
    'mappings/m0.json: request.bodyPatterns[0].equalToXml: XML comparison is not supported',
  ]);
  assert.deepEqual(imp.rules[0]!.headers, [
    ['d', { op: 'before', value: 'now +3 days', options: [['truncate_actual', 'first day of month']] }],
  ]);
});

test('simple JSONPath', () => {
  assert.equal(simpleJsonPath('$.a.b'), 'a.b');
  assert.equal(simpleJsonPath("$.a[2]['c d']"), 'a.2.c d');
  assert.equal(simpleJsonPath('$..a'), undefined);
  assert.equal(simpleJsonPath('$'), undefined);
});
