// The Rhai that real middleware scripts use (docs/rhai.md), through the real program: `mock get` and
// the live server answer from one script that uses raw strings, `""`, string ranges, `global::`,
// integer getters and shifts, float epsilon comparisons, function pointers, `?? continue`, float
// `switch` ranges and timestamps; a script using a left-out feature does not load, and the error
// names the file, line and column.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeTempDir, removeDir, runMock, spawnMock, writeTree, type RunningMock } from '../helpers/mock-cli.js';

const SCRIPT = String.raw`
const PREFIX = "/lang/";
fn tag(n) { if n.is_even { "even" } else { "odd" } }
fn inside(p) { p.starts_with(global::PREFIX) }

if !inside(url_path) { return; }
let what = url_path[global::PREFIX.len..];
switch what {
  "raw" => #{ text: #"C:\data\"quoted""# },
  "quote" => #{ text: "say ""hi""" },
  "slice" => #{ text: "hello world"[6..=10] },
  "numbers" => #{ json: to_json(#{
    eq: 0.1 + 0.2 == 0.3, tiny: 1.0e-16 == 0, inf: to_string(1.0 / 0.0), five: type_of(5.),
    shift: 1 << 64, odd: 7.is_odd, even: is_even(10)
  }) },
  "pointers" => {
    let f = tag;
    #{ json: to_json(#{ name: f.name, kind: type_of(f), call: f.call(3), mapped: [1, 2].map(tag),
                        named: [1, 2].map("tag"), big: [1, 2, 3].filter(|| this > 1) }) }
  },
  "flow" => {
    let sum = 0;
    for x in [1, (), 3] { let v = x ?? continue; sum += v; }
    let band = switch 2.5 { 0..5 => "low", _ => "high" };
    #{ json: to_json(#{ sum: sum, band: band }) }
  },
  "time" => {
    let t = timestamp();
    let later = t + 5;
    #{ json: to_json(#{ kind: type_of(t), ahead: later > t, gap: (later - t).round(), fresh: t.elapsed < 60.0 }) }
  },
  "sorting" => {
    let x = [3, 1, 2];
    let chars = ['b', 'a', 'c'];
    chars.sort_desc();
    #{ json: to_json(#{ desc: x.order_desc(), asc: x.order(), by: x.order_by(|a, b| b - a), orig: x,
                        chars: chars.to_string(), dbg: to_debug('c') }) }
  },
  "json-top" => #{ text: try { parse_json("[1]"); "parsed" } catch (e) { "refused" } },
  _ => ()
}
`;

const EXPECTED: readonly (readonly [path: string, body: string])[] = [
  ['/lang/raw', 'C:\\data\\"quoted"'],
  ['/lang/quote', 'say "hi"'],
  ['/lang/slice', 'world'],
  ['/lang/numbers', '{"eq":true,"even":true,"five":"f64","inf":"inf","odd":true,"shift":0,"tiny":true}'],
  [
    '/lang/pointers',
    '{"big":[2,3],"call":"odd","kind":"Fn","mapped":["odd","even"],"name":"tag","named":["odd","even"]}',
  ],
  ['/lang/flow', '{"band":"low","sum":4}'],
  // the gap is rounded: timestamps are floats of seconds, and a loaded machine's clock reads showed 5.000000000000001
  ['/lang/time', '{"ahead":true,"fresh":true,"gap":5.0,"kind":"timestamp"}'],
  // Rhai 1.24's sort_desc / order / order_by / order_desc; a char inside a printed array is quoted, as Rhai prints
  // it, and through to_debug alone is the bare character; parse_json's top level must be an object map
  ['/lang/sorting', `{"asc":[1,2,3],"by":[3,2,1],"chars":"['c', 'b', 'a']","dbg":"c","desc":[3,2,1],"orig":[3,1,2]}`],
  ['/lang/json-top', 'refused'],
];

let ws: string;

before(async () => {
  ws = makeTempDir();
  await writeTree(ws, {
    'mock.toml': '[service]\nmiddlewares = ["lang.rhai"]\n',
    'lang.rhai': SCRIPT,
    'other.txt': 'fallback',
    'bad/mock.toml': '[service]\nmiddlewares = ["bad.rhai"]\n',
    'bad/bad.rhai': 'let a = 1;\nlet b = eval("a + 1");\n',
  });
});
after(async () => {
  await removeDir(ws);
});

interface Envelope {
  result: { stage: string; response: { status: number; body: string } };
}

describe('Rhai language features through `mock get`', () => {
  for (const [path, body] of EXPECTED) {
    test(path, async () => {
      const r = await runMock(['get', path, '--format', 'json'], { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      const env = JSON.parse(r.stdout) as Envelope;
      assert.equal(env.result.stage, 'middleware');
      assert.equal(env.result.response.status, 200);
      assert.equal(env.result.response.body, body);
    });
  }

  test('a path outside the prefix falls through to the files', async () => {
    const r = await runMock(['get', '/other.txt', '--format', 'json'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as Envelope).result.response.body, 'fallback');
  });

  test('a left-out feature (eval) does not load: file, line and column are named', async () => {
    const r = await runMock(['get', '/x'], { cwd: join(ws, 'bad') });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /bad\.rhai:2:9/);
    assert.match(r.stdout + r.stderr, /Dynamic evaluation is not supported: 'eval'/);
  });
});

describe('Rhai language features through the live server', () => {
  let server: RunningMock;
  before(async () => {
    server = await spawnMock([], { cwd: ws });
  });
  after(async () => {
    await server.stop();
  });

  for (const [path, body] of EXPECTED) {
    test(path, async () => {
      const res = await fetch(server.url + path);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), body);
    });
  }
});
