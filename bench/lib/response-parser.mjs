// Incremental HTTP/1.1 response parser for the load client.
//
// Feed it socket chunks with push(); it calls onResponse(status, bodyBytes,
// closeAfter) once per complete response.  It never copies the body: only
// the head (status line + headers) is buffered, the body is counted.
// Handles Content-Length, chunked transfer coding, bodiless statuses
// (1xx, 204, 304) and "until close" bodies (no length, no chunking).
// Pipelining is off in the client, so at most one response is in flight,
// but bytes left after a response are parsed as the next one anyway.

const CRLFCRLF = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
const CONTENT_LENGTH = Buffer.from('content-length');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding');
const CONNECTION = Buffer.from('connection');

/** head[from..] starts with `lower` (ASCII, compared case-insensitively) */
function nameIs(head, from, lower) {
  for (let i = 0; i < lower.length; i++) {
    const b = head[from + i];
    if ((b >= 0x41 && b <= 0x5a ? b | 0x20 : b) !== lower[i]) return false;
  }
  return true;
}

const HEAD = 0;
const BODY_LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const CHUNK_DATA_END = 4;
const TRAILERS = 5;
const UNTIL_CLOSE = 6;

const MAX_HEAD_BYTES = 64 * 1024;

export class ResponseParser {
  /** @param {(status: number, bodyBytes: number, closeAfter: boolean) => void} onResponse */
  constructor(onResponse) {
    this.onResponse = onResponse;
    this.reset();
  }

  reset() {
    this.state = HEAD;
    this.pendingHead = null; // Buffer holding an incomplete head
    this.status = 0;
    this.closeAfter = false;
    this.remaining = 0; // body bytes (or current chunk bytes) still expected
    this.bodyBytes = 0;
    this.line = ''; // partial chunk-size / trailer line
    this.error = null;
  }

  /** Bytes of a body with no length end at connection close. */
  end() {
    if (this.state === UNTIL_CLOSE) {
      const n = this.bodyBytes;
      this.state = HEAD;
      this.onResponse(this.status, n, true);
      return true;
    }
    return false;
  }

  /** @returns {boolean} false once the stream is malformed (see .error) */
  push(chunk) {
    let buf = chunk;
    let pos = 0;
    while (pos < buf.length) {
      switch (this.state) {
        case HEAD: {
          let head;
          let idx;
          if (this.pendingHead) {
            // the head spans chunks: join what we have (small, rare)
            const joined = Buffer.concat([this.pendingHead, buf.subarray(pos)]);
            idx = joined.indexOf(CRLFCRLF);
            if (idx < 0) {
              if (joined.length > MAX_HEAD_BYTES) return this.fail('response head too large');
              this.pendingHead = joined;
              return true;
            }
            this.pendingHead = null;
            head = joined.subarray(0, idx);
            buf = joined;
            pos = idx + 4;
          } else {
            idx = buf.indexOf(CRLFCRLF, pos);
            if (idx < 0) {
              this.pendingHead = Buffer.from(buf.subarray(pos));
              return true;
            }
            head = buf.subarray(pos, idx);
            pos = idx + 4;
          }
          if (!this.parseHead(head)) return false;
          break;
        }
        case BODY_LENGTH: {
          const take = Math.min(this.remaining, buf.length - pos);
          this.remaining -= take;
          this.bodyBytes += take;
          pos += take;
          if (this.remaining === 0) this.complete();
          break;
        }
        case CHUNK_SIZE:
        case TRAILERS: {
          const nl = buf.indexOf(10, pos); // '\n'
          const end = nl < 0 ? buf.length : nl;
          this.line += buf.toString('latin1', pos, end);
          if (this.line.length > 8192) return this.fail('chunk line too long');
          if (nl < 0) return true;
          pos = nl + 1;
          const line = this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
          this.line = '';
          if (this.state === TRAILERS) {
            if (line === '') this.complete();
            break;
          }
          const size = parseInt(line.split(';', 1)[0].trim(), 16);
          if (!Number.isFinite(size) || size < 0) return this.fail(`bad chunk size ${JSON.stringify(line)}`);
          if (size === 0) this.state = TRAILERS;
          else {
            this.remaining = size;
            this.state = CHUNK_DATA;
          }
          break;
        }
        case CHUNK_DATA: {
          const take = Math.min(this.remaining, buf.length - pos);
          this.remaining -= take;
          this.bodyBytes += take;
          pos += take;
          if (this.remaining === 0) {
            this.remaining = 2;
            this.state = CHUNK_DATA_END;
          }
          break;
        }
        case CHUNK_DATA_END: {
          const take = Math.min(this.remaining, buf.length - pos);
          this.remaining -= take;
          pos += take;
          if (this.remaining === 0) this.state = CHUNK_SIZE;
          break;
        }
        case UNTIL_CLOSE: {
          this.bodyBytes += buf.length - pos;
          pos = buf.length;
          break;
        }
        default:
          return this.fail('parser in a bad state');
      }
    }
    return true;
  }

  parseHead(head) {
    // "HTTP/1.1 200 OK"
    if (head.length < 12 || head[0] !== 0x48 /* H */) return this.fail('not an HTTP response');
    const d = (i) => (head[i] >= 48 && head[i] <= 57 ? head[i] - 48 : NaN);
    const status = d(9) * 100 + d(10) * 10 + d(11);
    if (!(status >= 100 && status <= 999)) return this.fail('bad status line');
    // scan header lines on the bytes; only the three names that matter are decoded
    let length = -1;
    let chunked = false;
    let close = head[7] === 0x30; // HTTP/1.0
    let at = head.indexOf(CRLF);
    while (at >= 0) {
      const from = at + 2;
      let end = head.indexOf(CRLF, from);
      if (end < 0) end = head.length;
      const colon = head.indexOf(0x3a, from); // ':' (no space before it in HTTP/1.1)
      if (colon > from && colon < end) {
        const n = colon - from;
        if (n === 14 && nameIs(head, from, CONTENT_LENGTH)) {
          length = Number(head.toString('latin1', colon + 1, end).trim());
        } else if (n === 17 && nameIs(head, from, TRANSFER_ENCODING)) {
          chunked = head
            .toString('latin1', colon + 1, end)
            .toLowerCase()
            .split(',')
            .some((v) => v.trim() === 'chunked');
        } else if (n === 10 && nameIs(head, from, CONNECTION)) {
          const value = head.toString('latin1', colon + 1, end).toLowerCase();
          if (value.includes('close')) close = true;
          else if (value.includes('keep-alive')) close = false;
        }
      }
      at = end < head.length ? end : -1;
    }
    this.status = status;
    this.closeAfter = close;
    this.bodyBytes = 0;
    if (status < 200 || status === 204 || status === 304) {
      if (status < 200) {
        this.state = HEAD;
        return true;
      } // interim response: wait for the final one
      this.complete();
      return true;
    }
    if (chunked) {
      this.state = CHUNK_SIZE;
      this.line = '';
      return true;
    }
    if (length >= 0) {
      if (!Number.isSafeInteger(length)) return this.fail('bad content-length');
      this.remaining = length;
      if (length === 0) this.complete();
      else this.state = BODY_LENGTH;
      return true;
    }
    this.state = UNTIL_CLOSE;
    this.closeAfter = true;
    return true;
  }

  complete() {
    const { status, bodyBytes, closeAfter } = this;
    this.state = HEAD;
    this.remaining = 0;
    this.onResponse(status, bodyBytes, closeAfter);
  }

  fail(message) {
    this.error = message;
    this.state = -1;
    return false;
  }
}
