// A stand-in for a real API, for trying record mode offline: `node fake-api.mjs` listens on 127.0.0.1:4000
// and answers under /v1. Stop it (Ctrl-C) once you have recorded, and replay without it.
import { createServer } from 'node:http';

const users = [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }];

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url, 'http://x');
    const key = `${req.method} ${url.pathname}`;
    const json = (status, value, headers = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(value, null, 2) + '\n');
    };
    if (key === 'GET /v1/users') return json(200, users, { 'x-total-count': String(users.length) });
    if (key === 'GET /v1/users/1') return json(200, users[0]);
    if (key === 'POST /v1/users') {
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}');
      return json(201, { id: 3, ...body }, { location: '/v1/users/3' });
    }
    if (key === 'DELETE /v1/users/2') return void res.writeHead(204).end();
    if (key === 'GET /v1/health') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    json(404, { error: 'not found', path: url.pathname });
  });
}).listen(4000, '127.0.0.1', () => console.log('fake API on http://127.0.0.1:4000/v1'));
