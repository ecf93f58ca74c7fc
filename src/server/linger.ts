// Lingering close, as Apache and nginx do it. A response that ends the connection (a 413 while the client is
// still uploading, a malformed body) is followed by our FIN, but the socket keeps reading, and discarding, for
// up to LINGER_MS: closing a socket with unread input makes the kernel send a TCP reset, and a reset can
// destroy the response before the client has read it. The connection closes as soon as the client closes its
// side, or when LINGER_MS runs out, whichever comes first.
import type { Duplex } from 'node:stream';

export const LINGER_MS = 2000;

/**
 * Node ends a connection after a `Connection: close` response by calling socket.destroySoon(), which destroys
 * the socket the moment our FIN is out. For this one socket, that call ends the write side and lingers.
 */
export function lingerOnClose(socket: Duplex | null): void {
  if (socket === null) return;
  const lingering = socket as Duplex & { destroySoon?: () => void };
  lingering.destroySoon = () => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.end();
  };
}
