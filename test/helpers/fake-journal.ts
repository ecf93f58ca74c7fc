// An in-memory stand-in for the request journal's HTTP routes (`/__mock/api/requests…`), holding entries typed by
// the journal's own wire types (journal/wire-types.ts: a renamed field fails this file's build too), for testing
// the inspector page with entries a test chooses. Each added entry is published on the given event hub, as the
// real program's journal bridge does.
import type { WireEntry, WireEntryList } from '../../src/journal/wire-types.js';
import { failure, result } from '../../src/inspector/envelope.js';
import { requestEventOf, type EventHub } from '../../src/inspector/events.js';
import type { Route } from '../../src/inspector/router.js';

export type { WireEntry };

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
      const full: WireEntry = { ...entry, id };
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
          const list: WireEntryList = {
            entries: entries.filter((e) => e.id > since).slice(-limit),
            last_id: next - 1,
            dropped: 0,
          };
          return result(list);
        },
      },
      {
        method: 'GET',
        path: /^\/__mock\/api\/requests\/(\d+)$/,
        handle: (ctx) => {
          const e = entries.find((x) => x.id === Number(ctx.params[0]));
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
