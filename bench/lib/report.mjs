// Renders the results of bench/run.mjs as the markdown of bench/RESULTS.md.
// Standalone: node bench/lib/report.mjs bench/out/results-<time>.json

import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, min, max } from './stats.mjs';

const TARGET = { p99: 1.5, rssIdle: 1.2, ready: 1.5, cli: 1.5, soakGrowth: 1.1 };
/** the journal workloads (on b): server name, the mock / bare target (null: shown, no target) */
const JOURNAL = [
  { server: 'mock --inspect', what: 'the journal capturing, no page', target: 0.75 },
  { server: 'mock --inspect + SSE', what: 'and one event-stream client reading every event', target: 0.65 },
  {
    server: 'startMock()',
    what: 'the library in its own process, defaults (journal on, no request log)',
    target: null,
  },
];

/** Per journal workload: its ratios to bare per rep, its event-stream counts, problems. */
export function analyseJournal(R) {
  const reps = [...new Set(R.runs.map((r) => r.rep))].sort((a, b) => a - b);
  const out = [];
  for (const j of JOURNAL) {
    const runs = R.runs.filter((r) => r.server === j.server);
    if (!runs.length) continue;
    const scn = runs[0].scenario;
    const get = (server, rep) =>
      R.runs.find((r) => r.server === server && r.scenario === scn && r.rep === rep && r.load);
    const ratios = reps.map((rep) => {
      const x = get(j.server, rep);
      const y = get('bare', rep);
      return x && y ? x.load.rps / y.load.rps : NaN;
    });
    const vsMock = reps.map((rep) => {
      const x = get(j.server, rep);
      const y = get('mock', rep);
      return x && y ? x.load.rps / y.load.rps : NaN;
    });
    const cpuEff = reps.map((rep) => {
      const x = get(j.server, rep);
      const y = get('bare', rep);
      return x && y ? y.server_cpu_us_per_req / x.server_cpu_us_per_req : NaN;
    });
    const sse = runs.map((r) => r.load?.sse).filter(Boolean);
    const lost = sse.reduce((n, x) => n + x.lost + x.duplicates + x.out_of_order, 0);
    const problems = new Set();
    for (const r of runs) {
      if (r.error) problems.add(r.error.split('\n')[0]);
      if (r.check && r.check !== 'ok') problems.add(`wrong answer: ${r.check}`);
    }
    const vsBare = median(ratios);
    const ok =
      j.target === null
        ? null
        : Number.isFinite(vsBare) &&
          vsBare >= j.target &&
          problems.size === 0 &&
          (!j.server.includes('SSE') || (sse.length > 0 && lost === 0));
    out.push({
      ...j,
      scn,
      ratios,
      vsBare,
      vsMock: median(vsMock),
      cpuEff: median(cpuEff),
      rps: runs.map((r) => r.load?.rps ?? NaN),
      p99: median(runs.map((r) => r.load?.latency_ms?.p99 ?? NaN)),
      sse,
      lost,
      problems,
      ok,
    });
  }
  return out;
}

function f(x, d = 0) {
  if (!Number.isFinite(x)) return '–';
  return x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}
function spread(xs, d = 0) {
  const v = xs.filter(Number.isFinite);
  if (!v.length) return '–';
  if (v.length === 1) return f(v[0], d);
  return `${f(median(v), d)} [${f(min(v), d)}–${f(max(v), d)}]`;
}
const verdict = (ok) => (ok === null ? '' : ok ? ' pass' : ' **FAIL**');
function cell(x, d, ok) {
  return Number.isFinite(x) ? `${f(x, d)}${verdict(ok)}` : '–';
}

