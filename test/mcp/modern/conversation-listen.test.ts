import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { Toolkit } from '../../../src';
import { McpPrincipal, bearerAuth, serveMcpHttp, type McpHttpOptions, type McpHttpServer } from '../../../src/mcp';
import { MCP_CONVERSATION_META_KEY } from '../../../src/mcp/server/modern/conversation-handle';
import { redisMcpEventBus, type RedisMcpEventBus } from '../../../src/redis';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer, eventually } from '../../support/mcp';
import { rawRequest } from '../../support/mcp-modern-raw';
import { REDIS, requireRedis, uniqueQueue } from '../../support/redis';

/**
 * `subscriptions/listen` hears the caller's own toggles: a principal's stream hears its
 * principal session's, a stream opened with a conversation handle hears that conversation's, and
 * no other stream hears either. Across a fleet (two servers sharing the key and a Redis bus), a
 * toggle on one reaches the right streams on the other, and a handle minted on one is honoured by
 * the other.
 */

const SECRET = 'conversations-test-secret-of-32-bytes!';
const closer = new Closer();
afterEach(() => closer.closeAll());

const TOKENS = new Map([
  ['t-alice', new McpPrincipal('alice')],
  ['t-bob', new McpPrincipal('bob')],
]);
const authenticate = bearerAuth((token) => TOKENS.get(token));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const conv = (handle: string) => ({ [MCP_CONVERSATION_META_KEY]: handle });
const handleOf = (result: Record<string, unknown> | undefined): string => (result?._meta as Record<string, unknown>)[MCP_CONVERSATION_META_KEY] as string;

async function modernClient(url: URL, token?: string): Promise<Sdk2Client> {
  const client = closer.add(new Sdk2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
  await client.connect(new Sdk2Transport(url, token === undefined ? {} : { requestInit: { headers: bearer(token) } }));
  return client;
}

/** A client's listen stream: how many tools list_changed it heard. */
async function listening(client: Sdk2Client): Promise<{ heard: () => number }> {
  let heard = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
  closer.add(await client.listen({ toolsListChanged: true }));
  return { heard: () => heard };
}

/** A `subscriptions/listen` stream opened by hand (the SDK client sends no `_meta` of the caller's with it): the methods it heard, in order. */
async function rawListen(url: URL, meta: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ methods: string[]; status: number; error?: { code: number; message: string } }> {
  const abort = new AbortController();
  closer.add({ close: async () => abort.abort() });
  const response = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: {
        notifications: { toolsListChanged: true },
        _meta: { ...meta, 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } },
      },
    }),
  });
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    const body = (await response.json()) as { error?: { code: number; message: string } };
    return { methods: [], status: response.status, ...(body.error ? { error: body.error } : {}) };
  }
  const methods: string[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data:'));
        buffer = buffer.slice(end + 2);
        if (data !== undefined) methods.push((JSON.parse(data.slice(5)) as { method?: string }).method ?? 'response');
      }
    }
  })();
  await eventually(() => methods.includes('notifications/subscriptions/acknowledged'));
  return { methods, status: response.status };
}

const listChanged = (methods: readonly string[]) => methods.filter((m) => m === 'notifications/tools/list_changed').length;

function equippable(): Toolkit {
  const { toolkit } = createTestToolkit();
  toolkit.enableEquipToolGroups();
  return toolkit;
}

