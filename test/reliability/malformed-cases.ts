// The malformed-HTTP table for figure 4: raw bytes a broken or hostile client may send, and what each may get back.
// Not a test file; malformed-http.test.ts sends them.
import { prng } from './harness.js';

/** An acceptable outcome: an HTTP status, or the server closing the connection without a (further) response. */
export type Refusal = number | 'closed';

export interface MalformedCase {
  readonly name: string;
  readonly bytes: Buffer;
  /** what the connection must produce, in order: responses before the bad part (200s), then the refusal */
  readonly before?: readonly number[];
  /** acceptable outcomes for the malformed part */
  readonly refusal: readonly Refusal[];
  /** how long the refusal may take (default 3 s); longer only where the server must wait for the header timeout */
  readonly waitMs?: number;
}

const b = (s: string): Buffer => Buffer.from(s, 'latin1');
const H = 'Host: 127.0.0.1\r\n';
const OK_REQUEST = `GET /ok.json HTTP/1.1\r\n${H}\r\n`;
const BIG = 100 * 1024;

/** 400, or a close: Node refuses most broken framing with a 400 and closes. */
const BAD: readonly Refusal[] = [400, 'closed'];

function randomBinary(seed: number, n: number): Buffer {
  const r = prng(seed);
  return Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
}

/** A TLS 1.2 ClientHello record header and the start of its body: what a client says to an https:// URL. */
const CLIENT_HELLO = Buffer.from('16030100a5010000a10303' + '00'.repeat(32) + '000004c02fc030010000740000', 'hex');

