// The benchmark workloads (docs/speed.md): one workspace per scenario and per
// server flavour, the request to load it with, a preflight check of the
// answer, and the canonical answer the bare server sends when `mock`'s own
// answer can't be captured.
//
// A scenario:
//   id, letter, title
//   target          - minimum mock / bare throughput ratio
//   setup(dir, names, flavour)
//                   - writes the workspace; `names` are the file names of the
//                     flavour ('mock': mock.toml, mock-rule-set.toml,
//                     mock-middleware.rhai; 'apimock': apimock.toml, ...)
//   request         - { method, path, headers, bodyFile } (bodyFile relative
//                     to the workspace)
//   expectStatus    - status every loaded response must have
//   canonical(dir)  - { status, contentType, body: Buffer } the right answer
//   check(res, ctx) - null when the answer is right, else a short reason
//   parseBody       - the bare server must collect and JSON.parse the body

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FLAVOURS = {
  mock: { config: 'mock.toml', ruleSet: 'mock-rule-set.toml', middleware: 'mock-middleware.rhai' },
  apimock: { config: 'apimock.toml', ruleSet: 'apimock-rule-set.toml', middleware: 'apimock-middleware.rhai' },
};

// ---- deterministic data ---------------------------------------------------

function rng(seed) {
  // mulberry32
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const FIRST = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'niaj',
  'olivia',
  'peggy',
  'rupert',
  'sybil',
  'trent',
  'victor',
  'walter',
  'yuki',
];
const CITY = ['Tokyo', 'Osaka', 'Berlin', 'Paris', 'Lima', 'Oslo', 'Cairo', 'Quito', 'Perth', 'Dublin'];

let bigCache = null;
/** A pretty-printed JSON array just under 1 MiB. */
export function bigJsonText(targetBytes = 1024 * 1024) {
  if (bigCache) return bigCache;
  const r = rng(42);
  const recs = [];
  const make = (i) => ({
    id: i,
    name: `${FIRST[i % FIRST.length]} ${FIRST[(i * 7) % FIRST.length]}`,
    email: `${FIRST[i % FIRST.length]}.${i}@example.com`,
    active: r() > 0.3,
    score: Math.round(r() * 100000) / 100,
    tags: ['alpha', 'beta', 'gamma'].slice(0, 1 + (i % 3)),
    address: { city: CITY[i % CITY.length], zip: String(10000 + ((i * 37) % 89999)) },
  });
  // grow record by record (bounded: ~4000 records fill 1 MiB)
  let size = 2;
  for (let i = 0; i < 100000; i++) {
    const rec = make(i);
    const recSize = JSON.stringify([rec], null, 2).length - 4 + 2; // its lines plus ",\n"
    if (size + recSize + 1 > targetBytes) break;
    recs.push(rec);
    size += recSize;
  }
  bigCache = JSON.stringify(recs, null, 2) + '\n';
  return bigCache;
}