export function analyse(R) {
  const reps = [...new Set(R.runs.map((r) => r.rep))].sort((a, b) => a - b);
  const get = (server, scn, rep) =>
    R.runs.find((r) => r.server === server && r.scenario === scn && r.rep === rep && r.load);
  const rows = [];
  for (const s of R.scenarios) {
    const per = (server, fn) =>
      reps.map((rep) => {
        const r = get(server, s.id, rep);
        return r ? fn(r) : NaN;
      });
    const ratio = (a, b, fn) =>
      reps.map((rep) => {
        const x = get(a, s.id, rep);
        const y = get(b, s.id, rep);
        return x && y ? fn(x) / fn(y) : NaN;
      });
    const rps = (r) => r.load.rps;
    const p99 = (r) => r.load.latency_ms.p99;
    const row = {
      s,
      rps: { mock: per('mock', rps), bare: per('bare', rps), apimock: per('apimock-rs', rps) },
      p50: {
        mock: per('mock', (r) => r.load.latency_ms.p50),
        bare: per('bare', (r) => r.load.latency_ms.p50),
        apimock: per('apimock-rs', (r) => r.load.latency_ms.p50),
      },
      p99: { mock: per('mock', p99), bare: per('bare', p99), apimock: per('apimock-rs', p99) },
      rssIdle: {
        mock: per('mock', (r) => r.rss_idle_kb / 1024),
        bare: per('bare', (r) => r.rss_idle_kb / 1024),
        apimock: per('apimock-rs', (r) => r.rss_idle_kb / 1024),
      },
      rssAfter: {
        mock: per('mock', (r) => r.rss_after_kb / 1024),
        bare: per('bare', (r) => r.rss_after_kb / 1024),
        apimock: per('apimock-rs', (r) => r.rss_after_kb / 1024),
      },
      ready: {
        mock: per('mock', (r) => r.ready_ms),
        bare: per('bare', (r) => r.ready_ms),
        apimock: per('apimock-rs', (r) => r.ready_ms),
      },
      cpu: {
        mock: per('mock', (r) => r.server_cpu_us_per_req),
        bare: per('bare', (r) => r.server_cpu_us_per_req),
        apimock: per('apimock-rs', (r) => r.server_cpu_us_per_req),
      },
      clientCpu: {
        mock: per('mock', (r) => r.load.client_cpu),
        bare: per('bare', (r) => r.load.client_cpu),
        apimock: per('apimock-rs', (r) => r.load.client_cpu),
      },
      vsBare: median(ratio('mock', 'bare', rps)),
      vsBareAll: ratio('mock', 'bare', rps),
      vsApimock: median(ratio('mock', 'apimock-rs', rps)),
      vsApimockAll: ratio('mock', 'apimock-rs', rps),
      p99VsBare: median(ratio('mock', 'bare', p99)),
      rssVsBare: median(ratio('mock', 'bare', (r) => r.rss_idle_kb)),
      readyVsBare: median(ratio('mock', 'bare', (r) => r.ready_ms)),
      // bare CPU per request / mock CPU per request: an efficiency ratio that a noisy neighbour disturbs less than req/s
      cpuEff: median(ratio('bare', 'mock', (r) => r.server_cpu_us_per_req)),
    };
    // problems: wrong answers, failed starts, unexpected statuses, socket errors
    const notes = { mock: new Set(), bare: new Set(), 'apimock-rs': new Set() };
    for (const r of R.runs.filter((x) => x.scenario === s.id)) {
      const n = notes[r.server];
      if (!n) continue;
      if (r.error) n.add(r.error.split('\n')[0]);
      if (r.check && r.check !== 'ok') n.add(`wrong answer: ${r.check}`);
      if (r.load?.unexpected_status)
        n.add(
          `${r.load.unexpected_status} answers with another status under load (${Object.entries(r.load.statuses)
            .map(([k, v]) => `${k}×${v}`)
            .join(', ')})`,
        );
      const errs = r.load ? Object.entries(r.load.errors).filter(([, v]) => v > 0) : [];
      if (errs.length) n.add(`socket errors: ${errs.map(([k, v]) => `${k} ${v}`).join(', ')}`);
    }
    row.notes = notes;
    row.mockRight =
      R.runs.some((r) => r.server === 'mock' && r.scenario === s.id) &&
      ![...notes.mock].some((x) => /wrong answer|start failed|another status/.test(x));
    rows.push(row);
  }
  return rows;
}

