// The import table between src/ folders, checked over src/**: which folder may import which, where I/O may
// happen, that nothing but main.ts imports cli/, and that the folder-level import graph has no cycle.
// Reads the TypeScript sources (found from the compiled test's location: <out>/test → <repo>/src by
// walking up to the package root). Test files (*.test.ts) and test fixtures (any fixtures/ folder) are exempt.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

function findSrc(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++, dir = dirname(dir)) if (existsSync(join(dir, 'src', 'main.ts'))) return join(dir, 'src');
  throw new Error('src/main.ts not found above ' + fileURLToPath(import.meta.url));
}
const SRC = findSrc();

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : walk(join(dir, e.name));
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [];
  });
}

interface Import {
  readonly spec: string;
  readonly typeOnly: boolean;
}

function importsOf(text: string): Import[] {
  // line comments first: a path such as `inspector/*` in a line comment would otherwise open a block comment
  const code = text.replace(/^\s*\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const out: Import[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm))
    out.push({ spec: m[2]!, typeOnly: m[1] !== undefined });
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

const IO_MODULES = new Set([
  'node:fs',
  'node:fs/promises',
  'node:http',
  'node:https',
  'node:http2',
  'node:net',
  'node:tls',
  'node:process',
]);
/** The only places that may touch the filesystem, the network or the process, so everything else can be tested
 * as pure functions and reused by `mock get` and the tests without a server. */
const IO_ALLOWED = (file: string): boolean =>
  file === 'main.ts' ||
  file.startsWith('node/') ||
  file.startsWith('server/') ||
  file.startsWith('callbacks/') ||
  file === 'config/read.ts' ||
  file.startsWith('config/edit/io/') ||
  file.startsWith('contract/io/') ||
  file.startsWith('cli/commands/') ||
  file.startsWith('workspace/') ||
  file.startsWith('start-up/') ||
  file.startsWith('inspector/') ||
  file.startsWith('launch/') ||
  file.startsWith('library/');

const under = (t: string, folders: readonly string[]): boolean => folders.some((p) => t.startsWith(p));

/** start-up/'s pure parts (a rule set decoded on first need, the load cache's types), which the pure rooms see */
const startUpPure = (t: string): boolean => t === 'start-up/lazy-rule-set.ts' || t === 'start-up/cache-types.ts';

/** module → may it import this src-relative target (or external package)? No row but cli's and main.ts's allows cli/. */
const RULES: Readonly<Record<string, (target: string, typeOnly: boolean, file: string) => boolean>> = {
  // helpers every folder may use: no I/O, no project types
  // (re2js: the patterns a request supplies are matched in linear time, shared/linear-regex.ts)
  shared: (t, _typeOnly, file) =>
    t.startsWith('shared/') ||
    (t.startsWith('node:') && !IO_MODULES.has(t)) ||
    (file === 'shared/linear-regex.ts' && t === 're2js'),
  // the Rhai interpreter is a self-contained language runtime: the rest of the program reaches it through index.ts
  interpreter: (t) => t.startsWith('interpreter/'),
  // runtime state (scenarios, collections, round-robin counters) behind one store interface; pure, in memory
  // (pluralize: a relation's names are made singular and plural as json-server makes them, relations.ts)
  state: (t, _typeOnly, file) =>
    under(t, ['state/', 'model/', 'shared/']) ||
    startUpPure(t) ||
    (file === 'state/collections/relations.ts' && t === 'pluralize') ||
    // the shared store's adapter speaks to Redis through its client (docs/scale.md)
    (file.startsWith('state/redis/') && t === 'ioredis'),
  // the types everything shares; it names the interpreter's types only, so models never run scripts
  model: (t, typeOnly) => under(t, ['model/', 'shared/']) || (typeOnly && t === 'interpreter/index.ts'),
  // matching is pure over model values, so it can be table-tested and shared by the server and `mock get`
  // (round-robin counters and scenario states live in the state store, a pure leaf)
  routing: (t) =>
    under(t, ['routing/', 'model/', 'shared/']) ||
    t === 'state/store.ts' ||
    t === 'state/scenarios.ts' ||
    startUpPure(t),
  // resolving and converting files through the FileSource port, never the disk itself
  // (the json5 package only in the transcoder's test, as a second opinion on values: a devDependency)
  files: (t, _typeOnly, file) =>
    under(t, ['files/', 'model/', 'shared/']) || (t === 'json5' && file === 'files/json5.test.ts') || t === 'picomatch',
  // decoding the config and planning edits (.json5 files and respond.json are checked with the transcoder that
  // serves them, files/json5.ts); only config/read.ts and the editor's I/O half (config/edit/io/) touch
  // the disk, the latter through node/'s safe writes
  config: (t, _typeOnly, file) =>
    under(t, ['config/', 'model/', 'shared/']) ||
    t === 'interpreter/index.ts' ||
    t === 'files/json5.ts' ||
    // a collection's data file passes the deny list file routing uses
    t === 'files/deny.ts' ||
    // a stream file's `: delay` lines are checked at load with the parser's own pattern
    t === 'files/stream-file.ts' ||
    ['toml-eslint-parser', 'smol-toml'].includes(t) ||
    t.startsWith('node:') ||
    (file.startsWith('config/edit/io/') && t.startsWith('node/')) ||
    // set rule names the rule it edits (`GET /b`) in the words `get --why` uses, and says when it can never answer
    (file === 'config/edit/io/set-rule.ts' && (t === 'routing/describe.ts' || t === 'routing/shadow.ts')) ||
    // response templates are compiled at load, so a broken one is a load error at its line
    t === 'templates/index.ts' ||
    t === 'templates/names.ts' ||
    // a rule set the load cache vouches for is a LazyRuleSet; the loader stamps what its decoding looked at
    startUpPure(t) ||
    ((file === 'config/load.ts' || file === 'config/read.ts') && t === 'start-up/stamps.ts'),
  // one request in, one answer out: the server, `mock get` and the tests share it
  dispatch: (t) =>
    under(t, ['dispatch/', 'model/', 'shared/', 'routing/', 'files/', 'state/']) ||
    startUpPure(t) ||
    t === 'interpreter/index.ts' ||
    // form bodies: multipart needs a streaming parser, handed to the request parts from here
    t === 'busboy' ||
    // a templated rule's answer is rendered per request
    t === 'templates/index.ts',
  // response templates: compiled at load (config/) and rendered per request (dispatch/); pure, no I/O
  templates: (t) =>
    under(t, ['templates/', 'model/', 'shared/']) ||
    ['handlebars', 'handlebars/dist/cjs/handlebars.js', '@faker-js/faker/locale/en'].includes(t),
  // the adapters to Node: the file cache behind the FileSource port, TLS material, safe writes
  node: (t) => under(t, ['node/', 'model/', 'shared/']) || t === 'files/source.ts' || t.startsWith('node:'),
  // start-up in one room (start-up/README.md): the load cache on disk, rule sets decoded on first need or after the
  // server listens, file stamps, the V8 settings of a start; it sees only the model
  'start-up': (t) => under(t, ['start-up/', 'model/', 'shared/']) || t.startsWith('node:'),
  // the listener: it owns its RotationState and names the FileSource port type; its record mode plans through
  // record/; it captures exchanges into the request journal
  server: (t, typeOnly, file) =>
    under(t, ['server/', 'dispatch/', 'model/', 'shared/', 'node/', 'journal/', 'state/', 'start-up/', 'callbacks/']) ||
    t.startsWith('node:') ||
    t === 'routing/rotation.ts' ||
    (typeOnly && t === 'files/source.ts') ||
    (file.startsWith('server/record/') && t.startsWith('record/')) ||
    // WebSocket frames are read and written by the `ws` package (no frame parser of our own)
    (file.startsWith('server/websocket/') && t === 'ws') ||
    // record mode's pass-through of upgrades; the hook type names the listener's `ws` server
    ((file === 'server/record/websocket.ts' || (typeOnly && file === 'server/hooks.ts')) && t === 'ws'),
  // the request journal, pure with its clock injected; its entries take `get`'s explain-view encoder from
  // dispatch/ so the two can never describe a match differently
  journal: (t) => under(t, ['journal/', 'model/', 'shared/', 'dispatch/']),
  // record mode's pure planning; the proxying and writing are in server/record/ (they run inside the listener)
  record: (t) => under(t, ['record/', 'model/', 'shared/', 'files/', 'config/edit/']),
  // the live workspace's watcher and tracked loading: it loads through config/ so the server need not; it also
  // names a workspace's files the way `get` does (the explain view's ShownPaths type)
  workspace: (t, typeOnly) =>
    under(t, ['workspace/', 'config/', 'model/', 'shared/', 'start-up/']) ||
    t.startsWith('node:') ||
    (typeOnly && t === 'dispatch/explain-view.ts'),
  // the management listener's routes: server-side I/O like server/; the rules POST runs set rule's core
  // (config/edit/) and answers in the CLI's envelope (model/envelope.ts); the file tree reuses the file router's
  // confinement
  inspector: (t) =>
    under(t, ['inspector/', 'model/', 'shared/', 'journal/', 'server/', 'config/edit/', 'state/', 'callbacks/']) ||
    t.startsWith('node:') ||
    ['files/paths.ts', 'picomatch', 'ignore'].includes(t),
  // WireMock's admin API beside the management routes: thin adapters over overrides, journal, scenarios and reset
  // (through a port launch/ gives them); a posted stub goes through the import's own translation
  management: (t, typeOnly) =>
    under(t, ['management/', 'model/', 'shared/', 'import/']) ||
    t === 'inspector/security.ts' ||
    t === 'templates/index.ts' ||
    t === 'smol-toml' ||
    (typeOnly && (t === 'inspector/router.ts' || t === 'journal/entry.ts')),
  // the one start-up path `mock serve` and the library share: load, journal, management listener (the inspector
  // and the journal's routes, WireMock's admin API), server, watcher, and closing them in reverse
  launch: (t, _typeOnly, file) =>
    under(t, [
      'management/',
      'launch/',
      'journal/',
      'model/',
      'shared/',
      'server/',
      'workspace/',
      'inspector/',
      'dispatch/',
      'state/',
      'start-up/',
      'callbacks/',
    ]) ||
    t.startsWith('node:') ||
    // the offline environment (launch/offline.ts): the disk as `mock get` reads it, fresh counters, a load's failure
    (file === 'launch/offline.ts' &&
      ['node/file-cache/fs-source.ts', 'routing/rotation.ts', 'config/load.ts', 'files/source.ts'].includes(t)) ||
    // record mode's set-up (launch/record/): the workspace's layout checked on disk, and the rules it records
    // committed through `set rule`'s planner and atomic writes
    (file.startsWith('launch/record/') &&
      (under(t, ['record/', 'config/edit/']) || t === 'config/load.ts' || t === 'config/respond-files.ts')),
  // the public library: startMock() is launch() plus its handle
  library: (t) =>
    under(t, ['library/', 'launch/', 'journal/', 'model/', 'shared/', 'state/', 'callbacks/']) || t.startsWith('node:'),
  // the commands: they may use every room below them; the server only through its start-up path
  // (a HAR import hands its entries to record mode's recorder, so it saves them as a live recording would)
  cli: (t) =>
    !t.startsWith('.') &&
    t !== 'main.ts' &&
    (!t.startsWith('server/') || t === 'server/start.ts' || t === 'server/record/recorder.ts'),
  // `mock --init --from`'s pure planning; bundled apart so other commands never load it
  openapi: (t) => under(t, ['openapi/', 'model/', 'shared/']) || t === 'randexp',
  // checking a workspace and its traffic against an OpenAPI document: pure; validators compiled with ajv at load;
  // it reads the document through openapi/ and runs requests through dispatch/ (as `mock get` does)
  // (its I/O half, contract/io/, reads the workspace's files and record mode's index, and sends to the upstream)
  contract: (t, _typeOnly, file) =>
    under(t, ['contract/', 'openapi/', 'model/', 'shared/', 'dispatch/', 'files/', 'routing/']) ||
    ['ajv', 'ajv/dist/2020.js', 'ajv-formats'].includes(t) ||
    (file.startsWith('contract/io/') && (t.startsWith('node:') || under(t, ['record/']))),
  // the other formats `--init --from` reads, decoded purely to one neutral plan, rendered with the OpenAPI
  // import's TOML writers (record mode's planner for HAR)
  import: (t) =>
    under(t, ['import/', 'model/', 'shared/', 'record/']) ||
    t === 'dispatch/snapshot.ts' ||
    t === 'openapi/render.ts' ||
    t === 'config/path-template.ts' ||
    t === 'openapi/paths.ts',
  // callbacks (docs/callbacks.md): sending the planned callbacks of written answers, at the Node edge; dispatch
  // plans them, the server hands them over, the library and the management listener read the records
  callbacks: (t) => under(t, ['callbacks/', 'model/', 'shared/']) || t.startsWith('node:'),
  // `mock mcp`'s server: its tools run the commands through a port the command builds (cli/commands/mcp.ts), so it
  // sees only the envelope and the MCP SDK; it resolves paths to keep every write inside the workspace
  mcp: (t) =>
    under(t, ['mcp/', 'model/', 'shared/']) ||
    (t.startsWith('node:') && !IO_MODULES.has(t)) ||
    t === 'zod/v4' ||
    t.startsWith('@modelcontextprotocol/sdk/'),
  'main.ts': (t) => t === 'cli/run.ts' || t === 'cli/io.ts' || t.startsWith('node:'),
};

const moduleOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : file);