export function csvRows(rows = 1000) {
  const r = rng(7);
  const out = [];
  for (let i = 1; i <= rows; i++) {
    const first = FIRST[i % FIRST.length];
    out.push({
      id: String(i),
      name: i % 10 === 0 ? `${first}, jr.` : first, // every 10th row has a quoted field with a comma
      email: `${first}.${i}@example.com`,
      city: CITY[i % CITY.length],
      score: (r() * 100).toFixed(2),
      active: i % 3 === 0 ? 'false' : 'true',
    });
  }
  return out;
}
function csvText(rows) {
  const cols = Object.keys(rows[0]);
  const q = (v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return [cols.join(','), ...rows.map((row) => cols.map((c) => q(row[c])).join(','))].join('\n') + '\n';
}

export function postBodyText(targetBytes = 2048) {
  const items = [];
  for (let i = 0; i < 12; i++)
    items.push({ sku: `SKU-${i}`, qty: 1 + (i % 4), price: 9.99 + i, name: `Item number ${i}` });
  const obj = {
    orderId: 'ord-000123',
    customer: {
      id: 'cust-42',
      tier: 'gold',
      name: 'Alice Example',
      email: 'alice@example.com',
      address: { city: 'Tokyo', zip: '100-0001' },
    },
    items,
    notes: '',
  };
  obj.notes = 'x'.repeat(Math.max(0, targetBytes - JSON.stringify(obj).length));
  return JSON.stringify(obj);
}

// ---- helpers --------------------------------------------------------------

function write(dir, rel, text) {
  const p = path.join(dir, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
}
function rootConfig({ ruleSets = [], middlewares = [], fallback = '.', contract } = {}) {
  let s = '[service]\n';
  s += `fallback_respond_dir = ${JSON.stringify(fallback)}\n`;
  if (contract) s += `contract = ${JSON.stringify(contract)}\n`;
  if (ruleSets.length) s += `rule_sets = [${ruleSets.map((x) => JSON.stringify(x)).join(', ')}]\n`;
  if (middlewares.length) s += `middlewares = [${middlewares.map((x) => JSON.stringify(x)).join(', ')}]\n`;
  return s;
}
function parseJson(res) {
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    return undefined;
  }
}
function expect200Json(res, pred, what) {
  if (res.status !== 200) return `status ${res.status}, want 200`;
  const v = parseJson(res);
  if (v === undefined) return 'body is not JSON';
  if (pred && !pred(v)) return `wrong body for ${what}: ${res.body.toString('utf8').slice(0, 80)}`;
  const ct = String(res.headers['content-type'] ?? '');
  if (!ct.startsWith('application/json')) return `content-type ${JSON.stringify(ct)}, want application/json`;
  return null;
}
function expect404(res) {
  if (res.status !== 404) return `status ${res.status}, want 404`;
  if (res.body.length !== 0) return `body ${res.body.length} bytes, want empty`;
  return null;
}
const json = (text) => ({ status: 200, contentType: 'application/json', body: Buffer.from(text) });
const notFound = () => ({ status: 404, contentType: null, body: Buffer.alloc(0) });

function rulesText(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(
      `[[rules]]\nwhen.request.url_path = "/api/r${i}"\nwhen.request.method = "GET"\nwhen.request.headers.x-tenant = { value = "t${i}" }\nrespond = { json = '{"rule":${i}}' }\n`,
    );
  }
  return out.join('\n');
}

const SMALL_JSON =
  '{\n  "id": 42,\n  "name": "Alice Example",\n  "email": "alice@example.com",\n  "roles": ["admin", "editor"],\n  "profile": {\n    "city": "Tokyo",\n    "active": true\n  }\n}\n';

// ---- the scenarios (a–k, docs/speed.md) -------------------------------------

