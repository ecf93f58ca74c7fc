// `mock --init --from <openapi document>` end to end: the real program imports the fixtures into empty temp
// folders, `mock validate` passes, and the real server answers every operation's default response with the
// documented status, content type and a body valid against the response schema (ajv), `Prefer: code=…` selects
// the others, missing credentials get 401. Also: byte-identical re-runs, a second import beside the first,
// broken documents (exit 2, nothing written), and a 1,000-operation document.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BROKEN, PETSTORE_30, SHAPES_30, STORE_31, type DocFixture } from '../fixtures/openapi-docs.js';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';
import { draft07 } from '../helpers/openapi-schema.js';
import { header, send } from './server-harness.js';
import { fileTree } from '../helpers/file-tree.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

type Obj = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isJson(t: string): boolean {
  return t === 'application/json' || t.endsWith('+json');
}

interface Op {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly op: Obj;
}

function operations(doc: Obj): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(doc['paths'] as Obj)) {
    for (const m of METHODS) {
      const op = (item as Obj)[m] as Obj | undefined;
      if (op !== undefined)
        out.push({
          label: (op['operationId'] as string | undefined) ?? `${m.toUpperCase()} ${path}`,
          method: m.toUpperCase(),
          path,
          op,
        });
    }
  }
  return out;
}