export function renderResults(R) {
  const rows = analyse(R);
  const hasApimock = !!R.apimock;
  const L = [];
  const m = R.machine;
  L.push('# `mock` benchmark results');
  L.push('');
  L.push(`- Date: ${R.date}`);
  L.push(
    `- Machine: ${m.cpu}, ${m.mem_gib} GiB RAM, ${m.os}, Node ${m.node}; load average ${m.loadavg_start?.join(' ')} at start, ${m.loadavg_end?.join(' ') ?? '?'} at end`,
  );
  L.push(`- Command: \`${R.command}\``);
  const st = R.settings;
  if (!R.runs.length) L.push(`- Settings: ${st.reps} reps, CLI timings only (no HTTP workloads run).`);
  else if (st.slices === undefined)
    L.push(
      `- Settings: ${st.reps} reps × ${R.scenarios.length} workloads; each run starts a fresh server, waits for its first answer, checks the answer, then ${st.conns} keep-alive connections (no pipelining) for ${st.warmup_s} s warm-up (discarded) + ${st.duration_s} s measured, from a separate load-client process (\`bench/lib/load-client.mjs\`), 127.0.0.1 only. Elapsed ${R.elapsed_s ?? '?'} s.`,
    );
  else
    L.push(
      `- Settings: ${st.reps} reps × ${R.scenarios.length} workloads; per rep and workload, each server is started fresh (ready time, idle RSS, its answer checked), then one load-client process (\`bench/lib/load-client.mjs\`, ${st.conns} keep-alive connections, no pipelining, 127.0.0.1 only) warms each up for ${st.warmup_s} s (discarded) and measures each for ${st.duration_s} s in ${st.slices} interleaved windows of ${+(st.duration_s / st.slices).toFixed(2)} s (mock, bare, apimock-rs, bare, apimock-rs, mock, ...; each window on fresh connections after ${st.slice_warmup_s} s unmeasured). Elapsed ${R.elapsed_s ?? '?'} s.`,
    );
  L.push(
    `- Servers: **mock** = \`node ${R.mock_entry} -c <config> -p <port>\`; **bare** = \`bench/lib/bare-server.mjs\`, a plain node:http server sending the same status, headers and body from memory; **apimock-rs** = ${hasApimock ? `\`${R.apimock}\` native binary (\`$APIMOCK_BIN\`)` : 'not run (set `APIMOCK_BIN`)'}.`,
  );
  if (st.slices === undefined)
    L.push(
      '- Runs are interleaved: per rep and workload, the servers run back to back in a rotating order. Ratios are taken per rep, then the median over reps; absolute numbers depend on the machine, the ratios are what to read.',
    );
  else
    L.push(
      '- Interleaved in windows so that a slow spell of the machine falls on every server alike; the order rotates per rep. Ratios are taken per rep, then the median over reps; absolute numbers depend on the machine, the ratios are what to read.',
    );
  L.push('');

  // ---- targets
  L.push('## Targets');
  L.push('');
  L.push(
    `| workload | mock / bare req/s (target) | mock / apimock-rs req/s (> 1) | p99 mock / bare (≤ ${TARGET.p99}) | idle RSS mock / bare (≤ ${TARGET.rssIdle}) | ready mock / bare (≤ ${TARGET.ready}) | answer |`,
  );
  L.push('|---|---|---|---|---|---|---|');
  let pass = 0;
  let total = 0;
  const tally = (ok) => {
    if (ok === null) return;
    total++;
    if (ok) pass++;
  };
  for (const r of rows) {
    const okT = r.s.target === null ? null : Number.isFinite(r.vsBare) ? r.vsBare >= r.s.target : false;
    const okA = hasApimock ? (Number.isFinite(r.vsApimock) ? r.vsApimock > 1 : false) : null;
    const okP = Number.isFinite(r.p99VsBare) ? r.p99VsBare <= TARGET.p99 : false;
    const okR = Number.isFinite(r.rssVsBare) ? r.rssVsBare <= TARGET.rssIdle : false;
    const okS = Number.isFinite(r.readyVsBare) ? r.readyVsBare <= TARGET.ready : false;
    for (const ok of [okT, okA, okP, okR, okS, r.mockRight]) tally(ok);
    L.push(
      `| ${r.s.letter} ${r.s.title} | ${cell(r.vsBare, 2, okT ?? true)}${r.s.target === null ? ' (no target)' : ` (≥ ${r.s.target})`} | ${hasApimock ? cell(r.vsApimock, 2, okA) : 'not run'} | ${cell(r.p99VsBare, 2, okP)} | ${cell(r.rssVsBare, 2, okR)} | ${cell(r.readyVsBare, 2, okS)} | ${r.mockRight ? 'right' : '**WRONG**'} |`,
    );
  }
  const journalRows = analyseJournal(R);
  for (const j of journalRows) tally(j.ok);
  if (journalRows.length) {
    L.push('');
    L.push('| journal workload (on b) | / bare req/s (target) | / mock req/s | CPU/req bare ÷ it | events heard |');
    L.push('|---|---|---|---|---|');
    for (const j of journalRows) {
      const ev = j.sse.length
        ? `${j.sse.map((x) => `${f(x.events)}/${f(x.requests)}`).join(', ')}${j.lost ? ` (**${j.lost} lost, repeated or out of order**)` : ', none lost'}`
        : '–';
      L.push(
        `| \`${j.server}\`: ${j.what} | ${cell(j.vsBare, 2, j.ok)}${j.target === null ? ' (no target)' : ` (≥ ${j.target})`} | ${f(j.vsMock, 2)} | ${f(j.cpuEff, 2)} | ${ev} |`,
      );
    }
  }
  const cliRows = cliSummary(R);
  for (const c of cliRows) tally(c.ok);
  const soakRows = soakSummary(R);
  for (const s of soakRows) tally(s.ok);
  L.push('');
  if (cliRows.length) {
    L.push(`| CLI cold start | median ms | floor ms (node -e 0; for npx: mock --version) | ratio (≤ ${TARGET.cli}) |`);
    L.push('|---|---|---|---|');
    for (const c of cliRows)
      L.push(
        `| \`${c.name}\` | ${f(c.ms, 1)} | ${f(c.floor, 1)} | ${cell(c.ratio, 2, c.ok)}${c.checkOk === false ? ' (**wrong output**)' : ''} |`,
      );
    L.push('');
  }
  if (soakRows.length) {
    L.push(
      `| soak (${R.settings.soak} s, mock) | idle MB | peak MB, first half | peak MB, second half | growth (≤ ${TARGET.soakGrowth}) | req/s (slowest–fastest second) | p99 ms |`,
    );
    L.push('|---|---|---|---|---|---|---|');
    for (const s of soakRows)
      L.push(
        `| ${s.id} | ${f(s.idle, 1)} | ${f(s.first, 1)} | ${f(s.last, 1)} | ${cell(s.growth, 3, s.ok)} | ${f(s.rps)} (${f(s.psMin)}–${f(s.psMax)}) | ${f(s.p99, 2)} |`,
      );
    L.push('');
    L.push(
      'Soak: RSS sampled every second; the warm-up and the first 10 s of load are skipped (heap sizing), the rest is split in two halves; "flat" = peak of the second half ≤ 1.1 × peak of the first half.',
    );
    L.push('');
  } else {
    L.push('RSS flatness under a 60-second load: not run (opt-in, `npm run bench -- --soak`).');
    L.push('');
  }
  L.push(`**${pass} of ${total} checks pass.**`);
  L.push('');

  // ---- throughput
  L.push('## Throughput (req/s, median [min–max] over reps)');
  L.push('');
  L.push(
    `| workload | mock | bare | ${hasApimock ? 'apimock-rs | ' : ''}mock / bare per rep | ${hasApimock ? 'mock / apimock-rs per rep | ' : ''}CPU/req bare ÷ mock |`,
  );
  L.push(`|---|---|---|${hasApimock ? '---|' : ''}---|${hasApimock ? '---|' : ''}---|`);
  for (const r of rows) {
    L.push(
      `| ${r.s.letter} ${r.s.id} | ${spread(r.rps.mock)} | ${spread(r.rps.bare)} | ${hasApimock ? `${spread(r.rps.apimock)} | ` : ''}${r.vsBareAll.map((x) => f(x, 2)).join(', ')} | ${hasApimock ? `${r.vsApimockAll.map((x) => f(x, 2)).join(', ')} | ` : ''}${f(r.cpuEff, 2)} |`,
    );
  }
  for (const j of journalRows)
    L.push(
      `| ${j.scn.split('_')[0]} \`${j.server}\` | ${spread(j.rps)} | | ${hasApimock ? ' | ' : ''}${j.ratios.map((x) => f(x, 2)).join(', ')} | ${hasApimock ? ' | ' : ''}${f(j.cpuEff, 2)} |`,
    );
  L.push('');
  L.push(
    'The last column divides the server CPU time per request of bare by that of mock (median over reps): the same kind of ratio as mock / bare req/s, but less disturbed by other load on the machine.',
  );
  L.push('');

  // ---- latency
  L.push('## Latency under load (ms, median over reps)');
  L.push('');
  L.push(
    `| workload | mock p50 | mock p99 | bare p50 | bare p99 |${hasApimock ? ' apimock-rs p50 | apimock-rs p99 |' : ''}`,
  );
  L.push(`|---|---|---|---|---|${hasApimock ? '---|---|' : ''}`);
  for (const r of rows) {
    L.push(
      `| ${r.s.letter} ${r.s.id} | ${f(median(r.p50.mock), 2)} | ${f(median(r.p99.mock), 2)} | ${f(median(r.p50.bare), 2)} | ${f(median(r.p99.bare), 2)} |${hasApimock ? ` ${f(median(r.p50.apimock), 2)} | ${f(median(r.p99.apimock), 2)} |` : ''}`,
    );
  }
  L.push('');

  // ---- memory, start, cpu
  L.push('## Memory, start-up and CPU (median over reps)');
  L.push('');
  L.push(
    'RSS = VmRSS of the server process: idle = 0.5 s after its first answer, before any load; after = right after the measured run. Ready = spawn to the first answered HTTP request. CPU = server user+system time per request over the measured run (one process; `bare` and `mock` are single-threaded, apimock-rs is multi-threaded).',
  );
  L.push('');
  L.push(
    `| workload | mock RSS idle→after MB | bare RSS idle→after MB |${hasApimock ? ' apimock-rs RSS idle→after MB |' : ''} mock ready ms | bare ready ms |${hasApimock ? ' apimock-rs ready ms |' : ''} mock CPU µs/req | bare CPU µs/req |${hasApimock ? ' apimock-rs CPU µs/req |' : ''}`,
  );
  L.push(
    `|---|---|---|${hasApimock ? '---|' : ''}---|---|${hasApimock ? '---|' : ''}---|---|${hasApimock ? '---|' : ''}`,
  );
  for (const r of rows) {
    const mem = (k) => `${f(median(r.rssIdle[k]), 1)} → ${f(median(r.rssAfter[k]), 1)}`;
    L.push(
      `| ${r.s.letter} ${r.s.id} | ${mem('mock')} | ${mem('bare')} |${hasApimock ? ` ${mem('apimock')} |` : ''} ${f(median(r.ready.mock))} | ${f(median(r.ready.bare))} |${hasApimock ? ` ${f(median(r.ready.apimock))} |` : ''} ${f(median(r.cpu.mock), 1)} | ${f(median(r.cpu.bare), 1)} |${hasApimock ? ` ${f(median(r.cpu.apimock), 1)} |` : ''}`,
    );
  }
  L.push('');

  // ---- CLI detail
  if (R.cli?.length) {
    L.push('## CLI cold start (ms, median of per-rep medians [min–max])');
    L.push('');
    L.push(
      `Each rep spawns every command ${R.settings.cli_runs} times (after 3 discarded rounds), interleaved in a rotating order, in a workspace of 10 rules and one file; wall time from spawn to exit.`,
    );
    L.push('');
    L.push('| command | ms | exit | first line of output |');
    L.push('|---|---|---|---|');
    for (const name of [...new Set(R.cli.map((c) => c.name))]) {
      const ms = R.cli.filter((c) => c.name === name).map((c) => c.median_ms);
      const chk = R.cli_checks.find((c) => c.name === name);
      L.push(
        `| \`${name}\` | ${spread(ms, 1)} | ${chk?.exit ?? '–'} | ${(chk?.first_line ?? '').replace(/\|/g, '\\|')} |`,
      );
    }
    L.push('');
  }

  // ---- what bare sends, problems
  L.push('## Notes');
  L.push('');
  L.push('Bare server responses (same bytes as mock when mock answered right, else the expected answer):');
  L.push('');
  for (const s of R.scenarios) {
    const b = R.bare_specs[s.id];
    if (b) L.push(`- ${s.letter}: ${b.status}, ${b.header_count} headers, ${f(b.body_bytes)} B body — ${b.source}`);
  }
  L.push('');
  const problems = [];
  for (const r of rows) {
    for (const [server, set] of Object.entries(r.notes))
      for (const n of set) problems.push(`- ${r.s.letter} ${server}: ${n}`);
  }
  for (const j of journalRows) for (const n of j.problems) problems.push(`- ${j.server}: ${n}`);
  const busyClient = rows.filter((r) => median(r.clientCpu.bare) > 0.95);
  if (busyClient.length)
    problems.push(
      `- the load client used ≥ 95 % of a core against bare on ${busyClient.map((r) => r.s.letter).join(', ')}: there the bare figure is a lower bound and mock / bare is flattered`,
    );
  L.push(problems.length ? 'Problems seen:' : 'No wrong answers, failed starts, unexpected statuses or socket errors.');
  if (problems.length) {
    L.push('');
    L.push(...problems);
  }
  L.push('');
  return L.join('\n');
}