/** Lets any event still on its way arrive (a round trip over Redis takes well under this). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe('2026-07-28 listen: each caller hears its own toggles', () => {
  test("a principal's stream hears its principal session's toggle; another principal's and an anonymous stream hear nothing", async () => {
    const toolkit = equippable();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'listen', version: '1', authenticate, stateSecret: SECRET }));
    const alice = await modernClient(http.url, 't-alice');
    const bob = await modernClient(http.url, 't-bob');
    const [aliceHears, bobHears] = [await listening(alice), await listening(bob)];

    await alice.callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] } });
    await eventually(() => aliceHears.heard() === 1);
    await settle();
    expect(bobHears.heard()).toBe(0);
    await bob.callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] } });
    await eventually(() => bobHears.heard() === 1);
    await settle();
    expect(aliceHears.heard()).toBe(1);
  });

  test("a stream opened with a conversation handle hears that conversation's toggles alone; a foreign handle cannot open one", async () => {
    const toolkit = equippable();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'listen', version: '1', authenticate, stateSecret: SECRET }));
    const started = await rawRequest(http.url, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, { headers: bearer('t-alice'), meta: { [MCP_CONVERSATION_META_KEY]: 'new' } });
    const handle = handleOf(started.result);
    const other = handleOf((await rawRequest(http.url, 'tools/call', { name: 'add', arguments: { a: 1, b: 1 } }, { headers: bearer('t-alice'), meta: { [MCP_CONVERSATION_META_KEY]: 'new' } })).result);

    const conversation = await rawListen(http.url, conv(handle), bearer('t-alice'));
    const otherConversation = await rawListen(http.url, conv(other), bearer('t-alice'));
    const principal = await rawListen(http.url, {}, bearer('t-alice'));
    const foreign = await rawListen(http.url, conv(handle), bearer('t-bob'));
    expect(foreign).toMatchObject({ status: 400, error: { code: -32602, message: expect.stringMatching(/issued to another caller/) } });
    const forged = await rawListen(http.url, conv(`${handle.slice(0, -4)}AAAA`), bearer('t-alice'));
    expect(forged.error?.code).toBe(-32602);

    await rawRequest(http.url, 'tools/call', { name: 'equip_tool_groups', arguments: { add: ['admin'] } }, { headers: bearer('t-alice'), meta: conv(handle) });
    await eventually(() => listChanged(conversation.methods) === 1);
    await settle();
    expect(listChanged(otherConversation.methods)).toBe(0);
    expect(listChanged(principal.methods)).toBe(0);
  });
});

describe('2026-07-28 conversations across a fleet', () => {
  const buses: RedisMcpEventBus[] = [];
  beforeAll(() => requireRedis());
  afterAll(() => Promise.all(buses.map((bus) => bus.close())));

  /** Two servers as two processes of a fleet would be: each its own toolkit and bus, one key, one Redis channel. */
  async function fleet(options: Partial<McpHttpOptions> = {}): Promise<[McpHttpServer, McpHttpServer]> {
    const channel = uniqueQueue('conversations');
    const serveOne = async (): Promise<McpHttpServer> => {
      const bus = redisMcpEventBus({ connection: REDIS, channel });
      buses.push(bus);
      await bus.ready();
      return closer.add(await serveMcpHttp(equippable(), { name: 'fleet', version: '1', stateSecret: SECRET, bus, ...options }));
    };
    return [await serveOne(), await serveOne()];
  }

  test("a handle minted by one process is honoured by the other; the other's stream for that conversation hears a toggle made on the first", async () => {
    const [a, b] = await fleet();
    const handle = handleOf((await rawRequest(a.url, 'tools/call', { name: 'equip_tool_groups', arguments: { add: ['admin'] } })).result);
    const onB = await rawRequest(b.url, 'tools/call', { name: 'reset_all', arguments: {} }, { meta: conv(handle) });
    expect(onB.result?.content).toEqual([{ type: 'text', text: 'reset done' }]);
    expect((await rawRequest(b.url, 'tools/call', { name: 'reset_all', arguments: {} })).result?.isError).toBe(true);

    const hearsOnB = await rawListen(b.url, conv(handle));
    const anonymousOnB = await rawListen(b.url, {});
    await rawRequest(a.url, 'tools/call', { name: 'equip_tool_groups', arguments: { remove: ['admin'] } }, { meta: conv(handle) });
    await eventually(() => listChanged(hearsOnB.methods) === 1);
    await settle();
    expect(listChanged(anonymousOnB.methods)).toBe(0);
  });

  test("a principal's toggle on one process reaches its stream on the other, and no other principal's", async () => {
    const [a, b] = await fleet({ authenticate });
    const aliceOnB = await listening(await modernClient(b.url, 't-alice'));
    const bobOnB = await listening(await modernClient(b.url, 't-bob'));
    await (await modernClient(a.url, 't-alice')).callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] } });
    await eventually(() => aliceOnB.heard() === 1);
    await settle();
    expect(bobOnB.heard()).toBe(0);
  });
});
