// WireMock's admin API (`/__admin/...`) on the management listener, for the tests of a WireMock user
// (`wiremock-captain`, `wiremock-rest-client`, plain HTTP): stubs are shared runtime overrides made from the mapping
// by the import's translation (wiremock-mapping.ts), requests are the journal's entries (wiremock-journal.ts),
// scenarios are the state store's, resets are the runtime's. Answers are WireMock's JSON, not the CLI envelope.
// What maps to what, and what is not served: docs/coming-from-wiremock.md.
import { scenarioKeys } from '../import/wiremock.js';
import type { Route, RouteContext } from '../inspector/router.js';
import type { Entry } from '../journal/entry.js';
import { MockError } from '../model/errors.js';
import { crypto } from '../shared/lazy-crypto.js';
import { loadEngine } from '../templates/index.js';
import {
  compilePattern,
  entryIdOf,
  entryUuid,
  loggedRequest,
  overrideIdOf,
  serveEvent,
  valueTest,
  wasMatched,
} from './wiremock-journal.js';
import { bodyOf, refuse, route, send, STARTED, UUID, WIREMOCK_MESSAGES } from './wiremock-http.js';
import { isObj, translateMapping, type Obj } from './wiremock-mapping.js';

/** What the admin API needs of the running mock (launch/management.ts makes it). */
export interface WireMockAdminPort {
  readonly version: string;
  /** adds shared overrides (rules in the rule-set shape) and returns their ids; throws MockError for bad rules */
  use(rules: readonly unknown[]): readonly number[];
  removeOverride(id: number): boolean;
  /** the ids of the overrides alive now (a reset elsewhere may have removed ours) */
  overrideIds(): ReadonlySet<number>;
  /** the journal's entries, oldest first */
  requests(): readonly Entry[];
  resetJournal(): void;
  scenarioState(key: string): string;
  setScenario(key: string, state: string): void;
  resetScenarios(): void;
  /** everything: journal, overrides, scenarios, collections, counters */
  resetAll(): void;
}

interface Held {
  readonly id: string;
  /** as WireMock echoes it: the posted mapping with `id` and `uuid` */
  readonly mapping: Obj;
  readonly overrides: readonly number[];
}

export class WireMockAdmin {
  /** insertion order; listed newest first, as WireMock lists */
  private readonly held = new Map<string, Held>();
  private readonly byOverride = new Map<number, string>();
  /** journal entries removed one by one (the journal itself keeps them) */
  private readonly hidden = new Set<number>();
  private settings: Obj = {};
  private readonly started = Date.now();

  constructor(private readonly port: WireMockAdminPort) {}

  /** the stubs still alive, oldest first */
  private stubs(): Held[] {
    const alive = this.port.overrideIds();
    for (const [id, h] of this.held)
      if (!h.overrides.every((o) => alive.has(o))) {
        this.held.delete(id);
        for (const o of h.overrides) this.byOverride.delete(o);
      }
    return [...this.held.values()];
  }

  private drop(id: string): boolean {
    const h = this.held.get(id);
    if (h === undefined) return false;
    for (const o of h.overrides) {
      this.port.removeOverride(o);
      this.byOverride.delete(o);
    }
    this.held.delete(id);
    return true;
  }

  private dropAll(): void {
    for (const id of [...this.held.keys()]) this.drop(id);
  }

  /** translate and add one mapping; an error names why (nothing is added then) */
  private async add(mapping: unknown, forceId?: string): Promise<Held | string> {
    const t = translateMapping(mapping);
    if (!t.ok) return t.error;
    // a templated override is compiled as it is added: the engine must be there
    if (t.value.templated) await loadEngine();
    const m = mapping as Obj;
    const given = forceId ?? (typeof m['id'] === 'string' ? m['id'] : typeof m['uuid'] === 'string' ? m['uuid'] : '');
    const id = given !== '' ? given : crypto().randomUUID();
    let overrides: readonly number[];
    try {
      overrides = this.port.use(t.value.rules);
    } catch (e) {
      if (e instanceof MockError) return e.message;
      throw e;
    }
    if (this.held.has(id)) this.drop(id);
    const { id: _id, uuid: _uuid, ...rest } = m;
    const held: Held = { id, mapping: { id, ...rest, uuid: id }, overrides };
    this.held.set(id, held);
    for (const o of overrides) this.byOverride.set(o, id);
    return held;
  }

