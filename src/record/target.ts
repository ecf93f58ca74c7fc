// The `--record <url>` argument: `http(s)://host[:port][/base]`, parsed and checked, purely.
//
// Owns: what counts as a record target (scheme http or https, a host, an optional port, an optional base path
// that is prefixed to every forwarded path) and the one-line usage message for anything else.
// Leaves out: flag parsing (cli/), connecting (server/record/proxy.ts).
import { isInside } from '../files/paths.js';
import { err, ok, type Result } from '../shared/result.js';

export const RECORD_SCHEMES = ['http', 'https'] as const;
export type RecordScheme = (typeof RECORD_SCHEMES)[number];

export interface RecordTarget {
  readonly scheme: RecordScheme;
  /** host name or IP address as connected to (IPv6 without brackets) */
  readonly hostname: string;
  readonly port: number;
  /** the `host` header sent upstream: host, with `:port` unless it is the scheme's default */
  readonly host: string;
  /** `scheme://host[:port]`, as the WHATWG URL serialises it: a `location` on this origin becomes a path */
  readonly origin: string;
  /** prefixed to every forwarded path: '' or '/v2' (percent-encoded, no trailing '/') */
  readonly basePath: string;
}

const DEFAULT_PORTS: Readonly<Record<RecordScheme, number>> = { http: 80, https: 443 };

export const TARGET_MESSAGES = {
  form: (given: string) => `--record expects http(s)://host[:port][/base], got '${given}'`,
  scheme: (given: string, scheme: string) =>
    `--record: unsupported scheme '${scheme}' in '${given}' (use http:// or https://)`,
  extra: (given: string, part: string) => `--record: '${given}' has ${part}; give only http(s)://host[:port][/base]`,
  layout: (fallbackDir: string, configDir: string) =>
    `--record: the fallback directory ${fallbackDir} is outside the config directory ${configDir}; recorded rules name their files relative to the config directory, so it must lie inside it`,
} as const;

/**
 * Record mode needs the fallback directory inside the config directory (a rule's file_path is config-relative).
 * Both absolute and canonical (realpaths); the message when not (exit 2), else undefined.
 */
export function checkRecordLayout(configDir: string, fallbackDir: string): string | undefined {
  return isInside(fallbackDir, configDir) ? undefined : TARGET_MESSAGES.layout(fallbackDir, configDir);
}

/** `--record <url>` → the target, or the usage message (exit 2). */
export function parseRecordTarget(given: string): Result<RecordTarget, string> {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(.*)$/.exec(given);
  if (m === null) return err(TARGET_MESSAGES.form(given));
  const scheme = m[1]!.toLowerCase();
  if (!isRecordScheme(scheme)) return err(TARGET_MESSAGES.scheme(given, m[1]!));
  const authority = m[2]!;
  if (m[4] !== '') return err(TARGET_MESSAGES.extra(given, m[4]!.startsWith('?') ? 'a query' : 'a fragment'));
  if (authority.includes('@')) return err(TARGET_MESSAGES.extra(given, 'credentials'));
  if (authority === '' || /\s/.test(given)) return err(TARGET_MESSAGES.form(given));
  let url: URL;
  try {
    url = new URL(`${scheme}://${authority}${m[3]!}`);
  } catch {
    return err(TARGET_MESSAGES.form(given));
  }
  if (url.hostname === '') return err(TARGET_MESSAGES.form(given));
  const port = url.port === '' ? DEFAULT_PORTS[scheme] : Number(url.port);
  if (port === 0) return err(TARGET_MESSAGES.form(given));
  const basePath = url.pathname.replace(/\/+$/, '');
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return ok({ scheme, hostname, port, host: url.host, origin: url.origin, basePath });
}

export function isRecordScheme(s: string): s is RecordScheme {
  return (RECORD_SCHEMES as readonly string[]).includes(s);
}

/** Why a request path is not forwarded: it would reach above the target's base path on the upstream. */
export const FORWARD_MESSAGES = {
  climbs: (basePath: string) =>
    `the path climbs above the record target's base path ${basePath === '' ? '/' : basePath} (a '..' segment, or its %2e%2e spelling, with nothing left to remove); dot segments are resolved before a request is forwarded`,
  hidden: () =>
    "a segment holds an encoded separator (%2F or %5C) or a backslash around a '.' or '..' part, which an upstream that decodes it would resolve above the path mock sees",
} as const;

/**
 * The raw (still percent-encoded) request path as forwarded below the base path: dot segments (`.`, `..` and
 * their `%2e` spellings) resolved as remove_dot_segments does, every other segment kept byte for byte. A path
 * whose `..` has nothing left to remove, or whose segment hides a dot part behind an encoded separator or a
 * backslash (an upstream that decodes or splits on it would climb), is refused: the message says which.
 */
export function forwardedPath(rawPath: string, basePath: string): Result<string, string> {
  const raw = rawPath.startsWith('/') ? rawPath.slice(1) : rawPath;
  if (!/[.%\\]/.test(raw)) return ok('/' + raw);
  const parts = raw.split('/');
  const out: string[] = [];
  let endsAtDot = false;
  for (const part of parts) {
    const name = decodedSegment(part);
    endsAtDot = name === '.' || name === '..';
    if (name === '.') continue;
    if (name === '..') {
      if (out.length === 0) return err(FORWARD_MESSAGES.climbs(basePath));
      out.pop();
      continue;
    }
    if (/[\\/]/.test(name) && name.split(/[\\/]/).some((p) => p === '.' || p === '..'))
      return err(FORWARD_MESSAGES.hidden());
    out.push(part);
  }
  if (endsAtDot) out.push('');
  return ok('/' + out.join('/'));
}

/** A raw segment percent-decoded (a malformed escape leaves it as written: it cannot spell a dot). */
function decodedSegment(part: string): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
