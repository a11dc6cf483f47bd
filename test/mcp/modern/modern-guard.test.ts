import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { Tool, ToolEmitter, ToolService } from '../../../src';
import { McpPrincipal, bearerAuth, createMcpHttpHandler, memoryMcpStateStore, serveMcpHttp, type McpHttpServer } from '../../../src/mcp';
import { createTestToolkit, Probe } from '../fixtures/test-toolkit';
import { Closer, eventually } from '../../support/mcp';
import { post } from '../../support/mcp-http';
import { freshToolkit } from '../../support/toolkit';

/**
 * A 2026-07-28 request passes the same door as a 2025-11-25 one (Host, Origin, `authenticate`,
 * the bounded body) before SDK v2 sees it; what an attacker sends there is refused the same way.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
const listBody = (meta: Record<string, unknown> = META, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: meta, ...extra } });

const TOKENS = new Map([['t-alice', new McpPrincipal('alice', { scopes: [] })]]);

async function serveAuthenticated(): Promise<McpHttpServer> {
  return closer.add(
    await serveMcpHttp(createTestToolkit().toolkit, {
      name: 'guarded',
      version: '1',
      authenticate: bearerAuth((token) => TOKENS.get(token)),
      transportOptions: { maxRequestBodySize: 4_096 },
    }),
  );
}

describe('the door of 2026-07-28 requests', () => {
  test('a valid request is served; no credentials 401, a foreign Origin 403, a foreign Host 403, an oversized body 413', async () => {
    const http = await serveAuthenticated();
    const auth = { authorization: 'Bearer t-alice' };
    const ok = await post(http.url, listBody(), { ...MODERN_HEADERS, ...auth });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('"echo"');
    expect(ok.sessionId).toBeUndefined();

    const anonymous = await post(http.url, listBody(), MODERN_HEADERS);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain('"echo"');
    const forged = await post(http.url, listBody(), { ...MODERN_HEADERS, authorization: 'Bearer t-mallory' });
    expect(forged.status).toBe(401);

    const crossSite = await post(http.url, listBody(), { ...MODERN_HEADERS, ...auth, origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).toMatch(/Origin/);
    const rebinding = await post(http.url, listBody(), { ...MODERN_HEADERS, ...auth, host: `evil.example:${http.url.port}` });
    expect(rebinding.status).toBe(403);
    expect(rebinding.text).toMatch(/Host/);

    const huge = await post(http.url, listBody(META, { padding: 'x'.repeat(10_000) }), { ...MODERN_HEADERS, ...auth });
    expect(huge.status).toBe(413);
  });

  test('forged protocol claims: an unknown revision is -32022 naming the supported ones; a header that contradicts the body is -32020', async () => {
    const http = await serveAuthenticated();
    const auth = { authorization: 'Bearer t-alice' };
    const future = await post(http.url, listBody({ ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), { ...auth, 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' });
    expect(future.status).toBe(400);
    expect(JSON.parse(future.text)).toMatchObject({ id: 7, error: { code: -32022, data: { requested: '2099-01-01', supported: expect.arrayContaining(['2026-07-28']) } } });
    const mismatch = await post(http.url, listBody(), { ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' });
    expect(mismatch.status).toBe(400);
    expect(JSON.parse(mismatch.text)).toMatchObject({ error: { code: -32020 } });
    const missingMeta = await post(http.url, listBody({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }), { ...MODERN_HEADERS, ...auth });
    expect(missingMeta.status).toBe(400);
    expect(JSON.parse(missingMeta.text)).toMatchObject({ error: { code: -32602 } });
  });
});

describe('x-mcp-header parameters', () => {
  test('an Mcp-Param header that contradicts the argument is -32020 before the tool runs, and leaves no toolkit session behind', async () => {
    const { toolkit } = createTestToolkit();
    const regions: string[] = [];
    toolkit.registerTool({
      name: 'in_region',
      description: 'Runs in a region',
      parameters: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] },
      execute: (args) => {
        regions.push(String(args.region));
        return `ran in ${String(args.region)}`;
      },
    });
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'headers', version: '1' }));
    const call = (region: string) => JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'in_region', arguments: { region }, _meta: META } });
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'in_region' };
    const sessions = toolkit.sessionCount;
    const forged = await post(http.url, call('eu'), { ...headers, 'mcp-param-region': 'us' });
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.text)).toMatchObject({ id: 9, error: { code: -32020 } });
    const missing = await post(http.url, call('eu'), headers);
    expect(missing.status).toBe(400);
    expect(regions).toEqual([]);
    expect(toolkit.sessionCount).toBe(sessions);

    const honest = await post(http.url, call('eu'), { ...headers, 'mcp-param-region': 'eu' });
    expect(honest.status).toBe(200);
    expect(honest.text).toContain('ran in eu');
    expect(regions).toEqual(['eu']);
    await eventually(() => toolkit.sessionCount === sessions);
  });
});

describe('2026-07-28 calls: cancellation and the per-request log level', () => {
  async function modernClient(url: URL): Promise<Sdk2Client> {
    const client = closer.add(new Sdk2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
    await client.connect(new Sdk2Transport(url));
    return client;
  }

  test("the client's cancellation reaches the tool's signal", async () => {
    const probe = new Probe();
    const http = closer.add(await serveMcpHttp(createTestToolkit(probe).toolkit, { name: 'cancel', version: '1' }));
    const client = await modernClient(http.url);
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_abort', arguments: {} }, { signal: controller.signal });
    await eventually(() => probe.waiting === 1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await eventually(() => probe.aborted === 1);
  });

  test('maxConcurrentCalls bounds the calls a client runs at once without a session; another principal is not held up', async () => {
    const probe = new Probe();
    const http = closer.add(
      await serveMcpHttp(createTestToolkit(probe).toolkit, {
        name: 'bounded',
        version: '1',
        maxConcurrentCalls: 2,
        authenticate: bearerAuth((token) => new Map([['t-a', new McpPrincipal('a')], ['t-b', new McpPrincipal('b')]]).get(token)),
      }),
    );
    const clientOf = async (token: string) => {
      const client = closer.add(new Sdk2Client({ name: token, version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
      await client.connect(new Sdk2Transport(http.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return client;
    };
    const a = await clientOf('t-a');
    const b = await clientOf('t-b');
    const controller = new AbortController();
    const waiting = [0, 1].map(() => a.callTool({ name: 'wait_for_abort', arguments: {} }, { signal: controller.signal }).catch(() => undefined));
    await eventually(() => probe.waiting === 2);
    const third = await a.callTool({ name: 'wait_for_abort', arguments: {} });
    expect(third.isError).toBe(true);
    expect(third.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Too many tool calls at once: 2 requests of this client are still running/) }]);
    expect(probe.waiting).toBe(2);
    expect((await b.callTool({ name: 'echo', arguments: { text: 'free' } })).content).toEqual([{ type: 'text', text: 'echo: free' }]);
    controller.abort();
    await Promise.all(waiting);
    await eventually(() => probe.aborted === 2);
    expect((await a.callTool({ name: 'echo', arguments: { text: 'again' } })).content).toEqual([{ type: 'text', text: 'echo: again' }]);
  });

  test('log messages go out only at or above the level the request names, none without one', async () => {
    @ToolService()
    class Chatty {
      @Tool({ description: 'Logs at two levels' })
      chatty(emitter: ToolEmitter): string {
        emitter.log('debug', 'fine detail');
        emitter.log('warning', 'something to know');
        return 'done';
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Chatty);
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'logs', version: '1' }));
    const client = await modernClient(http.url);
    const messages: unknown[] = [];
    client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params.data);
    });
    await client.callTool({ name: 'chatty', arguments: {} });
    expect(messages).toEqual([]);
    await client.callTool({ name: 'chatty', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } });
    expect(messages).toEqual(['something to know']);
  });
});

describe('options of 2026-07-28 serving', () => {
  const options = { name: 'opts', version: '1' };

  test('stateSecret: at least 32 bytes, from the option or TOOLWRIGHT_MCP_STATE_SECRET; the key never appears in the error', () => {
    const toolkit = freshToolkit();
    const short = 'short-secret-of-24-bytes';
    expect(() => createMcpHttpHandler(toolkit, { ...options, stateSecret: short })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    try {
      createMcpHttpHandler(toolkit, { ...options, stateSecret: short });
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(short);
      expect((error as Error).message).toMatch(/at least 32 bytes long, got 24/);
    }
    expect(() => createMcpHttpHandler(toolkit, { ...options, stateSecret: new Uint8Array(16) })).toThrow(/at least 32 bytes/);
    const previous = process.env.TOOLWRIGHT_MCP_STATE_SECRET;
    process.env.TOOLWRIGHT_MCP_STATE_SECRET = short;
    try {
      expect(() => createMcpHttpHandler(toolkit, options)).toThrow(/TOOLWRIGHT_MCP_STATE_SECRET must hold at least 32 bytes/);
      expect(() => createMcpHttpHandler(toolkit, { ...options, stateSecret: 'k'.repeat(32) })).not.toThrow();
    } finally {
      if (previous === undefined) delete process.env.TOOLWRIGHT_MCP_STATE_SECRET;
      else process.env.TOOLWRIGHT_MCP_STATE_SECRET = previous;
    }
    const handler = createMcpHttpHandler(toolkit, { ...options, stateSecret: new Uint8Array(32), stateStore: memoryMcpStateStore() });
    return handler.close();
  });

  test('stateStore and bus must be what they say', () => {
    const toolkit = freshToolkit();
    const notAStore = { get: () => Promise.resolve(undefined) } as unknown as ReturnType<typeof memoryMcpStateStore>;
    expect(() => createMcpHttpHandler(toolkit, { ...options, stateStore: notAStore })).toThrow(/stateStore must be an McpStateStore \(missing: setIfAbsent, set, delete\)/);
    const notABus = { publish: () => undefined } as unknown as NonNullable<Parameters<typeof createMcpHttpHandler>[1]['bus']>;
    expect(() => createMcpHttpHandler(toolkit, { ...options, bus: notABus })).toThrow(/bus must be a ServerEventBus/);
  });
});
