// The bare WebSocket reference: an http server whose upgrades the `ws` package takes, echoing every message (no
// compression, as mock). Plain requests answer the bench's readiness poll.
//
//   node bench/lib/bare-ws.mjs <port>
import http from 'node:http';
import { WebSocketServer } from 'ws';

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 * 1024 });
const server = http.createServer((req, res) => res.end('ready'));
server.on('upgrade', (req, socket, head) =>
  wss.handleUpgrade(req, socket, head, (ws) =>
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })),
  ),
);
server.listen(Number(process.argv[2]), '127.0.0.1');
