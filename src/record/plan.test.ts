import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snapshotFrom } from '../dispatch/snapshot.js';
import { memorySource } from '../files/memory-source.js';
import { DEFAULTS } from '../model/config.js';
import type { HeaderList } from '../shared/headers.js';
import { planRecording, recordKey, type RecordBody, type RecordPlan } from './plan.js';

const ROOT = '/ws/public';
const enc = new TextEncoder();
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff]);
const LATIN1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9]); // "café" in ISO-8859-1: not UTF-8

const files = () =>
  memorySource(
    {
      '/ws/mock.toml': '',
      '/ws/secret.json': '{"secret":1}',
      '/ws/public/existing.json': '{}',
      '/ws/public/taken.json/': '',
      '/elsewhere/': '',
    },
    { '/ws/public/out': '/elsewhere' },
  );

interface Case {
  readonly name: string;
  readonly method?: string;
  readonly target: string;
  readonly status?: number;
  readonly headers?: HeaderList;
  readonly body?: string | Uint8Array | RecordBody;
  readonly recorded?: readonly string[];
  readonly keep?: readonly string[];
  /** the plan, in short: 'file a/b.json', 'rule …', 'skip reason' */
  readonly want: string;
  /** respond headers of a rule */
  readonly ruleHeaders?: HeaderList;
}

