import type { Readable, Writable } from 'node:stream';
import type { Toolkit } from '../../toolkit/toolkit';
import { createMcpServer, type McpServerHandle, type McpServerOptions } from '../server/mcp-server';

type StdioModule = typeof import('@modelcontextprotocol/sdk/server/stdio.js');

/**
 * Options of {@link serveMcpStdio}.
 *
 * @example
 * serveMcpStdio(toolkit, { name: 'app', version: '1.0.0' });
 */
export interface McpStdioOptions extends McpServerOptions {
  /** Where requests come from (default `process.stdin`). */
  stdin?: Readable | undefined;
  /** Where responses go (default `process.stdout`: nothing else may write to it). */
  stdout?: Writable | undefined;
}

/**
 * Serves a toolkit over stdio (what MCP clients spawn from their config). stdout carries the
 * protocol: log to stderr only. The server closes when stdin ends.
 *
 * @example
 * // server.ts, started by the MCP client
 * const mcp = await serveMcpStdio(toolkit, { name: 'weather', version: '1.0.0' });
 * process.on('SIGTERM', () => void mcp.close());
 */
export async function serveMcpStdio(toolkit: Toolkit, options: McpStdioOptions): Promise<McpServerHandle> {
  const { stdin, stdout, ...serverOptions } = options;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js') as StdioModule;
  const input = stdin ?? process.stdin;
  const mcp = createMcpServer(toolkit, serverOptions);
  await mcp.connect(new StdioServerTransport(input, stdout ?? process.stdout));
  // the client closing our stdin ends the session
  input.once('end', () => void mcp.close().catch(() => undefined));
  return mcp;
}
