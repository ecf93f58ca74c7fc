// Overrides and sessions over HTTP (docs/library.md#over-http), under the listener's security checks like every
// route here (router.ts runs them first):
//
//   GET    /__mock/api/overrides[?session=<id>]  → {sessions, overrides: [{id, session?, once, rule, added_at}]}
//   POST   /__mock/api/overrides                 → 201 {added: [...]}; body {rules: [rule, …], once?, session?}
//                                                   (a rule in the rule-set shape; 400 names each problem by key path)
//   DELETE /__mock/api/overrides[?session=<id>]  → {removed: n}: the shared ones, or that session's
//   DELETE /__mock/api/overrides/<id>            → {removed: 1} (404 when there is none)
//   GET    /__mock/api/sessions                  → {sessions: [id, …]} (least recently used first)
//   DELETE /__mock/api/sessions/<id>             → {closed: boolean}
//
// Nothing here is written to disk: that is the rules POST's (rules.ts), which runs `set rule`.
import type { RequestFilter } from '../journal/filter.js';
import { MockError } from '../model/errors.js';
import { failure, result, type JsonAnswer, type Wire } from './envelope.js';
import type { Route, RouteContext } from './router.js';

export interface OverrideView {
  readonly id: number;
  readonly session?: string;
  readonly once: boolean;
  readonly rule: unknown;
  readonly addedAt: Date;
}

/** What the routes need of the running mock (launch/runtime.ts's RuntimeControl). */
export interface RuntimePort {
  sessionsOn(): boolean;
  /** throws MockError 'usage' (with diagnostics) for rules that do not decode */
  use(rules: readonly unknown[], opts: { once?: boolean; session?: string }): readonly OverrideView[];
  overrides(session?: string): readonly OverrideView[];
  resetOverrides(session?: string): number;
  removeOverride(id: number): boolean;
  sessions(): readonly string[];
  closeSession(id: string): boolean;
  reset(session?: string): void;
  viewFilter(session: string | undefined, filter: RequestFilter): RequestFilter;
}

export const RUNTIME_ROUTES = {
  overrides: '/__mock/api/overrides',
  sessions: '/__mock/api/sessions',
} as const;

export const RUNTIME_ROUTE_MESSAGES = {
  body: 'the overrides body must be a JSON object: {"rules": [rule, …], "once"?: boolean, "session"?: string}',
  unknownKey: (key: string) => `unknown key '${key}' in the overrides body (allowed: rules, once, session)`,
  noOverride: (id: string) => `no active override ${id}`,
  query: (name: string) => `unknown parameter '${name}' (expected: session)`,
} as const;

export function overrideToWire(o: OverrideView): Wire {
  return {
    id: o.id,
    ...(o.session !== undefined ? { session: o.session } : {}),
    once: o.once,
    rule: toWire(o.rule),
    added_at: o.addedAt.toISOString(),
  };
}

function toWire(v: unknown): Wire {
  try {
    return JSON.parse(JSON.stringify(v) ?? 'null') as Wire;
  } catch {
    return null;
  }
}

/** `?session=<id>` and nothing else */
function sessionParam(ctx: RouteContext): { ok: true; session?: string } | { ok: false; answer: JsonAnswer } {
  let session: string | undefined;
  for (const [name, value] of ctx.url.searchParams) {
    if (name !== 'session') return { ok: false, answer: failure('usage', RUNTIME_ROUTE_MESSAGES.query(name)) };
    session = value;
  }
  return session === undefined || session === '' ? { ok: true } : { ok: true, session };
}

function caught(e: unknown): JsonAnswer {
  if (e instanceof MockError) return failure(e.kind, e.message, e.diagnostics.length > 0 ? e.diagnostics : undefined);
  throw e;
}

export function runtimeRoutes(port: RuntimePort): Route[] {
  const overrideById = new RegExp(`^${RUNTIME_ROUTES.overrides.replaceAll('/', '\\/')}\\/([^/]+)$`);
  const sessionById = new RegExp(`^${RUNTIME_ROUTES.sessions.replaceAll('/', '\\/')}\\/([^/]+)$`);
  return [
    {
      method: 'GET',
      path: RUNTIME_ROUTES.overrides,
      handle: (ctx) => {
        const q = sessionParam(ctx);
        if (!q.ok) return q.answer;
        return result({ sessions: port.sessionsOn(), overrides: port.overrides(q.session).map(overrideToWire) });
      },
    },
    {
      method: 'POST',
      path: RUNTIME_ROUTES.overrides,
      handle: async (ctx) => {
        const body = await ctx.body();
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          return failure('usage', RUNTIME_ROUTE_MESSAGES.body);
        const o = body as Record<string, unknown>;
        for (const key of Object.keys(o))
          if (!['rules', 'once', 'session'].includes(key))
            return failure('usage', RUNTIME_ROUTE_MESSAGES.unknownKey(key));
        if (o['session'] !== undefined && (typeof o['session'] !== 'string' || o['session'] === ''))
          return failure('usage', RUNTIME_ROUTE_MESSAGES.body);
        try {
          const added = port.use(Array.isArray(o['rules']) ? o['rules'] : (o['rules'] as unknown[]), {
            ...(o['once'] !== undefined ? { once: o['once'] as boolean } : {}),
            ...(typeof o['session'] === 'string' ? { session: o['session'] } : {}),
          });
          return result({ added: added.map(overrideToWire) }, 201);
        } catch (e) {
          return caught(e);
        }
      },
    },
    {
      method: 'DELETE',
      path: RUNTIME_ROUTES.overrides,
      handle: (ctx) => {
        const q = sessionParam(ctx);
        if (!q.ok) return q.answer;
        try {
          return result({ removed: port.resetOverrides(q.session) });
        } catch (e) {
          return caught(e);
        }
      },
    },
    {
      method: 'DELETE',
      path: overrideById,
      handle: (ctx) => {
        const raw = ctx.params[0] ?? '';
        const id = /^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : NaN;
        if (!port.removeOverride(id)) return failure('usage', RUNTIME_ROUTE_MESSAGES.noOverride(raw), undefined, 404);
        return result({ removed: 1 });
      },
    },
    {
      method: 'GET',
      path: RUNTIME_ROUTES.sessions,
      handle: () => result({ sessions_on: port.sessionsOn(), sessions: [...port.sessions()] }),
    },
    {
      method: 'DELETE',
      path: sessionById,
      handle: (ctx) => {
        try {
          return result({ closed: port.closeSession(ctx.params[0] ?? '') });
        } catch (e) {
          return caught(e);
        }
      },
    },
  ];
}