  private entries(): Entry[] {
    return this.port
      .requests()
      .filter((e) => !this.hidden.has(e.id))
      .reverse();
  }

  private event(e: Entry): Obj {
    const o = overrideIdOf(e);
    const stub = o === undefined ? undefined : this.held.get(this.byOverride.get(o) ?? '');
    return serveEvent(e, stub?.mapping);
  }

  private scenarios(): Obj[] {
    const byName = new Map<string, { states: Set<string>; mappings: Obj[] }>();
    for (const h of this.stubs()) {
      const name = h.mapping['scenarioName'];
      if (typeof name !== 'string') continue;
      const s = byName.get(name) ?? { states: new Set<string>([STARTED]), mappings: [] };
      for (const k of ['requiredScenarioState', 'newScenarioState'])
        if (typeof h.mapping[k] === 'string') s.states.add(h.mapping[k]);
      s.mappings.push(h.mapping);
      byName.set(name, s);
    }
    const keys = scenarioKeys([...byName.keys()]);
    return [...byName].map(([name, s]) => {
      const state = this.port.scenarioState(keys.get(name)!);
      return {
        id: name,
        name,
        state: state === 'started' ? STARTED : state,
        possibleStates: [...s.states].sort(),
        mappings: s.mappings,
      };
    });
  }

  routes(): Route[] {
    return [...this.mappingRoutes(), ...this.requestRoutes(), ...this.otherRoutes()];
  }

  private mappingRoutes(): Route[] {
    const list = (ctx: RouteContext, stubs: readonly Held[]): 'handled' =>
      send(ctx, 200, { mappings: [...stubs].reverse().map((h) => h.mapping), meta: { total: stubs.length } });
    return [
      route('GET', '/mappings', (ctx) => list(ctx, this.stubs())),
      route('POST', '/mappings', async (ctx) => {
        const body = await bodyOf(ctx);
        if (!body.ok) return refuse(ctx, 422, WIREMOCK_MESSAGES.badJson(body.why));
        const held = await this.add(body.value);
        return typeof held === 'string' ? refuse(ctx, 422, held) : send(ctx, 201, held.mapping);
      }),
      route('DELETE', '/mappings', (ctx) => {
        this.dropAll();
        return send(ctx, 200, {});
      }),
      route('POST', '/mappings/reset', (ctx) => {
        this.dropAll();
        return send(ctx, 200, {});
      }),
      // the stubs live as long as the server: there is no mappings folder to write them to
      route('POST', '/mappings/save', (ctx) => send(ctx, 200, {})),
      route('POST', '/mappings/import', (ctx) => this.importMappings(ctx)),
      route('POST', '/mappings/find-by-metadata', async (ctx) => {
        const test = await this.metadataTest(ctx);
        return typeof test === 'string' ? test : list(ctx, this.stubs().filter(test));
      }),
      route('POST', '/mappings/remove-by-metadata', async (ctx) => {
        const test = await this.metadataTest(ctx);
        if (typeof test === 'string') return test;
        for (const h of this.stubs().filter(test)) this.drop(h.id);
        return send(ctx, 200, {});
      }),
      route('GET', `/mappings/${UUID}`, (ctx) => {
        const h = this.stubs().find((s) => s.id === ctx.params[0]);
        return h === undefined ? send(ctx, 404) : send(ctx, 200, h.mapping);
      }),
      route('PUT', `/mappings/${UUID}`, async (ctx) => {
        const id = ctx.params[0]!;
        if (!this.stubs().some((s) => s.id === id)) return send(ctx, 404);
        const body = await bodyOf(ctx);
        if (!body.ok) return refuse(ctx, 422, WIREMOCK_MESSAGES.badJson(body.why));
        const held = await this.add(body.value, id);
        return typeof held === 'string' ? refuse(ctx, 422, held) : send(ctx, 200, held.mapping);
      }),
      route('DELETE', `/mappings/${UUID}`, (ctx) => (this.drop(ctx.params[0]!) ? send(ctx, 200, {}) : send(ctx, 404))),
    ];
  }

