import { createServer } from 'node:http';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2HttpTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server, type CallToolResult, type ListToolsResult, type McpHttpHandler, type McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Toolkit } from '../../../src';
import type { Closer } from '../../support/mcp';
import { listen } from '../../support/mcp-http';

/** How an SDK 2 client negotiates: the 2025 handshake (its default), a server/discover probe first, or 2026-07-28 only. */
export type Negotiation = 'legacy' | 'auto' | 'pinned';

export const NEGOTIATIONS: readonly Negotiation[] = ['legacy', 'auto', 'pinned'];

/** The protocol revision a client of each negotiation reaches with a server that serves both. */
export const REVISION: Readonly<Record<Negotiation, string>> = { legacy: '2025-11-25', auto: '2026-07-28', pinned: '2026-07-28' };

/** The SDK 2 client options of a negotiation. */
export function negotiation(mode: Negotiation): Pick<ClientOptions, 'versionNegotiation'> {
  if (mode === 'legacy') return {};
  return { versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: '2026-07-28' } } };
}

/** An SDK 2 server the way its docs serve it: `createMcpHandler` (both revisions) on node:http at 127.0.0.1, port 0. */
export async function serveSdk2(closer: Closer, factory: McpServerFactory, onHandler?: (handler: McpHttpHandler) => void): Promise<URL> {
  const mcp = createMcpHandler(factory);
  onHandler?.(mcp);
  const handler = toNodeHandler(mcp);
  const url = await listen(createServer((req, res) => void handler(req, res)), closer);
  closer.add(mcp);
  return url;
}

/** A connected SDK 2 client (`@modelcontextprotocol/client`) of the negotiation `mode`, closed by `closer`. */
export async function connectSdk2(closer: Closer, url: URL, mode: Negotiation, options: ClientOptions = {}): Promise<Sdk2Client> {
  const client = closer.add(new Sdk2Client({ name: 'toolwright-importer', version: '1.0.0' }, { ...options, ...negotiation(mode) }));
  await client.connect(new Sdk2HttpTransport(url));
  return client;
}

/** How a hostile server answers `tools/list` for a cursor (raw JSON, as it likes). */
export type HostileLister = (cursor: string | undefined) => unknown;

/** How a hostile server answers `tools/call` (with the retry's `inputResponses`, under 2026-07-28). */
export type HostileCaller = (name: string, inputResponses: Readonly<Record<string, unknown>> | undefined) => unknown;

/**
 * A hostile MCP server on the SDK 2's low-level `Server`, served by `createMcpHandler` (both
 * revisions) on 127.0.0.1: it lists and answers whatever the test says; every call answers
 * 'remote ran' unless `call` says otherwise.
 */
export async function hostileSdk2Server(closer: Closer, list: HostileLister, call?: HostileCaller): Promise<URL> {
  return serveSdk2(closer, () => {
    const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', (request) => list(request.params?.cursor) as ListToolsResult);
    server.setRequestHandler('tools/call', (request, ctx) => (call?.(request.params.name, ctx.mcpReq.inputResponses) ?? { content: [{ type: 'text', text: 'remote ran' }] }) as CallToolResult);
    return server;
  });
}

/** Registers the plain tools every SDK 2 test server has: `shout` (read-only), `refuse` (an error result), `crash` (throws). */
export function registerPlainTools(server: McpServer): void {
  server.registerTool(
    'shout',
    { description: 'Upper-cases the text', inputSchema: z.object({ text: z.string().describe('What to shout') }), annotations: { readOnlyHint: true } },
    ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  server.registerTool('refuse', { description: 'Always answers with an error result' }, () => ({ content: [{ type: 'text', text: 'refused: not today' }], isError: true }));
  server.registerTool('crash', { description: 'Throws' }, () => {
    throw new Error('crashed inside the SDK 2 handler');
  });
}

/** Checks the imported plain tools (prefix `s2`): `s2_shout`'s schema came across, and its call, `s2_refuse`'s error result and `s2_crash`'s throw reach the caller. */
export async function expectPlainToolsImported(toolkit: Toolkit): Promise<void> {
  expect(toolkit.getToolSchemas().find((s) => s.name === 's2_shout')?.parameters).toMatchObject({
    type: 'object',
    properties: { text: { type: 'string', description: 'What to shout' } },
    required: ['text'],
  });
  const call = (name: string) => toolkit.callTool({ id: `c-${name}`, name, arguments: name === 's2_shout' ? { text: 'hello' } : {} });
  expect(await call('s2_shout')).toMatchObject({ forLLM: 'HELLO', isError: false });
  const refused = await call('s2_refuse');
  expect([refused.isError, refused.forLLM]).toEqual([true, expect.stringMatching(/refused: not today/)]);
  const crashed = await call('s2_crash');
  expect([crashed.isError, crashed.forLLM]).toEqual([true, expect.stringMatching(/crashed inside the SDK 2 handler/)]);
}
