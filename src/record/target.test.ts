import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRecordLayout, FORWARD_MESSAGES, forwardedPath, parseRecordTarget } from './target.js';

describe('parseRecordTarget', () => {
  const good: readonly [string, object][] = [
    [
      'http://api.example.com',
      {
        scheme: 'http',
        hostname: 'api.example.com',
        port: 80,
        host: 'api.example.com',
        origin: 'http://api.example.com',
        basePath: '',
      },
    ],
    ['https://api.example.com/', { scheme: 'https', port: 443, host: 'api.example.com', basePath: '' }],
    [
      'HTTPS://API.example.com:8443/v2',
      {
        scheme: 'https',
        hostname: 'api.example.com',
        port: 8443,
        host: 'api.example.com:8443',
        origin: 'https://api.example.com:8443',
        basePath: '/v2',
      },
    ],
    [
      'http://127.0.0.1:3000/api/v1/',
      { hostname: '127.0.0.1', port: 3000, host: '127.0.0.1:3000', basePath: '/api/v1' },
    ],
    [
      'http://[::1]:9000/x',
      { hostname: '::1', port: 9000, host: '[::1]:9000', origin: 'http://[::1]:9000', basePath: '/x' },
    ],
    ['http://localhost:80', { port: 80, host: 'localhost', origin: 'http://localhost' }],
    ['https://h/a%20b', { basePath: '/a%20b' }],
  ];
  for (const [given, want] of good) {
    it(`accepts ${given}`, () => {
      const r = parseRecordTarget(given);
      assert.ok(r.ok, r.ok ? '' : r.error);
      for (const [k, v] of Object.entries(want)) assert.equal((r.value as unknown as Record<string, unknown>)[k], v, k);
    });
  }

  const bad: readonly [string, RegExp][] = [
    ['ftp://x', /unsupported scheme 'ftp'/],
    ['api.example.com', /expects http\(s\):\/\/host/],
    ['//api.example.com', /expects/],
    ['http://', /expects/],
    ['http:///path', /expects/],
    ['http://h/x?q=1', /a query/],
    ['http://h/#top', /a fragment/],
    ['http://user:pw@h', /credentials/],
    ['http://h:99999', /expects/],
    ['http://h:0', /expects/],
    ['http://h:abc', /expects/],
    ['http://h x', /expects/],
    ['', /expects/],
    ['file:///etc/passwd', /unsupported scheme 'file'/],
  ];
  for (const [given, want] of bad) {
    it(`refuses ${JSON.stringify(given)}`, () => {
      const r = parseRecordTarget(given);
      assert.ok(!r.ok);
      assert.match(r.error, want);
    });
  }
});

describe('checkRecordLayout', () => {
  const cases: readonly [string, string, boolean][] = [
    ['/ws', '/ws', true],
    ['/ws', '/ws/public', true],
    ['/ws', '/ws/a/b', true],
    ['/ws', '/wsx', false],
    ['/ws', '/elsewhere', false],
    ['/ws/cfg', '/ws', false],
  ];
  for (const [configDir, fallbackDir, fine] of cases) {
    it(`${fallbackDir} under ${configDir}: ${fine ? 'fine' : 'refused'}`, () => {
      const problem = checkRecordLayout(configDir, fallbackDir);
      if (fine) assert.equal(problem, undefined);
      else {
        assert.ok(problem?.includes(fallbackDir) && problem.includes(configDir), problem);
      }
    });
  }
});

describe('forwardedPath', () => {
  it('resolves dot segments (and their %2e spellings), keeping every other segment as written', () => {
    for (const [raw, want] of [
      ['/api/users', '/api/users'],
      ['/', '/'],
      ['/a/./b/../c', '/a/c'],
      ['/a/%2e/b/%2E%2e/d', '/a/d'],
      ['/a/b/..', '/a/'],
      ['/a/.', '/a/'],
      ['//a//b', '//a//b'],
      ['/keep%2fslash/%41', '/keep%2fslash/%41'],
      ['/a.b/..c/...', '/a.b/..c/...'],
      ['/bad%zz/x', '/bad%zz/x'],
    ] as const)
      assert.deepEqual(forwardedPath(raw, '/v2'), { ok: true, value: want }, raw);
  });

  it('refuses a path that climbs above the base path, or hides a dot part behind an encoded separator', () => {
    for (const raw of ['/..', '/../x', '/%2e%2e/x', '/.%2E/x', '/a/../../x', '/a/./../..'])
      assert.deepEqual(forwardedPath(raw, '/v2'), { ok: false, error: FORWARD_MESSAGES.climbs('/v2') }, raw);
    for (const raw of ['/a/..%2fx', '/a%5c..%5cx', '/a/..%5C', '/a\\..\\x', '/%2e%2e%2fx', '/x%2f.'])
      assert.deepEqual(forwardedPath(raw, ''), { ok: false, error: FORWARD_MESSAGES.hidden() }, raw);
    assert.match(FORWARD_MESSAGES.climbs(''), /base path \//);
  });
});
