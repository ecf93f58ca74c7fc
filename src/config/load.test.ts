// loadWorkspace and loadRuleSetFile against real temporary directories.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { materialize } from '../../test/fixtures/bad-configs.js';
import { formatDiagnostic } from '../model/diagnostic.js';
import type { Workspace } from '../model/workspace.js';
import { loadRuleSetFile, loadWorkspace, type LoadFailure, type LoadOptions } from './load.js';

async function withDir<T>(files: Record<string, string>, fn: (dir: string) => Promise<T>): Promise<T> {
  const { dir, cleanup } = await materialize(files);
  try {
    return await fn(dir);
  } finally {
    await cleanup();
  }
}

async function loaded(opts: LoadOptions): Promise<Workspace> {
  const r = await loadWorkspace(opts);
  if (!r.ok) assert.fail(r.error.diagnostics.map((d) => formatDiagnostic(d)).join('\n'));
  return r.value;
}

async function failed(opts: LoadOptions): Promise<LoadFailure> {
  const r = await loadWorkspace(opts);
  assert.equal(r.ok, false, 'the load must fail');
  return (r as { error: LoadFailure }).error;
}

const lines = (f: LoadFailure, dir: string): string[] =>
  f.diagnostics.map((d) => formatDiagnostic(d, (p) => p.replace(dir + '/', '')));

test('zero-config: no mock.toml → every default, fallback and base = cwd', () =>
  withDir({}, async (dir) => {
    const ws = await loaded({ cwd: dir });
    assert.equal(ws.configFile, undefined);
    assert.equal(ws.baseDir, dir);
    assert.equal(ws.fallbackDir, dir);
    assert.equal(ws.config.listener.ipAddress, '127.0.0.1');
    assert.equal(ws.config.listener.port, 3001);
    assert.equal(ws.config.listener.tls, undefined);
    assert.equal(ws.config.service.maxRequestBodyBytes, 33554432);
    assert.deepEqual(ws.config.service.strategy, { kind: 'first_match' });
    assert.deepEqual(ws.config.log.verbose, { header: false, body: false });
    assert.deepEqual(ws.ruleSets, []);
    assert.deepEqual(ws.middlewares, []);
    assert.deepEqual(ws.cors, { allowedOrigins: [] });
    assert.deepEqual(ws.warnings, []);
  }));

test('-p overrides the port; -d overrides the fallback directory relative to cwd and must exist', () =>
  withDir(
    {
      'data/x.json': '{}',
      'mock.toml': '[listener]\nport = 4000\n[service]\nfallback_respond_dir = "missing-but-overridden"\n',
    },
    async (dir) => {
      const ws = await loaded({ cwd: dir, port: 0, dir: 'data' });
      assert.equal(ws.config.listener.port, 0);
      assert.equal(ws.fallbackDir, join(dir, 'data'));
      assert.equal((await loaded({ cwd: dir, dir: './data' })).fallbackDir, join(dir, 'data'));
      const f = await failed({ cwd: dir, dir: 'nodir' });
      assert.equal(f.kind, 'config_invalid');
      assert.deepEqual(lines(f, dir), ['error: fallback directory given with -d (`nodir`) does not exist']);
      const zero = await failed({ cwd: join(dir, 'data'), dir: 'nodir' });
      assert.match(zero.diagnostics[0]!.message, /-d .*`nodir`/);
    },
  ));

test('./mock.toml in cwd is loaded when no config is named; a named one that is missing is config_unreadable', () =>
  withDir({ 'mock.toml': '[listener]\nport = 4555\n' }, async (dir) => {
    const ws = await loaded({ cwd: dir });
    assert.equal(ws.configFile, join(dir, 'mock.toml'));
    assert.equal(ws.config.listener.port, 4555);
    assert.equal((await loaded({ cwd: dir, configPath: 'mock.toml' })).config.listener.port, 4555);
    assert.equal((await loaded({ cwd: dir, configPath: './mock.toml' })).config.listener.port, 4555);
    const f = await failed({ cwd: dir, configPath: 'nope.toml' });
    assert.equal(f.kind, 'config_unreadable');
    assert.equal(f.diagnostics[0]!.code, 'file_not_found');
    assert.equal(f.diagnostics[0]!.file, join(dir, 'nope.toml'));
    assert.match(f.message, /config file `nope\.toml` does not exist/);
  }));

