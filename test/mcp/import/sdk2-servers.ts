import { createServer } from 'node:http';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2HttpTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServerFactory } from '@modelcontextprotocol/server';
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
export async function serveSdk2(closer: Closer, factory: McpServerFactory): Promise<URL> {
  const handler = toNodeHandler(createMcpHandler(factory));
  return listen(createServer((req, res) => void handler(req, res)), closer);
}

/** A connected SDK 2 client (`@modelcontextprotocol/client`) of the negotiation `mode`, closed by `closer`. */
export async function connectSdk2(closer: Closer, url: URL, mode: Negotiation, options: ClientOptions = {}): Promise<Sdk2Client> {
  const client = closer.add(new Sdk2Client({ name: 'toolwright-importer', version: '1.0.0' }, { ...options, ...negotiation(mode) }));
  await client.connect(new Sdk2HttpTransport(url));
  return client;
}
