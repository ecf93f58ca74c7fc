// `mock --db` as a json-server 0.17 user types it (docs/coming-from-json-server.md), through the real program:
// relations (_embed, _expand, nested routes, DELETE's dangling dependants), GET /db live, the home page and
// `404 {}`, absolute location and link, json-server's CORS, `?_delay=`, --routes, --read-only, --foreignKeySuffix,
// a JavaScript db file, a missing db file created with the sample, a `/` key refused, the start-up line, a Rhai
// middleware in front of the db file (the docs' example), and the same relations between a rule set's
// [[collections]]. json-server itself is compared with by `npm run compare:json-server` (compare/json-server/).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  makeTempDir,
  removeDir,
  runMock,
  sendText,
  spawnMock,
  writeTree,
  type RunningMock,
} from '../helpers/mock-cli.js';

const json = { 'content-type': 'application/json' };
const DB = {
  posts: [
    { id: 1, title: 'a', userId: 1 },
    { id: 2, title: 'b', userId: 2 },
  ],
  comments: [
    { id: 1, body: 'x', postId: 1 },
    { id: 2, body: 'y', postId: 2 },
    { id: 3, body: 'z', postId: 1 },
  ],
  users: [
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Bob' },
  ],
  profile: { name: 'typicode' },
};
const body = (text: string): unknown => JSON.parse(text);

describe('mock --db as json-server 0.17', () => {
  let dir: string;
  let mock: RunningMock;
  before(async () => {
    dir = makeTempDir('mock-db-json-server-');
    await writeTree(dir, {
      'db.json': JSON.stringify(DB, null, 2),
      'routes.json': JSON.stringify({ '/api/*': '/$1', '/blog/:resource/:id/show': '/:resource/:id' }),
    });
    mock = await spawnMock(['--db', 'db.json', '--routes', 'routes.json', '--no-watch'], { cwd: dir });
  });
  after(async () => {
    await mock.stop();
    await removeDir(dir);
  });

  it('says at start-up that changes stay in memory', () => {
    assert.ok(
      mock.stdoutLines.includes(
        '[db] db.json: 4 resources; changes are kept in memory (add --persist to write db.json)',
      ),
      mock.stdoutLines.join('\n'),
    );
  });

  it('embeds children and expands parents by the <name>Id convention, on lists and items', async () => {
    const one = body((await sendText(mock.port, 'GET', '/posts/1?_embed=comments&_expand=user')).text);
    assert.deepEqual(one, {
      ...DB.posts[0],
      comments: [DB.comments[0], DB.comments[2]],
      user: DB.users[0],
    });
    const list = body((await sendText(mock.port, 'GET', '/comments?_expand=post&_limit=1')).text);
    assert.deepEqual(list, [{ ...DB.comments[0], post: DB.posts[0] }]);
  });

  it('answers nested routes: a GET lists the children, a POST creates one naming its parent', async () => {
    assert.deepEqual(body((await sendText(mock.port, 'GET', '/posts/1/comments')).text), [
      DB.comments[0],
      DB.comments[2],
    ]);
    const embeds = async (): Promise<number> =>
      (body((await sendText(mock.port, 'GET', '/posts?_embed=comments')).text) as { comments: unknown[] }[])[1]!
        .comments.length;
    const count = async (): Promise<number> =>
      (body((await sendText(mock.port, 'GET', '/comments')).text) as unknown[]).length;
    assert.equal(await embeds(), 1);
    assert.equal(await count(), 3);
    const made = await sendText(mock.port, 'POST', '/posts/2/comments', json, JSON.stringify({ body: 'new' }));
    assert.equal(made.status, 201);
    assert.deepEqual(body(made.text), { body: 'new', postId: '2', id: 4 });
    assert.equal(made.headers.location, `http://127.0.0.1:${mock.port}/posts/2/comments/4`);
    // a list answer made before the write is not given again after it (dispatch/list-cache.ts)
    assert.equal(await embeds(), 1, 'the new comment names post 2 as "2": not the same value as 2');
    assert.equal(await count(), 4, 'the list answered before the write shows the new comment after it');
  });

  it('rewrites with --routes; link URLs are absolute, with the rewritten path', async () => {
    const page = await sendText(mock.port, 'GET', '/api/posts?_page=1&_limit=1');
    assert.equal(page.status, 200);
    assert.equal(page.headers['x-total-count'], '2');
    const origin = `http://127.0.0.1:${mock.port}`;
    assert.equal(
      page.headers.link,
      `<${origin}/posts?_page=1&_limit=1>; rel="first", <${origin}/posts?_page=2&_limit=1>; rel="next", <${origin}/posts?_page=2&_limit=1>; rel="last"`,
    );
    assert.deepEqual(body((await sendText(mock.port, 'GET', '/blog/users/2/show')).text), DB.users[1]);
    assert.deepEqual(body((await sendText(mock.port, 'GET', '/__rules')).text), {
      '/api/*': '/$1',
      '/blog/:resource/:id/show': '/:resource/:id',
    });
  });

  it("echoes the Origin with credentials, as json-server's CORS does, and answers its preflight", async () => {
    const got = await sendText(mock.port, 'GET', '/posts/1', { origin: 'http://app.example' });
    assert.equal(got.headers['access-control-allow-origin'], 'http://app.example');
    assert.equal(got.headers['access-control-allow-credentials'], 'true');
    assert.equal(got.headers['access-control-allow-methods'], undefined);
    const pre = await sendText(mock.port, 'OPTIONS', '/posts', {
      origin: 'http://app.example',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'x-token',
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], 'http://app.example');
    assert.equal(pre.headers['access-control-allow-methods'], 'GET,HEAD,PUT,PATCH,POST,DELETE');
    assert.equal(pre.headers['access-control-allow-headers'], 'x-token');
  });

  it('serves the home page at /, answers 404 {} where nothing is, and holds an answer for ?_delay=', async () => {
    const home = await sendText(mock.port, 'GET', '/');
    assert.equal(home.status, 200);
    assert.match(home.text, /href="\/posts"/);
    const miss = await sendText(mock.port, 'GET', '/nothing/here');
    assert.equal(miss.status, 404);
    assert.deepEqual(body(miss.text), {});
    const started = Date.now();
    assert.equal((await sendText(mock.port, 'GET', '/profile?_delay=300')).status, 200);
    assert.ok(Date.now() - started >= 250, 'held about 300 ms');
  });

  it('DELETE removes every dangling dependant, and GET /db shows the live data', async () => {
    assert.equal((await sendText(mock.port, 'DELETE', '/posts/1')).status, 200);
    const db = body((await sendText(mock.port, 'GET', '/db')).text) as typeof DB;
    assert.deepEqual(db.posts, [DB.posts[1]]);
    // the comments of post 1 are gone (a string "2" still names post 2: ids compare as text)
    assert.deepEqual(db.comments, [DB.comments[1], { body: 'new', postId: '2', id: 4 }]);
    assert.deepEqual(db.users, DB.users);
    assert.deepEqual(db.profile, DB.profile);
    // in memory only: the file is as it was
    assert.deepEqual(JSON.parse(readFileSync(join(dir, 'db.json'), 'utf8')), DB);
  });
});

