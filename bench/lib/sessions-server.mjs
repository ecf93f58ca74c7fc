// The sessions workload's server (bench/sessions.mjs): the library's startMock() in a process of its own, the
// journal off (as the bare server keeps none), and `n` sessions made up front, each with one override of its own.
//
//   node bench/lib/sessions-server.mjs <dist/lib/library/index.js> <workspace> <port> <n>

import { pathToFileURL } from 'node:url';

const [lib, root, port, n] = process.argv.slice(2);
const { startMock } = await import(pathToFileURL(lib).href);
const mock = await startMock({ root, port: Number(port), journal: false });
for (let i = 0; i < Number(n); i++)
  mock.session(`s${i}`).use({ when: { request: { url_path: '/api/cart' } }, respond: { json: `{"s":${i}}` } });
process.stdout.write(`Listening on ${mock.url} ...\n`);
process.on('SIGTERM', () => {
  mock.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
