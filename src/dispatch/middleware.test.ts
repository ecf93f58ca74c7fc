// The middleware stage with real compiled scripts: return values → Respond, fall-through,
// runtime errors logged (never answered), globals, limits, and the shipped example shapes.
import { LazyRequestParts } from '../routing/request-parts.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compile } from '../interpreter/index.js';
import type { Json } from '../shared/json.js';
import type { RequestBody, RequestSnapshot } from '../model/request.js';
import type { MiddlewareScript } from '../model/workspace.js';
import { answerFromMiddleware, resolvePath, type MiddlewareAnswer } from './middleware.js';
import { snapshotFrom } from './snapshot.js';

const DIR = '/ws/scripts';

function script(source: string, name = 'mw1.rhai'): MiddlewareScript {
  const file = `${DIR}/${name}`;
  return { file, entry: `./scripts/${name}`, dir: DIR, script: compile(source, file) };
}

function request(path: string, json?: Json): RequestSnapshot {
  const body: RequestBody = json === undefined ? { kind: 'none' } : { kind: 'json', value: json, byteLength: 10 };
  const segments = path.split('/').filter((s) => s !== '');
  return {
    method: 'POST',
    rawPath: path,
    segments,
    path,
    query: '',
    headers: [],
    body,
    httpVersion: '1.1',
    parts: new LazyRequestParts('', [], undefined),
  };
}

function answer(
  sources: string[],
  req: RequestSnapshot,
  maxOperations = 1_000_000,
): { hit: MiddlewareAnswer | undefined; logs: string[] } {
  const logs: string[] = [];
  const scripts = sources.map((s, i) => script(s, `mw${i + 1}.rhai`));
  const hit = answerFromMiddleware(scripts, req, { maxOperations, timeLimitMs: 1000, log: (l) => logs.push(l) });
  return { hit, logs };
}

