// An event-stream client of mock's inspector (`GET /__mock/api/events` on the --inspect port), run inside the
// load process: it reads every event as a page would, counts the `request` events and checks their ids (each
// once, in order). When the server drops it (a client more than 1 MiB behind is dropped), it reconnects with
// Last-Event-ID, as EventSource does, and the journal replays what it missed.

import http from 'node:http';

/** Opens the stream; resolves once the server has answered 200. */
export function openSse(port) {
  const st = { events: 0, duplicates: 0, outOfOrder: 0, reconnects: 0, resets: 0, lastId: 0, bytes: 0 };
  let closed = false;
  let req = null;
  let waiters = [];
  const wake = () => {
    for (const w of waiters) w();
  };

  const connect = () =>
    new Promise((resolve, reject) => {
      const headers = { host: `127.0.0.1:${port}`, accept: 'text/event-stream' };
      if (st.lastId > 0) headers['last-event-id'] = String(st.lastId);
      req = http.request({ host: '127.0.0.1', port, path: '/__mock/api/events', headers, agent: false }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`event stream: status ${res.statusCode}`));
          return;
        }
        resolve();
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          st.bytes += chunk.length;
          buf += chunk;
          let cut;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            if (block.startsWith('event: reset') || block.includes('\nevent: reset')) st.resets++;
            if (!block.startsWith('id: ')) continue;
            const id = Number(block.slice(4, block.indexOf('\n')));
            if (id <= st.lastId) st.duplicates++;
            else {
              if (st.lastId > 0 && id !== st.lastId + 1) st.outOfOrder++;
              st.events++;
              st.lastId = id;
            }
          }
          wake();
        });
        res.on('close', () => {
          if (closed) return;
          st.reconnects++;
          setTimeout(() => {
            if (!closed) connect().catch(() => {});
          }, 50);
        });
      });
      req.on('error', (e) => {
        if (!closed) reject(e);
      });
      req.end();
    });

  return connect().then(() => ({
    stats: st,
    /** waits until `n` request events have arrived, or `timeoutMs` passed */
    until(n, timeoutMs) {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(t);
          waiters = waiters.filter((w) => w !== check);
          resolve(st.events >= n);
        };
        const check = () => {
          if (st.events >= n) done();
        };
        const t = setTimeout(done, timeoutMs);
        waiters.push(check);
        check();
      });
    },
    close() {
      closed = true;
      req?.destroy();
    },
  }));
}
