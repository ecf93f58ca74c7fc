import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Config } from '../model/config.js';
import { decodeRootConfig, defaultConfig } from './root-config.js';

const FILE = '/w/cfg/mock.toml';
const CWD = '/elsewhere';

function decode(text: string): { config: Config; messages: string[] } {
  const r = decodeRootConfig(text, FILE, CWD);
  return { config: r.config, messages: r.decode.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`) };
}

const DEFAULT_CONFIG: Config = {
  listener: { ipAddress: '127.0.0.1', port: 3001 },
  service: {
    ruleSets: [],
    ruleSetEntries: [],
    middlewares: [],
    middlewareEntries: [],
    fallbackRespondDir: '/w/cfg',
    strategy: { kind: 'first_match' },
    corsAllowCredentialsOrigins: [],
    maxRequestBodyBytes: 33554432,
    middlewareMaxOperations: 10_000_000,
  },
  log: { verbose: { header: false, body: false } },
  fileTreeView: { showHidden: false, builtinExcludes: true, extraExcludes: [], include: [], respectGitignore: false },
};

test('an empty mock.toml gives every default', () => {
  const r = decode('');
  assert.deepEqual(r.messages, []);
  assert.deepEqual(r.config, DEFAULT_CONFIG);
  assert.deepEqual(defaultConfig('/w/cfg'), DEFAULT_CONFIG);
});

test('partial tables are valid; the rest keeps its defaults', () => {
  const cases: [string, (c: Config) => unknown, unknown][] = [
    ['[listener]\nport = 4000', (c) => c.listener, { ipAddress: '127.0.0.1', port: 4000 }],
    ['[listener]\nip_address = "::1"', (c) => c.listener, { ipAddress: '::1', port: 3001 }],
    [
      '[listener]\nmax_connections = 8\nmax_held_connections = 9',
      (c) => c.listener,
      { ipAddress: '127.0.0.1', port: 3001, maxConnections: 8, maxHeldConnections: 9 },
    ],
    [
      '[service]\nstrategy = "round_robin"',
      (c) => [c.service.strategy, c.service.fallbackRespondDir],
      [{ kind: 'round_robin' }, '/w/cfg'],
    ],
    ['[log.verbose]\nbody = true', (c) => c.log.verbose, { header: false, body: true }],
    ['[log]\nverbose = { header = true }', (c) => c.log.verbose, { header: true, body: false }],
    ['[log]', (c) => c.log.verbose, { header: false, body: false }],
    [
      '[file_tree_view]\nshow_hidden = true',
      (c) => c.fileTreeView,
      { ...DEFAULT_CONFIG.fileTreeView, showHidden: true },
    ],
    ['[file_tree_view]\ninclude = "*.json"', (c) => c.fileTreeView.include, ['*.json']],
    [
      '[file_tree_view]\ninclude = ["*.json", "*.csv"]\nextra_excludes = ["tmp*"]',
      (c) => [c.fileTreeView.include, c.fileTreeView.extraExcludes],
      [['*.json', '*.csv'], ['tmp*']],
    ],
    [
      '[service]\nmax_request_body_bytes = 10\nmiddleware_max_operations = 5',
      (c) => [c.service.maxRequestBodyBytes, c.service.middlewareMaxOperations],
      [10, 5],
    ],
    [
      '[service]\ncors_allow_credentials_origins = ["https://app.example"]',
      (c) => c.service.corsAllowCredentialsOrigins,
      ['https://app.example'],
    ],
  ];
  for (const [text, pick, want] of cases) {
    const r = decode(text);
    assert.deepEqual(r.messages, [], text);
    assert.deepEqual(pick(r.config), want, text);
  }
});

test('service paths resolve against the config folder ("." included); "x" and "./x" are the same', () => {
  const r = decode(
    '[service]\nrule_sets = ["a.toml", "./a.toml", "sub/b.toml", "../up.toml", "/abs/c.toml"]\nmiddlewares = ["m.rhai"]\nfallback_respond_dir = "."\n',
  );
  assert.deepEqual(r.messages, []);
  assert.deepEqual(r.config.service.ruleSets, [
    '/w/cfg/a.toml',
    '/w/cfg/a.toml',
    '/w/cfg/sub/b.toml',
    '/w/up.toml',
    '/abs/c.toml',
  ]);
  assert.deepEqual(r.config.service.ruleSetEntries, ['a.toml', './a.toml', 'sub/b.toml', '../up.toml', '/abs/c.toml']);
  assert.deepEqual(r.config.service.middlewares, ['/w/cfg/m.rhai']);
  assert.deepEqual(r.config.service.middlewareEntries, ['m.rhai']);
  assert.equal(r.config.service.fallbackRespondDir, '/w/cfg');
  assert.equal(decode('[service]\nfallback_respond_dir = "data"').config.service.fallbackRespondDir, '/w/cfg/data');
});

test('TLS: cert and key resolve against the current directory; defaults for timeout and connections', () => {
  const r = decode('[listener.tls]\ncert = "c.pem"\nkey = "./k.pem"\n');
  assert.deepEqual(r.messages, []);
  assert.deepEqual(r.config.listener.tls, {
    cert: '/elsewhere/c.pem',
    key: '/elsewhere/k.pem',
    certEntry: 'c.pem',
    keyEntry: './k.pem',
    handshakeTimeoutSeconds: 10,
    maxConnections: 256,
  });
  const full = decode(
    '[listener.tls]\ncert = "c"\nkey = "k"\nport = 3443\nhandshake_timeout_seconds = 2\nmax_connections = 8\n',
  );
  assert.deepEqual(full.messages, []);
  assert.equal(full.config.listener.tls?.port, 3443);
  assert.equal(full.config.listener.tls?.handshakeTimeoutSeconds, 2);
  assert.equal(full.config.listener.tls?.maxConnections, 8);
  const r2 = decodeRootConfig('[listener.tls]\ncert = "c"\nkey = "k"\n', FILE, CWD);
  assert.deepEqual([r2.tlsCert?.entry, r2.tlsKey?.path], ['c', '/elsewhere/k']);
});

test('unknown keys at every level of mock.toml, each with position, allowed keys and did-you-mean', () => {
  const text = `[mystery]
a = 1
[listener]
prot = 1
[listener.tls]
cert = "c"
key = "k"
handshake_timeout = 2
[service]
rule_set = []
[log]
verbos = {}
[log.verbose]
headr = true
[file_tree_view]
bogus = true
`;
  const r = decodeRootConfig(text, FILE, CWD);
  assert.deepEqual(
    r.decode.diagnostics.map((d) => [d.code, d.line, d.column, d.keyPath?.join('.'), d.suggestion]),
    [
      ['unknown_key', 1, 2, 'mystery', undefined],
      ['unknown_key', 4, 1, 'listener.prot', 'port'],
      ['unknown_key', 8, 1, 'listener.tls.handshake_timeout', 'handshake_timeout_seconds'],
      ['unknown_key', 10, 1, 'service.rule_set', 'rule_sets'],
      ['unknown_key', 12, 1, 'log.verbos', 'verbose'],
      ['unknown_key', 14, 1, 'log.verbose.headr', 'header'],
      ['unknown_key', 16, 1, 'file_tree_view.bogus', undefined],
    ],
  );
  assert.deepEqual(r.decode.diagnostics[0]!.allowed, ['listener', 'service', 'log', 'file_tree_view']);
});

test('wrong types and values in mock.toml, all reported together', () => {
  const text = `[listener]
ip_address = "localhost"
port = "3001"
[listener.tls]
cert = 1
[service]
rule_sets = ["ok.toml", 2]
middlewares = "m.rhai"
fallback_respond_dir = false
strategy = "priority"
cors_allow_credentials_origins = [1]
max_request_body_bytes = -1
middleware_max_operations = 0
[log.verbose]
header = "yes"
[file_tree_view]
include = 1
extra_excludes = "x"
show_hidden = 1
`;
  assert.deepEqual(decode(text).messages, [
    '2:14 `listener.ip_address` must be an IP address such as 127.0.0.1 or ::1, found `localhost`',
    '3:8 `listener.port` must be an integer, found a string',
    '5:8 `listener.tls.cert` must be a string, found an integer',
    '4:1 missing required key `key` in `listener.tls`',
    '7:25 `service.rule_sets[1]` must be a string, found an integer',
    '8:15 `service.middlewares` must be an array, found a string',
    '9:24 `service.fallback_respond_dir` must be a string, found a boolean',
    '10:12 strategy `priority` needs the table form, e.g. priority = { tiebreaker = "first_match" }',
    '11:35 `service.cors_allow_credentials_origins[0]` must be a string, found an integer',
    '12:26 `service.max_request_body_bytes` must be an integer from 0 to 9007199254740991, found -1',
    '13:29 `service.middleware_max_operations` must be an integer from 1 to 9007199254740991, found 0',
    '15:10 `log.verbose.header` must be a boolean (true or false), found a string',
    '17:11 `file_tree_view.include` must be a glob string or an array of glob strings, found an integer',
    '18:18 `file_tree_view.extra_excludes` must be an array, found a string',
    '19:15 `file_tree_view.show_hidden` must be a boolean (true or false), found an integer',
  ]);
});

test('a TOML syntax error stops decoding and is positioned', () => {
  const r = decodeRootConfig('[service]\nrule_sets = [\n', FILE, CWD);
  assert.equal(r.parsed, false);
  assert.equal(r.decode.diagnostics.length, 1);
  assert.equal(r.decode.diagnostics[0]!.code, 'toml_syntax');
  assert.equal(r.decode.diagnostics[0]!.file, FILE);
  assert.ok(r.decode.diagnostics[0]!.line !== undefined && r.decode.diagnostics[0]!.column !== undefined);
});