  /** `{mappings: [...], importOptions?: {duplicatePolicy: OVERWRITE|IGNORE, deleteAllNotInImport}}`, all or none */
  private async importMappings(ctx: RouteContext): Promise<'handled'> {
    const body = await bodyOf(ctx);
    if (!body.ok) return refuse(ctx, 422, WIREMOCK_MESSAGES.badJson(body.why));
    const o = isObj(body.value) ? body.value : {};
    const list = Array.isArray(o['mappings']) ? (o['mappings'] as unknown[]) : [];
    const opts = isObj(o['importOptions']) ? o['importOptions'] : {};
    for (const [i, m] of list.entries()) {
      const t = translateMapping(m);
      if (!t.ok) return refuse(ctx, 422, `mappings[${i}]: ${t.error}`);
    }
    if (opts['deleteAllNotInImport'] === true) this.dropAll();
    for (const m of list) {
      const id = isObj(m) && typeof m['id'] === 'string' ? m['id'] : undefined;
      if (id !== undefined && opts['duplicatePolicy'] === 'IGNORE' && this.held.has(id)) continue;
      const held = await this.add(m);
      if (typeof held === 'string') return refuse(ctx, 422, held);
    }
    return send(ctx, 200, {});
  }

  private async metadataTest(ctx: RouteContext): Promise<((h: Held) => boolean) | 'handled'> {
    const body = await bodyOf(ctx);
    if (!body.ok) return refuse(ctx, 422, WIREMOCK_MESSAGES.badJson(body.why));
    const t = valueTest(body.value);
    if (typeof t === 'string') return refuse(ctx, 422, t);
    return (h) => h.mapping['metadata'] !== undefined && t(JSON.stringify(h.mapping['metadata']));
  }

  private requestRoutes(): Route[] {
    const withPattern = async (ctx: RouteContext, then: (matching: Entry[]) => 'handled'): Promise<'handled'> => {
      const body = await bodyOf(ctx);
      if (!body.ok) return refuse(ctx, 422, WIREMOCK_MESSAGES.badJson(body.why));
      const test = compilePattern(body.value ?? {});
      if (typeof test === 'string') return refuse(ctx, 422, test);
      return then(this.entries().filter(test));
    };
    const clear = (ctx: RouteContext): 'handled' => {
      this.port.resetJournal();
      this.hidden.clear();
      return send(ctx, 200, {});
    };
    return [
      route('GET', '/requests', (ctx) => {
        const all = this.entries();
        const limit = Number(ctx.url.searchParams.get('limit') ?? NaN);
        const shown = Number.isInteger(limit) && limit >= 0 ? all.slice(0, limit) : all;
        return send(ctx, 200, {
          requests: shown.map((e) => this.event(e)),
          meta: { total: all.length },
          requestJournalDisabled: false,
        });
      }),
      route('DELETE', '/requests', clear),
      route('POST', '/requests/reset', clear),
      route('POST', '/requests/count', (ctx) =>
        withPattern(ctx, (m) => send(ctx, 200, { count: m.length, requestJournalDisabled: false })),
      ),
      route('POST', '/requests/find', (ctx) =>
        withPattern(ctx, (m) => send(ctx, 200, { requests: m.map(loggedRequest), requestJournalDisabled: false })),
      ),
      route('POST', '/requests/remove', (ctx) =>
        withPattern(ctx, (m) => {
          for (const e of m) this.hidden.add(e.id);
          return send(ctx, 200, { serveEvents: m.map((e) => this.event(e)) });
        }),
      ),
      route('GET', '/requests/unmatched', (ctx) =>
        send(ctx, 200, {
          requests: this.entries()
            .filter((e) => !wasMatched(e))
            .map(loggedRequest),
          requestJournalDisabled: false,
        }),
      ),
      route('GET', '/requests/unmatched/near-misses', (ctx) => send(ctx, 200, { nearMisses: this.nearMisses() })),
      route('GET', `/requests/${UUID}`, (ctx) => {
        const id = entryIdOf(ctx.params[0]!);
        const e = this.entries().find((x) => x.id === id);
        return e === undefined ? send(ctx, 404) : send(ctx, 200, this.event(e));
      }),
      route('DELETE', `/requests/${UUID}`, (ctx) => {
        const id = entryIdOf(ctx.params[0]!);
        if (id !== undefined) this.hidden.add(id);
        return send(ctx, 200, {});
      }),
    ];
  }

