import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { loadTlsMaterial } from './tls-material.js';

type Generate = (
  a: { name: string; value: string }[],
  o: Record<string, unknown>,
) => Promise<{ private: string; cert: string }>;

async function pair(): Promise<{ cert: string; key: string }> {
  const mod = (await import('selfsigned')) as unknown as { generate?: Generate; default?: { generate?: Generate } };
  const generate = (mod.generate ?? mod.default?.generate)!;
  const r = await generate([{ name: 'commonName', value: 'localhost' }], { keyType: 'ec', curve: 'P-256' });
  return { cert: r.cert, key: r.private };
}

let dir = '';
const p = (name: string): string => join(dir, name);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mock-tls-material-'));
  const a = await pair();
  const b = await pair();
  writeFileSync(p('cert.pem'), a.cert);
  writeFileSync(p('key.pem'), a.key);
  writeFileSync(p('other-key.pem'), b.key);
  writeFileSync(p('empty.pem'), '');
  writeFileSync(p('text.pem'), 'hello, not a certificate\n');
  writeFileSync(p('broken-cert.pem'), '-----BEGIN CERTIFICATE-----\nAAAAnotbase64!!\n-----END CERTIFICATE-----\n');
  writeFileSync(p('broken-key.pem'), '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
  mkdirSync(p('a-dir'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('a matching pair loads', () => {
  const r = loadTlsMaterial(p('cert.pem'), p('key.pem'));
  assert.ok(r.ok);
  assert.match(r.value.cert, /BEGIN CERTIFICATE/);
  assert.match(r.value.key, /BEGIN PRIVATE KEY/);
});

test('each problem names the file and says what was expected', () => {
  const cases: { name: string; cert: string; key: string; file: string; message: RegExp }[] = [
    {
      name: 'missing key',
      cert: 'cert.pem',
      key: 'nope.pem',
      file: 'nope.pem',
      message: /private key file does not exist/,
    },
    {
      name: 'missing cert',
      cert: 'nope.pem',
      key: 'key.pem',
      file: 'nope.pem',
      message: /certificate file does not exist/,
    },
    {
      name: 'both missing: key first',
      cert: 'nope-cert.pem',
      key: 'nope-key.pem',
      file: 'nope-key.pem',
      message: /private key/,
    },
    { name: 'empty cert', cert: 'empty.pem', key: 'key.pem', file: 'empty.pem', message: /expected a PEM certificate/ },
    { name: 'text as cert', cert: 'text.pem', key: 'key.pem', file: 'text.pem', message: /expected a PEM certificate/ },
    {
      name: 'key given as cert',
      cert: 'key.pem',
      key: 'key.pem',
      file: 'key.pem',
      message: /expected a PEM certificate/,
    },
    {
      name: 'broken cert',
      cert: 'broken-cert.pem',
      key: 'key.pem',
      file: 'broken-cert.pem',
      message: /expected a PEM certificate, but it does not parse/,
    },
    { name: 'empty key', cert: 'cert.pem', key: 'empty.pem', file: 'empty.pem', message: /expected a PEM private key/ },
    {
      name: 'cert given as key',
      cert: 'cert.pem',
      key: 'cert.pem',
      file: 'cert.pem',
      message: /expected a PEM private key/,
    },
    {
      name: 'broken key',
      cert: 'cert.pem',
      key: 'broken-key.pem',
      file: 'broken-key.pem',
      message: /expected a PEM private key, but it does not parse/,
    },
    {
      name: 'mismatched key',
      cert: 'cert.pem',
      key: 'other-key.pem',
      file: 'other-key.pem',
      message: /matches the certificate/,
    },
    {
      name: 'directory as key',
      cert: 'cert.pem',
      key: 'a-dir',
      file: 'a-dir',
      message: /cannot be read \(it is a directory\)/,
    },
  ];
  for (const c of cases) {
    const r = loadTlsMaterial(p(c.cert), p(c.key));
    assert.equal(r.ok, false, c.name);
    if (r.ok) continue;
    assert.equal(r.error.file, p(c.file), c.name);
    assert.equal(r.error.code, 'tls_material', c.name);
    assert.equal(r.error.severity, 'error', c.name);
    assert.match(r.error.message, c.message, c.name);
  }
});

test('the mismatch message names the certificate by the given label', () => {
  const r = loadTlsMaterial(p('cert.pem'), p('other-key.pem'), './cert.pem');
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.error.message, /the certificate \.\/cert\.pem/);
});
