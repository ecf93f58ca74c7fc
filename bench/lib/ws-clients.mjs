// WebSocket load for bench/h2ws.mjs, in a process of its own.
//
//   node bench/lib/ws-clients.mjs echo <url> <connections> <seconds>   → {"messages": n, "perSec": x}
//     each connection sends a 64-byte text message and the next one when its echo comes back
//   node bench/lib/ws-clients.mjs idle <url> <connections>             → prints {"open": n} once all are open,
//     then holds them until stdin closes
import { WebSocket } from 'ws';

const [mode, url, n, seconds] = process.argv.slice(2);
const count = Number(n);
const MESSAGE = 'x'.repeat(64);

function open(u) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(u, { perMessageDeflate: false });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function openAll() {
  const sockets = [];
  // in batches, so the listener's accept queue is never the bottleneck
  for (let i = 0; i < count; i += 200) {
    const batch = [];
    for (let k = i; k < Math.min(count, i + 200); k++) batch.push(open(url));
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

const sockets = await openAll();
if (mode === 'idle') {
  console.log(JSON.stringify({ open: sockets.length }));
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
} else {
  let counting = false;
  let messages = 0;
  for (const ws of sockets) {
    ws.on('message', () => {
      if (counting) messages++;
      ws.send(MESSAGE);
    });
    ws.send(MESSAGE);
  }
  // one second to warm up, then the window
  await new Promise((r) => setTimeout(r, 1000));
  counting = true;
  const start = performance.now();
  await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
  counting = false;
  const ms = performance.now() - start;
  console.log(JSON.stringify({ messages, perSec: Math.round((messages / ms) * 1000) }));
  for (const ws of sockets) ws.terminate();
  process.exit(0);
}
