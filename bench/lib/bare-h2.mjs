// The bare HTTP/2 reference: node:http2 over TLS (h2 by ALPN, HTTP/1.1 allowed) answering every request with one
// fixed response held in memory, the same status, headers and body mock sends. A plain HTTP port answers the
// bench's readiness poll.
//
//   node bench/lib/bare-h2.mjs <tlsPort> <readyPort> <cert.pem> <key.pem> <response.json>
//
// response.json: { status, headers: [[name, value], ...], body }
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';

const [tlsPort, readyPort, certFile, keyFile, specFile] = process.argv.slice(2);
const spec = JSON.parse(fs.readFileSync(specFile, 'utf8'));
const body = Buffer.from(spec.body, 'utf8');
const head = {};
for (const [name, value] of spec.headers) head[name] = value;
head['content-length'] = String(body.length);
const server = http2.createSecureServer(
  { cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile), allowHTTP1: true },
  (req, res) => {
    res.writeHead(spec.status, head);
    res.end(body);
  },
);
server.listen(Number(tlsPort), '127.0.0.1');
http.createServer((req, res) => res.end('ready')).listen(Number(readyPort), '127.0.0.1');
