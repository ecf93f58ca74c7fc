// The fixture: every test gets its own session id, sent on every request the page makes (extraHTTPHeaders), and a
// `mock` handle on that session over the management listener's HTTP API: `use()` overrides, `requests()` counts,
// and a reset when the test ends. With `service.session_cookie` set, `context.addCookies` would do instead of the
// header, for an app whose own fetches cannot carry it.
import { test as base, expect } from '@playwright/test';

async function api(method, path, body) {
  const r = await fetch(`${process.env.MOCK_API}${path}`, {
    method,
    headers: { 'x-mock-client': 'playwright', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.status === 204 ? undefined : (await r.json()).result;
}

export const test = base.extend({
  session: async ({}, use, testInfo) => {
    await use(`${testInfo.testId}-${testInfo.repeatEachIndex}`);
  },
  extraHTTPHeaders: async ({ session }, use) => {
    await use({ 'x-mock-session': session });
  },
  mock: async ({ session }, use) => {
    const q = `session=${encodeURIComponent(session)}`;
    await use({
      use: (rule, opts = {}) => api('POST', '/overrides', { rules: [rule], session, ...opts }),
      requests: async (path) =>
        (await api('GET', `/requests?${q}${path ? `&path=${encodeURIComponent(path)}` : ''}`)).entries,
    });
    await api('POST', '/reset', { session });
  },
});

/** Wait (bounded) until `n` overrides are active: the tests below meet here, so they really overlap. */
export async function allArrived(n) {
  for (let i = 0; i < 200; i++) {
    if ((await api('GET', '/overrides')).overrides.length >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export { expect };
