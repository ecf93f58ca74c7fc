import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Config, TlsConfig } from '../model/config.js';
import { listenerChanges } from './listener-changes.js';

const base: Config['listener'] = { ipAddress: '127.0.0.1', port: 3001 };
const tls: TlsConfig = {
  cert: '/c.pem',
  key: '/k.pem',
  certEntry: 'c.pem',
  keyEntry: 'k.pem',
  handshakeTimeoutSeconds: 10,
  maxConnections: 256,
};

test('listenerChanges: one entry per changed key, values as written', () => {
  const cases: readonly [string, Config['listener'], readonly [string, string, string][]][] = [
    ['nothing', { ...base }, []],
    ['port', { ...base, port: 4000 }, [['listener.port', '3001', '4000']]],
    [
      'address and port',
      { ipAddress: '::1', port: 4000 },
      [
        ['listener.ip_address', '127.0.0.1', '::1'],
        ['listener.port', '3001', '4000'],
      ],
    ],
    ['tls added', { ...base, tls }, [['listener.tls', '(none)', 'set']]],
  ];
  for (const [name, after, want] of cases) {
    assert.deepEqual(
      listenerChanges(base, after).map((c) => [c.key, c.from, c.to]),
      want,
      name,
    );
  }
  assert.deepEqual(
    listenerChanges({ ...base, tls }, { ...base, tls: { ...tls, port: 3443, certEntry: 'other.pem' } }).map((c) => [
      c.key,
      c.from,
      c.to,
    ]),
    [
      ['listener.tls.cert', 'c.pem', 'other.pem'],
      ['listener.tls.port', '(none)', '3443'],
    ],
  );
});