describe('return values', () => {
  test('a string serves that file, relative to the script folder and confined to it', () => {
    const { hit } = answer(['"data/f.json"'], request('/x'));
    assert.deepEqual(hit, {
      respond: { body: { kind: 'file', path: '/ws/scripts/data/f.json', confineTo: DIR }, headers: [], delayMs: 0 },
      index: 0,
      file: '/ws/scripts/mw1.rhai',
    });
  });

  test('file_path in a map, absolute paths, .. and the empty string', () => {
    const path = (src: string): unknown => {
      const body = answer([src], request('/x')).hit?.respond.body;
      return body?.kind === 'file' ? [body.path, body.confineTo] : body;
    };
    assert.deepEqual(path('#{ file_path: "./a/../b.json" }'), ['/ws/scripts/b.json', DIR]);
    assert.deepEqual(path('return "/etc/abs.json";'), ['/etc/abs.json', DIR]);
    assert.deepEqual(path('"../f.json"'), ['/ws/f.json', DIR]);
    assert.deepEqual(path('""'), ['/ws/scripts', DIR]);
  });

  test('json (JSON5) is re-serialised minified with key order kept', () => {
    const { hit } = answer(['#{ json: "{ b: 1, /* c */ a: [1, 2,], \'s\': \\"x\\" }" }'], request('/x'));
    assert.deepEqual(hit?.respond, {
      body: { kind: 'json', text: '{"b":1,"a":[1,2],"s":"x"}' },
      headers: [],
      delayMs: 0,
    });
  });

  test('json keeps integer-like keys in place and large integers exact', () => {
    const { hit } = answer(['#{ json: `{"b": 1, "2": 2, "big": 12345678901234567890}` }'], request('/x'));
    assert.deepEqual(hit?.respond.body, { kind: 'json', text: '{"b":1,"2":2,"big":12345678901234567890}' });
  });

  test('invalid json content answers 500 and logs the script path', () => {
    const { hit, logs } = answer(['#{ json: "{ nope" }'], request('/x'));
    assert.deepEqual(hit?.respond, {
      status: 500,
      body: { kind: 'text', text: 'invalid json content' },
      headers: [],
      delayMs: 0,
    });
    assert.equal(logs.length, 1);
    assert.match(
      logs[0] as string,
      /^middleware `\.\/scripts\/mw1\.rhai`: invalid json content returned by \/ws\/scripts\/mw1\.rhai: /,
    );
  });

  test('text answers plain text; status, headers and delay shape the answer (unlike apimock-rs, which ignores them)', () => {
    assert.deepEqual(answer(['#{ text: "x" }'], request('/x')).hit?.respond, {
      body: { kind: 'text', text: 'x' },
      headers: [],
      delayMs: 0,
    });
    assert.deepEqual(answer(['#{ status: 201, text: "x" }'], request('/x')).hit?.respond, {
      status: 201,
      body: { kind: 'text', text: 'x' },
      headers: [],
      delayMs: 0,
    });
    assert.deepEqual(answer(['#{ status: 201, headers: #{ A: "b", n: 1 } }'], request('/x')).hit?.respond, {
      status: 201,
      body: { kind: 'empty' },
      headers: [
        ['a', 'b'],
        ['n', '1'],
      ],
      delayMs: 0,
    });
    assert.deepEqual(answer(['#{ status: 204 }'], request('/x')).hit?.respond, {
      status: 204,
      body: { kind: 'empty' },
      headers: [],
      delayMs: 0,
    });
    assert.deepEqual(answer(['#{ delay: 20, json: "[1]" }'], request('/x')).hit?.respond, {
      body: { kind: 'json', text: '[1]' },
      headers: [],
      delayMs: 20,
    });
    assert.equal(answer(['#{ stat: 201, header: 1 }'], request('/x')).hit, undefined);
  });

  test('a status, headers or delay of the wrong type is logged and answered 500', () => {
    for (const [src, what] of [
      ['#{ status: "201" }', /`status` must be an integer from 100 to 999/],
      ['#{ status: 42 }', /`status` must be an integer/],
      ['#{ headers: "x" }', /`headers` must be a map/],
      ['#{ headers: #{ "a b": "x" } }', /`a b` is not a valid header name/],
      ['#{ headers: #{ a: "x\\ny" } }', /the header `a` needs a string value/],
      ['#{ delay: -1, text: "x" }', /`delay` must be a whole number/],
    ] as const) {
      const { hit, logs } = answer([src], request('/x'));
      assert.equal(hit?.respond.status, 500, src);
      assert.match(logs.join('\n'), what, src);
    }
  });

  test('precedence is file_path > json > text', () => {
    const all = answer(['#{ text: "t", json: "{}", file_path: "f.json" }'], request('/x')).hit?.respond.body;
    assert.equal(all?.kind, 'file');
    const two = answer(['#{ text: "t", json: "[1]" }'], request('/x')).hit?.respond.body;
    assert.deepEqual(two, { kind: 'json', text: '[1]' });
  });

  test('non-answers fall through to the next script', () => {
    for (const decline of [
      '42',
      'true',
      '[1, 2]',
      '()',
      'return;',
      'let x = 1;',
      '#{ json: 5 }',
      '#{ other: "x" }',
      '3.5',
    ]) {
      const { hit } = answer([decline, '#{ text: "second" }'], request('/x'));
      assert.equal(hit?.index, 1, decline);
      assert.deepEqual(hit?.respond.body, { kind: 'text', text: 'second' }, decline);
    }
    assert.equal(answer(['()', '5'], request('/x')).hit, undefined);
  });

  test('exit(value) ends the script with that value', () => {
    const hit = answer(['exit(#{ text: "bye" }); "never.json"'], request('/x')).hit;
    assert.deepEqual(hit?.respond.body, { kind: 'text', text: 'bye' });
    assert.equal(answer(['exit("f.json")'], request('/x')).hit?.respond.body.kind, 'file');
  });
});