export const SCENARIOS = [
  {
    id: 'a_miss404',
    letter: 'a',
    title: '404, empty config',
    target: 0.85,
    expectStatus: 404,
    setup(dir, names, flavour) {
      // apimock-rs refuses an empty file (it requires [service] with fallback_respond_dir)
      write(dir, names.config, flavour === 'mock' ? '' : rootConfig({ fallback: '.' }));
    },
    request: { method: 'GET', path: '/no/such/thing' },
    canonical: notFound,
    check: expect404,
  },
  {
    id: 'b_small_file',
    letter: 'b',
    title: 'small JSON file, extension-less URL',
    target: 0.85,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ fallback: 'data' }));
      write(dir, 'data/api/users/42.json', SMALL_JSON);
      write(dir, 'data/api/users/7.json', SMALL_JSON.replace('42', '7'));
    },
    request: { method: 'GET', path: '/api/users/42' },
    canonical: () => json(SMALL_JSON),
    check(res) {
      return (
        expect200Json(res, (v) => v.id === 42, 'users/42') ??
        (res.body.toString('utf8') === SMALL_JSON ? null : 'not byte-for-byte')
      );
    },
  },
  {
    id: 'c_1mb_file',
    letter: 'c',
    title: '1 MB JSON file',
    target: 0.85,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ fallback: 'data' }));
      write(dir, 'data/big.json', bigJsonText());
    },
    request: { method: 'GET', path: '/big' },
    canonical: () => json(bigJsonText()),
    check(res) {
      const e = expect200Json(res, (v) => Array.isArray(v) && v.length > 1000, 'big');
      if (e) return e;
      return res.body.equals(Buffer.from(bigJsonText())) ? null : `served ${res.body.length} bytes, not byte-for-byte`;
    },
  },
  {
    id: 'd_rules200',
    letter: 'd',
    title: '200 rules, last matches (path + method + header)',
    target: 0.85,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      write(dir, names.ruleSet, rulesText(200));
    },
    request: { method: 'GET', path: '/api/r199', headers: { 'X-Tenant': 't199' } },
    canonical: () => json('{"rule":199}'),
    check(res) {
      return expect200Json(res, (v) => v.rule === 199, 'rule 199');
    },
  },
  {
    id: 'e_body_json',
    letter: 'e',
    title: 'JSON-body rule, 2 KB POST',
    target: 0.85,
    expectStatus: 200,
    parseBody: true,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      const out = []; // four near misses first, so the matcher walks something
      for (let i = 0; i < 4; i++) {
        out.push(
          `[[rules]]\nwhen.request.url_path = "/orders"\nwhen.request.method = "POST"\nwhen.request.body.json."customer.tier" = { value = "tier${i}" }\nrespond = { json = '{"tier":${i}}' }\n`,
        );
      }
      out.push(
        `[[rules]]\nwhen.request.url_path = "/orders"\nwhen.request.method = "POST"\nwhen.request.body.json."customer.tier" = { value = "gold" }\nwhen.request.body.json."items.0.sku" = { value = "SKU-0" }\nrespond = { json = '{"accepted":true}' }\n`,
      );
      write(dir, names.ruleSet, out.join('\n'));
      write(dir, 'post-body.json', postBodyText());
    },
    request: {
      method: 'POST',
      path: '/orders',
      headers: { 'Content-Type': 'application/json' },
      bodyFile: 'post-body.json',
    },
    canonical: () => json('{"accepted":true}'),
    check(res) {
      return expect200Json(res, (v) => v.accepted === true, 'accepted');
    },
  },
  {
    id: 'f_rhai',
    letter: 'f',
    title: 'Rhai middleware returning #{ json }',
    target: 0.7,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ middlewares: [names.middleware], fallback: '.' }));
      write(
        dir,
        names.middleware,
        [
          'if url_path == "/mw/other" {',
          '    return #{ text: "other" };',
          '}',
          'if url_path == "/mw/hello" {',
          '    return #{ json: "{\\"from\\":\\"middleware\\",\\"ok\\":true}" };',
          '}',
          '',
        ].join('\n'),
      );
    },
    request: { method: 'GET', path: '/mw/hello' },
    canonical: () => json('{"from":"middleware","ok":true}'),
    check(res) {
      return expect200Json(res, (v) => v.from === 'middleware' && v.ok === true, 'middleware');
    },
  },
  {
    id: 'g_csv1000',
    letter: 'g',
    title: '1,000-row CSV served as JSON',
    target: 0.7,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ fallback: 'data' }));
      write(dir, 'data/users.csv', csvText(csvRows(1000)));
    },
    request: { method: 'GET', path: '/users' },
    canonical: () => json(JSON.stringify(csvRows(1000))),
    check(res) {
      // the spec: a JSON array of row objects; apimock-rs 6.2.0: {"records":[...]}
      const want = csvRows(1000);
      return expect200Json(
        res,
        (v) => {
          const rows = Array.isArray(v) ? v : v && v.records;
          return (
            Array.isArray(rows) &&
            rows.length === 1000 &&
            JSON.stringify(rows[0]) === JSON.stringify(want[0]) &&
            JSON.stringify(rows[9]) === JSON.stringify(want[9]) &&
            JSON.stringify(rows[999]) === JSON.stringify(want[999])
          );
        },
        '1000 rows',
      );
    },
  },
  {
    id: 'h_round_robin',
    letter: 'h',
    title: 'round_robin over 3 rules',
    target: 0.85,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      let s = 'strategy = "round_robin"\n\n';
      for (let i = 0; i < 3; i++)
        s += `[[rules]]\nwhen.request.url_path = "/rr"\nrespond = { json = '{"n":${i}}' }\n\n`;
      write(dir, names.ruleSet, s);
    },
    request: { method: 'GET', path: '/rr' },
    canonical: () => json('{"n":0}'),
    async check(res, ctx) {
      const e = expect200Json(res, (v) => typeof v.n === 'number', 'n');
      if (e) return e;
      const seen = [parseJson(res).n];
      for (let k = 0; k < 3; k++) seen.push(parseJson(await ctx.fetch())?.n);
      const ok = seen.every((n, k) => k === 0 || n === (seen[k - 1] + 1) % 3);
      return ok ? null : `4 consecutive answers ${seen.join(',')} (no rotation)`;
    },
  },
  {
    // not ^-anchored: apimock-rs 6.2.0 prepends "/" to url_path regex values
    id: 'i_regex50',
    letter: 'i',
    title: '50 regex url_path rules, last matches',
    target: 0.85,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      const out = [];
      for (let i = 0; i < 50; i++) {
        out.push(
          `[[rules]]\nwhen.request.url_path = { value = "/re/r${i}/[0-9]+$", op = "regex" }\nrespond = { json = '{"re":${i}}' }\n`,
        );
      }
      write(dir, names.ruleSet, out.join('\n'));
    },
    request: { method: 'GET', path: '/re/r49/123' },
    canonical: () => json('{"re":49}'),
    check(res) {
      return expect200Json(res, (v) => v.re === 49, 'regex rule 49');
    },
  },
  {
    id: 'j_miss_bigdir',
    letter: 'j',
    title: '404 in a directory of 2,000 files',
    target: 0.85,
    expectStatus: 404,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ fallback: 'data' }));
      fs.mkdirSync(path.join(dir, 'data/api/users'), { recursive: true });
      for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(dir, `data/api/users/${i}.json`), `{"id":${i}}\n`);
    },
    request: { method: 'GET', path: '/api/users/nope' },
    canonical: notFound,
    check: expect404,
  },
  {
    id: 'k_rules2000',
    letter: 'k',
    title: '2,000 rules, last matches',
    target: 0.7,
    expectStatus: 200,
    setup(dir, names) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      write(dir, names.ruleSet, rulesText(2000));
    },
    request: { method: 'GET', path: '/api/r1999', headers: { 'X-Tenant': 't1999' } },
    canonical: () => json('{"rule":1999}'),
    check(res) {
      return expect200Json(res, (v) => v.rule === 1999, 'rule 1999');
    },
  },
  {
    // the workspace `mock --init --from` makes of a 1,000-operation document (docs/openapi.md); the request hits one
    // of the last templated operations (two parameters, an anchored regex over the whole path)
    ...importScenario(
      { id: 'l_openapi1000', letter: 'l', title: 'OpenAPI import, 1,000 operations, templated op' },
      1000,
      0,
    ),
    target: 0.7,
  },
  {
    // url_path templates and query conditions: half the rules share the template the request matches and differ
    // by `query.page` (the path index finds them all through its segment trie, then each query is checked), the
    // other half are templates the trie leaves out; the last rule matches
    id: 'm_templates_query',
    letter: 'm',
    title: '200 rules, templates + query, last matches',
    target: 0.85,
    expectStatus: 200,
    setup(dir, names, flavour) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      const out = [];
      for (let i = 0; i < 200; i++) {
        if (i % 2 === 0 && i !== 199) {
          out.push(
            flavour === 'mock'
              ? `[[rules]]\nwhen.request.url_path = { value = "/api/t${i}/{id}", op = "path_template" }\nrespond = { json = '{"rule":${i}}' }\n`
              : `[[rules]]\nwhen.request.url_path = { value = "^/api/t${i}/[^/]+$", op = "regex" }\nrespond = { json = '{"rule":${i}}' }\n`,
          );
        } else {
          // apimock-rs has no query or template conditions: the same paths as regexes, the query left out (it answers rule 1)
          out.push(
            flavour === 'mock'
              ? `[[rules]]\nwhen.request.url_path = { value = "/api/items/{id}", op = "path_template" }\nwhen.request.method = "GET"\nwhen.request.query.page = "${i}"\nrespond = { json = '{"rule":${i}}' }\n`
              : `[[rules]]\nwhen.request.url_path = { value = "^/api/items/[^/]+$", op = "regex" }\nwhen.request.method = "GET"\nrespond = { json = '{"rule":${i}}' }\n`,
          );
        }
      }
      write(dir, names.ruleSet, out.join('\n'));
    },
    request: { method: 'GET', path: '/api/items/7?page=199&sort=asc' },
    canonical: () => json('{"rule":199}'),
    check(res) {
      return expect200Json(res, (v) => v.rule === 199, 'rule 199');
    },
  },
  {
    // a response template (docs/templates.md): a JSON answer echoing a path parameter and a query parameter, one
    // inside a JSON string (escaped) and one as a number; apimock-rs has no templates and answers the same bytes literally
    id: 'n_response_template',
    letter: 'n',
    title: 'templated JSON echoing a path and a query parameter',
    target: 0.8,
    expectStatus: 200,
    setup(dir, names, flavour) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      write(
        dir,
        names.ruleSet,
        flavour === 'mock'
          ? `template = true\n\n[[rules]]\nwhen.request.url_path = { value = "/api/users/{id}", op = "path_template" }\nwhen.request.method = "GET"\nrespond.json = '{"id":"{{request.params.id}}","page":{{request.query.page}},"name":"user {{request.params.id}}"}'\n`
          : `[[rules]]\nwhen.request.url_path = { value = "^/api/users/[^/]+$", op = "regex" }\nwhen.request.method = "GET"\nrespond = { json = '{"id":"42","page":3,"name":"user 42"}' }\n`,
      );
    },
    request: { method: 'GET', path: '/api/users/42?page=3' },
    canonical: () => json('{"id":"42","page":3,"name":"user 42"}'),
    check(res) {
      return expect200Json(res, (v) => v.id === '42' && v.page === 3 && v.name === 'user 42', 'the echoed id and page');
    },
  },
  {
    // a Mockoon environment's templated answer (docs/coming-from-mockoon.md): Mockoon's helpers in one JSON body,
    // request helpers, a switch, a repeat block, string and number helpers; apimock-rs answers the same bytes literally
    id: 's_mockoon_helpers',
    letter: 's',
    title: "templated JSON with Mockoon's helpers (urlParam, queryParam, switch, repeat, concat, add)",
    target: 0.8,
    expectStatus: 200,
    setup(dir, names, flavour) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      const body =
        `{"id":"{{urlParam 'id'}}","page":{{queryParam 'page' '1'}},"name":"{{uppercase (concat 'user ' (urlParam 'id'))}}",` +
        `"kind":"{{#switch (queryParam 'kind')}}{{#case 'a'}}alpha{{/case}}{{#case 'b'}}beta{{/case}}{{/switch}}",` +
        `"tags":[{{#repeat 3}}"t{{@index}}"{{/repeat}}],"next":{{add (queryParam 'page') 1}}}`;
      write(
        dir,
        names.ruleSet,
        flavour === 'mock'
          ? `template = true\n\n[[rules]]\nwhen.request.url_path = { value = "/api/users/{id}", op = "path_template" }\nwhen.request.method = "GET"\nrespond.json = '''${body}'''\n`
          : `[[rules]]\nwhen.request.url_path = { value = "^/api/users/[^/]+$", op = "regex" }\nwhen.request.method = "GET"\nrespond = { json = '${MOCKOON_ANSWER}' }\n`,
      );
    },
    request: { method: 'GET', path: '/api/users/42?page=3&kind=b' },
    canonical: () => json(MOCKOON_ANSWER),
    check(res) {
      return expect200Json(
        res,
        (v) =>
          v.id === '42' &&
          v.page === 3 &&
          v.name === 'USER 42' &&
          v.kind === 'beta' &&
          v.tags.length === 3 &&
          v.next === 4,
        "the helpers' values",
      );
    },
  },
  {
    // a json-server style collection (docs/state.md): one item by id out of 10,000 (`--db`'s data in the state
    // store, found through the id index); apimock-rs has no collections and serves the same bytes from a file
    id: 'o_collection_item',
    letter: 'o',
    title: 'GET one item of a 10,000-item collection',
    target: 0.85,
    expectStatus: 200,
    setup(dir, names, flavour) {
      if (flavour === 'mock') {
        write(dir, names.config, '[service]\nfallback_respond_dir = "."\ndb = "db.json"\n');
        write(dir, 'db.json', JSON.stringify({ users: collectionUsers(10_000) }, null, 2));
      } else {
        write(dir, names.config, rootConfig({ fallback: 'data' }));
        write(dir, 'data/users/5000.json', COLLECTION_ITEM);
      }
    },
    request: { method: 'GET', path: '/users/5000' },
    canonical: () => ({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: Buffer.from(COLLECTION_ITEM),
    }),
    check(res) {
      return expect200Json(res, (v) => v.id === 5000 && v.name === 'user 5000', 'user 5000');
    },
  },
  {
    // a write then a read of a collection, in turn on each connection: POST an item, then GET the list's second
    // page (`_page`, with its x-total-count and link headers); the collection grows through the run. Shown with
    // its CPU per request (no target): the bare server answers both with the POST's captured bytes
    id: 'p_collection_post_page',
    letter: 'p',
    title: 'POST an item, then GET a page of the list',
    target: null,
    expectStatus: [201, 200],
    setup(dir, names, flavour) {
      if (flavour === 'mock') {
        // a rep POSTs more than the default 100,000-item cap (answered 507, docs/state.md): raised so every POST
        // is stored and the workload measures what it says
        write(
          dir,
          names.config,
          '[service]\nfallback_respond_dir = "."\ndb = "db.json"\ncollection_max_items = 10000000\n',
        );
        write(dir, 'db.json', JSON.stringify({ notes: [] }, null, 2));
      } else write(dir, names.config, rootConfig({ fallback: '.' }));
      write(dir, 'note.json', '{"title":"a note","body":"written by the bench"}');
    },
    request: {
      method: 'POST',
      path: '/notes',
      headers: { 'content-type': 'application/json' },
      bodyFile: 'note.json',
      then: { method: 'GET', path: '/notes?_page=2&_limit=10' },
    },
    canonical: () => ({
      status: 201,
      contentType: 'application/json; charset=utf-8',
      body: Buffer.from('{\n  "title": "a note",\n  "body": "written by the bench",\n  "id": 1\n}'),
    }),
    check(res) {
      if (res.status !== 201) return `status ${res.status}, not 201`;
      return expect200Json({ ...res, status: 200 }, (v) => typeof v.id === 'number', 'the new id');
    },
  },
  {
    // `service.contract` (docs/contract.md): the 2 KB order of workload e checked against its OpenAPI schema
    // (enforce mode) before the rule answers, and the answer checked against the documented 200; apimock-rs has
    // no contract check and answers the same rule unchecked
    id: 'q_contract_post',
    letter: 'q',
    title: 'JSON POST validated against an OpenAPI schema (--contract)',
    target: 0.6,
    expectStatus: 200,
    parseBody: true,
    setup(dir, names, flavour) {
      write(
        dir,
        names.config,
        rootConfig({
          ruleSets: [names.ruleSet],
          fallback: '.',
          ...(flavour === 'mock' ? { contract: 'openapi.json' } : {}),
        }),
      );
      write(
        dir,
        names.ruleSet,
        `[[rules]]\nwhen.request.url_path = "/orders"\nwhen.request.method = "POST"\nrespond = { json = '{"accepted":true}' }\n`,
      );
      write(dir, 'openapi.json', orderDocument());
      write(dir, 'post-body.json', postBodyText());
    },
    request: {
      method: 'POST',
      path: '/orders',
      headers: { 'Content-Type': 'application/json' },
      bodyFile: 'post-body.json',
    },
    canonical: () => json('{"accepted":true}'),
    check(res) {
      return expect200Json(res, (v) => v.accepted === true, 'accepted');
    },
  },
  {
    // an imported API of 20,001 rules (13,334 operations under 100 tags, so 100 rule-set files), mostly for its
    // ready time: the first start (the bench's answer check) fills the load cache, so each measured start is a
    // warm one, as every start after `mock --init --from` is (docs/load-cache.md)
    ...importScenario(
      { id: 'r_openapi20k', letter: 'r', title: 'OpenAPI import, 20,001 rules in 100 files, templated op' },
      13_334,
      100,
    ),
    target: null,
  },
  {
    // a WireMock-dialect template (docs/templates.md#wiremock-dialect): path segments, a multi-valued query and
    // WireMock helpers (jsonPath with a default, upper, size); apimock-rs has no templates and answers the same
    // bytes literally
    id: 'w_wiremock_template',
    letter: 'w',
    title: 'WireMock-dialect template: path segment, query values, jsonPath, helpers',
    target: 0.8,
    expectStatus: 200,
    setup(dir, names, flavour) {
      write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
      write(
        dir,
        names.ruleSet,
        flavour === 'mock'
          ? `template_dialect = "wiremock"\n\n[[rules]]\nwhen.request.url_path = { value = "/api/users/", op = "starts_with" }\nwhen.request.method = "GET"\nrespond.json = '{"id":"{{request.path.[2]}}","tag":"{{upper request.query.tag}}","tags":{{size request.query.tag}},"name":"{{jsonPath request.body "$.name" default="user"}}"}'\n`
          : `[[rules]]\nwhen.request.url_path = { value = "^/api/users/[^/]+$", op = "regex" }\nwhen.request.method = "GET"\nrespond = { json = '{"id":"42","tag":"A","tags":2,"name":"user"}' }\n`,
      );
    },
    request: { method: 'GET', path: '/api/users/42?tag=a&tag=b' },
    canonical: () => json('{"id":"42","tag":"A","tags":2,"name":"user"}'),
    check(res) {
      return expect200Json(
        res,
        (v) => v.id === '42' && v.tag === 'A' && v.tags === 2 && v.name === 'user',
        'the segment, the first tag upper-cased, the tag count and the default name',
      );
    },
  },
];

