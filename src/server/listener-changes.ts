// Which [listener] settings differ between two configs. The server never rebinds on a reload: these are
// reported ("restart mock to apply") and the rest of the new workspace applies. Keys are named as in mock.toml.
import { DEFAULTS, type Config, type TlsConfig } from '../model/config.js';
import type { ListenerChange } from '../model/reload.js';

type Listener = Config['listener'];

const NONE = '(none)';

const TLS_KEYS: readonly (readonly [key: string, get: (t: TlsConfig) => string | number | undefined])[] = [
  ['listener.tls.cert', (t) => t.certEntry],
  ['listener.tls.key', (t) => t.keyEntry],
  ['listener.tls.port', (t) => t.port],
  ['listener.tls.handshake_timeout_seconds', (t) => t.handshakeTimeoutSeconds],
  ['listener.tls.max_connections', (t) => t.maxConnections],
];

export function listenerChanges(before: Listener, after: Listener): readonly ListenerChange[] {
  const out: ListenerChange[] = [];
  const add = (
    key: string,
    from: string | number | boolean | undefined,
    to: string | number | boolean | undefined,
  ): void => {
    const f = from === undefined ? NONE : String(from);
    const t = to === undefined ? NONE : String(to);
    if (f !== t) out.push({ key, from: f, to: t });
  };
  add('listener.ip_address', before.ipAddress, after.ipAddress);
  add('listener.port', before.port, after.port);
  add(
    'listener.max_connections',
    before.maxConnections ?? DEFAULTS.plainMaxConnections,
    after.maxConnections ?? DEFAULTS.plainMaxConnections,
  );
  add(
    'listener.max_held_connections',
    before.maxHeldConnections ?? DEFAULTS.maxHeldConnections,
    after.maxHeldConnections ?? DEFAULTS.maxHeldConnections,
  );
  add('listener.http2', before.http2, after.http2);
  add(
    'listener.http2_max_streams',
    before.http2MaxStreams ?? DEFAULTS.http2MaxStreams,
    after.http2MaxStreams ?? DEFAULTS.http2MaxStreams,
  );
  if (before.tls === undefined || after.tls === undefined) {
    add('listener.tls', before.tls === undefined ? undefined : 'set', after.tls === undefined ? undefined : 'set');
    return out;
  }
  for (const [key, get] of TLS_KEYS) add(key, get(before.tls), get(after.tls));
  return out;
}
