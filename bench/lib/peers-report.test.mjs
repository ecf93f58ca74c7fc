// node --test bench/lib/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

import { renderPeers, renderPeersSvg, summarise, framing } from './peers-report.mjs';
import { cacheRoot, PEERS, WORKLOAD } from './peers.mjs';

const PEERS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'peers');

function run(server, rep, rps, { p50 = 1, p99 = 5, rssKb = 50 * 1024, check = 'ok', reconnects = 0, head } = {}) {
  return {
    server,
    rep,
    ready_ms: 500,
    rss_idle_kb: rssKb - 1024,
    rss_after_kb: rssKb,
    check,
    answer: {
      status: 200,
      body_bytes: 166,
      same_bytes: server !== 'prism',
      same_json: true,
      content_type: 'application/json',
    },
    wire: {
      bytes: 400,
      head_bytes: 234,
      head: head ?? 'HTTP/1.1 200 OK\r\nContent-Length: 166\r\nDate: Thu, 01 Jan 2026 00:00:00 GMT',
      keep_alive: true,
    },
    load: {
      requests: rps * 5,
      rps,
      reconnects,
      latency_ms: { p50, p99 },
      errors: { connect: 0, reset: 0, timeout: 0, parse: 0 },
      unexpected_status: 0,
      statuses: { 200: rps * 5 },
    },
  };
}