/** workload s's answer, as the helpers render it */
const MOCKOON_ANSWER = '{"id":"42","page":3,"name":"USER 42","kind":"beta","tags":["t0","t1","t2"],"next":4}';

/** the items of the collection workloads: `{ id, name, email, age }` */
function collectionUsers(n) {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `user ${i + 1}`,
    email: `user${i + 1}@example.com`,
    age: 20 + (i % 50),
  }));
}
const COLLECTION_ITEM = JSON.stringify(collectionUsers(5000)[4999], null, 2);
/** The OpenAPI 3.0 document of workload o: POST /orders with the whole order's schema, and its 200 answer. */
function orderDocument() {
  const str = { type: 'string' };
  const order = {
    type: 'object',
    required: ['orderId', 'customer', 'items'],
    properties: {
      orderId: { type: 'string', pattern: '^ord-[0-9]+$' },
      customer: {
        type: 'object',
        required: ['id', 'tier', 'email'],
        properties: {
          id: str,
          tier: { type: 'string', enum: ['bronze', 'silver', 'gold'] },
          name: str,
          email: { type: 'string', format: 'email' },
          address: { type: 'object', properties: { city: str, zip: str } },
        },
      },
      items: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['sku', 'qty', 'price'],
          properties: {
            sku: str,
            qty: { type: 'integer', minimum: 1 },
            price: { type: 'number', minimum: 0 },
            name: str,
          },
        },
      },
      notes: { type: 'string', nullable: true },
    },
  };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Orders', version: '1' },
    paths: {
      '/orders': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: order } } },
          responses: {
            200: {
              description: 'accepted',
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['accepted'], properties: { accepted: { type: 'boolean' } } },
                },
              },
            },
          },
        },
      },
    },
  });
}

