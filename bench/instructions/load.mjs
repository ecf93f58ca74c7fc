// Load for bench/instructions/run.sh: a bounded number of GET requests, four at a time over keep-alive, then it
// stops by itself.
//   node load.mjs <port> <path> <count> [<header>:<value>]

import http from 'node:http';
const [port, p, n, hdr] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
const headers = {};
if (hdr) {
  const i = hdr.indexOf(':');
  headers[hdr.slice(0, i)] = hdr.slice(i + 1);
}
let done = 0,
  bad = 0;
const N = Number(n);
await new Promise((resolve) => {
  let inflight = 0,
    sent = 0;
  const go = () => {
    while (inflight < 4 && sent < N) {
      sent++;
      inflight++;
      http
        .get({ host: '127.0.0.1', port, path: p, agent, headers }, (res) => {
          if (res.statusCode !== 200 && res.statusCode !== 404) bad++;
          res.resume();
          res.on('end', () => {
            inflight--;
            done++;
            if (done === N) resolve();
            else go();
          });
        })
        .on('error', () => {
          inflight--;
          bad++;
          done++;
          if (done === N) resolve();
          else go();
        });
    }
  };
  go();
});
agent.destroy();
if (bad) console.error('bad', bad);
