#!/usr/bin/env node
// The program as shipped, in dist/bin/:
//   mock.cjs        dist/src/main.js (compiled by tsc) and everything it imports, dependencies included, bundled
//                   by esbuild into one CommonJS file (modules reached only through import() stay lazy: they are
//                   initialised on first use)
//   mock.cjs.cache  V8's code cache for it, made here by running the program once (a short server session)
//   main.cjs        the entry `bin.mock` names (scripts/bin-loader.cjs): runs mock.cjs through that cache
//   ui/             the inspector's page (src/inspector/ui: index.html, app.css, and app.js bundled here from app.ts
//                   and its panel modules; `tsc -p src/inspector/ui` type-checks them), also beside the compiled
//                   router in dist/src/inspector/ui/
//   (the library, `import { startMock } from 'folder-mock'`, is tsc's dist/lib: ESM with .d.ts, no bundle)
//   openapi.cjs     `mock --init --from` and its dependencies, required by mock.cjs only when that command runs
//   contract.cjs    `validate --against` and `serve --contract` (the OpenAPI parser and ajv), required only then
//   mcp.cjs         `mock mcp`'s server and the MCP SDK it is built on, required only when that command runs
// Why: Node's ES module loader opens, reads and compiles every module file separately, and compiling is most of
// a command's start-up; with one file and its code cache, `mock get` starts ~25 % sooner and the server answers
// its first request sooner. The end-to-end tests spawn dist/bin/main.cjs, so they test what users run.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'bin');
rmSync(out, { recursive: true, force: true });
// `mock --init --from` (an OpenAPI parser, a JSON-schema validator, a YAML parser: over 1 MB) is bundled apart, in
// openapi.cjs beside mock.cjs, and required only when it runs: every other command starts without reading it.
const OPENAPI_ENTRY = /[\\/]cli[\\/]commands[\\/]init-openapi\.js$/;
const CONTRACT_ENTRY = /[\\/]cli[\\/]commands[\\/]contract-entry\.js$/;
const MCP_ENTRY = /[\\/]cli[\\/]commands[\\/]mcp-entry\.js$/;
// The response-template engine (handlebars) and faker are bundled apart too, in handlebars.cjs and faker.cjs, and
// required only when a workspace has templates (faker: when a template uses it): nothing else reads them.
// So is re2js, the linear-time engine of a collection's `_like` filter, in re2js.cjs: required with the first one.
const APART = {
  'handlebars/dist/cjs/handlebars.js': './handlebars.cjs',
  '@faker-js/faker/locale/en': './faker.cjs',
  re2js: './re2js.cjs',
};
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // main.ts finds its package.json from its own location
  define: { 'import.meta.url': '__mockFileUrl' },
  banner: { js: "const __mockFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  // whitespace and syntax only (names are kept, so a stack trace still names functions): 1.4 MB of source becomes
  // 0.95 MB, read from disk at every start
  minifyWhitespace: true,
  minifySyntax: true,
};
await build({
  ...common,
  entryPoints: ['dist/src/main.js'],
  outfile: 'dist/bin/mock.cjs',
  plugins: [
    {
      name: 'openapi-apart',
      setup(b) {
        b.onResolve({ filter: /init-openapi\.js$/ }, (args) =>
          OPENAPI_ENTRY.test(join(args.resolveDir, args.path)) ? { path: './openapi.cjs', external: true } : undefined,
        );
        b.onResolve({ filter: /contract-entry\.js$/ }, (args) =>
          CONTRACT_ENTRY.test(join(args.resolveDir, args.path))
            ? { path: './contract.cjs', external: true }
            : undefined,
        );
        b.onResolve({ filter: /mcp-entry\.js$/ }, (args) =>
          MCP_ENTRY.test(join(args.resolveDir, args.path)) ? { path: './mcp.cjs', external: true } : undefined,
        );
        b.onResolve(
          { filter: /^(handlebars\/dist\/cjs\/handlebars\.js|@faker-js\/faker\/locale\/en|re2js)$/ },
          (args) => ({
            path: APART[args.path],
            external: true,
          }),
        );
      },
    },
  ],
});
await build({ ...common, entryPoints: ['dist/src/cli/commands/init-openapi.js'], outfile: 'dist/bin/openapi.cjs' });
await build({ ...common, entryPoints: ['dist/src/cli/commands/contract-entry.js'], outfile: 'dist/bin/contract.cjs' });
await build({ ...common, entryPoints: ['dist/src/cli/commands/mcp-entry.js'], outfile: 'dist/bin/mcp.cjs' });
await build({
  ...common,
  entryPoints: ['node_modules/handlebars/dist/cjs/handlebars.js'],
  outfile: 'dist/bin/handlebars.cjs',
});
await build({
  ...common,
  entryPoints: ['node_modules/@faker-js/faker/dist/locale/en.cjs'],
  outfile: 'dist/bin/faker.cjs',
});
await build({ ...common, entryPoints: ['node_modules/re2js/build/index.cjs'], outfile: 'dist/bin/re2js.cjs' });
// mock.cjs is not run directly (main.cjs runs it): its first line must be code, not main.ts's #! line
const bundled = join(out, 'mock.cjs');
// and it is kept ASCII: V8 holds a script's source for lazy compilation, and one character above U+00FF (a `…` in a
// comment) makes the whole 1 MB source a two-byte string (2 MB resident in every process). Escaping is exact in
// strings, regular expressions, comments and identifiers; esbuild already escapes most strings itself.
// A dynamic import() of a Node built-in (in a dependency) or of openapi.cjs stays an import() in esbuild's CommonJS
// output, and main.cjs runs the bundle as a vm.Script, where import() is not available: they become require()s.
const builtins = new Set(builtinModules);
for (const file of [
  bundled,
  join(out, 'openapi.cjs'),
  join(out, 'contract.cjs'),
  join(out, 'mcp.cjs'),
  join(out, 'handlebars.cjs'),
  join(out, 'faker.cjs'),
  join(out, 're2js.cjs'),
]) {
  const ascii = readFileSync(file, 'utf8')
    .replace(/^#![^\n]*\n/, '')
    .replace(
      /\bimport\("((?:node:)?[a-z_/]+|\.\/(?:openapi|contract|mcp|handlebars|faker|re2js)\.cjs)"\)/g,
      (m, name) =>
        builtins.has(name.replace(/^node:/, '')) || name.endsWith('.cjs')
          ? `Promise.resolve(require("${name}")).then((m) => ({ default: m, ...m }))`
          : m,
    )
    .replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(file, ascii);
}
copyFileSync(join(root, 'scripts', 'bin-loader.cjs'), join(out, 'main.cjs'));
chmodSync(join(out, 'main.cjs'), 0o755);

// The inspector's page: the router finds it as ui/ next to its own module (dist/src/inspector/ui when run from the
// compiled tree, dist/bin/ui in the bundle, where import.meta.url is mock.cjs's).
const uiSrc = join(root, 'src', 'inspector', 'ui');
const uiCompiled = join(root, 'dist', 'src', 'inspector', 'ui');
mkdirSync(join(out, 'ui'), { recursive: true });
// one module for the browser: the router serves app.js only, and one request loads the page's code
await build({
  absWorkingDir: root,
  entryPoints: [join(uiSrc, 'app.ts')],
  outfile: join(uiCompiled, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  logLevel: 'warning',
});
for (const f of ['index.html', 'app.css']) copyFileSync(join(uiSrc, f), join(uiCompiled, f));
for (const f of ['index.html', 'app.css', 'app.js']) copyFileSync(join(uiCompiled, f), join(out, 'ui', f));
// and beside the library's compiled router (dist/lib/inspector/ui), which `startMock({ inspect })` serves
const uiLib = join(root, 'dist', 'lib', 'inspector', 'ui');
mkdirSync(uiLib, { recursive: true });
for (const f of ['index.html', 'app.css', 'app.js']) copyFileSync(join(uiCompiled, f), join(uiLib, f));

// The code cache: one short server session over a workspace with a rule, a script and a file, so the functions
// a command or a request uses are in it. Bounded: the session is stopped after its answers or after 20 s.
const ws = mkdtempSync(join(tmpdir(), 'mock-bundle-'));
try {
  writeFileSync(join(ws, 'mock.toml'), '[service]\nrule_sets = ["rules.toml"]\nmiddlewares = ["mw.rhai"]\n');
  writeFileSync(
    join(ws, 'rules.toml'),
    '[[rules]]\nwhen.request.url_path = "/rule"\nwhen.request.method = "GET"\nrespond.json = \'{"ok":true}\'\n',
  );
  writeFileSync(join(ws, 'mw.rhai'), 'if url_path == "/mw" { return #{ text: "mw" }; }\n');
  writeFileSync(join(ws, 'a.json'), '{"a":1}\n');
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(out, 'main.cjs'), '-p', '0'], {
      cwd: ws,
      env: { ...process.env, MOCK_BUILD_WRITE_CODE_CACHE: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      if (code === 0) resolve();
      else reject(new Error(`the code-cache session ended with ${signal ?? code}`));
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', async (d) => {
      const before = text;
      text += d;
      const m = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text);
      if (m === null || /Listening on/.test(before)) return;
      for (const path of ['/rule', '/mw', '/a', '/missing']) {
        await new Promise((done) =>
          request({ host: '127.0.0.1', port: Number(m[1]), path }, (res) => res.resume().on('end', done))
            .on('error', done)
            .end(),
        );
      }
      child.kill('SIGTERM');
    });
  });
} catch (e) {
  // The cache only speeds start-up: without it the program compiles as usual.
  rmSync(join(out, 'mock.cjs.cache'), { force: true });
  console.warn(`bundle: no code cache made (${e instanceof Error ? e.message : String(e)}); start-up will be slower`);
} finally {
  rmSync(ws, { recursive: true, force: true });
}