/**
 * A workload over the workspace an import of openApiDocument(n, groups) makes; its request is the last templated
 * operation with two parameters.
 */
function importScenario(names, n, groups) {
  const m = Math.floor(n / 2) - 1;
  const last = m % 2 === 1 ? m : m - 1;
  return {
    ...names,
    expectStatus: 200,
    setup(dir, files, flavour) {
      importedWorkspace(dir, files, flavour, n, groups);
    },
    request: { method: 'GET', path: `/api/r${last}/7/s/8` },
    canonical: () => json('{\n  "id": 0,\n  "name": "string"\n}\n'),
    check(res) {
      return expect200Json(res, (v) => v.id === 0 && v.name === 'string', `operation get${last}`);
    },
  };
}

/**
 * The workspace `mock --init --from` makes of openApiDocument(n, groups); for apimock-rs, which has no import, the
 * same rules by hand (no status with file_path, regexes without ^), in one rule-set file.
 */
function importedWorkspace(dir, names, flavour, n, groups) {
  write(dir, 'openapi.json', openApiDocument(n, groups));
  if (flavour === 'mock') {
    const r = spawnSync(process.execPath, [MOCK_ENTRY, '--init', '--from', 'openapi.json', '--yes'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (r.status !== 0) throw new Error(`mock --init --from failed (${r.status}): ${r.stderr}`);
    return;
  }
  write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: '.' }));
  const out = ['prefix.url_path = "/api"\n'];
  for (let i = 0; i < n / 2; i++)
    out.push(`[[rules]]\nwhen.request.method = "GET"\nwhen.request.url_path = "/r${i}"\nrespond.json = '[]'\n`);
  for (const two of [false, true]) {
    for (let i = two ? 1 : 0; i < n / 2; i += 2) {
      const re = `api/r${i}/[^/]+${two ? '/s/[^/]+' : ''}$`;
      out.push(
        `[[rules]]\nwhen.request.method = "GET"\nwhen.request.url_path = { value = "${re}", op = "regex" }\nrespond.json = '{"id":0,"name":"string"}'\n`,
      );
    }
  }
  write(dir, names.ruleSet, out.join('\n'));
}

