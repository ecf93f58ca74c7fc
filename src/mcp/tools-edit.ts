// The tools that write the workspace: `set rule` (the same checks and atomic writes as the command), a new file
// (created, never over an existing one), and an import from another format (`--init --from`, a dry run unless
// `dry_run: false`). Every path they are given must resolve inside the workspace.
import * as z from 'zod/v4';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ArgvBuilder } from './argv.js';
import { INSIDE_MESSAGES, insideWorkspace } from './inside.js';
import type { McpPort } from './port.js';
import { cliAnswer, errorAnswer, type ToolAnswer } from './result.js';

const pairs = (what: string) => z.record(z.string(), z.string()).optional().describe(what);

const SET_RULE_SHAPE = {
  rule_set: z.string().optional().describe('the rule-set file (default ./mock-rule-set.toml, created if absent)'),
  rule: z.number().int().min(0).optional().describe('change this rule (0-based `rule_index`) instead of adding one'),
  path: z.string().optional().describe('url_path, exact'),
  path_template: z.string().optional().describe('url_path as a template, e.g. /users/{id}'),
  method: z.string().optional().describe('method condition, e.g. POST'),
  headers: pairs('header conditions (equal), name to value'),
  query: pairs('query conditions (equal), name to value'),
  cookies: pairs('cookie conditions (equal), name to value'),
  params: pairs('path-template capture conditions, name to value'),
  form: pairs('form-field conditions, name to value'),
  body_contains: z.string().optional().describe('the request body must contain this text'),
  status: z.number().int().min(100).max(999).optional().describe('the answer status'),
  json: z.string().optional().describe('the answer body as JSON text'),
  text: z.string().optional().describe('the answer body as plain text'),
  file: z.string().optional().describe('the answer body from this file, relative to the workspace'),
  template: z.boolean().optional().describe('the body is a response template (Handlebars)'),
  delay: z.number().int().min(0).optional().describe('delay the answer by this many milliseconds'),
  dry_run: z.boolean().optional().describe('show the diff, write nothing'),
  config: z.string().optional().describe('the root config (default ./mock.toml, created if absent)'),
};

type SetRuleArgs = { [K in keyof typeof SET_RULE_SHAPE]?: z.infer<(typeof SET_RULE_SHAPE)[K]> };

export function setRuleArgv(root: string, a: SetRuleArgs): ArgvBuilder {
  return new ArgvBuilder(root, ['set', 'rule', '--format', 'json'])
    .path('--config', a.config)
    .path('--rule-set', a.rule_set)
    .flag('--rule', a.rule)
    .flag('--path', a.path)
    .flag('--path-template', a.path_template)
    .flag('--method', a.method)
    .pairs('--header', a.headers, ': ')
    .pairs('--query', a.query)
    .pairs('--cookie', a.cookies)
    .pairs('--param', a.params)
    .pairs('--form', a.form)
    .flag('--body-contains', a.body_contains)
    .flag('--status', a.status)
    .flag('--json', a.json)
    .flag('--text', a.text)
    .path('--file', a.file)
    .bool('--template', a.template)
    .flag('--delay', a.delay)
    .bool('--dry-run', a.dry_run);
}

async function runBuilt(port: McpPort, b: ArgvBuilder): Promise<ToolAnswer> {
  if (b.outside !== undefined) return errorAnswer(port.version, 'usage', b.outside);
  return cliAnswer(port.version, await port.runCli(b.argv));
}

export const EDIT_MESSAGES = {
  taken: (path: string) => `${path} already exists; add_file never replaces a file (edit it, or pick another name)`,
} as const;

export function registerEditTools(server: McpServer, port: McpPort): void {
  server.registerTool(
    'set_rule',
    {
      title: 'Add or change a rule',
      description:
        '`mock set rule --format json`: append a rule (or change rule `rule`, 0-based) in a rule-set file, keeping its comments; refused when the edited files would not load; written atomically. A running server picks it up by itself. Use dry_run first to see the diff.',
      inputSchema: SET_RULE_SHAPE,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (a) => runBuilt(port, setRuleArgv(port.cwd, a)),
  );
  server.registerTool(
    'add_file',
    {
      title: 'Add an answer file',
      description:
        'Create a file in the workspace (an answer file such as api/users.json, served at /api/users, or a data file); never replaces an existing file and never writes outside the workspace.',
      inputSchema: {
        path: z.string().describe('relative to the workspace, e.g. api/users.json'),
        content: z.string().describe('the whole file text'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (a) => {
      const abs = insideWorkspace(port.cwd, a.path);
      if (abs === undefined)
        return errorAnswer(port.version, 'usage', INSIDE_MESSAGES.outside('path', a.path, port.cwd));
      const created = await port.createFile(abs, a.content);
      if (!created) return errorAnswer(port.version, 'conflict', EDIT_MESSAGES.taken(a.path));
      const shown =
        './' +
        abs
          .slice(port.cwd.length + 1)
          .split('\\')
          .join('/');
      return cliAnswer(port.version, {
        code: 0,
        stdout: JSON.stringify({ schema: 1, mock: port.version, result: { changed_files: [shown] } }, null, 2) + '\n',
        stderr: '',
      });
    },
  );
  server.registerTool(
    'import',
    {
      title: 'Import a workspace from another format',
      description:
        '`mock --init --from <source> --yes --format json`: rules and files from an OpenAPI 3.x or Swagger 2.0 document, WireMock mappings, a Mockoon environment, a Postman collection or a HAR file (the format is told from the content). A dry run unless dry_run is false; never overwrites; the result lists each part it could not express.',
      inputSchema: {
        from: z.string().describe('the source file or folder (WireMock: the folder holding mappings/)'),
        dry_run: z.boolean().optional().describe('default true: report what would be written, write nothing'),
        from_format: z.string().optional().describe('name the format instead of telling it from the content'),
        har_host: z.string().optional().describe('HAR: keep only this host'),
        include_static: z.boolean().optional().describe('HAR: keep static assets too'),
        postman_env: z.string().optional().describe('Postman: an environment file for {{variables}}'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (a) =>
      runBuilt(
        port,
        new ArgvBuilder(port.cwd, ['--init', '--from', a.from, '--yes', '--format', 'json'])
          .bool('--dry-run', a.dry_run !== false)
          .flag('--from-format', a.from_format)
          .flag('--har-host', a.har_host)
          .bool('--include-static', a.include_static)
          .flag('--postman-env', a.postman_env),
      ),
  );
}
