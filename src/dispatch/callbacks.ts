// Planning a rule's callbacks for one answer (docs/callbacks.md): each one's URL, headers and body rendered over the
// request and the answer, its delay drawn, and its host checked, where the URL is built: a URL whose host came from
// a template goes only to a host service.callback_hosts allows (by default loopback and the hosts the config's
// callback URLs name literally), since the config is trusted and the request is not. Nothing is sent here: the
// server edge sends the planned batch after the commit point (callbacks/), and `mock get` never does.
import type { CallbackBatch, CallbackSpec, PlannedCallback } from '../model/callback.js';
import type { TemplateData, TemplateRuntime, TemplateSlot } from '../model/template.js';
import type { Rule } from '../model/rule-set.js';
import type { Workspace } from '../model/workspace.js';
import { getHeader, type HeaderList } from '../shared/headers.js';
import { setScenarios } from '../state/scenarios.js';
import { undecoded } from '../start-up/lazy-rule-set.js';
import { fakerIfLoaded, headerValue, jsonProblem, templateData } from '../templates/index.js';
import type { Draft } from './finalize.js';
import { sampleDelay } from './pace.js';
import { paramsOf } from './templated.js';
import { decoder, encoder, renderCompiled, TemplateFailure } from './templated-render.js';
import type { DispatchCtx } from './types.js';
import { workspaceRandom } from './workspace-random.js';

/** The callbacks `rule`'s answer `draft` makes for this request. */
export function planCallbacks(
  ctx: DispatchCtx,
  rule: Rule,
  specs: readonly CallbackSpec[],
  draft: Draft,
): CallbackBatch {
  const { ws, req, env } = ctx;
  let data: TemplateData | undefined;
  let runtime: TemplateRuntime | undefined;
  const view = (): { data: TemplateData; runtime: TemplateRuntime } => {
    data ??= { request: templateData(req, paramsOf(rule, req)).request, response: responseView(draft) } as TemplateData;
    runtime ??= { random: workspaceRandom(ws), now: env.now ?? (() => new Date()), faker: fakerIfLoaded() };
    return { data, runtime };
  };
  const draw = env.pace?.uniform(ws) ?? env.random;
  const store = env.state;
  const callbacks = specs.map((spec): PlannedCallback => {
    const base = {
      method: spec.method,
      delayMs: spec.delay === undefined ? 0 : sampleDelay(spec.delay, draw),
      retries: spec.retries,
      retryOn: spec.retryOn,
      retryDelayMs: spec.retryDelayMs,
      timeoutMs: spec.timeoutMs,
      where: spec.where,
      ...(spec.onSuccess === undefined && spec.onFailure === undefined
        ? {}
        : {
            settle: (delivered: boolean) => {
              const moves = delivered ? spec.onSuccess : spec.onFailure;
              if (moves !== undefined) setScenarios(store, moves);
              return moves;
            },
          }),
    };
    try {
      const made = rendered(spec, spec.template === undefined ? undefined : view());
      const refused = hostRefusal(spec, made.url, ws);
      return { ...base, ...made, ...(refused === undefined ? {} : { refused }) };
    } catch (e) {
      if (!(e instanceof TemplateFailure)) throw e;
      return { ...base, url: spec.url, headers: spec.headers, body: NO_BODY, refused: e.message };
    }
  });
  return {
    callbacks,
    trigger: { method: req.method, path: req.path, ...(env.session === undefined ? {} : { session: env.session }) },
  };
}

const NO_BODY = new Uint8Array(0);

/** The URL, headers and body of one callback, rendered when templated; throws TemplateFailure. */
function rendered(
  spec: CallbackSpec,
  v: { data: TemplateData; runtime: TemplateRuntime } | undefined,
): { url: string; headers: HeaderList; body: Uint8Array } {
  const t = spec.template;
  const render = (slot: TemplateSlot | undefined, literal: string): string =>
    slot?.compiled === undefined || v === undefined
      ? literal
      : renderCompiled(slot.compiled, v.data, v.runtime, spec.where);
  const url = render(t?.url, spec.url).trim();
  let headers: HeaderList = spec.headers;
  if (t !== undefined && t.headers.length > 0)
    headers = headers.map(([name, value]) => {
      const slot = t.headers.find(([n]) => n === name)?.[1];
      return slot === undefined ? ([name, value] as const) : ([name, headerValue(render(slot, value))] as const);
    });
  const b = spec.body;
  if (b === undefined) return { url, headers, body: NO_BODY };
  const text = render(t?.body, b.text);
  if (b.kind === 'json' && t?.body !== undefined) {
    const problem = jsonProblem(text);
    if (problem !== undefined) throw new TemplateFailure(`${spec.where}: the rendered json does not parse: ${problem}`);
  }
  if (getHeader(headers, 'content-type') === undefined)
    headers = [...headers, ['content-type', b.kind === 'json' ? 'application/json' : 'text/plain; charset=utf-8']];
  return { url, headers, body: encoder.encode(text) };
}

/** The answer as a callback's template sees it: `response.status`, `response.headers`, `response.body` (JSON parsed). */
function responseView(draft: Draft): { status: number; headers: Record<string, string>; body: unknown } {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  if (draft.contentType !== undefined) headers['content-type'] = draft.contentType;
  for (const [name, value] of draft.headers) headers[name] = value;
  const text = decoder.decode(draft.body);
  let body: unknown = text;
  if (/json/i.test(headers['content-type'] ?? '')) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      // not JSON after all: the text
    }
  }
  return { status: draft.status, headers, body };
}

/** Why a rendered URL may not be called; undefined when it may. */
export function hostRefusal(spec: CallbackSpec, url: string, ws: Workspace): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${spec.where}: the URL ${JSON.stringify(url)} is not an absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `${spec.where}: the URL ${JSON.stringify(url)} is not http:// or https://`;
  // a host the config wrote itself goes where it says
  if (spec.template?.url === undefined) return undefined;
  const host = parsed.hostname.toLowerCase();
  if (spec.literalHost !== undefined && host === spec.literalHost) return undefined;
  if (hostAllowed(host, ws)) return undefined;
  return `${spec.where}: the host ${host} is not allowed (service.callback_hosts)`;
}

/** Whether a host a template made is one callbacks may go to. */
function hostAllowed(host: string, ws: Workspace): boolean {
  const list = ws.config.service.callbackHosts;
  if (list !== undefined) return list.some((entry) => hostMatches(entry.toLowerCase(), host));
  return isLoopback(host) || literalHosts(ws).has(host);
}

function hostMatches(entry: string, host: string): boolean {
  if (entry === '*') return true;
  if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
  return entry === host || (entry.startsWith('[') ? entry : `[${entry}]`) === host;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}

const LITERAL_HOSTS = new WeakMap<Workspace, ReadonlySet<string>>();

/** The hosts the workspace's callback URLs name literally (rule sets not decoded yet are read once they are). */
function literalHosts(ws: Workspace): ReadonlySet<string> {
  const known = LITERAL_HOSTS.get(ws);
  if (known !== undefined) return known;
  const out = new Set<string>();
  let complete = true;
  for (const rs of ws.ruleSets) {
    if (undecoded(rs)) {
      complete = false;
      continue;
    }
    for (const rule of rs.rules)
      for (const c of rule.respond.callbacks ?? []) if (c.literalHost !== undefined) out.add(c.literalHost);
  }
  if (complete) LITERAL_HOSTS.set(ws, out);
  return out;
}
