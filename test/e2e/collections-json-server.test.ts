// json-server 0.17.4's query conventions, table-tested: the requests of test/fixtures/json-server/requests.json go,
// in order, to the real program serving `--db` on a copy of the fixture's db.json, and each answer's status, body
// (key order included) and `x-total-count` / `link` / `location` headers are compared with what json-server 0.17.4
// answered on the same file (answers.json, recorded by record.mjs beside it: json-server is not needed here).
// The differences are the ones docs/state.md lists: the two deliberate departures (their status is checked
// instead), the origin in `location` and `link` (each side's own: both absolute), and random string ids.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { makeTempDir, removeDir, sendText, spawnMock, type RunningMock } from '../helpers/mock-cli.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/json-server/', import.meta.url));

interface Request {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly departure?: { readonly status: number; readonly why: string };
}
interface Answer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly body: unknown;
  readonly 'x-total-count'?: string | undefined;
  readonly link?: string | undefined;
  readonly location?: string | undefined;
}

const requests = JSON.parse(readFileSync(join(FIXTURES, 'requests.json'), 'utf8')) as Request[];
const recorded = JSON.parse(readFileSync(join(FIXTURES, 'answers.json'), 'utf8')) as {
  source: string;
  origin: string;
  answers: Answer[];
};

/** json-server's string ids are random (nanoid, 7 characters): both sides' are replaced by a marker */
const RANDOM_ID = /^[A-Za-z0-9_-]{7}$/;
function normalised(a: Omit<Answer, 'method' | 'path'>, randomIds: Set<string>, origin: string): string {
  const replace = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    let out = text.split(origin).join('<origin>');
    for (const id of randomIds) out = out.split(id).join('<random id>');
    return out;
  };
  return JSON.stringify({
    status: a.status,
    body: JSON.parse(replace(JSON.stringify(a.body))!) as unknown,
    'x-total-count': a['x-total-count'],
    link: replace(a.link),
    location: replace(a.location),
  });
}

describe('collections answer as json-server 0.17.4 does', () => {
  let dir: string;
  let mock: RunningMock;
  before(async () => {
    dir = makeTempDir('mock-json-server-');
    copyFileSync(join(FIXTURES, 'db.json'), join(dir, 'db.json'));
    mock = await spawnMock(['--db', 'db.json', '--no-watch'], { cwd: dir });
  });
  after(async () => {
    await mock.stop();
    await removeDir(dir);
  });

  it(`answers the ${requests.length} recorded requests alike (status, body, x-total-count, link, location)`, async () => {
    assert.ok(requests.length >= 40 && requests.length === recorded.answers.length);
    assert.equal(recorded.source, 'json-server 0.17.4');
    let compared = 0;
    for (const [i, r] of requests.entries()) {
      const want = recorded.answers[i]!;
      assert.equal(`${want.method} ${want.path}`, `${r.method} ${r.path}`, 'the fixture is in request order');
      const body = r.body === undefined ? undefined : JSON.stringify(r.body);
      const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
      const got = await sendText(mock.port, r.method, r.path, headers, body);
      const what = `#${i + 1} ${r.method} ${r.path}`;
      if (r.departure !== undefined) {
        assert.equal(got.status, r.departure.status, `${what}: ${r.departure.why}`);
        continue;
      }
      const header = (name: string): string | undefined => {
        const v = got.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      const mine = {
        status: got.status,
        body: JSON.parse(got.text) as unknown,
        'x-total-count': header('x-total-count'),
        link: header('link'),
        location: header('location'),
      };
      const randomIds = new Set<string>();
      for (const a of [mine, want]) {
        const id = (a.body as { id?: unknown } | null)?.id;
        if (r.method === 'POST' && typeof id === 'string' && RANDOM_ID.test(id)) randomIds.add(id);
      }
      assert.equal(
        normalised(mine, randomIds, `http://127.0.0.1:${mock.port}`),
        normalised(want, randomIds, recorded.origin),
        what,
      );
      compared++;
    }
    assert.equal(compared, requests.filter((r) => r.departure === undefined).length);
  });
});
