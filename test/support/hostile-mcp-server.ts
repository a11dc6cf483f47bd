import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolRequest, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import type { Closer } from './mcp';

/** How the server answers `tools/list` for a cursor. */
export type Lister = (cursor: string | undefined) => ListToolsResult | Promise<ListToolsResult>;

/** How the server answers `tools/call` (with the request's abort signal). */
export type Caller = (params: CallToolRequest['params'], signal: AbortSignal) => CallToolResult | Promise<CallToolResult>;

/**
 * A remote MCP server under the test's control (the official SDK's low-level `Server`, raw JSON
 * Schemas) on an in-memory transport; returns a connected SDK `Client`. Every tool call answers
 * 'remote ran', unless `call` says otherwise.
 */
export async function hostileMcpServer(closer: Closer, list: Lister, call?: Caller): Promise<Client> {
  const server = closer.add(new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } }));
  server.setRequestHandler(ListToolsRequestSchema, (request) => list(request.params?.cursor));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => call?.(request.params, extra.signal) ?? { content: [{ type: 'text', text: 'remote ran' }] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = closer.add(new Client({ name: 'test', version: '1.0.0' }));
  await client.connect(clientSide);
  return client;
}
