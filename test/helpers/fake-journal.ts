// An in-memory stand-in for the request journal's HTTP routes (`/__mock/api/requests…`, docs/library.md), holding
// entries in the journal's wire shape, for testing the inspector page before the real journal is wired in. Each
// added entry is published on the given event hub, as the real listener will do.
import { failure, result, type Wire } from '../../src/inspector/envelope.js';
import { requestEventOf, type EventHub } from '../../src/inspector/events.js';
import type { Route } from '../../src/inspector/router.js';

export type WireEntry = { readonly [key: string]: Wire };

export interface FakeJournal {
  readonly routes: readonly Route[];
  readonly entries: WireEntry[];
  /** stores the entry (its id is assigned) and publishes its request event; returns the id */
  add(entry: Omit<WireEntry, 'id'>): number;
}

/** `hub` is asked for the event hub when an event is published (it may be created after the journal). */
export function fakeJournal(hub: () => EventHub): FakeJournal {
  const entries: WireEntry[] = [];
  let next = 1;
  return {
    entries,
    add(entry) {
      const id = next++;
      const full = { ...entry, id } as WireEntry;
      entries.push(full);
      hub().request(requestEventOf(full));
      return id;
    },
    routes: [
      {
        method: 'GET',
        path: '/__mock/api/requests',
        handle: (ctx) => {
          const since = Number(ctx.url.searchParams.get('since') ?? 0);
          const limit = Number(ctx.url.searchParams.get('limit') ?? 1000);
          const list = entries.filter((e) => (e['id'] as number) > since).slice(-limit);
          return result({ entries: list, last_id: next - 1, dropped: 0 });
        },
      },
      {
        method: 'GET',
        path: /^\/__mock\/api\/requests\/(\d+)$/,
        handle: (ctx) => {
          const e = entries.find((x) => x['id'] === Number(ctx.params[0]));
          return e === undefined ? failure('usage', `no request #${ctx.params[0]}`, undefined, 404) : result(e);
        },
      },
      {
        method: 'DELETE',
        path: '/__mock/api/requests',
        handle: () => {
          entries.splice(0, entries.length);
          hub().reset();
          return { kind: 'empty' };
        },
      },
    ],
  };
}