/** Every import of every non-test file in src/, as (importing file, src-relative target or package, type-only). */
function allImports(): { file: string; target: string; typeOnly: boolean }[] {
  return walk(SRC).flatMap((abs) => {
    const file = relative(SRC, abs).split('\\').join('/');
    return importsOf(readFileSync(abs, 'utf8')).map(({ spec, typeOnly }) => ({
      file,
      target: spec.startsWith('.')
        ? posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts')
        : spec,
      typeOnly,
    }));
  });
}

test('every import in src/ follows the allowed-dependencies table', () => {
  const violations: string[] = [];
  for (const { file, target, typeOnly } of allImports()) {
    const module = moduleOf(file);
    const rule = RULES[module];
    if (rule === undefined) violations.push(`${file}: no rule for module '${module}'`);
    else if (IO_MODULES.has(target) && !IO_ALLOWED(file))
      violations.push(`${file}: imports ${target} (I/O only where IO_ALLOWED says)`);
    else if (!rule(target, typeOnly, file)) violations.push(`${file}: may not import ${target}`);
  }
  assert.deepEqual([...new Set(violations)], []);
});

test('nothing but main.ts imports cli/', () => {
  const outside = allImports().filter(
    ({ file, target }) => target.startsWith('cli/') && !file.startsWith('cli/') && file !== 'main.ts',
  );
  assert.deepEqual(
    outside.map(({ file, target }) => `${file}: imports ${target}`),
    [],
  );
});

