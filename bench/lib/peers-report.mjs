// Renders the results of `npm run bench -- --peers` (bench/lib/peers.mjs) as bench/PEERS.md and its chart,
// bench/peers.svg: both made from the numbers alone, so they can be redrawn from a saved run:
//
//   node bench/lib/peers-report.mjs bench/out/peers-<time>.json [bench/PEERS.md]

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, min, max } from './stats.mjs';

function f(x, d = 0) {
  if (!Number.isFinite(x)) return '–';
  return x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}
function spread(xs, d = 0) {
  const v = xs.filter(Number.isFinite);
  if (!v.length) return '–';
  if (f(min(v), d) === f(max(v), d)) return f(v[0], d);
  return `${f(median(v), d)} [${f(min(v), d)}–${f(max(v), d)}]`;
}
/** Ratios read best with two significant digits below 10 and none above. */
function ratio(x) {
  if (!Number.isFinite(x)) return '–';
  return x >= 10 ? f(x, 0) : x >= 1 ? f(x, 1) : f(x, 2);
}
function ratioSpread(xs) {
  const v = xs.filter(Number.isFinite);
  if (!v.length) return '–';
  if (ratio(min(v)) === ratio(max(v))) return `${ratio(v[0])}×`;
  return `${ratio(median(v))}× [${ratio(min(v))}–${ratio(max(v))}]`;
}