function defaultKey(responses: Obj): string {
  const success = Object.keys(responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort()[0];
  return success ?? 'default';
}

function makeAjv(openapi: string): { compile(schema: object): ValidateFunction } {
  const options = { strict: false, allErrors: true, logger: false as const };
  if (openapi.startsWith('3.1')) {
    const ajv2020 = new Ajv2020(options);
    addFormats(ajv2020);
    return ajv2020;
  }
  const ajv = addFormats(new Ajv(options));
  return { compile: (schema) => ajv.compile(draft07(schema) as object) };
}

async function importInto(
  fx: DocFixture,
  root: string,
  ws: string,
  extra: readonly string[] = [],
  timeoutMs?: number,
): Promise<ReturnType<typeof runMock>> {
  mkdirSync(ws, { recursive: true });
  return runMock(['--init', '--from', relative(ws, join(root, fx.main)), '--yes', ...extra], {
    cwd: ws,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

for (const fx of [PETSTORE_30, STORE_31]) {
  describe(`mock --init --from: ${fx.name}`, () => {
    let root: string;
    let ws: string;
    let doc: Obj;
    let server: RunningMock;
    let report: { operations: { operation: string; outcome: string }[] };

    before(async () => {
      root = makeTempDir('mock-openapi-');
      await writeTree(root, fx.files);
      ws = join(root, 'ws');
      const r = await importInto(fx, root, ws, ['--format', 'json']);
      assert.equal(r.code, 0, r.stderr + r.stdout);
      report = (JSON.parse(r.stdout) as { result: typeof report }).result;
      doc = (await SwaggerParser.dereference(join(root, fx.main))) as unknown as Obj;
      server = await spawnMock([], { cwd: ws });
    });
    after(async () => {
      await server?.stop();
      await removeDir(root);
    });

    it('mock validate exits 0', async () => {
      const v = await runMock(['validate'], { cwd: ws });
      assert.equal(v.code, 0, v.stderr + v.stdout);
    });

    it('one report entry per operation: the inexpressible ones skipped with a reason', () => {
      const ops = operations(doc);
      assert.deepEqual(report.operations.map((o) => o.operation).sort(), ops.map((o) => o.label).sort());
      for (const o of report.operations)
        assert.equal(o.outcome, fx.skipped.includes(o.operation) ? 'skipped' : 'written', o.operation);
    });

    it('answers every operation: default status, content type, a body valid against the schema; Prefer: code selects the others', async () => {
      const ajv = makeAjv(String(doc['openapi']));
      let checked = 0;
      for (const o of operations(doc)) {
        if (fx.skipped.includes(o.label)) continue;
        const path = fx.base + o.path.replace(/\{[^}]+\}/g, 'p1');
        const responses = o.op['responses'] as Obj;
        const keys = [
          defaultKey(responses),
          ...Object.keys(responses).filter((k) => /^\d{3}$/.test(k) && k !== defaultKey(responses)),
        ];
        for (const [i, key] of keys.entries()) {
          const headers: Record<string, string> = { ...fx.auth, ...(i === 0 ? {} : { prefer: `code=${key}` }) };
          const res = await send(server.port, { method: o.method, path, headers });
          const what = `${o.label} ${key}`;
          assert.equal(res.status, key === 'default' ? 200 : Number(key), what);
          const content = (responses[key] as Obj)['content'] as Obj | undefined;
          if (content === undefined) {
            assert.equal(res.body.length, 0, what);
            continue;
          }
          const [type, media] = Object.entries(content).find(([t]) => isJson(t)) ?? Object.entries(content)[0]!;
          assert.equal(header(res, 'content-type')?.split(';')[0], type, what);
          if (o.method === 'HEAD') continue;
          const schema = (media as Obj)['schema'] as object | undefined;
          const value: unknown = isJson(type) ? JSON.parse(res.body.toString('utf8')) : res.body.toString('utf8');
          if (schema !== undefined) {
            const validate = ajv.compile(schema);
            assert.ok(validate(value), `${what}: ${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`);
          }
          checked++;
        }
      }
      assert.ok(checked >= 5, `${checked} bodies checked`);
    });

    it('without credentials: 401 (with www-authenticate for HTTP schemes)', async () => {
      for (const o of operations(doc)) {
        const expected = fx.unauthorized[o.label];
        const res = await send(server.port, { method: o.method, path: fx.base + o.path.replace(/\{[^}]+\}/g, 'p1') });
        if (expected === undefined) {
          if (!fx.skipped.includes(o.label)) assert.notEqual(res.status, 401, o.label);
          continue;
        }
        assert.equal(res.status, 401, o.label);
        assert.equal(header(res, 'www-authenticate'), expected ?? undefined, o.label);
      }
    });

    it('running it again in another empty folder gives byte-identical files', async () => {
      const again = join(root, 'again');
      const r = await importInto(fx, root, again, ['--format', 'json']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(fileTree(again), fileTree(ws));
    });
  });
}

describe('mock --init --from: the pet store specifics', () => {
  let root: string;
  let server: RunningMock;
  before(async () => {
    root = makeTempDir('mock-openapi-');
    await writeTree(root, PETSTORE_30.files);
    const r = await importInto(PETSTORE_30, root, join(root, 'ws'));
    assert.equal(r.code, 0, r.stderr);
    server = await spawnMock([], { cwd: join(root, 'ws') });
  });
  after(async () => {
    await server?.stop();
    await removeDir(root);
  });

  it('named examples: the first by default, the others with Prefer: example=<name> (and with a code)', async () => {
    const get = async (prefer?: string): Promise<{ status: number; body: unknown }> => {
      const res = await send(server.port, {
        path: '/v1/pets/42',
        ...(prefer === undefined ? {} : { headers: { prefer } }),
      });
      return { status: res.status, body: JSON.parse(res.body.toString('utf8')) };
    };
    assert.deepEqual(await get(), { status: 200, body: { id: 1, name: 'Tom', kind: { meows: true } } });
    assert.deepEqual(await get('example=dog'), {
      status: 200,
      body: { id: 2, name: 'Rex', tag: 'dog', kind: { barks: false } },
    });
    assert.deepEqual(await get('code=404'), { status: 404, body: { title: 'gone', status: 404 } });
    assert.deepEqual(await get('code=404, example=never'), {
      status: 404,
      body: { title: 'never existed', status: 404 },
    });
    assert.deepEqual(await get('example=never;code=404'), {
      status: 404,
      body: { title: 'never existed', status: 404 },
    });
  });

  it('a literal path beside a templated one answers its own rule; the base path is required', async () => {
    const mine = await send(server.port, { path: '/v1/pets/mine' });
    assert.deepEqual(JSON.parse(mine.body.toString('utf8')), [{ id: 1, name: 'Mine', kind: { meows: true } }]);
    assert.equal((await send(server.port, { path: '/pets/42' })).status, 404);
    assert.equal((await send(server.port, { path: '/v1/pets/42/extra' })).status, 404);
  });

  it('documented response headers are answered with their examples', async () => {
    const res = await send(server.port, { method: 'POST', path: '/v1/pets', headers: { authorization: 'Bearer t' } });
    assert.equal(res.status, 201);
    assert.equal(header(res, 'location'), '/v1/pets/7');
    assert.equal(header(res, 'x-rate-limit'), '100');
    assert.equal(header(res, 'x-trace'), undefined);
  });

  it('HEAD answers like GET without a body; PATCH matches its own rule', async () => {
    const head = await send(server.port, { method: 'HEAD', path: '/v1/pets/42' });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(
      (await send(server.port, { method: 'HEAD', path: '/v1/pets/42', headers: { prefer: 'code=404' } })).status,
      404,
    );
    const patch = await send(server.port, { method: 'PATCH', path: '/v1/pets/42' });
    assert.equal(patch.status, 200);
    assert.equal(
      (await send(server.port, { method: 'PATCH', path: '/v1/pets/42', headers: { prefer: 'code=409' } })).status,
      409,
    );
  });
});

describe('mock --init --from: the shapes real descriptions show', () => {
  let root: string;
  let ws: string;
  let server: RunningMock;
  let doc: Obj;
  let text: string;
  let report: { operations: { operation: string; outcome: string; pointer: string; notes: string[] }[] };
  const ajv = makeAjv('3.0.3');
  const schemaOf = (path: string, method: string, status: string, type = 'application/json'): object =>
    ((((((doc['paths'] as Obj)[path] as Obj)[method] as Obj)['responses'] as Obj)[status] as Obj)['content'] as Obj)[
      type
    ] as Obj;
  const valid = (value: unknown, schema: unknown, what: string): void => {
    const validate = ajv.compile((schema as Obj)['schema'] as object);
    assert.ok(validate(value), `${what}: ${JSON.stringify(value)} ${JSON.stringify(validate.errors)}`);
  };

  before(async () => {
    root = makeTempDir('mock-openapi-');
    await writeTree(root, SHAPES_30.files);
    ws = join(root, 'ws');
    mkdirSync(ws);
    const j = await runMock(['--init', '--from', '../shapes.yaml', '--yes', '--dry-run', '--format', 'json'], {
      cwd: ws,
    });
    assert.equal(j.code, 0, j.stderr);
    report = (JSON.parse(j.stdout) as { result: typeof report }).result;
    const r = await runMock(['--init', '--from', '../shapes.yaml', '--yes'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    text = r.stdout;
    doc = (await SwaggerParser.dereference(join(root, 'shapes.yaml'))) as unknown as Obj;
    server = await spawnMock([], { cwd: ws });
  });
  after(async () => {
    await server?.stop();
    await removeDir(root);
  });

  it('mock validate exits 0', async () => {
    const v = await runMock(['validate'], { cwd: ws });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  });

  it('a template ending in / answers with and without the trailing slash, with a body valid against its schema', async () => {
    for (const path of ['/v2/maps/m1/collaborators/', '/v2/maps/m1/collaborators']) {
      const res = await send(server.port, { path });
      assert.equal(res.status, 200, path);
      const value = JSON.parse(res.body.toString('utf8')) as { account_sid: string }[];
      valid(value, schemaOf('/maps/{id}/collaborators/', 'get', '200'), path);
      assert.equal(value.length, 2);
      assert.match(value[0]!.account_sid, /^AC[0-9a-fA-F]{32}$/);
    }
    const m = await runMock(
      ['match-test', '--rule-set', 'shapes.toml', '--method', 'GET', '--path', '/v2/maps/m1/collaborators/'],
      { cwd: ws },
    );
    assert.match(
      m.stdout,
      /Rule #\d+: \/maps\/\{id\}\/collaborators\/  MATCH ★\n[\s\S]*Result: MATCH \(rule #\d+\)/,
      m.stdout,
    );
  });

  it('#Header=Value fragments: the header tells operations on one path apart', async () => {
    const add = await send(server.port, {
      method: 'POST',
      path: '/v2/',
      headers: { 'x-amz-target': 'Kinesis_20131202.AddTagsToStream' },
    });
    assert.equal(add.status, 200);
    assert.equal(add.body.length, 0);
    const list = await send(server.port, {
      method: 'POST',
      path: '/v2',
      headers: { 'X-Amz-Target': 'Kinesis_20131202.ListStreams' },
    });
    assert.equal(list.status, 200);
    assert.equal(header(list, 'content-type')?.split(';')[0], 'application/x-amz-json-1.1');
    valid(
      JSON.parse(list.body.toString('utf8')),
      schemaOf('/#X-Amz-Target=Kinesis_20131202.ListStreams', 'post', '200', 'application/x-amz-json-1.1'),
      'ListStreams',
    );
    assert.equal((await send(server.port, { method: 'POST', path: '/v2/' })).status, 404);
    assert.equal(
      (await send(server.port, { method: 'POST', path: '/v2/', headers: { 'x-amz-target': 'Other.Op' } })).status,
      404,
    );
  });

  it('query fragments become query conditions; a fragment naming nothing declared is left out, with its JSON pointer and why', async () => {
    const byOp = new Map(report.operations.map((o) => [o.operation, o]));
    assert.equal(byOp.get('createUser')!.outcome, 'written');
    assert.equal(byOp.get('untagResource')!.outcome, 'written');
    // `#operation=create` is an equal condition on the query parameter, a bare `#tagKeys` an exists one
    assert.equal(
      (await send(server.port, { method: 'POST', path: '/v2/accounts/a1/users?operation=create' })).status,
      201,
    );
    assert.equal((await send(server.port, { method: 'POST', path: '/v2/accounts/a1/users' })).status, 404);
    assert.equal(
      (await send(server.port, { method: 'POST', path: '/v2/accounts/a1/users?operation=delete' })).status,
      404,
    );
    assert.equal(
      (await send(server.port, { method: 'DELETE', path: '/v2/tags/arn1?tagKeys=a&tagKeys=b' })).status,
      204,
    );
    assert.equal((await send(server.port, { method: 'DELETE', path: '/v2/tags/arn1' })).status, 404);
    assert.equal(byOp.get('cancelJob')!.outcome, 'skipped');
    assert.match(byOp.get('cancelJob')!.notes[0]!, /fragment names `Action`, which the operation does not declare/);
    assert.equal(byOp.get('cancelJob')!.pointer, '#/paths/~1jobs#Action=Cancel/post');
    // under the summary line: what was left out and why; one line per operation only with --verbose
    assert.match(text, /^  skipped  #\/paths\/~1jobs#Action=Cancel\/post: /m);
    assert.doesNotMatch(text, /^  written  /m);
    const verbose = await runMock(['--init', '--from', '../shapes.yaml', '--yes', '--dry-run', '--verbose'], {
      cwd: ws,
    });
    assert.equal(verbose.code, 0, verbose.stderr);
    assert.equal(
      verbose.stdout.split('\n')[0]!.replace('Would import', 'Imported'),
      text.split('\n')[0],
      'the same summary line',
    );
    assert.match(verbose.stdout, /  skipped  cancelJob +#\/paths\/~1jobs#Action=Cancel\/post: /);
    assert.match(verbose.stdout, /^  written  /m);
  });

  it('PDF, PNG and octet-stream responses answer a small valid body of their type', async () => {
    const pdf = await send(server.port, { path: '/v2/reports/r1' });
    assert.equal(pdf.status, 200);
    assert.equal(header(pdf, 'content-type'), 'application/pdf');
    const pdfText = pdf.body.toString('latin1');
    assert.match(pdfText, /^%PDF-1\.\d\n/);
    assert.match(pdfText, /\/Type \/Page /);
    // the cross-reference table points at each object
    const xref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdfText)![1]);
    assert.equal(pdfText.slice(xref, xref + 4), 'xref');
    for (const [i, off] of [...pdfText.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map(
      (m, k) => [k + 1, Number(m[1])] as const,
    )) {
      assert.equal(pdfText.slice(off, off + `${i} 0 obj`.length), `${i} 0 obj`);
    }
    const png = await send(server.port, { path: '/v2/avatars/a1' });
    assert.equal(png.status, 200);
    assert.equal(header(png, 'content-type'), 'image/png');
    assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.body.readUInt32BE(16), 1); // width
    assert.equal(png.body.readUInt32BE(20), 1); // height
    const blob = await send(server.port, { path: '/v2/blobs/b1' });
    assert.equal(blob.status, 200);
    assert.equal(header(blob, 'content-type'), 'application/octet-stream');
    assert.equal(blob.body.length, 0);
  });

  it('API keys in the query or a cookie: answered with the key, 401 without it', async () => {
    const search = await send(server.port, { path: '/v2/search?api_key=k' });
    assert.equal(search.status, 200);
    valid(JSON.parse(search.body.toString('utf8')), schemaOf('/search', 'get', '200'), 'search');
    assert.equal((await send(server.port, { path: '/v2/search' })).status, 401);
    const me = await send(server.port, { path: '/v2/me', headers: { cookie: 'theme=dark; session=s1' } });
    assert.equal(me.status, 200);
    assert.equal((await send(server.port, { path: '/v2/me' })).status, 401);
    assert.equal((await send(server.port, { path: '/v2/me', headers: { cookie: 'theme=dark' } })).status, 401);
  });

  it('an example that contradicts its schema is served as given, and named with its JSON pointer', async () => {
    const res = await send(server.port, { path: '/v2/events' });
    assert.deepEqual(JSON.parse(res.body.toString('utf8')), { id: 'not a number' });
    const line = '#/paths/~1events/get/responses/200/content/application~1json/example';
    assert.ok(report.operations.find((o) => o.operation === 'listEvents')!.notes.some((n) => n.includes(line)));
    assert.ok(text.includes(line), text);
  });
});

describe('mock --init --from: a second import into the same workspace', () => {
  let root: string;
  before(async () => {
    root = makeTempDir('mock-openapi-');
    await writeTree(root, PETSTORE_30.files);
  });
  after(async () => removeDir(root));

  it('adds -2 files, lists the new rule set, and keeps the first import and the user comments intact', async () => {
    const ws = join(root, 'ws');
    assert.equal((await importInto(PETSTORE_30, root, ws)).code, 0);
    writeFileSync(
      join(ws, 'mock.toml'),
      readFileSync(join(ws, 'mock.toml'), 'utf8').replace('[service]\n', '[service]\n# my own note\n'),
    );
    writeFileSync(join(ws, 'pet-store.toml'), readFileSync(join(ws, 'pet-store.toml'), 'utf8') + '\n# my rule below\n');
    const first = fileTree(ws);

    const r = await importInto(PETSTORE_30, root, ws, ['--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const result = (
      JSON.parse(r.stdout) as { result: { rule_set: string; created_files: string[]; changed_files: string[] } }
    ).result;
    assert.equal(result.rule_set, 'pet-store-2.toml');
    assert.deepEqual(result.changed_files, ['mock.toml']);
    assert.ok(result.created_files.includes('responses/showPetById/200-cat-2.json'), result.created_files.join(' '));
    const second = fileTree(ws);
    for (const [p, bytes] of first)
      if (p !== 'mock.toml' && p !== '.mock-openapi-index.json') assert.deepEqual(second.get(p), bytes, `${p} kept`);
    const config = second.get('mock.toml')!.toString('utf8');
    assert.match(config, /\[service\]\n# my own note\nrule_sets = \["pet-store\.toml", "pet-store-2\.toml"\]\n/);
    assert.match(
      second.get('pet-store-2.toml')!.toString('utf8'),
      /respond\.file_path = "responses\/showPetById\/200-cat-2\.json"/,
    );
    const v = await runMock(['validate'], { cwd: ws });
    assert.equal(v.code, 0, v.stderr + v.stdout);
  });

  it('--dry-run writes nothing and says what it would write', async () => {
    const ws = join(root, 'dry');
    mkdirSync(ws);
    const r = await importInto(PETSTORE_30, root, ws, ['--dry-run']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^Would import Pet Store 1\.2\.0 \(OpenAPI 3\.0\.3\) from \.\.\/spec\/petstore\.yaml: 8 operations answered, 1 skipped;/,
    );
    assert.match(
      r.stdout,
      /Would write \(--dry-run, nothing written\):\n  - \.\/mock\.toml \(new\)\n  - \.\/pet-store\.toml \(new\)\n  - 10 response files under \.\/responses\/ \(new\)/,
    );
    assert.deepEqual(readdirSync(ws), []);
  });
});

describe('mock --init --from: broken documents exit 2 with the location, and nothing is written', () => {
  for (const b of BROKEN) {
    it(b.name, async () => {
      const root = makeTempDir('mock-openapi-');
      try {
        await writeTree(root, b.files);
        const ws = join(root, 'ws');
        mkdirSync(ws);
        const r = await runMock(['--init', '--from', `../${b.main}`, '--yes'], { cwd: ws });
        assert.equal(r.code, 2, r.stderr + r.stdout);
        assert.match(r.stderr, b.expect);
        assert.deepEqual(readdirSync(ws), []);
      } finally {
        await removeDir(root);
      }
    });
  }

  it('a missing file (text and JSON envelope), and --from without --init', async () => {
    const root = makeTempDir('mock-openapi-');
    try {
      const r = await runMock(['--init', '--from', 'nope.yaml', '--yes'], { cwd: root });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^mock --init: cannot read `nope\.yaml`: /);
      const j = await runMock(['--init', '--from', 'nope.yaml', '--format', 'json'], { cwd: root });
      assert.equal(j.code, 2);
      const envelope = JSON.parse(j.stdout) as { error: { kind: string; message: string } };
      assert.equal(envelope.error.kind, 'config_unreadable');
      assert.match(envelope.error.message, /^cannot read `nope\.yaml`: /);
      const u = await runMock(['--from', 'x.yaml'], { cwd: root });
      assert.equal(u.code, 2);
      assert.match(u.stderr, /^mock: --from goes with --init --from <file>\nUsage: /);
      assert.deepEqual(readdirSync(root), []);
    } finally {
      await removeDir(root);
    }
  });
});

/** A document with `n` operations: half literal paths, half templated ones with one and two parameters. */
function bigDocument(n: number): string {
  const paths: Obj = {};
  for (let i = 0; i < n / 2; i++) {
    const item = {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    };
    paths[`/r${i}`] = {
      get: {
        operationId: `list${i}`,
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: item } } } },
        },
      },
    };
    paths[`/r${i}/{id}${i % 2 === 0 ? '' : '/s/{sub}'}`] = {
      get: {
        operationId: `get${i}`,
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: item } } },
          '404': { description: 'none' },
        },
      },
    };
  }
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'Big', version: '1' }, servers: [{ url: '/api' }], paths });
}

