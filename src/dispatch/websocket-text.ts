// The texts of a templated WebSocket conversation (docs/websocket.md): each `send` rendered with the same engine and
// helpers as a response template, over `request` (the upgrade request, as a template's) and `message` (the
// incoming message being answered: `message.text`, and `message.json` when it parses). Compiled once per text.
import type { RequestSnapshot } from '../model/request.js';
import type { Workspace } from '../model/workspace.js';
import { matchTemplate, templateSegments } from '../routing/path-template.js';
import type { Stage } from './types.js';
import type { CompiledTemplate, TemplateData } from '../model/template.js';
import { compileTemplate, loadEngine, templateData, type Handlebars } from '../templates/index.js';

export type WsRender = (
  source: string,
  req: RequestSnapshot,
  params: Readonly<Record<string, string>>,
  message?: string,
) => string;

/** the upgrade's path parameters, when the rule that took it has a `path_template` url_path */
export function wsParams(ws: Workspace, stage: Stage, req: RequestSnapshot): Record<string, string> {
  if (stage.kind !== 'rule_set') return {};
  const rule = ws.ruleSets[stage.ruleSetIndex]?.rules[stage.ruleIndex];
  for (const c of rule?.conditions ?? []) {
    if (c.on === 'url_path' && c.template !== undefined) return matchTemplate(c.template, templateSegments(req)) ?? {};
  }
  return {};
}

let engine: Handlebars | undefined;

/** loads the engine once, then renders synchronously; a text that does not compile is sent as written */
export async function wsRenderer(random: () => number): Promise<WsRender> {
  engine ??= await loadEngine();
  const hb = engine;
  const compiled = new Map<string, CompiledTemplate | undefined>();
  const runtime = { random, now: () => new Date() };
  return (source, req, params, message) => {
    if (!source.includes('{{')) return source;
    let t = compiled.get(source);
    if (!compiled.has(source)) {
      const r = compileTemplate(hb, source, 'text');
      t = r.ok ? r.value : undefined;
      compiled.set(source, t);
    }
    if (t === undefined) return source;
    const data = { ...templateData(req, params), message: messageView(message) } as TemplateData;
    return t.render(data, runtime);
  };
}

function messageView(text: string | undefined): { text: string; json?: unknown } {
  if (text === undefined) return { text: '' };
  try {
    return { text, json: JSON.parse(text) as unknown };
  } catch {
    return { text };
  }
}
