import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anything, array, described, int, later, map, oneOf, record, string, union } from '../decode.js';
import { toJsonSchema } from './json-schema.js';
import { keyRows, toMarkdown } from './markdown.js';

const toy = record(
  {
    port: described(int(0, 9), { doc: 'A port.', default: 3 }),
    mode: described(oneOf(['a', 'b']), { doc: 'A mode.', example: '"b"' }),
    items: described(array(record({ name: described(string, { doc: 'A name.' }) }, { required: ['name'] })), {
      doc: 'Items.',
    }),
    headers: described(map('header name', described(string, { doc: 'A value.' }), later(anything)), {
      doc: 'Headers.',
    }),
    path: described(union([string, record({ value: string })], later(anything), 'string or table'), { doc: 'A path.' }),
  },
  { required: ['port'] },
);

test('keyRows walks records, arrays, maps and unions in declaration order', () => {
  assert.deepEqual(
    keyRows(toy).map((r) => [r.path, r.required]),
    [
      ['port', true],
      ['mode', false],
      ['items', false],
      ['items[].name', true],
      ['headers', false],
      ['headers.<header name>', false],
      ['path', false],
      ['path.value', false],
    ],
  );
});

test('toMarkdown: one row per key with type and bounds, default, doc and example', () => {
  const md = toMarkdown(toy, { title: 'Toy', intro: 'Intro.' });
  const cases: [string, RegExp][] = [
    ['title', /^# Toy\n\nIntro\.\n/],
    ['bounded integer with default', /\| `port` \| integer 0–9 \| `3` \| A port\. \| `port = 3` \|/],
    ['vocabulary and example', /\| `mode` \| one of `a`, `b` \|  \| A mode\. \| `mode = "b"` \|/],
    ['required nested key', /\| `items\[\]\.name` \| string \| required \| A name\. \|/],
    ['union type', /\| `path` \| string, or table \|/],
  ];
  for (const [name, re] of cases) assert.match(md, re, name);
});

test('toJsonSchema: draft-07, fixed-key tables closed, named tables open, annotations on keys', () => {
  type Node = { readonly [k: string]: Node } & Record<string, unknown>;
  const s = toJsonSchema(toy, { id: 'x', title: 'Toy' }) as Node;
  const props = s['properties'] as Node;
  assert.equal(s['$schema'], 'http://json-schema.org/draft-07/schema#');
  assert.equal(s['additionalProperties'], false);
  assert.deepEqual(s['required'], ['port']);
  assert.deepEqual(props['port'], {
    description: 'A port.\n\nDefault: `3`.',
    markdownDescription: 'A port.\n\nDefault: `3`.',
    type: 'integer',
    minimum: 0,
    maximum: 9,
    default: 3,
  });
  assert.equal(props['items']!['items']!['additionalProperties'], false);
  assert.equal(props['headers']!['additionalProperties']!['type'], 'string');
  assert.equal((props['path']!['anyOf'] as unknown as unknown[]).length, 2);
});
