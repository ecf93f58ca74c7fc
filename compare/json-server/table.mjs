// The requests `npm run compare:json-server` sends to json-server 0.17.4 and to `mock --db`, side by side
// (compare/json-server/README.md). Written for this project from json-server's README: each group starts both
// servers on a fresh copy of its own db file, with the same json-server flags, and sends its requests in order.
// A request whose answers are known to differ says why in `differs` (docs/state.md lists the same differences);
// any other difference fails the run.

const BLOG = {
  posts: [
    { id: 1, title: 'json-server', author: 'typicode', views: 100, userId: 1 },
    { id: 2, title: 'Hello world', author: 'alice', views: 5, userId: 2 },
    { id: 3, title: 'Another post', author: 'bob', views: 42, userId: 1 },
  ],
  comments: [
    { id: 1, body: 'first', postId: 1 },
    { id: 2, body: 'second', postId: 1 },
    { id: 3, body: 'third', postId: 2 },
    { id: 4, body: 'orphan', postId: 9 },
  ],
  users: [
    { id: 1, name: 'Ada' },
    { id: 2, name: 'Bob' },
  ],
  profile: { name: 'typicode' },
};

const ORIGIN = { origin: 'http://app.example' };
const json = (body) => ({ body, headers: { 'content-type': 'application/json' } });

const BLOG_V1 = {
  posts: [
    { id: '1', title: 'Hello', views: 100, author: { name: 'typicode' } },
    { id: '2', title: 'another title', views: 200, author: { name: 'alice' } },
    { id: '3', title: 'hello again', views: 5, author: { name: 'bob' } },
  ],
  comments: [
    { id: '1', text: 'a comment about post 1', postId: '1' },
    { id: '2', text: 'another comment about post 1', postId: '1' },
    { id: '3', text: 'about post 2', postId: '2' },
  ],
  profile: { name: 'typicode' },
};

