// TLS material that must stop `validate` and the server (figure 7), in the shape of test/fixtures/bad-configs.ts:
// unparseable certificates and keys in several ways, and a key that does not match its certificate. Built at run
// time because the good halves are freshly generated. Not a test file.
import { generateKeyPairSync } from 'node:crypto';
import type { BadConfig } from '../fixtures/bad-configs.js';
import { selfSignedPair } from './harness.js';

const tls = (cert: string, key: string): string => `[listener.tls]\ncert = "${cert}"\nkey = "${key}"\n`;

export async function tlsBadConfigs(): Promise<readonly BadConfig[]> {
  const a = await selfSignedPair('a.localhost');
  const b = await selfSignedPair('b.localhost');
  const encrypted = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' },
  }).privateKey;
  const certBody = a.cert.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));
  const truncatedCert =
    ['-----BEGIN CERTIFICATE-----', ...certBody.slice(0, Math.floor(certBody.length / 2))].join('\n') + '\n';
  const badBase64Cert = '-----BEGIN CERTIFICATE-----\nthis is !! not base64 ***\n-----END CERTIFICATE-----\n';
  const badBase64Key = '-----BEGIN PRIVATE KEY-----\nthis is !! not base64 ***\n-----END PRIVATE KEY-----\n';
  const garbageDer =
    '-----BEGIN CERTIFICATE-----\n' +
    Buffer.from('not a DER certificate at all, but valid base64').toString('base64') +
    '\n-----END CERTIFICATE-----\n';
  return [
    {
      name: 'TLS: certificate file is not PEM',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': 'hello, I am not a certificate\n', 'k.pem': a.key },
      expect: /c\.pem/,
    },
    {
      name: 'TLS: certificate with bad base64',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': badBase64Cert, 'k.pem': a.key },
      expect: /c\.pem/,
    },
    {
      name: 'TLS: certificate that is valid base64 but not DER',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': garbageDer, 'k.pem': a.key },
      expect: /c\.pem/,
    },
    {
      name: 'TLS: empty certificate file',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': '', 'k.pem': a.key },
      expect: /c\.pem/,
    },
    {
      name: 'TLS: truncated certificate',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': truncatedCert, 'k.pem': a.key },
      expect: /c\.pem/,
    },
    {
      name: 'TLS: a private key in the certificate file',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': a.key, 'k.pem': a.key },
      expect: /c\.pem/,
    },
    {
      name: 'TLS: key file is not PEM',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': a.cert, 'k.pem': 'hello, I am not a key\n' },
      expect: /k\.pem/,
    },
    {
      name: 'TLS: key with bad base64',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': a.cert, 'k.pem': badBase64Key },
      expect: /k\.pem/,
    },
    {
      name: 'TLS: empty key file',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': a.cert, 'k.pem': '' },
      expect: /k\.pem/,
    },
    {
      name: 'TLS: a certificate in the key file',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': a.cert, 'k.pem': a.cert },
      expect: /k\.pem/,
    },
    {
      name: 'TLS: passphrase-protected key',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': a.cert, 'k.pem': encrypted },
      expect: /k\.pem/,
    },
    {
      name: 'TLS: key that does not match its certificate',
      files: { 'mock.toml': tls('c.pem', 'k.pem'), 'c.pem': a.cert, 'k.pem': b.key },
      expect: /k\.pem.*c\.pem|c\.pem.*k\.pem/,
    },
    {
      name: 'TLS (separate port): key that does not match its certificate',
      files: { 'mock.toml': `${tls('c.pem', 'k.pem')}port = 0\n`, 'c.pem': b.cert, 'k.pem': a.key },
      expect: /k\.pem.*c\.pem|c\.pem.*k\.pem/,
    },
  ];
}
