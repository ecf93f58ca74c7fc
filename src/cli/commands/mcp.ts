// `mock mcp`: the Model Context Protocol on stdin/stdout for coding agents (docs/mcp.md). The server and its tools
// are src/mcp/; this file is the command: its flags, and the port the tools run on — each command run in-process
// with a captured Io (so a tool answers exactly what `mock … --format json` prints), the workspace description,
// a file created without clobbering, and the management listener of a running server over HTTP.
import { mkdir } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { statSync } from 'node:fs';
import type { ManagementClient, McpPort } from '../../mcp/port.js';
import { writeSafely } from '../../node/safe-write.js';
import { flagValue, parseArgs } from '../../shared/args.js';
import { MCP_FLAGS } from '../flags.js';
import { MCP_USAGE } from '../help.js';
import { captureIo, type Io } from '../io.js';
import { reportUsage } from '../report.js';
import { describeWorkspace } from './mcp-describe.js';

const PREFIX = 'mock mcp';

export const MCP_MESSAGES = {
  notDir: (dir: string) => `${PREFIX}: --workspace ${dir} is not a folder`,
  badUrl: (url: string) => `${PREFIX}: --inspect-url '${url}' is not an http:// URL (e.g. http://127.0.0.1:4000)`,
} as const;

function managementClient(url: string, token: string | undefined): ManagementClient {
  const base = url.replace(/\/+$/, '');
  return {
    url: base,
    async call(method, path, body) {
      const headers: Record<string, string> = { 'x-mock-client': 'mcp' };
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(base + path, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: res.status, text: await res.text() };
    },
  };
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, MCP_FLAGS, { prefix: PREFIX, root: false });
  if (!parsed.ok) return reportUsage(io, parsed.error, MCP_USAGE);
  const args = parsed.value;
  if (args.positionals.length > 0)
    return reportUsage(io, `${PREFIX}: unexpected argument '${args.positionals[0]}'`, MCP_USAGE);
  const cwd = resolve(io.cwd, flagValue(args, 'workspace') ?? '.');
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) return reportUsage(io, MCP_MESSAGES.notDir(cwd), MCP_USAGE);
  // an empty variable is an unset one (a host's config often lists every variable, some blank)
  const url = flagValue(args, 'inspect-url') ?? (process.env['MOCK_INSPECT_URL'] || undefined);
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) return reportUsage(io, MCP_MESSAGES.badUrl(url), MCP_USAGE);
  const token = flagValue(args, 'inspect-token') ?? (process.env['MOCK_INSPECT_TOKEN'] || undefined);

  const { run: runCommand } = await import('../run.js');
  const { generatedFiles } = await import('../reference.js');
  const version = io.version();
  const port: McpPort = {
    cwd,
    version,
    async runCli(commandArgv) {
      const captured = captureIo(cwd, async (p) => readFile(p), version);
      const code = await runCommand(commandArgv, captured);
      return { code, stdout: captured.stdout(), stderr: captured.stderr() };
    },
    describe: (config) => describeWorkspace(cwd, version, config),
    async createFile(abs, content) {
      await mkdir(dirname(abs), { recursive: true });
      return writeSafely(abs, content, { placement: 'create' });
    },
    management: url === undefined ? undefined : managementClient(url, token),
    reference: () => generatedFiles().filter((f) => f.path.startsWith('docs/') || f.path.startsWith('schema/')),
  };
  const { createMcpServer, StdioServerTransport } = await import('./mcp-entry.js');
  const server = createMcpServer(port);
  const transport = new StdioServerTransport();
  // the client closing stdin ends the session (the SDK's stdio transport does not watch for it)
  const closed = new Promise<void>((done) => {
    server.server.onclose = () => done();
    process.stdin.once('end', () => done());
  });
  await server.connect(transport);
  io.err(`mock mcp: serving the Model Context Protocol on stdio for ${cwd}\n`);
  await closed;
  await server.close();
  return 0;
}