  /** each unmatched request with the stub closest to it: the one whose URL shares the longest start with it */
  private nearMisses(): Obj[] {
    const stubs = this.stubs();
    return this.entries()
      .filter((e) => !wasMatched(e))
      .map((e) => {
        let best: { stub: Held; distance: number } | undefined;
        for (const s of stubs) {
          const req = isObj(s.mapping['request']) ? s.mapping['request'] : {};
          const given = req['url'] ?? req['urlPath'] ?? req['urlPattern'] ?? req['urlPathPattern'];
          const url = typeof given === 'string' ? given : '';
          let same = 0;
          while (same < url.length && url[same] === e.request.target[same]) same++;
          const distance = 1 - same / Math.max(url.length, e.request.target.length, 1);
          if (best === undefined || distance < best.distance) best = { stub: s, distance };
        }
        return {
          request: loggedRequest(e),
          ...(best === undefined
            ? {}
            : { stubMapping: best.stub.mapping, matchResult: { distance: Number(best.distance.toFixed(3)) } }),
        };
      });
  }

  private otherRoutes(): Route[] {
    const resetScenarios = (ctx: RouteContext): 'handled' => {
      this.port.resetScenarios();
      return send(ctx, 200, {});
    };
    const saveSettings = async (ctx: RouteContext): Promise<'handled'> => {
      const body = await bodyOf(ctx);
      if (!body.ok) return refuse(ctx, 422, WIREMOCK_MESSAGES.badJson(body.why));
      if (isObj(body.value)) this.settings = { ...this.settings, ...body.value };
      return send(ctx, 200, {});
    };
    return [
      route('GET', '/scenarios', (ctx) => send(ctx, 200, { scenarios: this.scenarios() })),
      route('POST', '/scenarios/reset', resetScenarios),
      route('PUT', '/scenarios/([^/]+)/state', async (ctx) => {
        const name = ctx.params[0]!;
        const s = this.scenarios().find((x) => x['name'] === name);
        if (s === undefined) return refuse(ctx, 404, WIREMOCK_MESSAGES.noScenario(name));
        const body = await bodyOf(ctx);
        if (!body.ok) return refuse(ctx, 422, WIREMOCK_MESSAGES.badJson(body.why));
        const want = isObj(body.value) && typeof body.value['state'] === 'string' ? body.value['state'] : STARTED;
        if (!(s['possibleStates'] as string[]).includes(want))
          return refuse(ctx, 400, `Scenario ${name} does not support state ${want}`);
        this.port.setScenario(scenarioKeys([name]).get(name)!, want === STARTED ? 'started' : want);
        return send(ctx, 200, {});
      }),
      route('POST', '/reset', (ctx) => {
        this.port.resetAll();
        this.held.clear();
        this.byOverride.clear();
        this.hidden.clear();
        return send(ctx, 200, {});
      }),
      route('GET', '/settings', (ctx) => send(ctx, 200, { settings: this.settings })),
      route('POST', '/settings', saveSettings),
      route('PUT', '/settings', saveSettings),
      route('GET', '/health', (ctx) =>
        send(ctx, 200, {
          status: 'healthy',
          message: 'mock is ok',
          version: this.port.version,
          uptimeInSeconds: Math.floor((Date.now() - this.started) / 1000),
          timestamp: new Date().toISOString(),
        }),
      ),
      route('GET', '/version', (ctx) => send(ctx, 200, { version: this.port.version })),
      route('POST', '/shutdown', (ctx) => refuse(ctx, 403, WIREMOCK_MESSAGES.shutdown)),
    ];
  }
}

/** The routes of WireMock's admin API over a running mock. */
export function wiremockAdminRoutes(port: WireMockAdminPort): Route[] {
  return new WireMockAdmin(port).routes();
}

export { entryUuid };
