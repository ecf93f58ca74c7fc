import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'smol-toml';
import { renderRuleSet, tomlKey, tomlLiteral, tomlString, type RuleSpec } from './render.js';

test('TOML strings, literals and keys read back as written', () => {
  const texts = [
    'plain',
    'a "quoted" \\ back',
    'line\nbreak\ttab',
    'ctl\u0001\u007f',
    "it's",
    '^/v1/a\\.b/[^/]+$',
    'ünï',
  ];
  for (const t of texts) {
    assert.equal((parse(`a = ${tomlString(t)}`) as { a: string }).a, t, `string ${JSON.stringify(t)}`);
    assert.equal((parse(`a = ${tomlLiteral(t)}`) as { a: string }).a, t, `literal ${JSON.stringify(t)}`);
  }
  assert.equal(tomlLiteral('^/a/[^/]+$'), "'^/a/[^/]+$'");
  assert.equal(tomlLiteral("it's"), '"it\'s"');
  const keys: [string, string][] = [
    ['x-api-key', 'x-api-key'],
    ['content-type', 'content-type'],
    ['x.dotted', '"x.dotted"'],
  ];
  for (const [k, want] of keys) assert.equal(tomlKey(k), want);
});

test('renderRuleSet: header comment, strategy, prefix, then one commented rule per spec, as TOML that parses', () => {
  const rule: RuleSpec = {
    comment: ['op: summary', '404 (Prefer: code=404)'],
    method: 'PATCH',
    urlPath: { op: 'regex', value: '^/v1/x/[^/]+$' },
    prefer: '(?:^|[\\s,;])code=404(?:[\\s,;]|$)',
    absent: ['authorization'],
    status: 404,
    body: { kind: 'file', path: 'responses/op/404.json' },
    headers: [['content-type', 'application/problem+json']],
  };
  const plain: RuleSpec = {
    comment: ['GET /y'],
    method: 'GET',
    urlPath: { op: 'equal', value: '/y' },
    absent: [],
    status: 200,
    body: { kind: 'none' },
    headers: [],
  };
  const text = renderRuleSet({ header: ['My API 1', '', 'more'], basePath: '/v1', rules: [rule, plain] });
  assert.match(
    text,
    /^# My API 1\n#\n# more\n\nstrategy = "first_match"\nprefix\.url_path = "\/v1"\n\n# op: summary\n# 404 \(Prefer: code=404\)\n\[\[rules\]\]\n/,
  );
  assert.match(
    text,
    /\n# GET \/y\n\[\[rules\]\]\nwhen\.request\.method = "GET"\nwhen\.request\.url_path = "\/y"\nrespond\.status = 200\n$/,
  );
  const data = parse(text) as {
    prefix: { url_path: string };
    rules: { when: { request: Record<string, unknown> }; respond: Record<string, unknown> }[];
  };
  assert.equal(data.prefix.url_path, '/v1');
  assert.deepEqual(JSON.parse(JSON.stringify(data.rules[0])), {
    when: {
      request: {
        method: 'PATCH',
        url_path: { value: '^/v1/x/[^/]+$', op: 'regex' },
        headers: {
          authorization: { value: '', op: 'absent' },
          prefer: { value: '(?:^|[\\s,;])code=404(?:[\\s,;]|$)', op: 'regex' },
        },
      },
    },
    respond: {
      status: 404,
      file_path: 'responses/op/404.json',
      headers: { 'content-type': 'application/problem+json' },
    },
  });
});
