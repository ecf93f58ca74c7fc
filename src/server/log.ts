// The per-request console log (docs/output.md#the-request-log), built as lines; the listener hands each line to opts.log (the
// default two lines as one entry, requestLines).
//
//   <- /echo
//      [POST] [ORIGIN http://localhost:5173] [HTTP/1.1] request received (at 23:51:01 UTC)
//   -> 200 /echo                      (answerLine, when the answer is written)
//
// With log.verbose.header the headers follow (lower-case, wire order, credentials redacted); with
// log.verbose.body the query string and a JSON body follow (redacted). A blank line closes a verbose block.
// Not logged at all (the listener decides): OPTIONS, 413, a declared-JSON body that does not parse.
import type { Answer } from '../model/answer.js';
import type { RequestSnapshot } from '../model/request.js';
import { getHeader } from '../shared/headers.js';
import { prettyJson } from '../shared/json.js';
import { redactHeaders, redactJson, redactQuery } from '../shared/redact.js';

export interface RequestLogOptions {
  readonly header: boolean;
  readonly body: boolean;
}

export function formatUtcTime(at: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())} UTC`;
}

/** `1.1` → `HTTP/1.1`; `2.0` → `HTTP/2` (the reference's spelling). */
export function protocolLabel(httpVersion: string): string {
  return httpVersion === '2.0' ? 'HTTP/2' : `HTTP/${httpVersion}`;
}

/** The first of the two lines every logged request gets. */
export function requestPathLine(req: RequestSnapshot): string {
  return `<- ${req.path}`;
}

/** The second line. */
export function requestReceivedLine(req: RequestSnapshot, at: Date): string {
  const origin = getHeader(req.headers, 'origin');
  const originPart = origin !== undefined ? ` [ORIGIN ${origin}]` : '';
  return `   [${req.method}]${originPart}${receivedTail(req.httpVersion, at)}`;
}

/**
 * Both lines as one string (`<- path`, a line break, the second line): the listener's default entry, one write
 * into the log batch instead of two.
 */
export function requestLines(req: RequestSnapshot, at: Date): string {
  return `${requestPathLine(req)}\n${requestReceivedLine(req, at)}`;
}

/**
 * `-> 200 /echo`: the line logged when the answer is written (a fault: `-> fault connection_reset /echo`), so the
 * log says what each request got. The path is the request target up to its query, as sent (the `<-` line shows it
 * decoded): enough to tell it apart from the answers of requests logged in between, without decoding it again.
 */
export function answerLine(target: string | undefined, answer: Answer): string {
  const d = answer.delivery;
  const what = d !== undefined && d.kind === 'fault' ? `fault ${d.fault}` : String(answer.status);
  const t = target ?? '/';
  const q = t.indexOf('?');
  return `-> ${what} ${q < 0 ? t : t.slice(0, q)}`;
}

/** the last tail made: requests arrive many to a second, nearly all on one protocol */
let tailSecond = NaN;
let tailVersion = '';
let tailText = '';

/** ` [HTTP/1.1] request received (at 23:51:01 UTC)`: the end of the second line, made once a second */
function receivedTail(httpVersion: string, at: Date): string {
  const second = Math.floor(at.getTime() / 1000);
  if (second !== tailSecond || httpVersion !== tailVersion) {
    tailText = ` [${protocolLabel(httpVersion)}] request received (at ${formatUtcTime(at)})`;
    tailSecond = second;
    tailVersion = httpVersion;
  }
  return tailText;
}

export function requestLogLines(req: RequestSnapshot, at: Date, verbose: RequestLogOptions): string[] {
  const lines = [requestPathLine(req), requestReceivedLine(req, at)];
  if (verbose.header) {
    lines.push('   [request.headers]');
    for (const [name, value] of redactHeaders(req.headers)) lines.push(`${name.toLowerCase()}: ${value}`);
  }
  if (verbose.body) {
    if (req.query !== '') lines.push(`   [request.query] ${redactQuery(req.query)}`);
    if (req.body.kind === 'json') {
      lines.push('   [request.body.json]');
      lines.push(...prettyJson(redactJson(req.body.value)).split('\n'));
    }
  }
  if (verbose.header || verbose.body) lines.push('');
  return lines;
}
