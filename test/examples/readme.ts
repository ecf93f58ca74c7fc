// Executable READMEs: the `console` blocks of an example's README.md are `$ command` lines, each followed by the
// output it prints. This module parses them and runs a `curl` line (a small parser over node:http/https: -X, -H,
// -d, -i, -k, --cacert, -s, -o /dev/null, -w '%{http_code}\n'); `mock` lines are run by the caller through the
// real program. Not a test file; test/examples.test.ts uses it.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as http2Connect } from 'node:http2';
import { resolve } from 'node:path';

export interface Step {
  /** the command, without the `$ ` */
  readonly command: string;
  /** the expected output, lines joined with \n, trailing blank lines removed */
  readonly expected: string;
  /** 1-based line of the command in the README */
  readonly line: number;
}

/** Every `$ ` line of every ```console block, with the lines that follow it up to the next `$ ` or the block's end. */
export function consoleSteps(markdown: string): Step[] {
  const lines = markdown.split('\n');
  const steps: Step[] = [];
  let inBlock = false;
  let cur: { command: string; out: string[]; line: number } | undefined;
  const flush = (): void => {
    if (cur !== undefined)
      steps.push({ command: cur.command, expected: trimOutput(cur.out.join('\n')), line: cur.line });
    cur = undefined;
  };
  lines.forEach((text, i) => {
    if (!inBlock) {
      if (text.trim() === '```console') inBlock = true;
      return;
    }
    if (text.trim() === '```') {
      flush();
      inBlock = false;
      return;
    }
    if (text.startsWith('$ ')) {
      flush();
      cur = { command: text.slice(2), out: [], line: i + 1 };
    } else cur?.out.push(text);
  });
  return steps;
}

export const trimOutput = (s: string): string => s.replace(/\s+$/, '');

/** Shell words: spaces split, '…' and "…" quote (with \" and \\ inside double quotes). */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ') {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let s = '';
      for (i++; i < line.length && line[i] !== '"'; i++)
        s += line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '') ? line[++i] : line[i];
      word = (word ?? '') + s;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) out.push(word);
  return out;
}

export interface CurlCall {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly [string, string][];
  readonly body?: string;
  readonly include: boolean;
  readonly insecure: boolean;
  readonly cacert?: string;
  readonly discardBody: boolean;
  readonly writeOut?: string;
  /** `--http2` (h2 by ALPN over HTTPS) or `--http2-prior-knowledge` (h2c) */
  readonly http2: boolean;
}

/** The few curl options the READMEs use; anything else is an error (so a README cannot use what is not checked). */
export function parseCurl(args: readonly string[]): CurlCall {
  let method: string | undefined;
  let url: string | undefined;
  const headers: [string, string][] = [];
  let body: string | undefined;
  let include = false;
  let insecure = false;
  let cacert: string | undefined;
  let discardBody = false;
  let writeOut: string | undefined;
  let http2 = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = (): string => {
      const v = args[++i];
      if (v === undefined) throw new Error(`curl: ${a} needs a value`);
      return v;
    };
    if (a === '-X' || a === '--request') method = next();
    else if (a === '-H' || a === '--header') {
      const h = next();
      const colon = h.indexOf(':');
      headers.push([h.slice(0, colon).trim(), h.slice(colon + 1).trim()]);
    } else if (a === '-d' || a === '--data') body = next();
    else if (/^-[sik]+$/.test(a)) {
      if (a.includes('i')) include = true;
      if (a.includes('k')) insecure = true;
    } else if (a === '--cacert') cacert = next();
    else if (a === '-o') {
      if (next() !== '/dev/null') throw new Error('curl: only -o /dev/null is supported');
      discardBody = true;
    } else if (a === '-w') writeOut = next();
    else if (a === '--http2' || a === '--http2-prior-knowledge') http2 = true;
    else if (!a.startsWith('-') && url === undefined) url = a;
    else throw new Error(`curl: unsupported option ${a}`);
  }
  if (url === undefined) throw new Error('curl: no URL');
  if (!/^https?:\/\//.test(url)) url = `http://${url}`;
  const out: { -readonly [K in keyof CurlCall]: CurlCall[K] } = {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    url,
    headers,
    include,
    insecure,
    discardBody,
    http2,
  };
  if (body !== undefined) {
    out.body = body;
    // curl -d sends a form content type unless one is given
    if (!headers.some(([n]) => n.toLowerCase() === 'content-type'))
      headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  }
  if (cacert !== undefined) out.cacert = cacert;
  if (writeOut !== undefined) out.writeOut = writeOut;
  return out;
}

