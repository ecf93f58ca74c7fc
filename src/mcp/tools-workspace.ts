// The tools that read and edit the workspace on disk, each one the command a user would type, run with
// `--format json`: describe and validate it, explain a request (`get --why`), test a rule (`match-test`), add or
// change a rule (`set rule`), add a file, import from another format (`--init --from`, a dry run by default).
import * as z from 'zod/v4';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ArgvBuilder } from './argv.js';
import { INSIDE_MESSAGES, insideWorkspace } from './inside.js';
import type { McpPort } from './port.js';
import { cliAnswer, envelopeAnswer, errorAnswer, type ToolAnswer } from './result.js';

const config = z.string().optional().describe('the root config, relative to the workspace (default ./mock.toml)');
const requestShape = {
  method: z.string().optional().describe('HTTP method (default GET)'),
  headers: z.record(z.string(), z.string()).optional().describe('request headers, name to value'),
  json_body: z.string().optional().describe('the request body as JSON text (sent as application/json)'),
  body_text: z.string().optional().describe('the request body as plain text'),
  state: z
    .record(z.string(), z.string())
    .optional()
    .describe('scenario states to answer from, scenario to state (as `--state cart=paid`)'),
};

type RequestArgs = {
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  json_body?: string | undefined;
  body_text?: string | undefined;
  state?: Record<string, string> | undefined;
};

function withRequest(b: ArgvBuilder, a: RequestArgs): ArgvBuilder {
  return b
    .flag('--method', a.method)
    .pairs('--header', a.headers, ': ')
    .flag('--body', a.json_body)
    .flag('--body-text', a.body_text)
    .pairs('--state', a.state);
}

async function runBuilt(port: McpPort, b: ArgvBuilder): Promise<ToolAnswer> {
  if (b.outside !== undefined) return errorAnswer(port.version, 'usage', b.outside);
  return cliAnswer(port.version, await port.runCli(b.argv));
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export function registerWorkspaceTools(server: McpServer, port: McpPort): void {
  server.registerTool(
    'describe_workspace',
    {
      title: 'Describe the workspace',
      description:
        'The workspace as the server would load it: root config, rule sets (file, prefix, strategy, rule count), middleware scripts, the fallback directory and the files in it, collections and scenarios (with the states rules read and set). Start here.',
      inputSchema: { config },
      annotations: READ_ONLY,
    },
    async (a) => {
      if (a.config !== undefined && insideWorkspace(port.cwd, a.config) === undefined)
        return errorAnswer(port.version, 'usage', INSIDE_MESSAGES.outside('config', a.config, port.cwd));
      return envelopeAnswer(await port.describe(a.config));
    },
  );
  server.registerTool(
    'validate',
    {
      title: 'Validate the workspace',
      description:
        '`mock validate --format json`: load every config, rule set, script and answer file without serving; diagnostics with file, line and column, and warnings about rules that can never answer.',
      inputSchema: { config, strict: z.boolean().optional().describe('treat warnings as failures') },
      annotations: READ_ONLY,
    },
    async (a) =>
      runBuilt(
        port,
        new ArgvBuilder(port.cwd, ['validate', '--format', 'json'])
          .path('--config', a.config)
          .bool('--strict', a.strict),
      ),
  );
  server.registerTool(
    'explain_request',
    {
      title: 'Explain a request',
      description:
        '`mock get <path> --why --format json`: what the server would answer to this request, which stage and rule answered, why the others did not, and the `set rule` command that edits the rule. Answers from disk: a running server may differ by its overrides and scenario states.',
      inputSchema: {
        path: z.string().describe('the request path with its query, e.g. /api/users?page=2'),
        ...requestShape,
        config,
      },
      annotations: READ_ONLY,
    },
    async (a) =>
      runBuilt(
        port,
        withRequest(new ArgvBuilder(port.cwd, ['get', a.path, '--why', '--format', 'json']), a).path(
          '--config',
          a.config,
        ),
      ),
  );
  server.registerTool(
    'match_test',
    {
      title: 'Test a rule set against a request',
      description:
        '`mock match-test --format json`: check a request against one rule set, condition by condition; `matched` says whether a rule answered.',
      inputSchema: {
        rule_set: z.string().describe('the rule-set file, relative to the workspace'),
        path: z.string().describe('the request path'),
        // 0-based like every rule argument here and `rule_index` in the envelopes (the command's --rule is 1-based)
        rule: z.number().int().min(0).optional().describe('check only this rule (0-based, as `rule_index`)'),
        ...requestShape,
      },
      annotations: READ_ONLY,
    },
    async (a) =>
      runBuilt(
        port,
        withRequest(
          new ArgvBuilder(port.cwd, ['match-test', '--format', 'json'])
            .path('--rule-set', a.rule_set)
            .flag('--path', a.path),
          a,
        ).flag('--rule', a.rule === undefined ? undefined : a.rule + 1),
      ),
  );
}