/** One row per server: its figures per rep, their medians, mock ÷ it per rep, what went over the wire. */
export function summarise(R) {
  const reps = [...new Set(R.runs.map((r) => r.rep))].sort((a, b) => a - b);
  const run = (id, rep) => R.runs.find((r) => r.server === id && r.rep === rep && r.load);
  const per = (id, fn) =>
    reps.map((rep) => {
      const r = run(id, rep);
      return r ? fn(r) : NaN;
    });
  const rows = R.servers.map((s) => {
    const runs = R.runs.filter((r) => r.server === s.id);
    const loaded = runs.filter((r) => r.load);
    const rps = per(s.id, (r) => r.load.rps);
    const vsMock = reps.map((rep) => {
      const m = run('mock', rep);
      const p = run(s.id, rep);
      return m && p ? m.load.rps / p.load.rps : NaN;
    });
    const notes = new Set();
    for (const r of runs) {
      if (r.error) notes.add(r.error.split('\n')[0]);
      if (r.check && r.check !== 'ok') notes.add(`answer: ${r.check}`);
      if (r.load?.unexpected_status) notes.add(`${r.load.unexpected_status} answers with another status under load`);
      const errs = r.load ? Object.entries(r.load.errors).filter(([, v]) => v > 0) : [];
      if (errs.length) notes.add(`socket errors: ${errs.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    }
    const requests = loaded.reduce((n, r) => n + r.load.requests, 0);
    const reconnects = loaded.reduce((n, r) => n + (r.load.reconnects ?? 0), 0);
    return {
      ...s,
      rps,
      rpsMedian: median(rps),
      p50: per(s.id, (r) => r.load.latency_ms.p50),
      p99: per(s.id, (r) => r.load.latency_ms.p99),
      rssAfter: per(s.id, (r) => r.rss_after_kb / 1024),
      rssAfterMedian: median(per(s.id, (r) => r.rss_after_kb / 1024)),
      rssIdle: per(s.id, (r) => r.rss_idle_kb / 1024),
      ready: per(s.id, (r) => r.ready_ms),
      vsMock,
      vsMockMedian: median(vsMock),
      answer: runs.find((r) => r.answer && r.answer.status !== undefined)?.answer ?? null,
      wire: runs.find((r) => r.wire && !r.wire.error)?.wire ?? null,
      reconnectsPer1k: requests ? (reconnects / requests) * 1000 : NaN,
      notes: [...notes],
    };
  });
  // fastest first; mock and bare keep their places only by speed too
  rows.sort(
    (a, b) => (Number.isFinite(b.rpsMedian) ? b.rpsMedian : -1) - (Number.isFinite(a.rpsMedian) ? a.rpsMedian : -1),
  );
  return rows;
}

/** How the body's end is marked, read from the head as it came off the wire. */
export function framing(head) {
  const te = /^transfer-encoding:\s*(.+)$/im.exec(head);
  if (te) return te[1].trim().toLowerCase();
  return /^content-length:/im.test(head) ? 'content-length' : 'until close';
}

const md = (s) => String(s).replace(/\|/g, '\\|');
const label = (r) => (r.id === 'mock' ? '**mock**' : md(r.name));

export function renderPeers(R, { svg = 'peers.svg' } = {}) {
  const rows = summarise(R);
  const st = R.settings;
  const m = R.machine ?? {};
  const w = R.workload;
  const L = [];
  L.push('# `mock` next to the servers a user would otherwise pick');
  L.push('');
  L.push(
    `Workload ${w.letter} of the bench (${w.title}): \`${w.method} ${w.path}\` answered with the same ${w.body_bytes}-byte JSON document by every server, each in its most ordinary configuration ([\`bench/peers/\`](peers/README.md)).`,
  );
  L.push('');
  L.push(`- Date: ${R.date}`);
  L.push(
    `- Machine: ${m.cpu ?? '?'}, ${m.mem_gib ?? '?'} GiB RAM, ${m.os ?? '?'}, Node ${m.node ?? '?'}; load average ${m.loadavg_start?.join(' ') ?? '?'} at start, ${m.loadavg_end?.join(' ') ?? '?'} at end`,
  );
  L.push(`- Command: \`${R.command}\`${Number.isFinite(R.elapsed_s) ? `, ${R.elapsed_s} s` : ''}`);
  const jvm =
    R.servers.some((s) => s.jvm) && st.jvm_warmup_s > 0
      ? ` (JVM peers first for ${st.jvm_warmup_s} s more on their own: HotSpot compiles the hot paths only after thousands of calls, on compiler threads that share the same cores, so a JVM measured after ${st.warmup_s} s runs well below the speed it settles at)`
      : '';
  L.push(
    `- Settings: ${st.reps} rep${st.reps === 1 ? '' : 's'}; per rep every server is started fresh (ready time, idle RSS, its answer checked), then one load-client process (\`bench/lib/load-client.mjs\`, ${st.conns} keep-alive connections, no pipelining, 127.0.0.1 only) warms each up for ${st.warmup_s} s${jvm} and measures each for ${st.duration_s} s in ${st.slices} interleaved window${st.slices === 1 ? '' : 's'}, so a slow spell of the machine falls on all of them alike. RSS is read after the load.`,
  );
  L.push(
    '- The load client and every server share this small machine: read the ratios, not the absolute figures. Ratios are taken per rep, then the median [min–max] over reps.',
  );
  L.push('');
  L.push(`![requests per second and RSS per server](${svg})`);
  L.push('');
  L.push(
    '| server | req/s | mock ÷ server (req/s) | p50 ms | p99 ms | RSS after load, MB | RSS idle, MB | ready, ms |',
  );
  L.push('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const vs = r.id === 'mock' ? '1×' : ratioSpread(r.vsMock);
    L.push(
      `| ${label(r)} | ${spread(r.rps)} | ${vs} | ${spread(r.p50, 2)} | ${spread(r.p99, 2)} | ${spread(r.rssAfter, 0)} | ${spread(r.rssIdle, 0)} | ${spread(r.ready, 0)} |`,
    );
  }
  L.push('');
  if (R.skipped?.length) {
    L.push('Not measured here:');
    L.push('');
    for (const s of R.skipped) L.push(`- ${md(s.name)} ${s.version}: ${s.reason}`);
    L.push('');
  }
  const troubled = rows.filter((r) => r.notes.length);
  if (troubled.length) {
    L.push('Problems seen in this run:');
    L.push('');
    for (const r of troubled) L.push(`- ${md(r.name)}: ${r.notes.join('; ')}`);
    L.push('');
  }

  L.push('## What differs between them');
  L.push('');
  L.push("On the wire, for the same request (the load client's, sent twice on one connection):");
  L.push('');
  L.push(
    '| server | bytes per answer (head + body with its framing) | body | same body bytes as the file | framing | keep-alive | new connections per 1,000 requests under load |',
  );
  L.push('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const a = r.answer;
    const wv = r.wire;
    const same = !a ? '–' : a.same_bytes ? 'yes' : a.same_json ? 'no: same JSON, re-serialised' : 'no';
    L.push(
      `| ${label(r)} | ${wv ? `${f(wv.bytes)} (${f(wv.head_bytes)} + ${f(wv.bytes - wv.head_bytes)})` : '–'} | ${a ? `${f(a.body_bytes)} B` : '–'} | ${same} | ${wv ? framing(wv.head) : '–'} | ${wv ? (wv.keep_alive ? 'yes' : 'no') : '–'} | ${f(r.reconnectsPer1k, 1)} |`,
    );
  }
  L.push('');
  L.push('Besides answering:');
  L.push('');
  L.push('| server | version, runtime, from | configuration | logging per request | journal |');
  L.push('|---|---|---|---|---|');
  for (const r of rows)
    L.push(
      `| ${label(r)} | ${md(r.version)}, ${md(r.runtime)}; ${md(r.detail)} | ${md(r.config)} | ${md(r.logging)} | ${md(r.journal)} |`,
    );
  L.push('');
  L.push(
    "Every server's output (stdout and stderr) goes to a file of the bench's, where a terminal would have shown it; none was told to log less than it does by default. The heads as sent:",
  );
  L.push('');
  for (const r of rows) {
    if (!r.wire) continue;
    L.push(`<details><summary>${md(r.name)}</summary>`);
    L.push('');
    L.push('```http');
    L.push(r.wire.head.replace(/^Date: .*$/im, 'Date: …'));
    L.push('```');
    L.push('');
    L.push('</details>');
    L.push('');
  }
  return L.join('\n');
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Two horizontal bar panels, req/s and RSS after load, one bar per server measured; plain SVG, no script. */
export function renderPeersSvg(R) {
  const rows = summarise(R).filter((r) => Number.isFinite(r.rpsMedian));
  const W = 780;
  const left = 150;
  const barMax = 420;
  const rowH = 24;
  const panelGap = 46;
  const top = 44;
  const out = [];
  const panel = (title, y0, value, text) => {
    out.push(`<text x="12" y="${y0 - 10}" class="h">${esc(title)}</text>`);
    const vmax = Math.max(...rows.map(value).filter(Number.isFinite), 1e-9);
    rows.forEach((r, i) => {
      const y = y0 + i * rowH;
      const v = value(r);
      const wBar = Number.isFinite(v) ? Math.max(1, (v / vmax) * barMax) : 0;
      const cls = r.id === 'mock' ? 'mock' : r.id === 'bare' ? 'bare' : 'peer';
      out.push(`<text x="${left - 8}" y="${y + 15}" class="l" text-anchor="end">${esc(r.name)}</text>`);
      out.push(`<rect x="${left}" y="${y + 3}" width="${wBar.toFixed(1)}" height="${rowH - 7}" class="${cls}"/>`);
      out.push(`<text x="${(left + wBar + 6).toFixed(1)}" y="${y + 15}" class="v">${esc(text(r))}</text>`);
    });
    return y0 + rows.length * rowH;
  };
  out.push(
    `<text x="12" y="22" class="t">${esc(`${R.workload.method} ${R.workload.path} (${R.workload.body_bytes} B JSON), ${R.settings.conns} connections, ${R.settings.reps === 1 ? 'one rep' : `median of ${R.settings.reps} reps`}`)}</text>`,
  );
  let y = panel(
    'requests per second (longer is faster)',
    top + 12,
    (r) => r.rpsMedian,
    (r) =>
      `${f(r.rpsMedian)}${r.id === 'mock' || !Number.isFinite(r.vsMockMedian) ? '' : ` · mock ÷ ${r.id === 'bare' ? 'bare' : 'this'} = ${ratio(r.vsMockMedian)}×`}`,
  );
  y = panel(
    'RSS after the load, MB (shorter is leaner)',
    y + panelGap,
    (r) => r.rssAfterMedian,
    (r) => `${f(r.rssAfterMedian)} MB`,
  );
  const H = y + 14;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="requests per second and RSS per server">`,
    '<style>text{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;font-size:12px;fill:#222}.t{font-size:13px;font-weight:600}.h{font-size:12px;font-weight:600;fill:#555}.v{fill:#333}.mock{fill:#2f6fd0}.bare{fill:#9aa5b1}.peer{fill:#e0913a}</style>',
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    ...out,
    '</svg>',
    '',
  ].join('\n');
}

// standalone: redraw PEERS.md and peers.svg from a saved run
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [file, outMd = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'PEERS.md')] =
    process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/lib/peers-report.mjs <peers-results.json> [PEERS.md]');
    process.exit(2);
  }
  const R = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.mkdirSync(path.dirname(outMd), { recursive: true });
  const svgOut = path.join(path.dirname(outMd), 'peers.svg');
  fs.writeFileSync(svgOut, renderPeersSvg(R));
  fs.writeFileSync(outMd, renderPeers(R, { svg: path.relative(path.dirname(outMd), svgOut) }));
  console.log(`wrote ${outMd} and ${svgOut}`);
}
