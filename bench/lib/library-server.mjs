// The library as a test suite runs it: `startMock()` in this process, on a workspace folder and a port, with
// its defaults (the request journal on, no request log). Stopped by SIGTERM (closed, then exit).
//
//   node bench/lib/library-server.mjs <dist/lib/library/index.js> <workspace> <port>

import { pathToFileURL } from 'node:url';

const [lib, root, port] = process.argv.slice(2);
const { startMock } = await import(pathToFileURL(lib).href);
const mock = await startMock({ root, port: Number(port) });
process.on('SIGTERM', () => {
  mock.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