/** @type {{ name: string, db: unknown, dbFile?: string, flags?: string[], files?: Record<string, string>, persist?: boolean, startFails?: boolean, requests: object[] }[]} */
export const GROUPS = [
  {
    name: 'reads: filters, operators, search, sort, pages, slices',
    db: BLOG,
    requests: [
      { path: '/posts' },
      { path: '/posts?author=alice' },
      { path: '/posts?views_gte=42' },
      { path: '/posts?views_lte=42&views_gte=5' },
      { path: '/posts?author_ne=alice' },
      { path: '/posts?title_like=^H' },
      { path: '/posts?q=hello' },
      { path: '/posts?_sort=views&_order=desc' },
      { path: '/posts?_sort=author,views&_order=asc,desc' },
      { path: '/posts?_page=1&_limit=2' },
      { path: '/posts?_page=2&_limit=2' },
      { path: '/posts?_start=1&_end=2' },
      { path: '/posts?_start=1&_limit=1' },
      { path: '/posts/1' },
      { path: '/posts/99' },
      { path: '/profile' },
      { path: '/users?name=Ada' },
    ],
  },
  {
    name: 'relations: _embed, _expand, nested routes',
    db: BLOG,
    requests: [
      { path: '/posts?_embed=comments' },
      { path: '/posts/1?_embed=comments' },
      { path: '/posts/2?_embed=comments&_embed=nothing' },
      { path: '/comments?_expand=post' },
      { path: '/comments/1?_expand=post' },
      { path: '/posts?_expand=user' },
      { path: '/posts/1?_embed=comments&_expand=user' },
      { path: '/posts/1/comments' },
      { path: '/posts/2/comments?_sort=id&_order=desc' },
      { path: '/users/1/posts' },
      { path: '/posts/1/comments?_page=1&_limit=1' },
      { path: '/users?_embed=posts&_page=1&_limit=1' },
    ],
  },
  {
    name: 'the server: /db, the home page, 404, _delay, CORS',
    db: BLOG,
    requests: [
      { path: '/db' },
      { path: '/', compare: 'status' },
      { path: '/nothing/here' },
      { path: '/posts?_delay=30' },
      { path: '/posts/1?_delay=abc' },
      { path: '/posts/1', headers: ORIGIN },
      { path: '/posts?_page=1', headers: ORIGIN },
      { method: 'OPTIONS', path: '/posts', headers: { ...ORIGIN, 'access-control-request-method': 'POST' } },
      {
        method: 'OPTIONS',
        path: '/posts/1',
        headers: { ...ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-token' },
      },
    ],
  },
  {
    name: 'writes (mock --persist): the db file after them',
    db: BLOG,
    persist: true,
    requests: [
      { method: 'POST', path: '/posts', ...json({ title: 'new', author: 'eve', userId: 2 }) },
      { method: 'POST', path: '/posts', ...json({ id: 10, title: 'chosen id' }) },
      { method: 'PUT', path: '/posts/2', ...json({ title: 'replaced' }) },
      { method: 'PATCH', path: '/posts/3', ...json({ views: 43 }) },
      { method: 'PUT', path: '/posts/99', ...json({ title: 'none' }) },
      { method: 'POST', path: '/posts/1/comments', ...json({ body: 'nested' }) },
      { method: 'PATCH', path: '/profile', ...json({ city: 'Paris' }) },
      { method: 'PUT', path: '/profile', ...json({ name: 'replaced' }) },
      { method: 'POST', path: '/profile', ...json({ name: 'posted' }) },
      { method: 'DELETE', path: '/posts/1' },
      { method: 'DELETE', path: '/posts/99' },
      { path: '/comments' },
      { path: '/db' },
      {
        method: 'POST',
        path: '/posts?_delay=10',
        ...json({ title: 'delayed' }),
        differs: "json-server's location carries the query (/posts?_delay=10/12), a bug mock does not copy",
      },
    ],
  },
  {
    name: '--routes',
    db: BLOG,
    flags: ['--routes', 'routes.json'],
    files: { 'routes.json': JSON.stringify({ '/api/*': '/$1', '/blog/:resource/:id/show': '/:resource/:id' }) },
    requests: [
      { path: '/api/posts' },
      { path: '/api/posts/2' },
      { path: '/api/posts?_page=1&_limit=1' },
      { path: '/blog/posts/3/show' },
      { path: '/api/posts/1/comments' },
      { path: '/__rules' },
      { method: 'POST', path: '/api/users', ...json({ name: 'Cy' }) },
    ],
  },
  {
    name: '--read-only',
    db: BLOG,
    flags: ['--read-only'],
    requests: [
      { path: '/posts/1' },
      { method: 'POST', path: '/posts', ...json({ title: 'no' }) },
      { method: 'DELETE', path: '/posts/1' },
      { path: '/db' },
    ],
  },
  {
    name: '--foreignKeySuffix _id',
    db: {
      posts: [{ id: 1, title: 'a' }],
      comments: [
        { id: 1, body: 'x', post_id: 1 },
        { id: 2, body: 'y', post_id: 2 },
      ],
    },
    flags: ['--foreignKeySuffix', '_id'],
    requests: [
      { path: '/posts?_embed=comments' },
      { path: '/comments?_expand=post' },
      { path: '/posts/1/comments' },
      { method: 'DELETE', path: '/comments/1' },
      { path: '/comments' },
    ],
  },
  {
    name: '--id _id',
    db: {
      items: [
        { _id: 'a', name: 'one' },
        { _id: 'b', name: 'two' },
      ],
    },
    flags: ['--id', '_id'],
    requests: [
      { path: '/items/a' },
      { method: 'PATCH', path: '/items/b', ...json({ name: 'deux' }) },
      { method: 'DELETE', path: '/items/a' },
      { path: '/items' },
      {
        method: 'POST',
        path: '/items',
        ...json({ _id: 'c', name: 'three' }),
        differs:
          "json-server's location ends in /undefined with --id (it reads the field id), a bug mock does not copy",
      },
    ],
  },
  {
    name: 'a JavaScript db file',
    db: null,
    dbFile: 'db.js',
    files: {
      'db.js': 'module.exports = () => ({ posts: [{ id: 1, title: "from js" }], profile: { name: "js" } });\n',
    },
    requests: [{ path: '/posts' }, { path: '/profile' }, { path: '/db' }],
  },
  {
    name: 'a missing db file is created with the sample',
    db: null,
    requests: [{ path: '/db' }, { path: '/posts?_embed=comments' }],
  },
  {
    name: "a top-level key with '/' refuses to start",
    db: { 'api/posts': [{ id: 1 }] },
    startFails: true,
    requests: [],
  },
  {
    name: 'bad input',
    db: BLOG,
    requests: [
      {
        path: '/posts?title_like=(',
        differs: 'a _like that is not a regular expression: 400 naming it (json-server: 500 and a stack trace)',
      },
      {
        method: 'POST',
        path: '/posts',
        ...json({ id: 1, title: 'dup' }),
        differs: 'a duplicate id: 409 (json-server: 500 and a stack trace)',
      },
      {
        method: 'POST',
        path: '/posts',
        ...json([1, 2]),
        differs: 'an array is not an item: 400 (json-server stores it)',
      },
      { method: 'POST', path: '/posts', differs: 'no body: 400 (json-server stores an empty item)' },
      {
        path: '/comments?_expand=user',
        differs: 'an item without the foreign key: left without it (json-server: 500, a TypeError)',
      },
      { method: 'DELETE', path: '/profile' },
      { method: 'PUT', path: '/posts', ...json({ a: 1 }) },
    ],
  },
  {
    name: 'v1: conditions, sort, pages, _where, _embed (json-server 1.0 beside --db-style v1)',
    v1: true,
    db: BLOG_V1,
    requests: [
      { path: '/posts' },
      { path: '/posts?views:gt=100' },
      { path: '/posts?views:gte=100&views:lt=200' },
      { path: '/posts?views:ne=100' },
      { path: '/posts?title:eq=Hello' },
      { path: '/posts?title=Hello' },
      { path: '/posts?id:in=1,3' },
      { path: '/posts?author.name:eq=alice' },
      { path: '/posts?title:contains=HELLO' },
      { path: '/posts?title:startsWith=hello' },
      { path: '/posts?title:endsWith=again' },
      { path: '/posts?views_gte=100' },
      { path: '/posts?_sort=-views' },
      { path: '/posts?_sort=title' },
      { path: '/posts?_sort=author.name,-views' },
      { path: '/posts?_page=1&_per_page=2' },
      { path: '/posts?_page=2&_per_page=2' },
      { path: '/posts?_page=9' },
      {
        path:
          '/posts?_where=' +
          encodeURIComponent(JSON.stringify({ or: [{ views: { gt: 150 } }, { author: { name: { lt: 'b' } } }] })),
      },
      { path: '/posts?_embed=comments' },
      { path: '/comments?_embed=post' },
      { path: '/posts/1?_embed=comments' },
      { path: '/posts/1' },
      { path: '/posts/9' },
      { path: '/profile' },
      {
        path: '/posts?_start=1&_limit=1',
        differs:
          'json-server 1.0.0-beta.15 reads _start and _limit as filters (no item has them: []); mock slices, as 0.17 and 1.0.0-beta.3 do',
      },
    ],
  },
  {
    name: 'v1: writes, string ids, _dependent (json-server 1.0 beside --db-style v1)',
    v1: true,
    db: BLOG_V1,
    persist: true,
    fileDiffers: 'json-server 1.0 adds a "$schema" key to the db file it writes; mock writes only the data',
    requests: [
      { method: 'POST', path: '/posts', ...json({ id: 'mine', title: 'a new id anyway', views: 1 }) },
      { method: 'PUT', path: '/posts/2', ...json({ title: 'replaced' }) },
      { method: 'PATCH', path: '/posts/3', ...json({ views: 6 }) },
      { method: 'PATCH', path: '/posts/9', ...json({ views: 6 }) },
      { method: 'PATCH', path: '/profile', ...json({ city: 'Paris' }) },
      { method: 'DELETE', path: '/posts/2' },
      { path: '/comments' },
      { method: 'DELETE', path: '/posts/1?_dependent=comments' },
      { path: '/comments' },
      { method: 'DELETE', path: '/posts/1' },
      { method: 'POST', path: '/posts', ...json([1]) },
    ],
  },
];
