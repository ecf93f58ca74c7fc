// The bare reference: a plain node:http server answering every request with
// one fixed response held in memory, the same bytes `mock` sends for the
// scenario (status, headers, body).  No routing, no file reads, no logging:
// the ceiling for any single Node process serving that response here.
//
//   node bench/lib/bare-server.mjs <port> <response.json>
//
// response.json: { status, headers: [[name, value], ...], bodyFile, parseBody }
// With parseBody, the request body is collected and JSON.parse'd before the
// answer (the least work a server with body conditions must do).

import http from 'node:http';
import fs from 'node:fs';

const port = Number(process.argv[2]);
const spec = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const body = spec.bodyFile ? fs.readFileSync(spec.bodyFile) : Buffer.alloc(0);
const head = {};
for (const [name, value] of spec.headers) head[name] = value;
head['content-length'] = String(body.length);
const status = spec.status;

function answer(res) {
  res.writeHead(status, head);
  res.end(body);
}

const server = spec.parseBody
  ? http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        try {
          JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          /* answer anyway */
        }
        answer(res);
      });
    })
  : http.createServer((req, res) => answer(res));

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`Listening on http://127.0.0.1:${port} ...\n`);
});
