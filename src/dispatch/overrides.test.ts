// Overrides in dispatch: tried first (before scripts and rule sets), newest first, a session's list before the
// shared one, `once` stepping aside, and the why listing what was checked; without lists, nothing changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memorySource } from '../files/memory-source.js';
import { RotationState } from '../routing/rotation.js';
import { MemoryStore } from '../state/store.js';
import { dispatch, type DispatchEnv, type Outcome } from './dispatch.js';
import { ruleSet, workspace } from './fixtures/workspace.js';
import { OverrideList } from './overrides.js';
import { snapshotFrom } from './snapshot.js';

const ws = workspace([ruleSet(0, '[[rules]]\nwhen.request.url_path = "/cart"\nrespond.text = "workspace"\n')]);
/** rules decoded by the real decoder: the first rule of a one-rule set */
const rule = (text: string) => ruleSet(9, `[[rules]]\nwhen.request.url_path = "/cart"\n${text}\n`).rules[0]!;

let ids = 0;
const counter = { next: () => ++ids };
const env = (overrides?: OverrideList[]): DispatchEnv => ({
  files: memorySource({}),
  rotation: new RotationState(),
  state: new MemoryStore(),
  random: Math.random,
  log: () => {},
  ...(overrides === undefined ? {} : { overrides }),
});
const get = (e: DispatchEnv, explain = false): Promise<Outcome> =>
  Promise.resolve(dispatch(ws, snapshotFrom({ method: 'GET', target: '/cart', headers: [] }), e, { explain }));
const text = (o: Outcome) => `${o.answer.status} ${new TextDecoder().decode(o.answer.body)}`;

test('without overrides the workspace answers; with some, the newest matching one first', async () => {
  assert.equal(text(await get(env())), '200 workspace');
  let changes = 0;
  const shared = new OverrideList(counter, () => changes++);
  const e = env([shared]);
  assert.equal(text(await get(e)), '200 workspace', 'an empty list lets the request through');
  shared.add([{ rule: rule('respond.status = 500'), source: {} }], false, new Date());
  shared.add([{ rule: rule('respond.text = "newest"'), source: {} }], false, new Date());
  assert.equal(changes, 2);
  const o = await get(e);
  assert.equal(text(o), '200 newest');
  assert.equal(o.stage.kind, 'override');
  const other = ruleSet(9, '[[rules]]\nwhen.request.url_path = "/other"\nrespond.status = 418\n').rules[0]!;
  shared.add([{ rule: other, source: {} }], false, new Date());
  assert.equal(text(await get(e)), '200 newest', 'a newer override that does not match steps aside');
});

test("a session's overrides come before the shared ones; once answers once", async () => {
  const shared = new OverrideList(counter, () => {});
  const mine = new OverrideList(counter, () => {}, 's1');
  shared.add([{ rule: rule('respond.text = "shared"'), source: {} }], false, new Date());
  const [once] = mine.add([{ rule: rule('respond.status = 503'), source: {} }], true, new Date());
  const e = env([mine, shared]);
  const first = await get(e, true);
  assert.equal(text(first), '503 ');
  assert.deepEqual(first.stage, { kind: 'override', id: once!.id, session: 's1' });
  assert.deepEqual(
    first.explanation?.overrides?.map((c) => [c.id, c.session, c.check.matched]),
    [[once!.id, 's1', true]],
    'the why lists what was checked, up to the one that answered',
  );
  assert.equal(mine.size, 0, 'the once override is gone');
  assert.equal(text(await get(e)), '200 shared');
});
