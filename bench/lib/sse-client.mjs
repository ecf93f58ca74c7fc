// An event-stream client of mock's inspector (`GET /__mock/api/events` on the --inspect port), run inside the
// load process: it reads every event as a page would, counts the `request` events and checks their ids (each
// once, in order). When the server drops it (a client more than 1 MiB behind is dropped), it reconnects with
// Last-Event-ID, as EventSource does, and the journal replays what it missed.

import http from 'node:http';

// Every `request` event, and only those, starts with its id line (`id: <n>`), always at the start of a line; an
// event's data is one line of JSON, which holds no raw newline. So the client counts events by finding
// `\nid: ` in each chunk as it arrives (read byte for byte as Latin-1, so nothing is decoded), without splitting
// the stream into events: what it costs the load process per event is one search and the id's digits.
const ID_LINE = '\nid: ';
const RESET_LINE = '\nevent: reset\n';
/** longer than any id line (`\nid: ` and 15 digits and its newline) or the reset line */
const TAIL_CHARS = 32;

/** Opens the stream; resolves once the server has answered 200. */
export function openSse(port) {
  const st = { events: 0, duplicates: 0, outOfOrder: 0, reconnects: 0, resets: 0, lastId: 0, bytes: 0, chunks: 0 };
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
        // the last bytes of the previous chunk, so that a line cut between two chunks is read whole; a newline
        // at first, as if the stream began on a fresh line
        let tail = '\n';
        res.on('data', (chunk) => {
          st.bytes += chunk.length;
          st.chunks++;
          const text = tail + chunk.latin1Slice(0, chunk.length);
          // a line ending at or after `from` was not read with the previous chunk
          const from = tail.length;
          for (let at = text.indexOf(ID_LINE); at >= 0; at = text.indexOf(ID_LINE, at + ID_LINE.length)) {
            let id = 0;
            let k = at + ID_LINE.length;
            for (let c = text.charCodeAt(k); c >= 48 && c <= 57; c = text.charCodeAt(++k)) id = id * 10 + c - 48;
            if (k >= text.length) break; // the line goes on in the next chunk
            if (k < from) continue;
            if (id <= st.lastId) st.duplicates++;
            else {
              if (st.lastId > 0 && id !== st.lastId + 1) st.outOfOrder++;
              st.events++;
              st.lastId = id;
            }
          }
          for (let at = text.indexOf(RESET_LINE); at >= 0; at = text.indexOf(RESET_LINE, at + 1))
            if (at + RESET_LINE.length > from) st.resets++;
          tail = text.slice(-TAIL_CHARS);
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