describe('globals', () => {
  test('url_path is the request path; body exists only with a JSON body; the request variables are there', () => {
    const src =
      '#{ text: `${url_path} ${is_def_var("body")} ${is_def_var("headers")} ${method} ${query.len()} ${cookies.len()} ${is_def_var("body_text")}` }';
    assert.deepEqual(answer([src], request('/a/b')).hit?.respond.body, {
      kind: 'text',
      text: '/a/b false true POST 0 0 false',
    });
    assert.deepEqual(answer([src], request('/a/b', { k: 1 })).hit?.respond.body, {
      kind: 'text',
      text: '/a/b true true POST 0 0 false',
    });
  });

  test('a variable no script names is not built', () => {
    const src = '#{ text: `${is_def_var("cookies")}` }';
    assert.deepEqual(answer([src], request('/a')).hit?.respond.body, { kind: 'text', text: 'true' });
    assert.deepEqual(answer(['#{ text: `${is_def_var("cook" + "ies")}` }'], request('/a')).hit?.respond.body, {
      kind: 'text',
      text: 'false',
    });
  });

  test('body is a map (or array) converted from JSON, integers exact', () => {
    const src = '#{ text: `${type_of(body)} ${body.id + 1} ${body.tags[1]} ${body.missing}` }';
    const req = request('/x', { id: 9007199254740993n, tags: ['a', 'b'] });
    assert.deepEqual(answer([src], req).hit?.respond.body, { kind: 'text', text: 'map 9007199254740994 b ' });
  });

  test('a body number is f64 when written as a float (5.0, 1e3) and i64 when written as an integer', () => {
    const src =
      '#{ text: `${type_of(body.f)} ${body.f} ${type_of(body.e)} ${body.e} ${type_of(body.i)} ${body.i} ${type_of(body.h)} ${type_of(body.a[1])} ${body.f / 2}` }';
    const text = '{"f":5.0,"e":1e3,"i":5,"h":1.5,"a":[1,2.0]}';
    const req = {
      ...request('/x'),
      body: snapshotFrom({ method: 'POST', target: '/x', headers: [], body: new TextEncoder().encode(text) }).body,
    };
    assert.deepEqual(answer([src], req).hit?.respond.body, {
      kind: 'text',
      text: 'f64 5.0 f64 1000.0 i64 5 f64 f64 2.5',
    });
    // without any such number the body converts as it is (integers stay i64)
    const plain = {
      ...request('/x'),
      body: snapshotFrom({
        method: 'POST',
        target: '/x',
        headers: [],
        body: new TextEncoder().encode('{"f":5,"h":1.5}'),
      }).body,
    };
    assert.deepEqual(answer(['#{ text: `${type_of(body.f)} ${type_of(body.h)}` }'], plain).hit?.respond.body, {
      kind: 'text',
      text: 'i64 f64',
    });
  });

  test('a change to body in one script is not seen by the next', () => {
    const { hit } = answer(['body.x = 1; ()', '#{ text: type_of(body.x) }'], request('/x', { y: 2 }));
    assert.deepEqual(hit?.respond.body, { kind: 'text', text: '()' });
  });

  test('the shipped example shape: switch with a guard, body priority', () => {
    const src = `//! example middleware
      if !is_def_var("body") { return; }
      switch (url_path) {
        "/api/check" if body.priority == "high" => { return #{ "json": "{\\"ok\\": true}" }; },
        _ => ()
      }`;
    assert.deepEqual(answer([src], request('/api/check', { priority: 'high' })).hit?.respond.body, {
      kind: 'json',
      text: '{"ok":true}',
    });
    assert.equal(answer([src], request('/api/check', { priority: 'low' })).hit, undefined);
    assert.equal(answer([src], request('/api/check')).hit, undefined);
  });
});

