import { createServer } from 'node:http';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2ClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer as Sdk2McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import { Toolkit, type CallProgress } from '../../src';
import { importMcpTools, serveMcpHttp, type McpHttpServer } from '../../src/mcp';
import { createTestToolkit, type Probe } from './fixtures/test-toolkit';
import { Closer, eventually } from '../support/mcp';
import { listen } from '../support/mcp-http';
import { expectPlainToolsImported, registerPlainTools } from './import/sdk2-servers';

/**
 * toolwright serves 2025-11-25 sessions with `@modelcontextprotocol/sdk` 1.x and 2026-07-28 requests
 * with SDK 2 (`@modelcontextprotocol/server`; test/mcp/modern/ tests that side). These tests put the
 * 2025-11-25 side on the wire against the SDK 2 packages a user may have: an SDK 2 client calls a
 * toolwright server, and toolwright imports the tools of an SDK 2 server through an SDK 1 client
 * (imports through an SDK 2 client: test/mcp/import/).
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

type Sdk2CallResult = Awaited<ReturnType<Sdk2Client['callTool']>>;

const textOf = (result: { content?: readonly { type: string; text?: string }[] }): string => {
  const first = result.content?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
};

async function serveToolwright(): Promise<{ http: McpHttpServer; toolkit: Toolkit; probe: Probe }> {
  const { toolkit, probe } = createTestToolkit();
  const http = closer.add(await serveMcpHttp(toolkit, { name: 'toolwright-test', version: '0.0.0' }));
  return { http, toolkit, probe };
}

async function connectSdk2(url: URL, options: ConstructorParameters<typeof Sdk2Client>[1] = {}): Promise<Sdk2Client> {
  const client = new Sdk2Client({ name: 'sdk2-client', version: '2.0.0' }, options);
  await client.connect(new Sdk2ClientTransport(url));
  closer.add(client);
  return client;
}

describe('an MCP SDK 2 client (@modelcontextprotocol/client) against serveMcpHttp', () => {
  test('lists and calls tools: text, structured output, an error result, progress, list_changed', async () => {
    const { http } = await serveToolwright();
    const client = await connectSdk2(http.url);
    expect(client.getServerVersion()).toMatchObject({ name: 'toolwright-test' });
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'count', 'explode', 'stats', 'set_group']));
    expect(tools.find((t) => t.name === 'echo')).toMatchObject({
      description: 'Echo the text back',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
    });

    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'from SDK 2' } }))).toBe('echo: from SDK 2');
    const stats: Sdk2CallResult = await client.callTool({ name: 'stats', arguments: { values: [1, 2, 3] } });
    expect(stats.structuredContent).toEqual({ count: 3, sum: 6, mean: 2 });

    const failed = await client.callTool({ name: 'explode', arguments: { reason: 'on purpose' } });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/kaboom: on purpose/);
    const invalid = await client.callTool({ name: 'count', arguments: { to: 'many' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/to/);

    const progress: [number, number | undefined][] = [];
    const counted = await client.callTool({ name: 'count', arguments: { to: 3 } }, { onprogress: (p) => progress.push([p.progress, p.total]) });
    expect(textOf(counted)).toBe('counted to 3');
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);

    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged++;
    });
    await client.callTool({ name: 'set_group', arguments: { group: 'admin', active: true } });
    await eventually(() => listChanged === 1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('reset_all');
  });

  test("cancelling through the SDK 2 client's AbortSignal aborts the tool", async () => {
    const { http, probe } = await serveToolwright();
    const client = await connectSdk2(http.url);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_abort', arguments: {} }, { signal: controller.signal, onprogress: () => controller.abort('stop') });
    await expect(call).rejects.toThrow();
    await eventually(() => probe.aborted === 1);
  });

  test("version negotiation 'auto' (a server/discover probe first) selects 2026-07-28, and no protocol session is held", async () => {
    const { http } = await serveToolwright();
    const client = await connectSdk2(http.url, { versionNegotiation: { mode: 'auto' } });
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'negotiated' } }))).toBe('echo: negotiated');
    expect(http.handler.sessionCount).toBe(0);
  });
});

/** An SDK 2 server the way its docs serve it: `createMcpHandler` on node:http through `@modelcontextprotocol/node`. */
async function serveSdk2(): Promise<URL> {
  const factory = () => {
    const server = new Sdk2McpServer({ name: 'sdk2-server', version: '2.0.0' });
    registerPlainTools(server);
    server.registerTool(
      'steps',
      { description: 'Reports progress, then answers', inputSchema: z.object({ n: z.number().int().min(1).max(10) }) },
      async ({ n }, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        for (let i = 1; i <= n; i++) {
          if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n } });
        }
        return { content: [{ type: 'text', text: `${n} steps` }], structuredContent: { steps: n } };
      },
    );
    return server;
  };
  const handler = toNodeHandler(createMcpHandler(factory));
  return listen(createServer((req, res) => void handler(req, res)), closer);
}

describe('importMcpTools (an SDK 1 client) from an MCP SDK 2 server (@modelcontextprotocol/server)', () => {
  test('imports the tools and calls them: text, an error result, a thrown handler, invalid arguments, progress', async () => {
    const url = await serveSdk2();
    const client = closer.add(new Client({ name: 'toolwright-importer', version: '1.0.0' }));
    await client.connect(new StreamableHTTPClientTransport(url));
    const toolkit = new Toolkit();
    const imported = closer.add(await importMcpTools(client, toolkit, { group: 'sdk2', prefix: 's2' }));
    expect(imported.tools.map((t) => t.name)).toEqual(['s2_shout', 's2_refuse', 's2_crash', 's2_steps']);
    await expectPlainToolsImported(toolkit);
    const call = (name: string, args: Record<string, unknown>, onProgress?: (p: CallProgress) => void) =>
      toolkit.callTool({ id: `c-${name}`, name, arguments: args }, onProgress ? { onProgress } : {});
    // checked against the SDK 2 server's schema before anything crosses the wire
    expect((await call('s2_steps', { n: 'two' })).error?.code).toBe('INVALID_ARGUMENTS');

    const progress: CallProgress[] = [];
    const steps = await call('s2_steps', { n: 3 }, (p) => progress.push(p));
    expect(steps).toMatchObject({ forLLM: '3 steps', isError: false, data: { steps: 3 } });
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});