const NUMBERS = {
  date: '2026-01-01T00:00:00.000Z',
  command: 'npm run bench -- --peers-only',
  machine: { cpu: '2 × test', mem_gib: 4, os: 'Linux', node: 'v20', loadavg_start: [1, 1, 1], loadavg_end: [1, 1, 1] },
  settings: { reps: 2, duration_s: 5, warmup_s: 1, jvm_warmup_s: 10, slices: 5, slice_warmup_s: 0.25, conns: 50 },
  workload: { letter: 'b', title: 'small JSON file', method: 'GET', path: '/api/users/42', body_bytes: 166 },
  servers: [
    {
      id: 'mock',
      name: 'mock',
      version: '0.1.0',
      runtime: 'Node.js',
      detail: 'd',
      config: 'c',
      logging: 'l',
      journal: 'j',
    },
    {
      id: 'bare',
      name: 'bare node:http',
      version: 'v20',
      runtime: 'Node.js',
      detail: 'd',
      config: 'c',
      logging: 'none',
      journal: 'none',
    },
    {
      id: 'prism',
      name: 'Prism <&>',
      version: '5.14.2',
      runtime: 'Node.js',
      detail: 'd',
      config: 'c',
      logging: 'l',
      journal: 'j',
    },
    {
      id: 'wiremock',
      name: 'WireMock',
      version: '3.13.2',
      runtime: 'Java',
      detail: 'd',
      config: 'c',
      logging: 'l',
      journal: 'j',
      jvm: true,
    },
  ],
  skipped: [
    { id: 'mountebank', name: 'mountebank', version: '2.9.1', reason: 'could not install mountebank@2.9.1: offline' },
  ],
  runs: [
    run('mock', 1, 12000, { rssKb: 80 * 1024 }),
    run('mock', 2, 9000, { rssKb: 80 * 1024 }),
    run('bare', 1, 16000),
    run('bare', 2, 12000),
    run('prism', 1, 2000, { reconnects: 10 }),
    run('prism', 2, 3000, { check: 'status 500, want 200' }),
    run('wiremock', 1, 4000, { rssKb: 1000 * 1024, head: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked' }),
    run('wiremock', 2, 3000, { rssKb: 1000 * 1024 }),
  ],
};

test('summarise: medians, per-rep ratios mock ÷ peer, fastest first', () => {
  const rows = summarise(NUMBERS);
  assert.deepEqual(
    rows.map((r) => r.id),
    ['bare', 'mock', 'wiremock', 'prism'],
  );
  const prism = rows.find((r) => r.id === 'prism');
  assert.deepEqual(prism.vsMock, [6, 3]);
  assert.equal(prism.vsMockMedian, 4.5);
  assert.equal(prism.rpsMedian, 2500);
  assert.equal(prism.reconnectsPer1k, (10 / 25000) * 1000);
  assert.deepEqual(prism.notes, ['answer: status 500, want 200']);
});

test('renderPeers: one table with req/s, ratio, p50, p99 and RSS; skipped peers and problems said', () => {
  const md = renderPeers(NUMBERS, { svg: 'peers.svg' });
  assert.match(md, /!\[[^\]]*\]\(peers\.svg\)/);
  assert.match(md, /\| server \| req\/s \| mock ÷ server \(req\/s\) \| p50 ms \| p99 ms \| RSS after load, MB \|/);
  assert.match(md, /\| Prism <&> \| 2,500 \[2,000–3,000\] \| 4\.5× \[3\.0–6\.0\] \|/);
  assert.match(md, /\| \*\*mock\*\* \| 10,500 \[9,000–12,000\] \| 1× \|/);
  assert.match(md, /\| WireMock \| 3,500 \[3,000–4,000\] \| 3\.0× \|.*\| 1,000 \|/);
  assert.match(md, /- mountebank 2\.9\.1: could not install mountebank@2\.9\.1: offline/);
  assert.match(md, /- Prism <&>: answer: status 500, want 200/);
  assert.match(md, /JVM peers first for 10 s more/);
  assert.match(md, /\| WireMock \| 400 \(234 \+ 166\) \| 166 B \| yes \| chunked \| yes \|/);
  assert.match(md, /\| Prism <&> \| 400 \(234 \+ 166\) \| 166 B \| no: same JSON, re-serialised \| content-length \|/);
  assert.ok(!/Thu, 01 Jan/.test(md), 'the Date header is elided from the heads shown');
});

test('renderPeersSvg: one bar per server in each panel, scaled to the largest, text escaped', () => {
  const svg = renderPeersSvg(NUMBERS);
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  const bars = [...svg.matchAll(/<rect x="150" y="[\d.]+" width="([\d.]+)" height="\d+" class="(\w+)"\/>/g)];
  assert.equal(bars.length, 8); // 4 servers × (req/s, RSS)
  assert.equal(Number(bars[0][1]), 420); // bare, the fastest
  assert.equal(Number(bars[1][1]), (420 * 10500) / 14000); // mock
  assert.equal(bars[1][2], 'mock');
  assert.match(svg, /Prism &lt;&amp;&gt;/);
  assert.ok(!svg.includes('Prism <&>'));
  assert.match(svg, /2,500 · mock ÷ this = 4\.5×/);
  assert.match(svg, /1,000 MB/);
});

test('framing is read from the head as sent', () => {
  assert.equal(framing('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX: 1'), 'chunked');
  assert.equal(framing('HTTP/1.1 200 OK\r\ncontent-length: 3'), 'content-length');
  assert.equal(framing('HTTP/1.1 200 OK\r\nConnection: close'), 'until close');
});

test('the peers are installed outside the project: $XDG_CACHE_HOME when absolute, else ~/.cache', () => {
  assert.equal(cacheRoot({ XDG_CACHE_HOME: '/var/cache/u' }), path.join('/var/cache/u', 'folder-mock-bench'));
  assert.ok(cacheRoot({ XDG_CACHE_HOME: 'relative' }).endsWith(path.join('.cache', 'folder-mock-bench')));
  for (const p of PEERS) assert.match(p.version, /^\d+\.\d+\.\d+$/, `${p.id} is pinned to an exact version`);
});

test("every peer configuration in bench/peers/ answers with workload b's document", () => {
  const body = WORKLOAD.canonical().body.toString('utf8');
  const read = (rel) => fs.readFileSync(path.join(PEERS_DIR, rel), 'utf8');
  // byte for byte where the server sends a body as written
  assert.equal(JSON.parse(read('mockoon/environment.json')).routes[0].responses[0].body, body);
  assert.equal(JSON.parse(read('wiremock/mappings/users-42.json')).response.body, body);
  assert.equal(JSON.parse(read('mountebank/imposters.json')).imposters[0].stubs[0].responses[0].is.body, body);
  // the same JSON where the server serialises a value itself
  assert.deepEqual(
    JSON.parse(read('json-server/db.json')).users.find((u) => u.id === 42),
    JSON.parse(body),
  );
  const doc = YAML.parse(read('prism/openapi.yaml'));
  assert.deepEqual(
    doc.paths['/api/users/{id}'].get.responses['200'].content['application/json'].example,
    JSON.parse(body),
  );
  for (const p of PEERS)
    if (p.config) assert.ok(fs.existsSync(path.join(PEERS_DIR, p.config)), `bench/peers/${p.config}`);
});
