import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer } from '../../support/mcp';
import { post } from '../../support/mcp-http';

/**
 * `@modelcontextprotocol/server` (SDK v2) is an optional peer: without it, toolwright serves
 * 2025-11-25 as before, and a 2026-07-28 request gets the unsupported-version error naming
 * 2025-11-25, so a negotiating client falls back. The package's absence is simulated the way Node
 * reports it (MODULE_NOT_FOUND naming the package).
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

type McpModule = typeof import('../../../src/mcp');

function mcpWithoutSdk2(): McpModule {
  let mcp!: McpModule;
  jest.isolateModules(() => {
    jest.doMock('@modelcontextprotocol/server', () => {
      throw Object.assign(new Error("Cannot find module '@modelcontextprotocol/server'"), { code: 'MODULE_NOT_FOUND' });
    });
    mcp = jest.requireActual<McpModule>('../../../src/mcp');
  });
  return mcp;
}

test('without SDK v2 installed: 2025-11-25 is served, a 2026-07-28 claim gets -32022 naming 2025-11-25, clients negotiate down', async () => {
  const { serveMcpHttp } = mcpWithoutSdk2();
  const http = closer.add(await serveMcpHttp(createTestToolkit().toolkit, { name: 'old-only', version: '1' }));

  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 3,
    method: 'server/discover',
    params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
  });
  const answer = await post(http.url, body, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' });
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.text)).toEqual({
    jsonrpc: '2.0',
    id: 3,
    error: { code: -32022, message: 'Unsupported protocol version: 2026-07-28', data: { supported: ['2025-11-25'], requested: '2026-07-28' } },
  });

  const auto = closer.add(new Sdk2Client({ name: 'auto', version: '1' }, { versionNegotiation: { mode: 'auto' } }));
  await auto.connect(new Sdk2Transport(http.url));
  expect(auto.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  expect((await auto.callTool({ name: 'echo', arguments: { text: 'old' } })).content).toEqual([{ type: 'text', text: 'echo: old' }]);

  const pinned = closer.add(new Sdk2Client({ name: 'pinned', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
  await expect(pinned.connect(new Sdk2Transport(http.url))).rejects.toThrow();
});