/** The folders that import each other, directly or through others: the strongly connected components with more than one folder. */
export function folderCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

test('no two folders of src/ import each other, directly or through others (type-only imports included)', () => {
  const edges = new Map<string, Set<string>>();
  for (const { file, target } of allImports()) {
    if (!target.startsWith('.') && !/^[a-z-]+\//.test(target) && target !== 'main.ts') continue;
    const from = moduleOf(file);
    const to = moduleOf(target);
    if (!(to in RULES) || to === from) continue;
    edges.set(from, (edges.get(from) ?? new Set()).add(to));
  }
  assert.ok(edges.size >= 10, `only ${edges.size} folders seen`);
  assert.deepEqual(folderCycles(edges), []);
});

test('the cycle check finds a cycle through a third folder, and none in a chain', () => {
  const graph = (pairs: [string, string][]): Map<string, Set<string>> => {
    const m = new Map<string, Set<string>>();
    for (const [a, b] of pairs) m.set(a, (m.get(a) ?? new Set()).add(b));
    return m;
  };
  assert.deepEqual(
    folderCycles(
      graph([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ),
    [['a', 'b', 'c']],
  );
  assert.deepEqual(
    folderCycles(
      graph([
        ['a', 'b'],
        ['b', 'c'],
        ['a', 'c'],
      ]),
    ),
    [],
  );
});

test('the import scanner sees static, type-only, re-export and dynamic imports', () => {
  const seen = importsOf(
    `import { a } from './a.js';\nimport type { B } from "../b.js";\nexport { c } from './c.js';\n// import x from './commented.js';\nconst d = await import('./d.js');\nimport './side.js';`,
  );
  assert.deepEqual(seen, [
    { spec: './a.js', typeOnly: false },
    { spec: '../b.js', typeOnly: true },
    { spec: './c.js', typeOnly: false },
    { spec: './side.js', typeOnly: false },
    { spec: './d.js', typeOnly: false },
  ]);
});

/** The shapes and the schema walkers sit on the decoder kit, model/ and shared/ only (no I/O, no loader), so the
 * generator can walk them without loading a config. */
const SHAPE_KIT = new Set([
  'config/decode.ts',
  'config/shape-types.ts',
  'config/messages.ts',
  'config/toml.ts',
  'config/ip-address.ts',
  'config/strategy.ts',
]);
const SUBFOLDER_RULES: Readonly<Record<string, (target: string) => boolean>> = {
  'config/shapes/': (t) =>
    t.startsWith('config/shapes/') ||
    t.startsWith('model/') ||
    t.startsWith('shared/') ||
    SHAPE_KIT.has(t) ||
    t === 'templates/names.ts',
  'config/schema/': (t) =>
    t.startsWith('config/schema/') || t.startsWith('model/') || t.startsWith('shared/') || SHAPE_KIT.has(t),
};

test('config/shapes/ and config/schema/ import only the decoder kit, model/ and shared/', () => {
  const violations: string[] = [];
  let checked = 0;
  for (const abs of walk(SRC)) {
    const file = relative(SRC, abs).split('\\').join('/');
    const folder = Object.keys(SUBFOLDER_RULES).find((f) => file.startsWith(f));
    if (folder === undefined) continue;
    checked++;
    for (const { spec } of importsOf(readFileSync(abs, 'utf8'))) {
      const target = spec.startsWith('.')
        ? posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts')
        : spec;
      if (!SUBFOLDER_RULES[folder]!(target)) violations.push(`${file}: may not import ${target}`);
    }
  }
  assert.deepEqual(violations, []);
  assert.ok(checked >= 4, `only ${checked} files checked`);
});

/** cli/commands/ files that still do their own file or network I/O: each moves its I/O half next to its
 * feature (as workspace/scaffold.ts, node/delivered-file.ts, config/edit/io/ and contract/io/ did) and leaves this
 * list; no other command may start. */
const COMMANDS_WITH_IO = new Set([
  'cli/commands/db-flags.ts',
  'cli/commands/import-har.ts',
  'cli/commands/import-source.ts',
  'cli/commands/init-openapi-progress.ts',
  'cli/commands/init-openapi-update.ts',
  'cli/commands/init-openapi.ts',
  'cli/commands/listener-prompts.ts',
  'cli/commands/mcp-describe.ts',
  'cli/commands/mcp.ts',
  'cli/commands/openapi-load.ts',
  'cli/commands/serve.ts',
]);

test('cli/commands/ parse and render: only the listed commands still import node:fs, node:net and the like', () => {
  const found = new Set(
    allImports()
      .filter((i) => i.file.startsWith('cli/commands/') && IO_MODULES.has(i.target))
      .map((i) => i.file),
  );
  const extra = [...found].filter((f) => !COMMANDS_WITH_IO.has(f));
  assert.deepEqual(extra, [], `these commands do their own I/O; move it next to the feature:\n${extra.join('\n')}`);
  const stale = [...COMMANDS_WITH_IO].filter((f) => !found.has(f));
  assert.deepEqual(stale, [], `these no longer do I/O; take them off COMMANDS_WITH_IO:\n${stale.join('\n')}`);
});

test('offlineEnv() is the only place an offline dispatch environment is made', () => {
  // the server keeps its own counters (server/live.ts, server/scopes.ts); everything that answers without a server
  // takes launch/offline.ts's, so a new capability's offline default is written once
  const allowed = new Set(['launch/offline.ts', 'server/live.ts', 'server/scopes.ts']);
  const handBuilt = walk(SRC)
    .map((abs) => ({ file: relative(SRC, abs).split('\\').join('/'), text: readFileSync(abs, 'utf8') }))
    .filter(
      ({ file, text }) => !allowed.has(file) && /new RotationState\(|createFsSource\(\{ watch: false \}\)/.test(text),
    )
    .map(({ file }) => file);
  assert.deepEqual(handBuilt, []);
});

// The request path stays readable: a new capability is a stage or a hook of its own, not another branch in a long
// function (docs/architecture.md#the-pipeline).
const REQUEST_PATH = ['server/', 'dispatch/', 'routing/'];
const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 400;

test(`no function on the request path is over ${MAX_FUNCTION_LINES} lines, no file over ${MAX_FILE_LINES}`, () => {
  const long: string[] = [];
  for (const abs of walk(SRC)) {
    const file = relative(SRC, abs).split('\\').join('/');
    if (!REQUEST_PATH.some((p) => file.startsWith(p))) continue;
    const text = readFileSync(abs, 'utf8');
    const lines = text.split('\n').length;
    if (lines > MAX_FILE_LINES) long.push(`${file}: ${lines} lines`);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
        const from = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const to = source.getLineAndCharacterOfPosition(node.end).line;
        if (to - from + 1 > MAX_FUNCTION_LINES) long.push(`${file}:${from + 1}: a function of ${to - from + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, []);
});