const JSON_TYPE: HeaderList = [['content-type', 'application/json']];
const cases: readonly Case[] = [
  {
    name: 'GET 200 JSON → a plain file at the path',
    target: '/api/users',
    headers: JSON_TYPE,
    body: '{ "b":1,\n  "a" : 1.0 }\n',
    want: 'file api/users.json',
  },
  {
    name: 'JSON with a UTF-8 charset still serves as is',
    target: '/api/u2',
    headers: [['content-type', 'application/json; charset=UTF-8']],
    body: '[]',
    want: 'file api/u2.json',
  },
  {
    name: 'a query makes a rule with a query condition per name (its first value, decoded)',
    target: '/search?q=a+b&tag=x&tag=y',
    headers: JSON_TYPE,
    body: '[1]',
    want: 'rule GET /search?q=a b&tag=x → 200 file .mock-recorded/GET/search.json',
    ruleHeaders: [],
  },
  {
    name: 'decoded and normalised as file routing does',
    target: '/a%20b/./c/../d',
    headers: JSON_TYPE,
    body: '{}',
    want: 'file a b/d.json',
  },
  {
    name: '/ → index.<ext>',
    target: '/',
    headers: [['content-type', 'text/html']],
    body: '<p>home</p>',
    want: 'file index.html',
  },
  {
    name: 'an extension-less page → <path>/index.html',
    target: '/about',
    headers: [['content-type', 'text/html; charset=utf-8']],
    body: '<p>a</p>',
    want: 'file about/index.html',
  },
  {
    name: 'a PNG at its own name',
    target: '/img/logo.png',
    headers: [['content-type', 'image/png']],
    body: PNG,
    want: 'file img/logo.png',
  },
  {
    name: 'text/plain at /notes cannot reach notes.txt → rule',
    target: '/notes',
    headers: [['content-type', 'text/plain']],
    body: 'hi',
    want: 'rule GET /notes → 200 file .mock-recorded/GET/notes.txt',
    ruleHeaders: [],
  },
  {
    name: 'an extension-less PNG → rule with a .png body',
    target: '/img/logo',
    headers: [['content-type', 'image/png']],
    body: PNG,
    want: 'rule GET /img/logo → 200 file .mock-recorded/GET/img/logo.png',
    ruleHeaders: [],
  },
  {
    name: '+json → .json with the content type kept',
    target: '/problem',
    headers: [['content-type', 'application/problem+json']],
    body: '{"title":"x"}',
    want: 'rule GET /problem → 200 file .mock-recorded/GET/problem.json',
    ruleHeaders: [['content-type', 'application/problem+json']],
  },
  {
    name: 'invalid "JSON" → .txt with an explicit content type',
    target: '/bad',
    headers: JSON_TYPE,
    body: '{oops',
    want: 'rule GET /bad → 200 file .mock-recorded/GET/bad.txt',
    ruleHeaders: JSON_TYPE,
  },
  {
    name: 'invalid JSON at a .json URL is never a .json file',
    target: '/x.json',
    headers: JSON_TYPE,
    body: 'nope',
    want: 'rule GET /x.json → 200 file .mock-recorded/GET/x.json.txt',
    ruleHeaders: JSON_TYPE,
  },
  {
    name: 'a CSV URL would be converted → rule',
    target: '/data.csv',
    headers: [['content-type', 'text/csv']],
    body: 'a,b\n1,2\n',
    want: 'rule GET /data.csv → 200 file .mock-recorded/GET/data.csv.txt',
    ruleHeaders: [['content-type', 'text/csv']],
  },
  {
    name: 'a kept header would be lost → rule; never-kept ones dropped',
    target: '/page',
    headers: [
      ...JSON_TYPE,
      ['link', '</page?p=2>; rel="next"'],
      ['set-cookie', 's=1'],
      ['date', 'x'],
      ['server', 'y'],
      ['access-control-allow-origin', '*'],
      ['vary', 'Origin'],
      ['x-total-count', '40'],
    ],
    body: '[]',
    want: 'rule GET /page → 200 file .mock-recorded/GET/page.json',
    ruleHeaders: [
      ['link', '</page?p=2>; rel="next"'],
      ['x-total-count', '40'],
    ],
  },
  {
    name: '--record-header names are kept, never-kept ones are not',
    target: '/kept',
    headers: [...JSON_TYPE, ['X-Request-Id', 'r1'], ['authorization', 'secret']],
    body: '{}',
    keep: ['x-request-id', 'Authorization'],
    want: 'rule GET /kept → 200 file .mock-recorded/GET/kept.json',
    ruleHeaders: [['x-request-id', 'r1']],
  },
  {
    name: 'POST 201 + location → status, text, content type, location',
    method: 'POST',
    target: '/api/users',
    status: 201,
    headers: [...JSON_TYPE, ['location', '/api/users/7']],
    body: '{"id": 7}',
    want: 'rule POST /api/users → 201 text {"id": 7}',
    ruleHeaders: [...JSON_TYPE, ['location', '/api/users/7']],
  },
  {
    name: 'POST 200 JSON → a body file, no status',
    method: 'POST',
    target: '/api/echo',
    headers: JSON_TYPE,
    body: '{}',
    want: 'rule POST /api/echo → 200 file .mock-recorded/POST/api/echo.json',
    ruleHeaders: [],
  },
  {
    name: 'DELETE 204 → status alone',
    method: 'DELETE',
    target: '/api/users/1',
    status: 204,
    headers: JSON_TYPE,
    body: '',
    want: 'rule DELETE /api/users/1 → 204 empty',
    ruleHeaders: [],
  },
  {
    name: '418 text',
    target: '/teapot',
    status: 418,
    headers: [['content-type', 'text/plain; charset=utf-8']],
    body: "I'm a teapot",
    want: "rule GET /teapot → 418 text I'm a teapot",
    ruleHeaders: [],
  },
  {
    name: '302 with a location',
    target: '/old',
    status: 302,
    headers: [['location', '/new']],
    body: '',
    want: 'rule GET /old → 302 empty',
    ruleHeaders: [['location', '/new']],
  },
  {
    name: 'GET 200 with an empty body → status alone',
    target: '/empty',
    headers: JSON_TYPE,
    body: '',
    want: 'rule GET /empty → 200 empty',
    ruleHeaders: JSON_TYPE,
  },
  {
    name: 'a non-UTF-8 404 → status with a file_path',
    target: '/latin',
    status: 404,
    headers: [['content-type', 'text/plain; charset=iso-8859-1']],
    body: LATIN1,
    want: 'rule GET /latin → 404 file .mock-recorded/GET/latin.bin',
    ruleHeaders: [['content-type', 'text/plain; charset=iso-8859-1']],
  },
  {
    name: 'a root POST body is index.<ext>',
    method: 'PUT',
    target: '/',
    headers: JSON_TYPE,
    body: '{}',
    want: 'rule PUT / → 200 file .mock-recorded/PUT/index.json',
    ruleHeaders: [],
  },
  {
    name: 'never over an existing name',
    target: '/taken',
    headers: JSON_TYPE,
    body: '{}',
    want: 'rule GET /taken → 200 file .mock-recorded/GET/taken.json',
    ruleHeaders: [],
  },
  {
    name: 'HEAD is never recorded',
    method: 'HEAD',
    target: '/api/users',
    headers: JSON_TYPE,
    body: '',
    want: 'skip method',
  },
  {
    name: 'PATCH is recorded as a method rule',
    method: 'PATCH',
    target: '/api/users/1',
    headers: JSON_TYPE,
    body: '{}',
    want: 'rule PATCH /api/users/1 → 200 file .mock-recorded/PATCH/api/users/1.json',
    ruleHeaders: [],
  },
  {
    name: 'once per method, path and query',
    target: '/search?q=b',
    headers: JSON_TYPE,
    body: '[2]',
    recorded: [recordKey('GET', '/search', 'q=b')],
    want: 'skip recorded',
  },
  {
    name: 'the same query in another order is the same recording',
    target: '/search?b=2&a=1',
    headers: JSON_TYPE,
    body: '[2]',
    recorded: [recordKey('GET', '/search', 'a=1&b=2')],
    want: 'skip recorded',
  },
  {
    name: 'another query of a recorded path is saved',
    target: '/search?q=c',
    headers: JSON_TYPE,
    body: '[3]',
    recorded: [recordKey('GET', '/search'), recordKey('GET', '/search', 'q=b')],
    want: 'rule GET /search?q=c → 200 file .mock-recorded/GET/search.json',
    ruleHeaders: [],
  },
  {
    name: 'another method on a recorded path is still saved',
    method: 'DELETE',
    target: '/search',
    status: 204,
    body: '',
    recorded: [recordKey('GET', '/search')],
    want: 'rule DELETE /search → 204 empty',
    ruleHeaders: [],
  },
  {
    name: 'a streamed body is not saved',
    target: '/big',
    headers: JSON_TYPE,
    body: { kind: 'streamed' },
    want: 'skip streamed',
  },
  {
    name: 'an undecoded body is not saved',
    target: '/z',
    headers: JSON_TYPE,
    body: { kind: 'encoded', encoding: 'zstd' },
    want: 'skip encoded',
  },
  { name: 'encoded separators', target: '/..%2f..%2fsecret', headers: JSON_TYPE, body: '{}', want: 'skip unsafe_path' },
  {
    name: 'encoded dot-segments above the root are clamped, as serving does',
    target: '/%2e%2e/x',
    headers: JSON_TYPE,
    body: '{}',
    want: 'file x.json',
  },
  { name: 'a NUL in a segment', target: '/a%00b', headers: JSON_TYPE, body: '{}', want: 'skip unsafe_path' },
  { name: 'an outward symlinked directory', target: '/out/x', headers: JSON_TYPE, body: '{}', want: 'skip outside' },
  {
    name: 'an outward symlinked directory, as a rule body',
    method: 'POST',
    target: '/out/x',
    status: 200,
    headers: JSON_TYPE,
    body: '{}',
    want: 'rule POST /out/x → 200 file .mock-recorded/POST/out/x.json',
    ruleHeaders: [],
  },
];

