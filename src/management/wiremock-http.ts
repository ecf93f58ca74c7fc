// The admin API's HTTP side: WireMock's JSON answers (not the CLI envelope), its error shape, tolerant JSON bodies
// and the `/__admin` route paths (a trailing `/` accepted, as WireMock does).
import type { Route, RouteContext } from '../inspector/router.js';
import { JSON_HEADERS } from '../inspector/security.js';

export const ADMIN = '/__admin';
export const UUID = '([0-9A-Za-z-]+)';
export const STARTED = 'Started';

export const WIREMOCK_MESSAGES = {
  noMapping: (id: string) => `no stub mapping ${id}`,
  noScenario: (name: string) => `Scenario ${name} does not exist`,
  badJson: (why: string) => `Error parsing JSON: ${why}`,
  shutdown: 'mock is not shut down over its admin API: stop its process',
} as const;

export function send(ctx: RouteContext, status: number, body?: unknown): 'handled' {
  const text = body === undefined ? '' : JSON.stringify(body);
  ctx.res.writeHead(status, { ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(text)) });
  ctx.res.end(ctx.method === 'HEAD' ? undefined : text);
  return 'handled';
}

/** WireMock's error shape */
export function refuse(ctx: RouteContext, status: number, title: string, detail?: string): 'handled' {
  return send(ctx, status, { errors: [{ code: status === 422 ? 10 : status, title, ...(detail ? { detail } : {}) }] });
}

export async function bodyOf(ctx: RouteContext): Promise<{ ok: true; value: unknown } | { ok: false; why: string }> {
  const text = await ctx.text();
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, why: e instanceof Error ? e.message : String(e) };
  }
}

export const route = (method: Route['method'], path: string, handle: Route['handle']): Route => ({
  method,
  path: new RegExp(`^${ADMIN}${path}/?$`),
  handle,
});