test('a config that is a directory is config_unreadable', () =>
  withDir({ 'mock.toml/x': '' }, async (dir) => {
    const f = await failed({ cwd: dir });
    assert.equal(f.kind, 'config_unreadable');
    assert.match(f.message, /cannot be read: it is a directory/);
  }));

test('paths resolve against the config folder ("." too), respond files against it as well, TLS against cwd', () =>
  withDir(
    {
      'proj/cfg/mock.toml': `[listener.tls]
cert = "certs/c.pem"
key = "certs/k.pem"
[service]
rule_sets = ["rules/rs.toml"]
fallback_respond_dir = "."
strategy = "round_robin"
cors_allow_credentials_origins = ["https://app.example"]
`,
      'proj/cfg/rules/rs.toml':
        '[[rules]]\nwhen.request.url_path = "/r"\nrespond.file_path = "r.json"\n[[rules]]\nwhen.request.url_path = "/d"\nrespond.file_path = "dir"\n',
      'proj/cfg/r.json': '{"from":"config dir"}',
      'proj/cfg/dir/index.json': '[]',
      'proj/certs/c.pem': 'not parsed here',
      'proj/certs/k.pem': 'not parsed here',
    },
    async (dir) => {
      const cwd = join(dir, 'proj');
      const ws = await loaded({ cwd, configPath: 'cfg/mock.toml' });
      const cfg = join(cwd, 'cfg');
      assert.equal(ws.configFile, join(cfg, 'mock.toml'));
      assert.equal(ws.baseDir, cfg);
      assert.equal(ws.fallbackDir, cfg);
      assert.deepEqual(ws.config.service.ruleSets, [join(cfg, 'rules/rs.toml')]);
      assert.equal(ws.config.listener.tls?.cert, join(cwd, 'certs/c.pem'));
      assert.equal(ws.config.listener.tls?.key, join(cwd, 'certs/k.pem'));
      const rs = ws.ruleSets[0]!;
      assert.equal(rs.entry, 'rules/rs.toml');
      assert.deepEqual(rs.strategy, { kind: 'round_robin' }, 'service.strategy is the default');
      assert.deepEqual(rs.rules[0]!.respond.body, { kind: 'file', path: join(cfg, 'r.json'), confineTo: cfg });
      assert.deepEqual(rs.rules[1]!.respond.body, { kind: 'file', path: join(cfg, 'dir'), confineTo: cfg });
      assert.deepEqual(ws.cors, { allowedOrigins: ['https://app.example'] });
      // the same workspace from a different cwd: TLS paths now resolve elsewhere and are missing
      const f = await failed({ cwd: cfg, configPath: 'mock.toml' });
      assert.deepEqual(lines(f, cfg), [
        'mock.toml:2:8: error: TLS certificate file `certs/c.pem` does not exist',
        'mock.toml:3:7: error: TLS private key file `certs/k.pem` does not exist',
      ]);
    },
  ));

test('missing files named by mock.toml are reported at their entries; every file is checked', () =>
  withDir(
    {
      'mock.toml': `[service]
rule_sets = ["good.toml", "nope.toml", "bad-syntax.toml", "bad-key.toml"]
middlewares = ["gone.rhai"]
fallback_respond_dir = "nodir"
surprise = 1
`,
      'good.toml': '[[rules]]\nwhen.request.url_path = "/a"\nrespond.file_path = "missing.json"\n',
      'bad-syntax.toml': '[[rules]\n',
      'bad-key.toml': '[[rules]]\nwhen.request.url_pth = "/a"\nrespond.text = "x"\n',
    },
    async (dir) => {
      const f = await failed({ cwd: dir });
      assert.equal(f.kind, 'config_invalid');
      assert.equal(f.message, 'the configuration has 7 errors');
      assert.deepEqual(lines(f, dir), [
        'mock.toml:2:27: error: rule-set file `nope.toml` does not exist',
        'mock.toml:3:16: error: middleware script `gone.rhai` does not exist',
        'mock.toml:4:24: error: fallback directory `nodir` does not exist',
        'mock.toml:5:1: error: unknown key `surprise` in `service`; allowed keys: `rule_sets`, `middlewares`, `fallback_respond_dir`, `strategy`, `cors_allow_credentials_origins`, `max_request_body_bytes`, `max_json_depth`, `max_json_members`, `deny`, `middleware_max_operations`, `middleware_max_memory_bytes`, `db`, `db_persist`, `db_style`, `collection_max_items`, `collection_max_depth`, `seed`, `delay`, `fault_hold_ms`, `contract`, `contract_mode`, `sessions`, `session_header`, `session_cookie`, `session_idle_ms`, `session_max`, `callback_hosts`, `callback_max`, `callback_shutdown`',
        'good.toml:3:21: error: rule #1: respond file `missing.json` does not exist',
        'bad-syntax.toml:1:9: error: invalid TOML: missing "]" to close [[rules] (an array of tables is written [[rules]])',
        'bad-key.toml:2:14: error: rule #1: unknown key `url_pth` in `when.request`; allowed keys: `url_path`, `method`, `headers`, `query`, `cookies`, `params`, `body`, `url` (did you mean `url_path`?)',
      ]);
    },
  ));