export const MALFORMED_CASES: readonly MalformedCase[] = [
  // ---- request line ---------------------------------------------------------------------------------------
  { name: 'garbage request line', bytes: b('GARBAGE\r\n\r\n'), refusal: BAD },
  { name: 'method only', bytes: b('GET\r\n\r\n'), refusal: BAD },
  {
    name: 'HTTP/0.9 request line (no version), blank line',
    bytes: b('GET /ok.json\r\n\r\n'),
    refusal: [505, 400, 'closed'],
  },
  // A true HTTP/0.9 request is this one line. Node's parser then waits for headers, so the answer is the header
  // timeout's 408 (10 s), not an immediate refusal.
  {
    name: 'HTTP/0.9 simple request, one line',
    bytes: b('GET /\r\n'),
    refusal: [505, 400, 408, 'closed'],
    waitMs: 13_000,
  },
  {
    name: 'HTTP/2.0 in an HTTP/1 request line',
    bytes: b(`GET /ok.json HTTP/2.0\r\n${H}\r\n`),
    refusal: [505, 400, 'closed'],
  },
  { name: 'HTTP/3.0', bytes: b(`GET /ok.json HTTP/3.0\r\n${H}\r\n`), refusal: [505, 400, 'closed'] },
  { name: 'HTTP/1.9', bytes: b(`GET /ok.json HTTP/1.9\r\n${H}\r\n`), refusal: [505, 400, 'closed'] },
  { name: 'version HTTP/11', bytes: b(`GET /ok.json HTTP/11\r\n${H}\r\n`), refusal: BAD },
  { name: 'lower-case version', bytes: b(`GET /ok.json http/1.1\r\n${H}\r\n`), refusal: BAD },
  { name: 'extra token in the request line', bytes: b(`GET /ok.json HTTP/1.1 extra\r\n${H}\r\n`), refusal: BAD },
  { name: 'tabs as separators', bytes: b(`GET\t/ok.json\tHTTP/1.1\r\n${H}\r\n`), refusal: BAD },
  { name: 'invalid method characters', bytes: b(`G@T /ok.json HTTP/1.1\r\n${H}\r\n`), refusal: BAD },
  { name: 'unknown method', bytes: b(`FROB /ok.json HTTP/1.1\r\n${H}\r\n`), refusal: [400, 405, 'closed'] },
  { name: 'HTTP/2 connection preface', bytes: b('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), refusal: [400, 505, 'closed'] },
  {
    name: 'CONNECT tunnel request',
    bytes: b('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n'),
    refusal: [400, 405, 'closed'],
  },
  { name: 'NUL in the target', bytes: b(`GET /ok\0.json HTTP/1.1\r\n${H}\r\n`), refusal: BAD },
  { name: 'control byte in the target', bytes: b(`GET /ok\x01.json HTTP/1.1\r\n${H}\r\n`), refusal: BAD },
  { name: 'DEL in the target', bytes: b(`GET /ok\x7f.json HTTP/1.1\r\n${H}\r\n`), refusal: BAD },
  { name: 'raw space in the target', bytes: b(`GET /o k.json HTTP/1.1\r\n${H}\r\n`), refusal: [400, 505, 'closed'] },
  {
    name: '100 KB target',
    bytes: b(`GET /${'a'.repeat(BIG)} HTTP/1.1\r\n${H}\r\n`),
    refusal: [431, 414, 400, 'closed'],
  },
  { name: 'CR alone ends the request line', bytes: b(`GET /ok.json HTTP/1.1\r${H}\r\n`), refusal: BAD },

  // ---- headers ----------------------------------------------------------------------------------------------
  { name: 'space in a header name', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}Bad Header: y\r\n\r\n`), refusal: BAD },
  { name: 'space before the colon', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X-A : y\r\n\r\n`), refusal: BAD },
  { name: 'header line without a colon', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}NoColonHere\r\n\r\n`), refusal: BAD },
  { name: 'empty header name', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}: value\r\n\r\n`), refusal: BAD },
  { name: 'NUL in a header value', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X-A: a\0b\r\n\r\n`), refusal: BAD },
  { name: 'bare CR in a header value', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X-A: a\rb\r\n\r\n`), refusal: BAD },
  {
    name: 'control byte in a header value',
    bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X-A: a\x01b\r\n\r\n`),
    refusal: BAD,
  },
  { name: 'DEL in a header name', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X\x7fA: y\r\n\r\n`), refusal: BAD },
  { name: 'high byte in a header name', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X\xffA: y\r\n\r\n`), refusal: BAD },
  { name: 'obsolete line folding', bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X-A: a\r\n  folded\r\n\r\n`), refusal: BAD },
  {
    name: '100 KB header value',
    bytes: b(`GET /ok.json HTTP/1.1\r\n${H}X-Big: ${'v'.repeat(BIG)}\r\n\r\n`),
    refusal: [431, 'closed'],
  },
  {
    name: '100 KB header name',
    bytes: b(`GET /ok.json HTTP/1.1\r\n${H}${'N'.repeat(BIG)}: v\r\n\r\n`),
    refusal: [431, 'closed'],
  },
  {
    name: '100 KB of headers in 5,000 lines',
    bytes: b(`GET /ok.json HTTP/1.1\r\n${H}${'X-Many: 0123456789\r\n'.repeat(5000)}\r\n`),
    refusal: [431, 'closed'],
  },

  // ---- body framing -----------------------------------------------------------------------------------------
  {
    name: 'chunk size not hex',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n`),
    refusal: BAD,
  },
  {
    name: 'chunk size overflows',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\nx\r\n`),
    refusal: [400, 413, 'closed'],
  },
  {
    name: 'negative chunk size',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n`),
    refusal: BAD,
  },
  {
    name: 'chunk data longer than its size',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n`),
    refusal: BAD,
  },
  {
    name: '100 KB chunk extension',
    bytes: b(
      `POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n5;${'e'.repeat(BIG)}\r\nhello\r\n0\r\n\r\n`,
    ),
    refusal: [413, 400, 'closed'],
  },
  {
    name: 'Content-Length and Transfer-Encoding together',
    bytes: b(
      `POST /ok.json HTTP/1.1\r\n${H}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    ),
    refusal: BAD,
  },
  {
    name: 'two different Content-Length headers',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Content-Length: 2\r\nContent-Length: 5\r\n\r\nhello`),
    refusal: BAD,
  },
  {
    name: 'Content-Length not a number',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Content-Length: abc\r\n\r\nhello`),
    refusal: BAD,
  },
  {
    name: 'negative Content-Length',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Content-Length: -5\r\n\r\nhello`),
    refusal: BAD,
  },
  {
    name: 'Content-Length with a plus sign',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Content-Length: +5\r\n\r\nhello`),
    refusal: BAD,
  },
  {
    name: 'Content-Length beyond 64 bits',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Content-Length: 99999999999999999999999999\r\n\r\nhello`),
    refusal: [400, 413, 'closed'],
  },
  {
    name: 'Transfer-Encoding without chunked last',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: chunked, gzip\r\n\r\n5\r\nhello\r\n0\r\n\r\n`),
    refusal: BAD,
  },
  {
    name: 'unknown Transfer-Encoding',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: frobnicate\r\n\r\nhello`),
    refusal: BAD,
  },

  // ---- pipelining ---------------------------------------------------------------------------------------------
  {
    name: 'a valid request, then garbage',
    bytes: b(`${OK_REQUEST}GARBAGE \0\x01\x02\r\n\r\n`),
    before: [200],
    refusal: BAD,
  },
  {
    name: '20 valid requests, then garbage',
    bytes: b(`${OK_REQUEST.repeat(20)}\xff\xfe\xfd garbage\r\n\r\n`),
    before: Array(20).fill(200),
    refusal: BAD,
  },
  {
    name: 'a valid request, then an HTTP/2 preface',
    bytes: b(`${OK_REQUEST}PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`),
    before: [200],
    refusal: [400, 505, 'closed'],
  },
  {
    name: 'a valid request, then a 100 KB header',
    bytes: b(`${OK_REQUEST}GET /ok.json HTTP/1.1\r\n${H}X-Big: ${'v'.repeat(BIG)}\r\n\r\n`),
    before: [200],
    refusal: [431, 'closed'],
  },
  {
    name: 'a body shorter than the bytes that follow it',
    bytes: b(`POST /ok.json HTTP/1.1\r\n${H}Content-Length: 2\r\n\r\n{}GARBAGE\0\r\n\r\n`),
    before: [200],
    refusal: BAD,
  },
  {
    name: 'a valid request, then a bad chunk',
    bytes: b(`${OK_REQUEST}POST /ok.json HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nxyz\r\n`),
    before: [200],
    refusal: BAD,
  },

  // ---- other protocols and noise ------------------------------------------------------------------------------
  { name: 'a TLS ClientHello on the plain port', bytes: CLIENT_HELLO, refusal: BAD },
  { name: 'an SSH banner', bytes: b('SSH-2.0-OpenSSH_9.6\r\n'), refusal: BAD },
  { name: '4 KB of random bytes', bytes: randomBinary(8, 4096), refusal: BAD },
  {
    name: '4 KB of random bytes after a valid request',
    bytes: Buffer.concat([b(OK_REQUEST), randomBinary(9, 4096)]),
    before: [200],
    refusal: BAD,
  },
];

/** JSON bodies that do not parse, sent as application/json: the client's error, answered 400 with a plain-text reason. */
export const INVALID_JSON_BODIES: readonly (readonly [string, Buffer])[] = [
  ['unterminated object', b('{"a": 1')],
  ['bare word', b('{bad')],
  ['trailing garbage', b('{"a": 1} trailing')],
  ['single quotes', b("{'a': 1}")],
  ['trailing comma', b('[1, 2,]')],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['NUL bytes', b('{"a":\0}')],
  // deep, and within service.max_json_members (a body over that is refused with 413 before it is parsed)
  ['deep nesting', b('['.repeat(10_000))],
  ['a lone minus', b('-')],
  ['NaN', b('{"a": NaN}')],
];
