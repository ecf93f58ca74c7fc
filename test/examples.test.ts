// The examples are tests. For every examples/<name>/: its README's console blocks run against the example (a copy
// in a temp folder, served by the real program on port 0; `localhost:3001` and the TLS port rewritten to the real
// ones) and print exactly what the README says; its TOML files pass ajv (draft-07) and `taplo lint` against the
// generated schemas, and `mock validate`. examples/README.md lists every folder.
// EXAMPLES_UPDATE=1 rewrites the outputs in the READMEs from a run (then read the diff before committing).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'smol-toml';
import { selfSignedPair, writePair } from './e2e/server-harness.js';
import { consoleSteps, parseCurl, runCurl, shellWords, trimOutput } from './examples/readme.js';
import { makeTempDir, removeDir, runMock, spawnMock, type RunningMock } from './helpers/mock-cli.js';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++, dir = dirname(dir)) if (existsSync(join(dir, 'src', 'main.ts'))) return dir;
  throw new Error('package root not found');
}
const ROOT = findRoot();
const EXAMPLES = join(ROOT, 'examples');
const NAMES = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();
const UPDATE = process.env['EXAMPLES_UPDATE'] === '1';
/** Examples whose workspace is committed; the others make it in their README (`mock --init --from …`). */
const SHIPPED = NAMES.filter((n) => existsSync(join(EXAMPLES, n, 'mock.toml')));
const HTTP_PORT = 3001;
const TLS_PORT = 3443;

const ajv = new Ajv({ strict: false });
const validateRoot = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'schema', 'mock.schema.json'), 'utf8')) as object);
const validateRuleSet = ajv.compile(
  JSON.parse(readFileSync(join(ROOT, 'schema', 'mock-rule-set.schema.json'), 'utf8')) as object,
);

type Toml = Record<string, unknown>;
const tomlOf = (file: string): Toml => parse(readFileSync(file, 'utf8'));
const ruleSetsOf = (dir: string): string[] =>
  ((tomlOf(join(dir, 'mock.toml'))['service'] as Toml | undefined)?.['rule_sets'] as string[] | undefined) ?? [];

