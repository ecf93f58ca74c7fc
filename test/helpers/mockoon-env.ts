// Mockoon environments for tests, in the shape Mockoon 9 saves (its documented keys, our own values), and a
// workspace imported from one and served by the real `mock`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runMock, spawnMock, writeTree, type RunningMock } from './harness.js';

type Obj = Record<string, unknown>;

let uuids = 0;
const uuid = (): string => `00000000-0000-4000-8000-${String(++uuids).padStart(12, '0')}`;

/** one response of a route: Mockoon's defaults, `over` on top */
export function response(over: Obj = {}): Obj {
  return {
    uuid: uuid(),
    body: '',
    latency: 0,
    statusCode: 200,
    label: '',
    headers: [],
    bodyType: 'INLINE',
    filePath: '',
    databucketID: '',
    sendFileAsBody: false,
    rules: [],
    rulesOperator: 'OR',
    disableTemplating: false,
    fallbackTo404: false,
    default: false,
    crudKey: 'id',
    callbacks: [],
    ...over,
  };
}

/** one route; its first response is the default unless one says otherwise */
export function route(method: string, endpoint: string, responses: Obj[], over: Obj = {}): Obj {
  const list = responses.some((r) => r['default'] === true)
    ? responses
    : responses.map((r, i) => (i === 0 ? { ...r, default: true } : r));
  return {
    uuid: uuid(),
    type: 'http',
    documentation: '',
    method,
    endpoint,
    responses: list,
    responseMode: null,
    streamingMode: null,
    streamingInterval: 0,
    ...over,
  };
}

/** an environment of these routes (and data buckets), Mockoon's defaults, `over` on top */
export function environment(routes: Obj[], over: Obj = {}): Obj {
  return {
    uuid: uuid(),
    lastMigration: 33,
    name: 'test env',
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    hostname: '',
    folders: [],
    routes,
    rootChildren: routes.map((r) => ({ type: 'route', uuid: r['uuid'] })),
    proxyMode: false,
    proxyHost: '',
    proxyRemovePrefix: false,
    tlsOptions: { enabled: false, type: 'CERT', pfxPath: '', certPath: '', keyPath: '', caPath: '', passphrase: '' },
    cors: true,
    headers: [{ key: 'Content-Type', value: 'application/json' }],
    proxyReqHeaders: [],
    proxyResHeaders: [],
    data: [],
    callbacks: [],
    ...over,
  };
}

export interface Imported {
  readonly ws: string;
  /** the import's text summary */
  readonly summary: string;
  readonly code: number | null;
}

/** `mock --init --from env.json --yes` in a fresh folder under `root` */
export async function importEnv(root: string, name: string, env: Obj): Promise<Imported> {
  const at = join(root, name);
  mkdirSync(join(at, 'ws'), { recursive: true });
  await writeTree(at, { 'env.json': JSON.stringify(env, null, 2) });
  const r = await runMock(['--init', '--from', '../env.json', '--yes'], { cwd: join(at, 'ws') });
  return { ws: join(at, 'ws'), summary: r.stdout + r.stderr, code: r.code };
}

/** imports `env` and serves it (the server's port chosen by the system) */
export async function serveEnv(
  root: string,
  name: string,
  env: Obj,
  extra: readonly string[] = [],
): Promise<Imported & { readonly server: RunningMock; readonly url: string }> {
  const imported = await importEnv(root, name, env);
  if (imported.code !== 0) throw new Error(`the import failed:\n${imported.summary}`);
  const server = await spawnMock(['-p', '0', ...extra], { cwd: imported.ws });
  return { ...imported, server, url: server.url };
}