/** the program the OpenAPI workload imports with (the bench builds it first) */
const MOCK_ENTRY = fileURLToPath(new URL('../../dist/bin/main.cjs', import.meta.url));

/**
 * An OpenAPI 3.1 document with `n` GET operations: half literal paths, half templated (one or two parameters);
 * with `groups`, each pair of operations is tagged with one of that many tags (the import writes a rule-set file per
 * tag), else untagged.
 */
function openApiDocument(n, groups = 0) {
  const item = {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' } },
  };
  const paths = {};
  for (let i = 0; i < n / 2; i++) {
    const tags = groups > 0 ? { tags: [`group${i % groups}`] } : {};
    paths[`/r${i}`] = {
      get: {
        ...tags,
        operationId: `list${i}`,
        responses: {
          200: {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'array', items: item, maxItems: 0 } } },
          },
        },
      },
    };
    paths[`/r${i}/{id}${i % 2 === 0 ? '' : '/s/{sub}'}`] = {
      get: {
        ...tags,
        operationId: `get${i}`,
        responses: {
          200: { description: 'ok', content: { 'application/json': { schema: item } } },
          404: { description: 'none' },
        },
      },
    };
  }
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Bench', version: '1' },
    servers: [{ url: '/api' }],
    paths,
  });
}

// ---- CLI cold-start workspace (validate, get) ----------------------------

