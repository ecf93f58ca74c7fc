// What the MCP server needs from the program, as a port: cli/commands/mcp.ts builds the real one over the CLI's own
// commands (each run in-process with `--format json`, so a tool answers the envelope the command prints), the
// workspace loader, a safe file write and the management listener's HTTP API. Nothing here does I/O itself.

/** One command run in-process: its exit code and what it wrote. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** One management API answer: its HTTP status and body text (the CLI's envelope, or empty for a 204). */
export interface ManagementAnswer {
  readonly status: number;
  readonly text: string;
}

export interface McpPort {
  /** the workspace folder: every relative path resolves here, and nothing is written outside it */
  readonly cwd: string;
  readonly version: string;
  /** run `mock <argv…>` in-process, with `cwd` as its current directory */
  runCli(argv: readonly string[]): Promise<CliRun>;
  /** the `describe_workspace` envelope (text), for the root config given (or the default) */
  describe(config: string | undefined): Promise<string>;
  /** create `path` (inside `cwd`, checked by the caller) with `content`; false when the name is taken */
  createFile(absolutePath: string, content: string): Promise<boolean>;
  /** the management listener, when `mock mcp` was told where one runs; else undefined */
  readonly management: ManagementClient | undefined;
  /** the generated reference pages: path (`docs/reference/cli.md`, `schema/…`) and text */
  reference(): readonly { readonly path: string; readonly text: string }[];
}

export interface ManagementClient {
  /** the management listener's base URL, as given */
  readonly url: string;
  /** `method path` with an optional JSON body, the token and the write guard's headers added */
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<ManagementAnswer>;
}
