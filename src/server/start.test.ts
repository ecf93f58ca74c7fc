import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TlsConfig } from '../model/config.js';
import { statusForClientError } from './client-error.js';
import { formatHostPort, planListeners } from './start.js';

const tls = (port?: number): TlsConfig => ({
  cert: '/c.pem',
  key: '/k.pem',
  certEntry: 'c.pem',
  keyEntry: 'k.pem',
  ...(port !== undefined ? { port } : {}),
  handshakeTimeoutSeconds: 10,
  maxConnections: 256,
});

test('listener plan: http only, https only, or both (http first)', () => {
  assert.deepEqual(planListeners({ ipAddress: '127.0.0.1', port: 3001 }), [
    { scheme: 'http', ip: '127.0.0.1', port: 3001 },
  ]);
  assert.deepEqual(planListeners({ ipAddress: '127.0.0.1', port: 3001, tls: tls() }), [
    { scheme: 'https', ip: '127.0.0.1', port: 3001 },
  ]);
  assert.deepEqual(planListeners({ ipAddress: '::1', port: 3001, tls: tls(3443) }), [
    { scheme: 'http', ip: '::1', port: 3001 },
    { scheme: 'https', ip: '::1', port: 3443 },
  ]);
});

test('host:port formatting', () => {
  assert.equal(formatHostPort('127.0.0.1', 3001), '127.0.0.1:3001');
  assert.equal(formatHostPort('::1', 3001), '[::1]:3001');
});

test('parser errors map to 4xx; socket errors get no answer', () => {
  const cases: [string | undefined, number | undefined][] = [
    ['HPE_HEADER_OVERFLOW', 431],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408],
    ['HPE_INVALID_METHOD', 400],
    ['HPE_INVALID_CHUNK_SIZE', 400],
    ['HPE_INVALID_VERSION', 400],
    ['ECONNRESET', undefined],
    ['EPIPE', undefined],
    [undefined, undefined],
  ];
  for (const [code, want] of cases) assert.equal(statusForClientError(code), want, String(code));
});