function short(plan: RecordPlan): string {
  switch (plan.kind) {
    case 'skip':
      return `skip ${plan.reason}`;
    case 'file':
      return `file ${plan.file.names.join('/')}`;
    case 'rule': {
      const r = plan.rule;
      const b = r.body;
      const body = b.kind === 'empty' ? 'empty' : b.kind === 'text' ? `text ${b.text}` : `file ${b.names.join('/')}`;
      const query = r.query.length === 0 ? '' : '?' + r.query.map(([k, v]) => `${k}=${v}`).join('&');
      return `rule ${r.method} ${r.urlPath}${query} → ${r.status ?? 200} ${body}`;
    }
  }
}

describe('planRecording', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const req = snapshotFrom({ method: c.method ?? 'GET', target: c.target, headers: [] });
      const body: RecordBody =
        typeof c.body === 'string'
          ? { kind: 'bytes', bytes: enc.encode(c.body) }
          : c.body instanceof Uint8Array
            ? { kind: 'bytes', bytes: c.body }
            : (c.body ?? { kind: 'bytes', bytes: new Uint8Array(0) });
      const plan = await planRecording(
        { request: req, response: { status: c.status ?? 200, headers: c.headers ?? [], body } },
        {
          fallbackDir: ROOT,
          files: files(),
          recorded: new Set(c.recorded ?? []),
          ...(c.keep ? { keepHeaders: c.keep } : {}),
        },
      );
      assert.equal(short(plan), c.want);
      if (plan.kind === 'rule') assert.deepEqual(plan.rule.headers, c.ruleHeaders);
      if (plan.kind !== 'skip') assert.equal(plan.key, recordKey(req.method, req.path, req.query));
    });
  }

  it('keeps the exact bytes, and a rule status only when it is not 200', async () => {
    const bytes = enc.encode('{ "z": 1,   "a": [1.0] }\n');
    const req = snapshotFrom({ method: 'GET', target: '/exact', headers: [] });
    const plan = await planRecording(
      { request: req, response: { status: 200, headers: JSON_TYPE, body: { kind: 'bytes', bytes } } },
      { fallbackDir: ROOT, files: files(), recorded: new Set() },
    );
    assert.equal(plan.kind, 'file');
    assert.equal(plan.kind === 'file' && plan.file.bytes, bytes);
    const post = await planRecording(
      {
        request: snapshotFrom({ method: 'POST', target: '/p', headers: [] }),
        response: { status: 200, headers: JSON_TYPE, body: { kind: 'bytes', bytes } },
      },
      { fallbackDir: ROOT, files: files(), recorded: new Set() },
    );
    assert.ok(post.kind === 'rule' && !('status' in post.rule));
  });
  it('never plans a file onto a path service.deny denies, nor into a VCS folder whatever it says', async () => {
    const plan = async (method: string, target: string, patterns: readonly string[], status = 200) => {
      const p = await planRecording(
        {
          request: snapshotFrom({ method, target, headers: [] }),
          response: { status, headers: JSON_TYPE, body: { kind: 'bytes', bytes: enc.encode('{"a":1}') } },
        },
        {
          fallbackDir: ROOT,
          files: files(),
          recorded: new Set(),
          deny: { patterns, files: [], isDefault: false },
        },
      );
      return p.kind === 'skip' ? `skip ${p.reason} ${p.detail ?? ''}` : short(p);
    };
    assert.equal(
      await plan('GET', '/.env', DEFAULTS.deny),
      'skip denied .mock-recorded/GET/.env.json (denied by .env.*)',
    );
    assert.equal(
      await plan('POST', '/.env.local', DEFAULTS.deny),
      'skip denied .mock-recorded/POST/.env.local.json (denied by .env.*)',
    );
    assert.equal(
      await plan('GET', '/a/.git/config', []),
      'skip denied .mock-recorded/GET/a/.git/config.json (inside .git/, which a recording never writes into)',
    );
    // a denied plain file falls back to a rule whose body file is not denied
    assert.equal(
      await plan('GET', '/private/x', ['private/**']),
      'rule GET /private/x → 200 file .mock-recorded/GET/private/x.json',
    );
    assert.equal(await plan('GET', '/private/x', []), 'file private/x.json');
    // a rule without a body file writes nothing onto the path
    assert.equal(await plan('GET', '/.env', DEFAULTS.deny, 404), 'rule GET /.env → 404 text {"a":1}');
  });
});