/** Run a curl call; prints what curl would: the status line and headers with -i (`date` left out), the body. */
export function runCurl(call: CurlCall, cwd: string): Promise<string> {
  if (call.http2) return runCurlHttp2(call, cwd);
  const u = new URL(call.url);
  const https = u.protocol === 'https:';
  const headers: [string, string][] = [
    ['Host', u.host],
    ['User-Agent', 'curl/8.5.0'],
    ['Accept', '*/*'],
    ...call.headers,
  ];
  if (call.body !== undefined) headers.push(['Content-Length', String(Buffer.byteLength(call.body))]);
  const options = {
    method: call.method,
    host: u.hostname === 'localhost' ? '127.0.0.1' : u.hostname,
    port: u.port,
    path: u.pathname + u.search,
    headers: headers.flat(),
    ...(https
      ? {
          servername: u.hostname === '127.0.0.1' ? undefined : u.hostname,
          rejectUnauthorized: !call.insecure,
          ...(call.cacert === undefined ? {} : { ca: readFileSync(resolve(cwd, call.cacert)) }),
        }
      : {}),
  };
  return new Promise((resolvePromise, reject) => {
    const req = (https ? httpsRequest : httpRequest)(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let out = '';
        if (call.include) {
          out += `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}\n`;
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            if (res.rawHeaders[i]!.toLowerCase() === 'date') continue;
            out += `${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}\n`;
          }
          out += '\n';
        }
        if (!call.discardBody) out += Buffer.concat(chunks).toString('utf8');
        if (call.writeOut !== undefined) out += writeOut(call.writeOut, res.statusCode ?? 0, res.httpVersion);
        resolvePromise(out);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('curl: no answer within 10 s')));
    req.end(call.body);
  });
}

function writeOut(format: string, status: number, version: string): string {
  return format
    .replace(/%\{http_code\}/g, String(status))
    .replace(/%\{http_version\}/g, version === '2.0' ? '2' : version)
    .replace(/\\n/g, '\n');
}

/** curl --http2 / --http2-prior-knowledge: one request over Node's http2 client, printed as curl prints it */
function runCurlHttp2(call: CurlCall, cwd: string): Promise<string> {
  const u = new URL(call.url);
  const host = u.hostname === 'localhost' ? '127.0.0.1' : u.hostname;
  const origin = `${u.protocol}//${host}:${u.port}`;
  const session = http2Connect(origin, {
    ...(u.protocol === 'https:'
      ? {
          servername: u.hostname === '127.0.0.1' ? undefined : u.hostname,
          rejectUnauthorized: !call.insecure,
          ...(call.cacert === undefined ? {} : { ca: readFileSync(resolve(cwd, call.cacert)) }),
        }
      : {}),
  });
  return new Promise((resolvePromise, reject) => {
    session.on('error', reject);
    const headers: Record<string, string> = {
      ':method': call.method,
      ':path': u.pathname + u.search,
      ':authority': u.host,
    };
    for (const [k, v] of call.headers) headers[k.toLowerCase()] = v;
    const req = session.request(headers);
    const chunks: Buffer[] = [];
    let head = '';
    let status = 0;
    req.on('response', (h) => {
      status = Number(h[':status']);
      head = `HTTP/2 ${status}\n`;
      for (const [k, v] of Object.entries(h)) if (!k.startsWith(':') && k !== 'date') head += `${k}: ${String(v)}\n`;
      head += '\n';
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      session.close();
      let out = call.include ? head : '';
      if (!call.discardBody) out += Buffer.concat(chunks).toString('utf8');
      if (call.writeOut !== undefined) out += writeOut(call.writeOut, status, '2.0');
      resolvePromise(out);
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.close());
    req.end(call.body);
  });
}
