// TLS material from disk: read the certificate and private key files and PARSE them, so that a bad file stops
// the program before any listener binds (docs/https-and-limits.md: a bad cert or key is a config error, exit 2) and `mock validate` can report the same problem.
// Holds no server state; the server and the CLI both call loadTlsMaterial().
import type { KeyObject, X509Certificate } from 'node:crypto';
import { crypto } from '../shared/lazy-crypto.js';
import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../model/diagnostic.js';

export interface TlsMaterial {
  /** PEM text as read */
  readonly cert: string;
  readonly key: string;
}

/** Structurally the shared Result type (node/ does not import shared/). */
export type TlsMaterialResult =
  | { readonly ok: true; readonly value: TlsMaterial }
  | { readonly ok: false; readonly error: Diagnostic };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PEM_PRIVATE_KEY = /-----BEGIN (?:RSA |EC |ENCRYPTED |DSA )?PRIVATE KEY-----/;

const MESSAGES = {
  missing: (what: string) => `the TLS ${what} file does not exist`,
  unreadable: (what: string, reason: string) => `the TLS ${what} file cannot be read (${reason})`,
  notPemCertificate: 'expected a PEM certificate (a "-----BEGIN CERTIFICATE-----" block), found none',
  badCertificate: (reason: string) => `expected a PEM certificate, but it does not parse (${reason})`,
  notPemKey: 'expected a PEM private key (a "-----BEGIN PRIVATE KEY-----" block), found none',
  badKey: (reason: string) => `expected a PEM private key, but it does not parse (${reason})`,
  mismatch: (certFile: string) => `expected a private key that matches the certificate ${certFile}, but it does not`,
} as const;

function problem(file: string, message: string): { readonly ok: false; readonly error: Diagnostic } {
  return { ok: false, error: { severity: 'error', code: 'tls_material', message, file } };
}

function reasonOf(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return e instanceof Error ? e.message : String(e);
}

function readText(file: string, what: string): { ok: true; text: string } | { ok: false; error: Diagnostic } {
  try {
    return { ok: true, text: readFileSync(file, 'utf8') };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOENT') return problem(file, MESSAGES.missing(what));
    if (code === 'EISDIR') return problem(file, MESSAGES.unreadable(what, 'it is a directory'));
    return problem(file, MESSAGES.unreadable(what, reasonOf(e)));
  }
}

/**
 * Read and parse a certificate and its private key (absolute paths). The key is looked at first when both are
 * missing, as the reference does; then the certificate must parse, then the key, then the key must match.
 * `certLabel` names the certificate in the mismatch message (defaults to its path).
 */
export function loadTlsMaterial(certPath: string, keyPath: string, certLabel: string = certPath): TlsMaterialResult {
  const keyText = readText(keyPath, 'private key');
  if (!keyText.ok) return keyText;
  const certText = readText(certPath, 'certificate');
  if (!certText.ok) return certText;

  if (!PEM_CERTIFICATE.test(certText.text)) return problem(certPath, MESSAGES.notPemCertificate);
  let x509: X509Certificate;
  try {
    x509 = new (crypto().X509Certificate)(certText.text);
  } catch (e) {
    return problem(certPath, MESSAGES.badCertificate(reasonOf(e)));
  }

  if (!PEM_PRIVATE_KEY.test(keyText.text)) return problem(keyPath, MESSAGES.notPemKey);
  let key: KeyObject;
  try {
    key = crypto().createPrivateKey(keyText.text);
  } catch (e) {
    return problem(keyPath, MESSAGES.badKey(reasonOf(e)));
  }

  let matches = false;
  try {
    matches = x509.checkPrivateKey(key);
  } catch {
    matches = false;
  }
  if (!matches) return problem(keyPath, MESSAGES.mismatch(certLabel));
  return { ok: true, value: { cert: certText.text, key: keyText.text } };
}