export const CLI_GET_PATH = '/api/users/42';

export function setupCliWorkspace(dir, names) {
  write(dir, names.config, rootConfig({ ruleSets: [names.ruleSet], fallback: 'data' }));
  const out = [];
  for (let i = 0; i < 10; i++)
    out.push(
      `[[rules]]\nwhen.request.url_path = "/api/r${i}"\nwhen.request.method = "GET"\nrespond = { json = '{"rule":${i}}' }\n`,
    );
  write(dir, names.ruleSet, out.join('\n'));
  write(dir, 'data/api/users/42.json', SMALL_JSON);
}

/** Writes every workspace under root; returns { [id]: { mock, apimock } } dirs. */
export function buildWorkspaces(root, scenarios, { apimock }) {
  const dirs = {};
  for (const s of scenarios) {
    dirs[s.id] = {};
    for (const flavour of apimock ? ['mock', 'apimock'] : ['mock']) {
      const d = path.join(root, s.id, flavour);
      fs.mkdirSync(d, { recursive: true });
      s.setup(d, FLAVOURS[flavour], flavour);
      dirs[s.id][flavour] = d;
    }
  }
  for (const flavour of apimock ? ['mock', 'apimock'] : ['mock']) {
    const d = path.join(root, 'cli', flavour);
    fs.mkdirSync(d, { recursive: true });
    setupCliWorkspace(d, FLAVOURS[flavour]);
    dirs[`cli_${flavour}`] = d;
  }
  return dirs;
}