describe('errors and limits', () => {
  test('a runtime error is logged with file, line and column, and dispatch continues', () => {
    const { hit, logs } = answer(
      ['let x = 1;\nif body.priority == "high" { "a.json" }', '#{ text: "next" }'],
      request('/x'),
    );
    assert.equal(hit?.index, 1);
    assert.deepEqual(logs, [
      'middleware `./scripts/mw1.rhai`: script evaluation failed: Variable not found: body (/ws/scripts/mw1.rhai:2:4)',
    ]);
  });

  test('throw and property access on an array body are logged the same way', () => {
    assert.match(
      answer(['throw "boom"'], request('/x')).logs[0] as string,
      /script evaluation failed: Runtime error: boom \(\/ws\/scripts\/mw1\.rhai:1:1\)$/,
    );
    const arrayBody = answer(['body.a'], request('/x', [1, 2])).logs[0] as string;
    assert.match(arrayBody, /Unknown property 'a' - a getter is not registered for type 'array'/);
  });

  test('functions cannot see url_path', () => {
    const { hit, logs } = answer(['fn helper() { url_path }\nhelper()'], request('/x'));
    assert.equal(hit, undefined);
    assert.match(
      logs[0] as string,
      /Variable not found: url_path in call to function 'helper' \(\/ws\/scripts\/mw1\.rhai:1:15\)$/,
    );
    assert.deepEqual(answer(['fn h(p) { #{ text: p } }\nh(url_path)'], request('/q')).hit?.respond.body, {
      kind: 'text',
      text: '/q',
    });
  });

  test('loop {} is stopped by the operation budget and falls through', () => {
    const { hit, logs } = answer(['loop {}', '"after.json"'], request('/x'), 10_000);
    assert.equal(hit?.index, 1);
    assert.match(
      logs[0] as string,
      /script evaluation failed: Too many operations; raise service\.middleware_max_operations \(\/ws\/scripts\/mw1\.rhai:1:1\)$/,
    );
  });

  test('print and debug go to the log', () => {
    const { logs } = answer(['print("hello " + url_path); debug(1.5);'], request('/p'));
    assert.deepEqual(logs, ['middleware `./scripts/mw1.rhai`: hello /p', 'middleware `./scripts/mw1.rhai` debug: 1.5']);
  });

  test('no middleware, no answer', () => {
    assert.equal(
      answerFromMiddleware([], request('/x'), { maxOperations: 1, timeLimitMs: 1, log: () => {} }),
      undefined,
    );
  });
});

test('resolvePath joins and normalises POSIX paths', () => {
  assert.equal(resolvePath('/a/b', 'c/./d/../e.json'), '/a/b/c/e.json');
  assert.equal(resolvePath('/a/b', '/x//y'), '/x/y');
  assert.equal(resolvePath('/a', '../../..'), '/');
  assert.equal(resolvePath('/a/b', ''), '/a/b');
});

describe('remembered responds', () => {
  test('the same return value gives the very same Respond (later stages reuse their work); a different one does not', () => {
    const mw = script(
      'if url_path == "/a" { #{ json: "{a: 1}" } } else if url_path == "/t" { #{ text: "t" } } else { "f.json" }',
    );
    const run = (path: string): MiddlewareAnswer | undefined =>
      answerFromMiddleware([mw], request(path), { maxOperations: 1_000_000, timeLimitMs: 1000, log: () => undefined });
    for (const path of ['/a', '/t', '/f']) assert.equal(run(path)!.respond, run(path)!.respond, path);
    assert.notEqual(run('/a')!.respond, run('/t')!.respond);
    assert.deepEqual(run('/a')!.respond.body, { kind: 'json', text: '{"a":1}' });
  });

  test('invalid #{json} is logged on every request, never remembered', () => {
    const mw = script('#{ json: "{bad" }');
    const logs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const hit = answerFromMiddleware([mw], request('/x'), {
        maxOperations: 1_000_000,
        timeLimitMs: 1000,
        log: (l) => logs.push(l),
      });
      assert.equal(hit!.respond.status, 500);
    }
    assert.equal(logs.filter((l) => l.includes('invalid json content')).length, 3);
  });
});
