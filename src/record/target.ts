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
