// The template cases of the WireMock comparison (format in corpus/templates/README.md): each mapping is posted to
// both servers' `/__admin/mappings`, its requests are sent to both, then the stubs posted over the admin API are
// reset before the next case. An answer's text has the server's own port replaced by one token, since
// `request.baseUrl` and friends name it.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** One exchange with a server: status, lower-cased headers and the body as text, or the error a fault gives. */
export function send(port, { method = 'GET', url, headers = {}, body }) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', (e) => resolve({ error: e.code ?? e.message }));
    });
    req.setTimeout(20_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e) => resolve({ error: e.code ?? e.message }));
    req.end(body);
  });
}

async function admin(port, method, url, json) {
  const body = json === undefined ? undefined : JSON.stringify(json);
  const headers = body === undefined ? {} : { 'content-type': 'application/json' };
  const res = await send(port, { method, url, headers, body });
  if (res.error !== undefined || res.status >= 300)
    throw new Error(`${method} ${url} on port ${port}: ${res.error ?? `${res.status} ${res.body}`}`);
  return res;
}

const unport = (x, port) => (x.body === undefined ? x : { ...x, body: x.body.replaceAll(String(port), '<port>') });

/**
 * Every case of `dir`, in name order; one exchange per request, `{ request, wiremock, mock }` as the matching part
 * gives them (the request named `<case>` or `<case> #<n>`).
 * ports: { wiremock, mock } answer the requests; { wiremockAdmin, mockAdmin } take the mappings.
 */
export async function runTemplateCases(dir, ports) {
  const out = [];
  const cases = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.mapping.json'))
    .map((f) => f.slice(0, -'.mapping.json'.length))
    .sort();
  for (const name of cases) {
    const mapping = JSON.parse(fs.readFileSync(path.join(dir, `${name}.mapping.json`), 'utf8'));
    const requests = JSON.parse(fs.readFileSync(path.join(dir, `${name}.requests.json`), 'utf8'));
    await admin(ports.wiremockAdmin, 'POST', '/__admin/mappings', mapping);
    await admin(ports.mockAdmin, 'POST', '/__admin/mappings', mapping);
    try {
      for (const [i, r] of requests.entries()) {
        const wm = unport(await send(ports.wiremock, r), ports.wiremock);
        const mk = unport(await send(ports.mock, r), ports.mock);
        const request = {
          part: 'templates',
          name: requests.length === 1 ? name : `${name} #${i + 1}`,
          method: r.method ?? 'GET',
          path: r.url,
        };
        out.push({ request, wiremock: wm, mock: mk });
      }
    } finally {
      await admin(ports.wiremockAdmin, 'POST', '/__admin/mappings/reset');
      await admin(ports.mockAdmin, 'POST', '/__admin/mappings/reset');
    }
  }
  return out;
}
