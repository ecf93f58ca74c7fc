// The import rules of ARCHITECTURE.md §2 ("Allowed dependencies") and §5 rule 12, checked over src/**.
// Reads the TypeScript sources (found from the compiled test's location: <out>/test → <repo>/src by
// walking up to the package root). Test files (*.test.ts) and test fixtures (any fixtures/ folder) are exempt.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

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

interface Import { readonly spec: string; readonly typeOnly: boolean }

function importsOf(text: string): Import[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: Import[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push({ spec: m[2]!, typeOnly: m[1] !== undefined });
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

const IO_MODULES = new Set(['node:fs', 'node:fs/promises', 'node:http', 'node:https', 'node:http2', 'node:net', 'node:tls', 'node:process']);
/** §5 rule 12: the only places that may touch the filesystem, the network or the process. */
const IO_ALLOWED = (file: string): boolean =>
  file === 'main.ts' || file.startsWith('node/') || file.startsWith('server/') || file === 'config/read.ts' || file.startsWith('cli/commands/') ||
  file.startsWith('workspace/') || file.startsWith('inspector/') || file.startsWith('library/');

/** module → may it import this src-relative target (or external package)? */
const RULES: Readonly<Record<string, (target: string, typeOnly: boolean, file: string) => boolean>> = {
  shared: (t) => t.startsWith('shared/') || (t.startsWith('node:') && !IO_MODULES.has(t)),
  interpreter: (t) => t.startsWith('interpreter/'),
  model: (t, typeOnly) => t.startsWith('model/') || t.startsWith('shared/') || (typeOnly && t === 'interpreter/index.ts'),
  routing: (t) => ['routing/', 'model/', 'shared/'].some((p) => t.startsWith(p)),
  files: (t) => ['files/', 'model/', 'shared/'].some((p) => t.startsWith(p)) || t === 'json5',
  config: (t) =>
    ['config/', 'model/', 'shared/'].some((p) => t.startsWith(p)) || t === 'interpreter/index.ts' ||
    ['toml-eslint-parser', 'smol-toml', 'json5'].includes(t) || t.startsWith('node:') || t === 'templates/index.ts' || t === 'templates/names.ts',
  dispatch: (t) =>
    ['dispatch/', 'model/', 'shared/', 'routing/', 'files/'].some((p) => t.startsWith(p)) || t === 'interpreter/index.ts' || t === 'busboy' ||
    t === 'templates/index.ts',
  // §8: response templates, compiled at load (config/) and rendered per request (dispatch/); pure, no I/O
  templates: (t) => ['templates/', 'model/', 'shared/'].some((p) => t.startsWith(p)) || t === 'handlebars' || t === 'handlebars/dist/cjs/handlebars.js' || t === '@faker-js/faker/locale/en',
  node: (t) => t.startsWith('node/') || t.startsWith('model/') || t === 'files/source.ts' || t.startsWith('node:'),
  // the server also owns its RotationState (§4) and names the FileSource port type; its record mode plans through record/;
  // it captures exchanges into the request journal
  server: (t, typeOnly, file) =>
    ['server/', 'dispatch/', 'model/', 'shared/', 'node/'].some((p) => t.startsWith(p)) || t.startsWith('node:') ||
    t === 'routing/rotation.ts' || (typeOnly && t === 'files/source.ts') ||
    (file.startsWith('server/record/') && t.startsWith('record/')) || t.startsWith('journal/'),
  // ARCHITECTURE §7: the request journal; pure (clock injected). It takes get's explain-view encoder from dispatch/.
  journal: (t) => ['journal/', 'model/', 'shared/', 'dispatch/'].some((p) => t.startsWith(p)),
  // §7: record mode's pure planning; the proxying and writing are in server/record/
  record: (t) => ['record/', 'model/', 'shared/', 'files/', 'config/edit/'].some((p) => t.startsWith(p)),
  // the live workspace's watcher and tracked loading (§7): it loads through config/ so the server need not
  workspace: (t) => ['workspace/', 'config/', 'model/', 'shared/'].some((p) => t.startsWith(p)) || t.startsWith('node:'),
  // the management listener's routes (§7): server-side I/O like server/; the rules POST runs `set rule`'s own
  // function and envelope; the file tree reuses the file router's confinement
  inspector: (t) =>
    ['inspector/', 'model/', 'shared/', 'journal/', 'server/', 'config/edit/'].some((p) => t.startsWith(p)) || t.startsWith('node:') ||
    ['files/paths.ts', 'cli/envelope.ts', 'cli/commands/set-rule.ts', 'cli/render/set.ts', 'picomatch', 'ignore'].includes(t),
  cli: (t, _typeOnly, file) =>
    t.startsWith('server/') ? file === 'cli/commands/serve.ts' && t === 'server/start.ts' : !t.startsWith('.') && t !== 'main.ts',
  // §7: the public library (library/index.ts) and the one start-up path it shares with `mock serve`: it binds the
  // management listener and mounts the inspector and the journal's routes; `get`'s file naming comes from cli/paths.ts
  library: (t) =>
    ['library/', 'journal/', 'model/', 'shared/', 'server/', 'workspace/', 'inspector/', 'dispatch/'].some((p) => t.startsWith(p)) ||
    t.startsWith('node:') || ['cli/paths.ts', 'cli/envelope.ts'].includes(t),
  openapi: (t) => ['openapi/', 'model/', 'shared/'].some((p) => t.startsWith(p)) || t === 'openapi-sampler',
  'main.ts': (t) => t === 'cli/run.ts' || t === 'cli/io.ts' || t.startsWith('node:'),
};

test('every import in src/ follows the allowed-dependencies table', () => {
  const violations: string[] = [];
  for (const abs of walk(SRC)) {
    const file = relative(SRC, abs).split('\\').join('/');
    const module = file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
    const rule = RULES[module];
    if (rule === undefined) {
      violations.push(`${file}: no rule for module '${module}'`);
      continue;
    }
    for (const { spec, typeOnly } of importsOf(readFileSync(abs, 'utf8'))) {
      const target = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts') : spec;
      if (IO_MODULES.has(target) && !IO_ALLOWED(file)) violations.push(`${file}: imports ${target} (I/O only in node/, server/, workspace/, inspector/, config/read.ts, cli/commands/, main.ts)`);
      else if (!rule(target, typeOnly, file)) violations.push(`${file}: may not import ${target}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('the import scanner sees static, type-only, re-export and dynamic imports', () => {
  const seen = importsOf(`import { a } from './a.js';\nimport type { B } from "../b.js";\nexport { c } from './c.js';\n// import x from './commented.js';\nconst d = await import('./d.js');\nimport './side.js';`);
  assert.deepEqual(seen, [
    { spec: './a.js', typeOnly: false },
    { spec: '../b.js', typeOnly: true },
    { spec: './c.js', typeOnly: false },
    { spec: './side.js', typeOnly: false },
    { spec: './d.js', typeOnly: false },
  ]);
});

/** ARCHITECTURE §7: the shapes and the schema walkers sit on the decoder kit, model/ and shared/ only (no I/O, no loader). */
const SHAPE_KIT = new Set(['config/decode.ts', 'config/shape.ts', 'config/messages.ts', 'config/toml.ts', 'config/ip-address.ts', 'config/strategy.ts']);
const SUBFOLDER_RULES: Readonly<Record<string, (target: string) => boolean>> = {
  'config/shapes/': (t) => t.startsWith('config/shapes/') || t.startsWith('model/') || t.startsWith('shared/') || SHAPE_KIT.has(t) || t === 'templates/names.ts',
  'config/schema/': (t) => t.startsWith('config/schema/') || t.startsWith('model/') || t.startsWith('shared/') || SHAPE_KIT.has(t),
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
      const target = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '.ts') : spec;
      if (!SUBFOLDER_RULES[folder]!(target)) violations.push(`${file}: may not import ${target}`);
    }
  }
  assert.deepEqual(violations, []);
  assert.ok(checked >= 4, `only ${checked} files checked`);
});
