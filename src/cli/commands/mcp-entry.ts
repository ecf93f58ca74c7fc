// `mock mcp`'s one way into the MCP SDK: the server (src/mcp/) and the stdio transport. The bundle keeps them
// apart, in mcp.cjs, read only when `mock mcp` runs (scripts/bundle.mjs).
export { createMcpServer } from '../../mcp/server.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
