// The callbacks the answers made, over HTTP (docs/callbacks.md#what-is-recorded), under the listener's security
// checks like every route here:
//
//   GET /__mock/api/callbacks[?url=<text>&state=<state>&request=<journal id>] → {callbacks: [record, …]}
//
// oldest first (the last 1000 finished, then the pending ones); the inspector shows a request's under its entry.
import { callbackFilterOf, type CallbackFilter, type CallbackRecord } from '../callbacks/record.js';
import { failure, result, type Wire } from './envelope.js';
import type { Route } from './router.js';

export const CALLBACKS_ROUTE = '/__mock/api/callbacks';

/** A record in the wire's snake_case. */
export function callbackToWire(r: CallbackRecord): Wire {
  return {
    id: r.id,
    state: r.state,
    ...(r.requestId === undefined ? {} : { request_id: r.requestId }),
    trigger: { ...r.trigger },
    where: r.where,
    request: { method: r.request.method, url: r.request.url, headers: { ...r.request.headers }, body: r.request.body },
    planned_at: r.plannedAt,
    delay_ms: r.delayMs,
    attempts: r.attempts.map((a) => ({
      at: a.at,
      ms: a.ms,
      ...(a.status === undefined ? {} : { status: a.status }),
      ...(a.error === undefined ? {} : { error: a.error }),
    })),
    ...(r.response === undefined
      ? {}
      : { response: { status: r.response.status, headers: { ...r.response.headers }, body: r.response.body } }),
    ...(r.error === undefined ? {} : { error: r.error }),
    ...(r.moved === undefined ? {} : { moved: { ...r.moved } }),
  };
}

export function callbackRoutes(records: (filter: CallbackFilter) => readonly CallbackRecord[]): Route[] {
  return [
    {
      method: 'GET',
      path: CALLBACKS_ROUTE,
      handle: (ctx) => {
        for (const name of ctx.url.searchParams.keys())
          if (!['url', 'state', 'request'].includes(name))
            return failure('usage', `unknown parameter '${name}' (expected: url, state, request)`);
        const filter = callbackFilterOf(ctx.url.searchParams);
        if (typeof filter === 'string') return failure('usage', filter);
        return result({ callbacks: records(filter).map(callbackToWire) });
      },
    },
  ];
}
