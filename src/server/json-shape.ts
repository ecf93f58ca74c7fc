// The shape of a JSON body, read before it is parsed: how deep its arrays and objects nest and how many values they
// hold. JSON.parse is one synchronous call on the server's only thread, and its time grows with the number of
// object members (a million keys took seconds), while every later walk of a deeply nested value (matchers, scripts,
// the journal) recurses once per level. A body over either limit is refused before any of that runs
// (docs/https-and-limits.md). The scan reads bytes: the characters it looks for are ASCII, and no byte of a
// multi-byte UTF-8 sequence is ASCII, so no decoding is needed.

export interface JsonShapeLimits {
  /** deepest nesting of arrays and objects */
  readonly maxDepth: number;
  /** values inside arrays and objects (array items and object members), over the whole document */
  readonly maxMembers: number;
}

export type JsonShape = { readonly over: 'none' } | { readonly over: 'depth' | 'members' };

const NONE: JsonShape = Object.freeze({ over: 'none' });
const DEPTH: JsonShape = Object.freeze({ over: 'depth' });
const MEMBERS: JsonShape = Object.freeze({ over: 'members' });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/** Whether a body that starts with an array or an object (after white space): the only ones that can be large in shape. */
export function startsAsContainer(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === OPEN_BRACKET || c === OPEN_BRACE;
  }
  return false;
}

/**
 * Which limit the body's shape is over (the member limit first), counting as it would parse (text inside strings is skipped; text that is not
 * JSON at all is counted the same way, and JSON.parse refuses it later). Members are counted by their separators
 * and by the containers that hold them: an upper bound that is exact for a document without empty containers.
 */
export function jsonShape(bytes: Uint8Array, limits: JsonShapeLimits): JsonShape {
  const { maxDepth, maxMembers } = limits;
  // the common body, shorter than the member limit and with fewer brackets than the depth limit, is within both:
  // each value counted takes a byte, and each level an opening bracket; the brackets are counted by a native
  // search, a few calls for a typical body instead of a look at every byte (docs/speed.md, workload e)
  if (bytes.length <= maxMembers && !opensOver(bytes, maxDepth)) return NONE;
  let depth = 0;
  let members = 0;
  // over the depth limit: the scan goes on, as the member limit comes first (a body over both is over in members)
  let deep = false;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) i = stringEnd(bytes, i);
    else if (c === COMMA) {
      if (++members > maxMembers) return MEMBERS;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) deep = true;
      if (++members > maxMembers) return MEMBERS;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return deep ? DEPTH : NONE;
}

/** Whether the body holds more than `limit` opening brackets, in strings or not (an upper bound on its depth). */
function opensOver(bytes: Uint8Array, limit: number): boolean {
  let n = 0;
  for (let i = bytes.indexOf(OPEN_BRACE); i !== -1; i = bytes.indexOf(OPEN_BRACE, i + 1)) if (++n > limit) return true;
  for (let i = bytes.indexOf(OPEN_BRACKET); i !== -1; i = bytes.indexOf(OPEN_BRACKET, i + 1))
    if (++n > limit) return true;
  return false;
}

/**
 * Where the string opened at `open` ends: its closing quote, the first one not escaped (preceded by an even number of
 * backslashes), or the body's end. Found with indexOf, a native search: strings are most of a typical body's bytes.
 */
function stringEnd(bytes: Uint8Array, open: number): number {
  let q = bytes.indexOf(QUOTE, open + 1);
  while (q !== -1) {
    let slashes = 0;
    for (let k = q - 1; k > open && bytes[k] === BACKSLASH; k--) slashes++;
    if ((slashes & 1) === 0) return q;
    q = bytes.indexOf(QUOTE, q + 1);
  }
  return bytes.length;
}