test('a TOML syntax error in mock.toml ends there (its rule sets are unknown)', () =>
  withDir({ 'mock.toml': '[service]\nrule_sets = ["a.toml"\n' }, async (dir) => {
    const f = await failed({ cwd: dir });
    assert.equal(f.diagnostics.length, 1);
    assert.equal(f.diagnostics[0]!.code, 'toml_syntax');
  }));

test('fallback_respond_dir naming a file is refused', () =>
  withDir({ 'mock.toml': '[service]\nfallback_respond_dir = "f.json"\n', 'f.json': '{}' }, async (dir) => {
    assert.deepEqual(lines(await failed({ cwd: dir }), dir), [
      'mock.toml:2:24: error: fallback directory `f.json` is not a directory',
    ]);
  }));

test('respond files on disk: invalid JSON (also a directory index) fails the load; JSON5 targets are read as JSON5', () =>
  withDir(
    {
      'mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
      'rs.toml': ['bad.json', 'ok.json5', 'bad.json5', 'idx', 'page.txt', 'empty']
        .map((p, i) => `[[rules]]\nwhen.request.url_path = "/${i}"\nrespond.file_path = "${p}"\n`)
        .join(''),
      'bad.json': '{"a": }',
      'ok.json5': '{a: 1,}',
      'bad.json5': '{a: }',
      'idx/index.json': '[1,',
      'page.txt': 'not json, not checked',
      'empty/readme.md': '',
    },
    async (dir) => {
      const got = lines(await failed({ cwd: dir }), dir);
      assert.equal(got.length, 4, got.join('\n'));
      assert.match(got[0]!, /^rs\.toml:3:21: error: rule #1: respond file `bad\.json` is not valid JSON/);
      assert.match(got[1]!, /^rs\.toml:9:21: error: rule #3: respond file `bad\.json5` is not valid JSON/);
      assert.match(got[2]!, /^rs\.toml:12:21: error: rule #4: respond file `idx` is not valid JSON/);
      assert.match(got[3]!, /^rs\.toml:18:21: error: rule #6: respond file `empty` is a directory without index/);
    },
  ));

test('middleware scripts: missing, compile errors as positioned diagnostics, and MiddlewareScript.dir', () =>
  withDir(
    {
      'mock.toml': '[service]\nmiddlewares = ["scripts/bad.rhai", "scripts/good.rhai"]\n',
      'scripts/bad.rhai': 'let = ;\n',
      'scripts/good.rhai': 'if url_path == "/x" { return "x.json"; }\n',
    },
    async (dir) => {
      const r = await loadWorkspace({ cwd: dir });
      assert.equal(r.ok, false);
      if (r.ok) return;
      const bad = r.error.diagnostics.find((d) => d.file === join(dir, 'scripts/bad.rhai'));
      assert.ok(bad, 'the syntax error names the script');
      assert.equal(bad.code, 'script_syntax');
      assert.equal(typeof bad.line, 'number');
      assert.equal(typeof bad.column, 'number');
      assert.match(bad.message, /^middleware script does not compile: /);
      // good.rhai compiles with the real interpreter; the placeholder refuses it the same positioned way
      for (const d of r.error.diagnostics) assert.equal(d.code, 'script_syntax');
    },
  ));

test('a compiled middleware keeps its file, entry and directory', () =>
  withDir({ 'mock.toml': '[service]\nmiddlewares = ["s/m.rhai"]\n', 's/m.rhai': 'let a = 1;\n' }, async (dir) => {
    const r = await loadWorkspace({ cwd: dir });
    if (r.ok) {
      const m = r.value.middlewares[0]!;
      assert.deepEqual([m.file, m.entry, m.dir], [join(dir, 's/m.rhai'), 's/m.rhai', join(dir, 's')]);
    } else {
      // the placeholder interpreter refuses every script: still a positioned diagnostic naming it
      assert.deepEqual(
        r.error.diagnostics.map((d) => [d.code, d.file]),
        [['script_syntax', join(dir, 's/m.rhai')]],
      );
    }
  }));

test('the loaded workspace is frozen all the way down and carries load warnings', () =>
  withDir(
    {
      'mock.toml': '[service]\nrule_sets = ["rs.toml"]\n',
      'rs.toml':
        '[[rules]]\nwhen.request.body.json."$.a" = { value = "1" }\nwhen.request.url_path = { value = "^/a", op = "regex" }\nrespond.headers = { X-A = "1" }\nrespond.text = "x"\n',
    },
    async (dir) => {
      const ws = await loaded({ cwd: dir });
      assert.equal(ws.warnings.length, 1);
      assert.equal(ws.warnings[0]!.severity, 'warning');
      assert.equal(ws.warnings[0]!.file, join(dir, 'rs.toml'));
      const rule = ws.ruleSets[0]!.rules[0]!;
      for (const o of [
        ws,
        ws.config,
        ws.config.listener,
        ws.config.service.ruleSets,
        ws.ruleSets,
        ws.ruleSets[0],
        rule,
        rule.conditions,
        rule.conditions[0],
        rule.respond,
        rule.respond.headers,
        rule.respond.headers[0],
        ws.warnings,
      ]) {
        assert.ok(Object.isFrozen(o));
      }
      assert.throws(() => {
        (ws.config.listener as { port: number }).port = 1;
      }, TypeError);
      const c = rule.conditions[1]!;
      assert.ok(c.on === 'url_path' && c.pattern !== undefined && c.pattern.test('/a'), 'compiled patterns still work');
    },
  ));

test('loadRuleSetFile: one file, respond files against its own folder unless a base is given', () =>
  withDir(
    {
      'rs/rules.toml': '[[rules]]\nwhen.request.url_path = "/a"\nrespond.file_path = "a.json"\n',
      'rs/a.json': '{}',
      'bad.toml': '[[rules]]\nwhen.request.url_pth = "/a"\nrespond.text = "x"\n',
    },
    async (dir) => {
      const r = await loadRuleSetFile('rs/rules.toml', { cwd: dir });
      assert.ok(r.ok);
      assert.equal(r.value.file, join(dir, 'rs/rules.toml'));
      assert.equal(r.value.entry, 'rs/rules.toml');
      assert.deepEqual(r.value.rules[0]!.respond.body, {
        kind: 'file',
        path: join(dir, 'rs/a.json'),
        confineTo: join(dir, 'rs'),
      });
      assert.ok(Object.isFrozen(r.value.rules));

      const withBase = await loadRuleSetFile('./rs/rules.toml', { cwd: dir, baseDir: '.' });
      assert.equal(withBase.ok, false, 'a.json is not in the given base');
      if (!withBase.ok) assert.match(withBase.error.diagnostics[0]!.message, /respond file `a\.json` does not exist/);

      const missing = await loadRuleSetFile('nope.toml', { cwd: dir });
      assert.ok(
        !missing.ok &&
          missing.error.kind === 'config_unreadable' &&
          missing.error.diagnostics[0]!.code === 'file_not_found',
      );

      const bad = await loadRuleSetFile('bad.toml', { cwd: dir });
      assert.ok(!bad.ok && bad.error.kind === 'config_invalid');
      if (!bad.ok)
        assert.match(
          formatDiagnostic(bad.error.diagnostics[0]!),
          /bad\.toml:2:14: error: rule #1: unknown key `url_pth`/,
        );
    },
  ));

test('a rule set listed twice loads twice, with its own index each time', () =>
  withDir({ 'mock.toml': '[service]\nrule_sets = ["rs.toml", "./rs.toml"]\n', 'rs.toml': '' }, async (dir) => {
    const ws = await loaded({ cwd: dir });
    assert.deepEqual(
      ws.ruleSets.map((r) => [r.index, r.entry, r.file]),
      [
        [0, 'rs.toml', join(dir, 'rs.toml')],
        [1, './rs.toml', join(dir, 'rs.toml')],
      ],
    );
  }));

test('an unreadable (directory) rule-set entry is reported at its entry', () =>
  withDir({ 'mock.toml': '[service]\nrule_sets = ["sub"]\n' }, async (dir) => {
    await mkdir(join(dir, 'sub'));
    assert.deepEqual(lines(await failed({ cwd: dir }), dir), [
      'mock.toml:2:14: error: rule-set file `sub` cannot be read: it is a directory',
    ]);
  }));