function cliSummary(R) {
  if (!R.cli?.length) return [];
  const reps = [...new Set(R.cli.map((c) => c.rep))];
  const out = [];
  for (const name of ['mock validate', 'mock get']) {
    const ratios = reps.map((rep) => {
      const a = R.cli.find((c) => c.rep === rep && c.name === name);
      const b = R.cli.find((c) => c.rep === rep && c.name === 'node -e 0');
      return a && b ? a.median_ms / b.median_ms : NaN;
    });
    const ms = median(R.cli.filter((c) => c.name === name).map((c) => c.median_ms));
    const floor = median(R.cli.filter((c) => c.name === 'node -e 0').map((c) => c.median_ms));
    const ratio = median(ratios);
    const checkOk = R.cli_checks.find((c) => c.name === name)?.ok ?? null;
    out.push({
      name,
      ms,
      floor,
      ratio,
      checkOk,
      ok: Number.isFinite(ratio) && ratio <= TARGET.cli && checkOk !== false,
    });
  }
  // what `npx mock` adds beyond npm's own `npm exec` in the checkout, set against `mock --version` itself
  const at = (rep, name) => R.cli.find((c) => c.rep === rep && c.name === name)?.median_ms ?? NaN;
  const added = reps.map((rep) => at(rep, 'npx mock --version') - at(rep, 'npm exec node -e 0'));
  const own = reps.map((rep) => at(rep, 'mock --version'));
  if (added.some(Number.isFinite)) {
    const ratio = median(reps.map((_, i) => added[i] / own[i]));
    out.push({
      name: 'npx mock --version − npm exec -- node -e 0',
      ms: median(added),
      floor: median(own),
      ratio,
      checkOk: R.cli_checks.find((c) => c.name === 'npx mock --version')?.ok ?? null,
      ok: Number.isFinite(ratio) && ratio <= TARGET.cli,
    });
  }
  return out;
}

function soakSummary(R) {
  return (R.soak ?? []).map((s) => {
    // skip warm-up and the first 10 s of load (heap sizing), then compare
    // the peak of the second half with the peak of the first half
    const settle = (R.settings.warmup_s ?? 1) + Math.min(10, s.duration_s / 3);
    const xs = (s.samples ?? []).filter(([t]) => t > settle);
    const half = Math.max(1, Math.floor(xs.length / 2));
    const first = max(xs.slice(0, half).map(([, kb]) => kb / 1024));
    const last = max(xs.slice(half).map(([, kb]) => kb / 1024));
    const growth = last / first;
    const ps = (s.per_second ?? []).slice(0, -1); // the last second is partial
    return {
      id: s.scenario,
      idle: s.rss_idle_kb / 1024,
      first,
      last,
      growth,
      rps: s.rps,
      psMin: min(ps),
      psMax: max(ps),
      p99: s.p99_ms,
      ok: !s.error && Number.isFinite(growth) && growth <= TARGET.soakGrowth,
    };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node bench/lib/report.mjs results.json');
    process.exit(2);
  }
  process.stdout.write(renderResults(JSON.parse(fs.readFileSync(file, 'utf8'))) + '\n');
}
