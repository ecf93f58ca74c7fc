// `mock mcp`'s server: the Model Context Protocol over the port (port.ts), with the workspace tools, the
// running-server tools and the generated reference pages as resources, so an agent reads the real option names
// rather than guessing them. The transport (stdio) is the caller's.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpPort } from './port.js';
import { registerEditTools } from './tools-edit.js';
import { registerRunningTools } from './tools-running.js';
import { registerWorkspaceTools } from './tools-workspace.js';

export const MCP_INSTRUCTIONS = `mock serves a folder as an HTTP mock: files answer by URL path, TOML rule sets answer conditionally, Rhai scripts run first.
Start with describe_workspace; explain_request says what a request would get and why; set_rule adds or changes a rule (dry_run first); validate checks everything.
Tools that need a running server (list_requests, wait_for_request, add_override, remove_overrides, set_scenario, reset) use the management listener of \`mock --inspect\`.
Every result is the JSON envelope \`mock … --format json\` prints: {schema, mock, result} or {schema, mock, error: {kind, message, diagnostics}}.
Rule numbers: text says rule #1 for the first rule; rule_index and every \`rule\` argument are 0-based. The reference pages (resources mock://reference/…) list every key, operator and flag.`;

/** `docs/reference/cli.md` → `mock://reference/cli.md`; `schema/rule-set.schema.json` → `mock://schema/rule-set.schema.json` */
export function resourceUri(path: string): string {
  return 'mock://' + path.replace(/^docs\//, '');
}

export function createMcpServer(port: McpPort): McpServer {
  const server = new McpServer({ name: 'mock', version: port.version }, { instructions: MCP_INSTRUCTIONS });
  registerWorkspaceTools(server, port);
  registerEditTools(server, port);
  registerRunningTools(server, port);
  for (const file of port.reference()) {
    const markdown = file.path.endsWith('.md');
    const mimeType = markdown ? 'text/markdown' : 'application/schema+json';
    const uri = resourceUri(file.path);
    server.registerResource(
      file.path,
      uri,
      {
        title: file.path,
        description: markdown ? `mock's reference: ${file.path}` : `the editor JSON Schema ${file.path}`,
        mimeType,
      },
      async () => ({ contents: [{ uri, mimeType, text: file.text }] }),
    );
  }
  return server;
}