/** A copy of the example with its TLS pair generated (and the TLS port set to 0). */
async function prepare(name: string): Promise<{ dir: string; tls: boolean }> {
  const dir = makeTempDir(`mock-example-${name}-`);
  cpSync(join(EXAMPLES, name), dir, { recursive: true });
  if (!existsSync(join(dir, 'mock.toml'))) return { dir, tls: false }; // its README makes the workspace
  const config = tomlOf(join(dir, 'mock.toml'));
  const tls = (config['listener'] as Toml | undefined)?.['tls'] as Toml | undefined;
  if (tls !== undefined) {
    const certPath = tls['cert'] as string;
    const keyPath = tls['key'] as string;
    mkdirSync(dirname(join(dir, certPath)), { recursive: true });
    writePair(dirname(join(dir, certPath)), await selfSignedPair(), {
      cert: certPath.split('/').pop()!,
      key: keyPath.split('/').pop()!,
    });
    const text = readFileSync(join(dir, 'mock.toml'), 'utf8');
    writeFileSync(join(dir, 'mock.toml'), text.replace(/(\[listener\.tls\][^[]*?)port = \d+/, '$1port = 0'));
  }
  return { dir, tls: tls?.['port'] !== undefined };
}

const temps: string[] = [];
after(async () => {
  for (const d of temps) await removeDir(d);
});

test('every example folder has a README saying what it shows and how to run it', () => {
  const missing = NAMES.filter((n) => !existsSync(join(EXAMPLES, n, 'README.md')));
  assert.deepEqual(missing, []);
});

test('examples/README.md lists every example folder', () => {
  const index = readFileSync(join(EXAMPLES, 'README.md'), 'utf8');
  const missing = NAMES.filter((n) => !index.includes(`](${n}/)`));
  assert.deepEqual(missing, []);
  assert.ok(NAMES.length >= 8, NAMES.join(', '));
});

test("every example's TOML files pass taplo lint against the schemas (and taplo does reject a misspelt key)", () => {
  const taplo = join(ROOT, 'node_modules', '@taplo', 'cli', 'dist', 'cli.js');
  const lint = (schema: string, files: readonly string[]): { status: number | null; out: string } => {
    const r = spawnSync(
      process.execPath,
      [
        taplo,
        'lint',
        '--no-auto-config',
        '--colors',
        'never',
        '--schema',
        `file://${join(ROOT, 'schema', schema)}`,
        ...files,
      ],
      {
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    return { status: r.status, out: r.stdout + r.stderr };
  };
  const roots = SHIPPED.map((n) => join(EXAMPLES, n, 'mock.toml'));
  const ruleSets = SHIPPED.flatMap((n) => ruleSetsOf(join(EXAMPLES, n)).map((f) => join(EXAMPLES, n, f)));
  const a = lint('mock.schema.json', roots);
  assert.equal(a.status, 0, a.out);
  const b = lint('mock-rule-set.schema.json', ruleSets);
  assert.equal(b.status, 0, b.out);
  const dir = makeTempDir('mock-taplo-');
  temps.push(dir);
  writeFileSync(join(dir, 'bad.toml'), '[listener]\nprot = 3000\n');
  const c = lint('mock.schema.json', [join(dir, 'bad.toml')]);
  assert.notEqual(c.status, 0, c.out);
  assert.match(c.out, /prot/);
});

/**
 * The library's examples are test suites, run under their own runners by test/e2e/library-packaging.test.ts; the
 * Playwright one by test/e2e/playwright-example.test.ts.
 */
const LIBRARY_EXAMPLE = (name: string): boolean => name.startsWith('library-') || name === 'playwright';

for (const name of NAMES.filter(LIBRARY_EXAMPLE)) {
  test(`example ${name}`, {
    skip: 'a test-suite example: its tests run under their own runner (test/e2e/library-packaging.test.ts, test/e2e/playwright-example.test.ts)',
  }, () => {});
}

for (const name of NAMES.filter((n) => !LIBRARY_EXAMPLE(n))) {
  describe(`example ${name}`, () => {
    const src = join(EXAMPLES, name);
    const files = (): { file: string; root: boolean }[] => [
      { file: join(src, 'mock.toml'), root: true },
      ...ruleSetsOf(src).map((f) => ({ file: join(src, f), root: false })),
    ];

    const shipped = SHIPPED.includes(name);
    test('its TOML files pass the schema (ajv) and name it in a #:schema line', (t) => {
      if (!shipped) {
        // the README makes the workspace; its files are checked with ajv once made (below)
        assert.match(
          readFileSync(join(src, 'README.md'), 'utf8'),
          /^\$ mock --init\b/m,
          'an example without mock.toml makes it in its README',
        );
        return t.skip('the workspace is made by the README (checked after its steps)');
      }
      for (const { file, root } of files()) {
        const ok = (root ? validateRoot : validateRuleSet)(tomlOf(file));
        assert.ok(ok, `${file}: ${JSON.stringify((root ? validateRoot : validateRuleSet).errors)}`);
        const first = readFileSync(file, 'utf8').split('\n')[0];
        assert.equal(first, `#:schema ../../schema/${root ? 'mock' : 'mock-rule-set'}.schema.json`, file);
      }
    });

    test('mock validate passes, and every console block prints what the README says', async () => {
      const { dir, tls } = await prepare(name);
      temps.push(dir);
      if (shipped) {
        const v = await runMock(['validate'], { cwd: dir });
        assert.equal(v.code, 0, v.stdout + v.stderr);
      }

      const readmePath = join(src, 'README.md');
      const readme = readFileSync(readmePath, 'utf8');
      const steps = consoleSteps(readme);
      assert.ok(steps.length > 0, 'the README has console blocks');
      let server: RunningMock | undefined;
      const ports = new Map<number, number>();
      const actuals: string[] = [];
      try {
        for (const step of steps) {
          const words = shellWords(step.command);
          let out: string;
          if (words[0] === 'curl') {
            if (server === undefined) {
              server = await spawnMock([], { cwd: dir });
              ports.set(HTTP_PORT, server.port);
              if (tls) {
                const deadline = Date.now() + 10_000;
                while (
                  server.stdoutLines.filter((l) => l.startsWith('Listening on')).length < 2 &&
                  Date.now() < deadline
                )
                  await new Promise((r) => setTimeout(r, 20));
                const https = server.stdoutLines
                  .map((l) => /^Listening on https:\/\/[^ ]*:(\d+) /.exec(l))
                  .find((m) => m !== null);
                assert.ok(https, server.stdoutLines.join('\n'));
                ports.set(TLS_PORT, Number(https[1]));
              }
            }
            const call = parseCurl(
              words
                .slice(1)
                .map((w) => w.replace(/localhost:(\d+)/g, (m, p: string) => `localhost:${ports.get(Number(p)) ?? p}`)),
            );
            out = await runCurl(call, dir);
          } else if (words[0] === 'mock') {
            const r = await runMock(words.slice(1), { cwd: dir });
            out = r.stdout + r.stderr;
          } else if (words[0] === 'node' && server !== undefined) {
            // a client script of the example, pointed at the running server
            const r = spawnSync(process.execPath, words.slice(1), {
              cwd: dir,
              encoding: 'utf8',
              timeout: 30_000,
              env: { ...process.env, MOCK_URL: `http://localhost:${server.port}` },
            });
            out = r.stdout + r.stderr;
          } else
            throw new Error(
              `README.md:${step.line}: only curl, mock and (after a curl) node lines run: ${step.command}`,
            );
          out = trimOutput(out.split(dir).join('.'));
          // the real ports back to the README's (absolute location and link headers name the server's own)
          for (const [shown, real] of ports) out = out.split(`localhost:${real}`).join(`localhost:${shown}`);
          actuals.push(out);
          if (!UPDATE) assert.equal(out, step.expected, `README.md:${step.line}: $ ${step.command}`);
        }
      } finally {
        await server?.stop();
      }
      if (UPDATE) writeFileSync(readmePath, rewrite(readme, actuals));
      if (!shipped) {
        // the workspace the README made: the schema and `mock validate` accept it
        assert.ok(existsSync(join(dir, 'mock.toml')), 'the README made a mock.toml');
        assert.ok(validateRoot(tomlOf(join(dir, 'mock.toml'))), JSON.stringify(validateRoot.errors));
        for (const f of ruleSetsOf(dir))
          assert.ok(validateRuleSet(tomlOf(join(dir, f))), `${f}: ${JSON.stringify(validateRuleSet.errors)}`);
        const v = await runMock(['validate'], { cwd: dir });
        assert.equal(v.code, 0, v.stdout + v.stderr);
      }
    });
  });
}

/** The README with each step's output replaced by `actuals` (in order). */
function rewrite(readme: string, actuals: readonly string[]): string {
  const lines = readme.split('\n');
  const out: string[] = [];
  let inBlock = false;
  let skipping = false;
  let n = 0;
  for (const line of lines) {
    if (!inBlock) {
      out.push(line);
      if (line.trim() === '```console') inBlock = true;
      continue;
    }
    if (line.trim() === '```') {
      inBlock = false;
      skipping = false;
      out.push(line);
      continue;
    }
    if (line.startsWith('$ ')) {
      out.push(line);
      const a = actuals[n++] ?? '';
      if (a !== '') out.push(...a.split('\n'));
      skipping = true;
      continue;
    }
    if (!skipping) out.push(line);
  }
  return out.join('\n');
}
