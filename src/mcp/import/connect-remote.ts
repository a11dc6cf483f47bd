import type { McpImportClient } from './mcp-import-options';
import type { RemoteConnection } from './remote-connection';
import { Sdk1Connection } from './sdk1-connection';
import type { McpImportSdk2Client } from './sdk2-client';
import { Sdk2Connection } from './sdk2-connection';

/** True for a `Client` of the MCP SDK 2 (`@modelcontextprotocol/client`), told by its `getProtocolEra`. */
function isSdk2(client: McpImportClient): client is McpImportSdk2Client {
  return typeof (client as { getProtocolEra?: unknown }).getProtocolEra === 'function';
}

/**
 * @internal The {@link RemoteConnection} of a connected SDK 1.x or SDK 2 `Client`.
 *
 * @example
 * const remote = remoteConnection(client); remote.protocolVersion; // '2026-07-28'
 */
export function remoteConnection(client: McpImportClient): RemoteConnection {
  return isSdk2(client) ? new Sdk2Connection(client) : new Sdk1Connection(client);
}
