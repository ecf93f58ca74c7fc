// `mock get` output (docs/reference/cli.md, docs/output.md): the dispatch Outcome as text or as envelope data.
import type { Outcome, Stage } from '../../dispatch/dispatch.js';
import { matchedToWire, matchedView, stageName } from '../../dispatch/explain-view.js';
import type { Workspace } from '../../model/workspace.js';
import { decodeLossy } from '../../shared/utf8.js';
import { assertNever } from '../../shared/result.js';
import type { Wire } from '../../model/envelope.js';
import { editWithLine } from './edit-with.js';
import { type ShownPaths, whyText, whyWire } from './why.js';

export interface GetView {
  readonly outcome: Outcome;
  readonly ws: Workspace;
  readonly shown: ShownPaths;
  /** upper-case, as sent */
  readonly method: string;
  /** the <path> argument, echoed verbatim */
  readonly path: string;
  /** the `-c` a `set rule` needs to reach the same config; undefined when it is ./mock.toml */
  readonly configArg?: string;
}

/** HEAD gets the GET headers but no body on the wire, so none is shown either. */
function shownBody(view: GetView): string {
  return view.method === 'HEAD' ? '' : decodeLossy(view.outcome.answer.body);
}

/** `date` is left out: it would differ on every run and says nothing about the answer. */
function shownHeaders(view: GetView): readonly (readonly [string, string])[] {
  return view.outcome.answer.headers.filter(([name]) => name.toLowerCase() !== 'date');
}

export function answeredBy(stage: Stage, shown: ShownPaths): string {
  switch (stage.kind) {
    case 'rule_set':
      return `rule set #${stage.ruleSetIndex + 1}, rule #${stage.ruleIndex + 1}`;
    case 'fallback':
    case 'miss':
      return 'fallback directory (no rule set matched)';
    case 'options':
      return 'OPTIONS (handled directly)';
    case 'middleware':
      return `middleware #${stage.index + 1} (${shown.middleware(stage.index)})`;
    case 'prefix_miss':
      return `rule set #${stage.ruleSetIndex + 1} prefix (no rule matched; 404)`;
    case 'bad_request':
      return 'request body is not valid JSON (400)';
    case 'collection':
      return `collection ${stage.path} (${stage.action})`;
    case 'contract':
      return 'the request breaks the API contract (400)';
    case 'override':
      return `runtime override #${stage.id}`;
    default:
      return assertNever(stage, 'stage');
  }
}

export function getText(view: GetView, why: boolean): string {
  const { answer, stage } = view.outcome;
  let out = `${view.method} ${view.path}\n\nStatus: ${answer.status}\nHeaders:\n`;
  for (const [name, value] of shownHeaders(view)) out += `  ${name}: ${value}\n`;
  out += `Body:\n${shownBody(view)}\n\n`;
  out += `Answered: ${answeredBy(stage, view.shown)}\n`;
  const moves = movesText(view.outcome);
  if (moves !== undefined) out += `State: ${moves} (when served; \`mock get\` moves nothing)\n`;
  if (why) {
    out += whyText(view.outcome, view.ws, view.shown, view.path);
    if (stage.kind === 'rule_set')
      out += `\n${editWithLine(view.shown.ruleSet(stage.ruleSetIndex), stage.ruleIndex, view.configArg)}\n`;
  }
  return out;
}

/** `result` of the get envelope, fields in the documented order (docs/output.md); `why` always included. */
export function getResult(
  view: GetView,
  source: { readonly config: string; readonly ruleSets: readonly string[] },
): Wire {
  const { answer, stage } = view.outcome;
  return {
    matched: matchedToWire(matchedView(stage, view.shown)),
    request: { method: view.method, path: view.path },
    response: {
      body: shownBody(view),
      headers: shownHeaders(view).map(([name, value]) => ({ name, value })),
      status: answer.status,
    },
    source: { config: source.config, rule_sets: [...source.ruleSets] },
    stage: stageName(stage),
    ...(view.outcome.state === undefined
      ? {}
      : { state_before: { ...view.outcome.state.before }, state_after: { ...view.outcome.state.after } }),
    why: whyWire(view.outcome, view.ws, view.shown, view.path),
  };
}

/** `cart: started → paid` for each scenario the answer would move (docs/state.md); undefined when it moves none. */
function movesText(outcome: GetView['outcome']): string | undefined {
  const t = outcome.state;
  if (t === undefined) return undefined;
  const moved = Object.keys(t.set).map((name) => `${name}: ${t.before[name] ?? 'started'} \u2192 ${t.set[name]}`);
  return moved.length === 0 ? undefined : moved.join(', ');
}