describe('mock --init --from: a 1,000-operation document', () => {
  // how fast it imports and starts is bench scenario l (docs/speed.md); here: that it does, and answers
  it('imports and its server starts and answers a templated operation', async () => {
    const root = makeTempDir('mock-openapi-');
    let server: RunningMock | undefined;
    try {
      writeFileSync(join(root, 'big.json'), bigDocument(1000));
      const ws = join(root, 'ws');
      // a wide limit: on a machine loaded 6-18 on 2 cores the import took over the default 20 s and was killed
      const r = await importInto({ ...PETSTORE_30, main: 'big.json' }, root, ws, [], 300_000);
      assert.equal(r.code, 0, `${r.signal ?? ''} ${r.stderr}`);
      // every operation's body is one of two: each is written once, under responses/shared/, for all of them
      assert.match(r.stdout, /1000 operations answered, 0 skipped; 2500 rules, 2 response files/);
      assert.equal(readdirSync(join(ws, 'responses', 'shared')).length, 2);
      server = await spawnMock([], { cwd: ws, readyTimeoutMs: 120_000 });
      const res = await send(server.port, { path: '/api/r499/7/s/8' });
      assert.equal(res.status, 200);
      assert.equal((await send(server.port, { path: '/api/r498/7', headers: { prefer: 'code=404' } })).status, 404);
      // a code the operation does not document is an error naming the documented ones, never the success
      const undocumented = await send(server.port, { path: '/api/r498/7', headers: { prefer: 'code=500' } });
      assert.equal(undocumented.status, 400);
      assert.match(
        undocumented.body.toString(),
        /^Prefer: code=… asks for a status GET \/r498\/\{id\} does not document; documented: 200, 404 /,
      );
      assert.equal((await send(server.port, { path: '/api/r498/7', headers: { prefer: 'code=200' } })).status, 200);
    } finally {
      await server?.stop();
      await removeDir(root);
    }
  });
});