describe('mock --db: its flags, files and refusals', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir('mock-db-flags-');
  });
  after(async () => {
    await removeDir(dir);
  });

  it('--read-only answers GET and refuses the rest with 403', async () => {
    await writeTree(dir, { 'ro/db.json': JSON.stringify(DB) });
    const m = await spawnMock(['--db', 'db.json', '--read-only', '--no-watch'], { cwd: join(dir, 'ro') });
    try {
      assert.equal((await sendText(m.port, 'GET', '/posts/1')).status, 200);
      const refused = await sendText(m.port, 'POST', '/posts', json, '{"title":"no"}');
      assert.equal(refused.status, 403);
      assert.equal(refused.text, 'Forbidden');
      assert.equal((await sendText(m.port, 'DELETE', '/posts/1')).status, 403);
    } finally {
      await m.stop();
    }
  });

  it('--foreignKeySuffix names the foreign keys', async () => {
    await writeTree(dir, {
      'fks/db.json': JSON.stringify({
        posts: [{ id: 1 }],
        comments: [
          { id: 1, post_id: 1 },
          { id: 2, post_id: 3 },
        ],
      }),
    });
    const m = await spawnMock(['--db', 'db.json', '--foreignKeySuffix', '_id', '--no-watch'], {
      cwd: join(dir, 'fks'),
    });
    try {
      assert.deepEqual(body((await sendText(m.port, 'GET', '/posts/1/comments')).text), [{ id: 1, post_id: 1 }]);
      assert.deepEqual(body((await sendText(m.port, 'GET', '/posts?_embed=comments')).text), [
        { id: 1, comments: [{ id: 1, post_id: 1 }] },
      ]);
    } finally {
      await m.stop();
    }
  });

  it('serves a JavaScript db file: a module exporting a function that returns the data', async () => {
    await writeTree(dir, {
      'js/db.js': 'module.exports = () => ({ posts: [{ id: 1, title: "from js" }] });\n',
    });
    const m = await spawnMock(['--db', 'db.js', '--no-watch'], { cwd: join(dir, 'js') });
    try {
      assert.deepEqual(body((await sendText(m.port, 'GET', '/posts')).text), [{ id: 1, title: 'from js' }]);
    } finally {
      await m.stop();
    }
    const persisted = await runMock(['--db', 'db.js', '--persist', '-p', '0'], { cwd: join(dir, 'js') });
    assert.equal(persisted.code, 2);
    assert.match(persisted.stderr, /--persist needs a JSON db file/);
  });

  it('creates a missing db file with the sample, as json-server does', async () => {
    await writeTree(dir, { 'new/.keep': '' });
    const m = await spawnMock(['--db', 'db.json', '--no-watch'], { cwd: join(dir, 'new') });
    try {
      assert.ok(m.stdoutLines.some((l) => l.startsWith('[db] db.json did not exist: created it')));
      assert.ok(existsSync(join(dir, 'new', 'db.json')));
      const posts = body((await sendText(m.port, 'GET', '/posts?_embed=comments')).text) as { comments: unknown[] }[];
      assert.equal(posts[0]?.comments.length, 1);
    } finally {
      await m.stop();
    }
  });

  it("refuses a top-level key holding '/', naming it", async () => {
    await writeTree(dir, { 'slash/db.json': '{\n  "api/posts": [{ "id": 1 }]\n}\n' });
    const r = await runMock(['--db', 'db.json', '-p', '0'], { cwd: join(dir, 'slash') });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /db\.json:2.*the key `api\/posts` holds a '\/'.*--routes/s);
  });

  it('refuses json-server flags mock has no equivalent of, naming the way', async () => {
    const r = await runMock(['--db', 'db.json', '--snapshots', '.'], { cwd: dir });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--snapshots is json-server's; .*GET|\/db/);
    const m = await runMock(['--db', 'db.json', '-m', 'mw.js'], { cwd: dir });
    assert.equal(m.code, 2);
    assert.match(m.stderr, /service\.middlewares/);
  });

  it("runs the docs' Rhai middlewares in front of the db file: a refusal, and headers added to the next answer", async () => {
    await writeTree(dir, {
      'mw/db.json': JSON.stringify(DB),
      'mw/mock.toml': '[service]\ndb = "db.json"\nmiddlewares = ["auth.rhai", "hello.rhai"]\n',
      'mw/auth.rhai':
        'let auth = headers["authorization"];\nif auth == () || !auth.starts_with("Bearer ") {\n  return #{ status: 401, json: `{"error":"unauthorized"}` };\n}\n#{ add_headers: #{ "x-user": auth } }\n',
      'mw/hello.rhai': '#{ add_headers: #{ "x-hello": "World", "content-type": "text/plain" } }\n',
    });
    const m = await spawnMock(['--no-watch'], { cwd: join(dir, 'mw') });
    try {
      const no = await sendText(m.port, 'GET', '/posts');
      assert.equal(no.status, 401);
      assert.deepEqual(body(no.text), { error: 'unauthorized' });
      assert.equal(no.headers['x-hello'], undefined, 'a refused request gets no added header');
      const yes = await sendText(m.port, 'GET', '/posts/2', { authorization: 'Bearer t' });
      assert.deepEqual(body(yes.text), DB.posts[1]);
      assert.equal(yes.headers['x-user'], 'Bearer t');
      assert.equal(yes.headers['x-hello'], 'World');
      // the answer's own header wins over an added one
      assert.equal(yes.headers['content-type'], 'application/json; charset=utf-8');
    } finally {
      await m.stop();
    }
  });

  it("--db-style v1 answers with json-server 1.0's query language and string ids", async () => {
    await writeTree(dir, {
      'v1/db.json': JSON.stringify({
        posts: [
          { id: '1', title: 'a', views: 100 },
          { id: '2', title: 'b', views: 200 },
        ],
        comments: [{ id: '1', postId: '1' }],
      }),
    });
    const m = await spawnMock(['--db', 'db.json', '--db-style', 'v1', '--no-watch'], { cwd: join(dir, 'v1') });
    try {
      assert.deepEqual(body((await sendText(m.port, 'GET', '/posts?views:gt=150')).text), [
        { id: '2', title: 'b', views: 200 },
      ]);
      const page = body((await sendText(m.port, 'GET', '/posts?_sort=-views&_page=1&_per_page=1')).text);
      assert.deepEqual(page, {
        first: 1,
        prev: null,
        next: 2,
        last: 2,
        pages: 2,
        items: 2,
        data: [{ id: '2', title: 'b', views: 200 }],
      });
      const made = await sendText(m.port, 'POST', '/posts', json, '{"title":"c"}');
      assert.equal(made.status, 201);
      assert.match((body(made.text) as { id: string }).id, /^[A-Za-z0-9_-]{11}$/);
      const gone = await sendText(m.port, 'DELETE', '/posts/1?_dependent=comments');
      assert.deepEqual(body(gone.text), { id: '1', title: 'a', views: 100 });
      assert.deepEqual(body((await sendText(m.port, 'GET', '/comments')).text), []);
      assert.deepEqual(body((await sendText(m.port, 'GET', '/posts/1')).text), { error: 'Not Found' });
    } finally {
      await m.stop();
    }
    const bad = await runMock(['--db', 'db.json', '--db-style', 'v2', '-p', '0'], { cwd: join(dir, 'v1') });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--db-style takes v0 .* or v1/);
  });

  it('service.db_style = "v1" in mock.toml answers as --db-style v1 does, and --db-style v0 on the command line wins over it', async () => {
    await writeTree(dir, {
      'v1key/db.json': JSON.stringify({
        posts: [
          { id: 1, views: 100 },
          { id: 2, views: 200 },
        ],
      }),
      'v1key/mock.toml': '[service]\ndb = "db.json"\ndb_style = "v1"\n',
    });
    const cwd = join(dir, 'v1key');
    const v1 = await spawnMock(['--no-watch'], { cwd });
    try {
      assert.deepEqual(body((await sendText(v1.port, 'GET', '/posts?views:gt=150')).text), [{ id: 2, views: 200 }]);
    } finally {
      await v1.stop();
    }
    const v0 = await spawnMock(['--db', 'db.json', '--db-style', 'v0', '--no-watch'], { cwd });
    try {
      // 0.17's ids: a POST without one gets the next number when the ids are numbers (1.0 makes a random string)
      const made = await sendText(v0.port, 'POST', '/posts', json, '{"views":300}');
      assert.equal((body(made.text) as { id: unknown }).id, 3);
    } finally {
      await v0.stop();
    }
  });

  it("relates a rule set's [[collections]] to each other the same way", async () => {
    await writeTree(dir, {
      'rs/mock.toml': '[service]\nrule_sets = ["rules.toml"]\n',
      'rs/rules.toml':
        'prefix.url_path = "/api"\n\n[[collections]]\npath = "/posts"\ndata = "posts.json"\n\n[[collections]]\npath = "/comments"\ndata = "comments.json"\n',
      'rs/posts.json': JSON.stringify(DB.posts),
      'rs/comments.json': JSON.stringify(DB.comments),
    });
    const m = await spawnMock(['--no-watch'], { cwd: join(dir, 'rs') });
    try {
      assert.deepEqual(body((await sendText(m.port, 'GET', '/api/posts/2?_embed=comments')).text), {
        ...DB.posts[1],
        comments: [DB.comments[1]],
      });
      assert.deepEqual(body((await sendText(m.port, 'GET', '/api/posts/1/comments')).text), [
        DB.comments[0],
        DB.comments[2],
      ]);
      assert.equal((await sendText(m.port, 'DELETE', '/api/posts/1')).status, 200);
      assert.deepEqual(body((await sendText(m.port, 'GET', '/api/comments')).text), [DB.comments[1]]);
    } finally {
      await m.stop();
    }
  });
});
