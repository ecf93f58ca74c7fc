// The chunk-size lines of a chunked request body, read from the raw bytes beside Node's parser, so that a
// chunk declaring more than the body cap (say 2^63 bytes) is refused the moment its size line is read, as a
// too-large Content-Length is, instead of the connection waiting for bytes that will never all come.
//
// Node's parser decodes the chunked coding itself and tells nothing about a size line; this module only follows
// the framing to find those lines. It never decides what is valid: on anything it does not expect it stops
// following (`lost`) and leaves the request to the parser and the byte count in body.ts, as before.
// Leaves out: where the bytes come from (body.ts hands them over) and what a refusal answers.

export type ChunkWatch = 'reading' | 'too_large' | 'done' | 'lost';

/** hex digits of the largest chunk size Node's parser reads (2^64 - 1) */
const MAX_SIZE_DIGITS = 16;
const CR = 13;
const LF = 10;
const SEMICOLON = 59;

/** Where the follower is in the chunked coding (RFC 9112 §7.1). */
const AT = {
  size: 0, // hex digits of a chunk-size
  sizeLf: 1, // the LF after the size line's CR
  extension: 2, // `;name=value` after the size, up to CR
  data: 3, // chunk payload: `size` bytes to go
  dataCr: 4, // the CRLF after a payload
  dataLf: 5,
  trailerStart: 6, // the start of a trailer line (or of the final empty line)
  trailer: 7, // inside a trailer line, up to CR
  trailerLf: 8,
  finalLf: 9, // the LF of the final empty line
} as const;
type At = (typeof AT)[keyof typeof AT];

/** Follows one chunked body across the byte runs fed to it, counting what the size lines declare. */
export class ChunkSizeFollower {
  private at: At = AT.size;
  /** digits read on the current size line */
  private digits = 0;
  /** of those, the digits from the first non-zero one on */
  private significant = 0;
  /** the size being read, or the payload bytes still to come */
  private size = 0;
  /** payload bytes declared by the size lines read so far */
  private declared = 0;
  private state: ChunkWatch = 'reading';

  /** `cap`: the most payload bytes the whole body may declare. */
  constructor(private readonly cap: number) {}

  get status(): ChunkWatch {
    return this.state;
  }

  /** Read `bytes` from `from` on; the result is `status` after them. */
  feed(bytes: Uint8Array, from = 0): ChunkWatch {
    for (let i = from; i < bytes.length && this.state === 'reading'; i++) {
      const b = bytes[i]!;
      switch (this.at) {
        case AT.size: {
          const v = hexValue(b);
          if (v >= 0) {
            this.digits++;
            if (v > 0 || this.significant > 0) this.significant++;
            // saturates just past the cap: the exact value of a size that is refused anyway does not matter
            this.size = Math.min(this.size * 16 + v, this.cap + 1);
            // beyond 64 bits the parser refuses the line itself (400), in whatever packet it comes
            if (this.significant > MAX_SIZE_DIGITS) this.state = 'lost';
          } else if (this.digits > 0 && (b === CR || b === SEMICOLON)) this.sizeRead(b);
          else this.state = 'lost';
          break;
        }
        case AT.extension:
          if (b === CR) this.at = AT.sizeLf;
          break;
        case AT.sizeLf:
          if (b !== LF) this.state = 'lost';
          else if (this.size === 0) this.at = AT.trailerStart;
          else this.at = AT.data;
          break;
        case AT.data: {
          const take = Math.min(this.size, bytes.length - i);
          this.size -= take;
          i += take - 1;
          if (this.size === 0) this.at = AT.dataCr;
          break;
        }
        case AT.dataCr:
          this.expect(b, CR, AT.dataLf);
          break;
        case AT.dataLf:
          if (this.expect(b, LF, AT.size)) this.digits = this.significant = 0;
          break;
        case AT.trailerStart:
          this.at = b === CR ? AT.finalLf : AT.trailer;
          break;
        case AT.trailer:
          if (b === CR) this.at = AT.trailerLf;
          break;
        case AT.trailerLf:
          this.expect(b, LF, AT.trailerStart);
          break;
        case AT.finalLf:
          this.state = b === LF ? 'done' : 'lost';
          break;
      }
    }
    return this.state;
  }

  /** The size line's digits end with `b` (CR or `;`): check the declared total against the cap. */
  private sizeRead(b: number): void {
    if (this.size > this.cap - this.declared) {
      this.state = 'too_large';
      return;
    }
    this.declared += this.size;
    this.at = b === CR ? AT.sizeLf : AT.extension;
  }

  private expect(b: number, want: number, next: At): boolean {
    if (b !== want) {
      this.state = 'lost';
      return false;
    }
    this.at = next;
    return true;
  }
}

function hexValue(b: number): number {
  if (b >= 48 && b <= 57) return b - 48; // 0-9
  const lower = b | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1; // a-f, A-F
}

const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');

/**
 * Where the body of a request starts in `packet`, the bytes the parser was reading when the request's head
 * ended: just after the head that begins with `requestLine` (`POST /x HTTP/1.1\r\n`) and holds exactly the
 * header names `names`, in order. Undefined when no such head is in the packet (it began in an earlier packet).
 * A pipelined earlier request with the very same head comes first; its body was accepted, so following it
 * from there can never refuse this one wrongly, only miss.
 */
export function bodyStartIn(packet: Buffer, requestLine: string, names: readonly string[]): number | undefined {
  const line = Buffer.from(requestLine, 'latin1');
  for (let at = packet.indexOf(line); at >= 0; at = packet.indexOf(line, at + 1)) {
    const headStart = at + line.length;
    const end = packet.indexOf(HEAD_END, headStart - 2);
    if (end < 0) return undefined;
    if (end < headStart ? names.length === 0 : headerNamesAre(packet.toString('latin1', headStart, end), names))
      return end + HEAD_END.length;
  }
  return undefined;
}

function headerNamesAre(block: string, names: readonly string[]): boolean {
  const lines = block.split('\r\n');
  if (lines.length !== names.length) return false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const name = names[i]!;
    if (!line.startsWith(name) || line.charCodeAt(name.length) !== 58 /* : */) return false;
  }
  return true;
}
