// The tools that talk to a running server through its management listener (`mock --inspect`, with
// `--inspect-token` when it has one): read and filter the request journal, wait for a request, add and remove
// overrides, set scenarios, reset. Each answers the listener's own envelope (the CLI's, docs/output.md).
import * as z from 'zod/v4';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { successEnvelope } from '../model/envelope.js';
import type { ManagementAnswer, McpPort } from './port.js';
import { envelopeAnswer, errorAnswer, type ToolAnswer } from './result.js';

export const RUNNING_MESSAGES = {
  noServer:
    'no running server is known: start it with `mock --inspect` and give `mock mcp --inspect-url http://127.0.0.1:<port>` (and --inspect-token or MOCK_INSPECT_TOKEN when it has one)',
  unreachable: (url: string, reason: string) => `the management listener at ${url} does not answer: ${reason}`,
  timeout: (ms: number) => `no matching request arrived within ${ms} ms`,
} as const;

const FILTER_SHAPE = {
  path: z.string().optional().describe('exact request path'),
  path_regex: z.string().optional().describe('request path pattern (RE2 syntax)'),
  method: z.string().optional(),
  since: z.string().optional().describe('only entries after this entry id, or since this ISO 8601 time'),
  stage: z.string().optional().describe('the stage that answered: rule_set, middleware, fallback, override, …'),
  rule_set: z.string().optional().describe('answered by this rule set (0-based index or file)'),
  rule: z.number().int().min(0).optional().describe('and this rule (0-based), with rule_set'),
  limit: z.number().int().min(1).optional(),
  session: z.string().optional().describe("one session's view"),
};
type Filter = { [K in keyof typeof FILTER_SHAPE]?: z.infer<(typeof FILTER_SHAPE)[K]> };

function query(f: Filter): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
}

const WAIT_DEFAULT_MS = 10_000;
const WAIT_MAX_MS = 120_000;
const POLL_MS = 100;

/** 204 (a reset, a cleared journal) has no body: answered as `{result: {<what>: true}}` in the same envelope. */
function answerOf(port: McpPort, a: ManagementAnswer, what: string): ToolAnswer {
  if (a.text.trim() === '') return envelopeAnswer(successEnvelope(port.version, { [what]: a.status < 300 }));
  return envelopeAnswer(JSON.stringify(JSON.parse(a.text), null, 2) + '\n');
}

export function registerRunningTools(server: McpServer, port: McpPort): void {
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    what: string,
    body?: unknown,
  ): Promise<ToolAnswer> => {
    const m = port.management;
    if (m === undefined) return errorAnswer(port.version, 'usage', RUNNING_MESSAGES.noServer);
    try {
      return answerOf(port, await m.call(method, path, body), what);
    } catch (e) {
      return errorAnswer(
        port.version,
        'io',
        RUNNING_MESSAGES.unreachable(m.url, e instanceof Error ? e.message : String(e)),
      );
    }
  };
  const WRITE = { readOnlyHint: false, idempotentHint: false, openWorldHint: false };
  server.registerTool(
    'list_requests',
    {
      title: 'Read the request journal',
      description:
        "The running server's journal, oldest first, filtered: each request, its answer and why (stage, rule set, rule); `last_id` to pass as `since` next time.",
      inputSchema: FILTER_SHAPE,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (f) => call('GET', `/__mock/api/requests${query(f)}`, 'requests'),
  );
  server.registerTool(
    'wait_for_request',
    {
      title: 'Wait for a request',
      description:
        'Wait until the running server has journaled a request matching the filter (one already journaled counts; pass `since` for only newer ones) and answer the journal page with it; an error after timeout_ms.',
      inputSchema: {
        ...FILTER_SHAPE,
        timeout_ms: z.number().int().min(1).max(WAIT_MAX_MS).optional().describe(`default ${WAIT_DEFAULT_MS}`),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ timeout_ms, ...f }) => {
      const limitMs = timeout_ms ?? WAIT_DEFAULT_MS;
      const until = Date.now() + limitMs;
      // bounded: one journal read per POLL_MS until the deadline
      for (;;) {
        const answer = await call('GET', `/__mock/api/requests${query(f)}`, 'requests');
        const result = answer.structuredContent?.['result'] as { entries?: unknown[] } | undefined;
        if (answer.isError === true || (result?.entries?.length ?? 0) > 0) return answer;
        if (Date.now() >= until) return errorAnswer(port.version, 'conflict', RUNNING_MESSAGES.timeout(limitMs));
        await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, until - Date.now()))));
      }
    },
  );
  server.registerTool(
    'list_overrides',
    {
      title: 'List overrides',
      description: "The running server's overrides (rules layered before the workspace's, nothing on disk).",
      inputSchema: { session: z.string().optional() },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (a) => call('GET', `/__mock/api/overrides${query(a)}`, 'overrides'),
  );
  server.registerTool(
    'add_override',
    {
      title: 'Add overrides',
      description:
        'Layer rules before the workspace on the running server, without writing anything to disk: each rule in the rule-set shape, e.g. {"when": {"request": {"url_path": "/api/user"}}, "respond": {"status": 503}}. `once`: answer one request, then go.',
      inputSchema: {
        rules: z.array(z.record(z.string(), z.unknown())).min(1),
        once: z.boolean().optional(),
        session: z.string().optional(),
      },
      annotations: { ...WRITE, destructiveHint: false },
    },
    async (a) => call('POST', '/__mock/api/overrides', 'added', a),
  );
  server.registerTool(
    'remove_overrides',
    {
      title: 'Remove overrides',
      description: 'Remove one override by id, or every shared override (or every one of a session).',
      inputSchema: { id: z.number().int().min(1).optional(), session: z.string().optional() },
      annotations: { ...WRITE, destructiveHint: true },
    },
    async (a) =>
      a.id !== undefined
        ? call('DELETE', `/__mock/api/overrides/${a.id}`, 'removed')
        : call('DELETE', `/__mock/api/overrides${query({ session: a.session })}`, 'removed'),
  );
  server.registerTool(
    'set_scenario',
    {
      title: 'Set scenario states',
      description:
        'Move scenarios of the running server to the states given, scenario to state ("started" restarts one); answers every scenario and collection size.',
      inputSchema: { scenarios: z.record(z.string(), z.string()) },
      annotations: { ...WRITE, destructiveHint: true },
    },
    async (a) => call('PUT', '/__mock/api/state', 'state', { scenarios: a.scenarios }),
  );
  server.registerTool(
    'reset',
    {
      title: 'Reset the running server',
      description:
        'Clear the journal, round-robin counters, scenario states and collections (and overrides and sessions); a part set to false is kept; `session`: only that session.',
      inputSchema: {
        journal: z.boolean().optional(),
        rotation: z.boolean().optional(),
        state: z.boolean().optional(),
        collections: z.boolean().optional(),
        session: z.string().optional(),
      },
      annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    },
    async (a) => call('POST', '/__mock/api/reset', 'reset', a),
  );
}
