import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { defineSkill, Toolkit } from '../../../src';
import { McpPrincipal, bearerAuth, serveMcpHttp, withMcpOptions, type McpHttpServer } from '../../../src/mcp';
import { ConversationHandles, MCP_CONVERSATION_META_KEY } from '../../../src/mcp/server/modern/conversation-handle';
import { resolveStateSecret } from '../../../src/mcp/server/modern/state-secret';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer, eventually } from '../../support/mcp';
import { peekTool, rawRequest, type RawAnswer } from '../../support/mcp-modern-raw';

/**
 * 2026-07-28 has no protocol session: a conversation's equipped groups and active skill travel
 * as a server-signed handle in `_meta['io.toolwright/conversation']`, bound to the caller. The
 * gate holds for every handle an attacker can make, and listen streams hear only their own
 * principal's or conversation's changes.
 */

const SECRET = 'conversations-test-secret-of-32-bytes!';
const closer = new Closer();
afterEach(() => closer.closeAll());

type CallResult = Awaited<ReturnType<Sdk2Client['callTool']>>;
const textOf = (result: CallResult): string => (result.content?.[0]?.type === 'text' ? result.content[0].text : '');
const handleOf = (result: CallResult | RawAnswer['result']): string | undefined =>
  (result?._meta as Record<string, unknown> | undefined)?.[MCP_CONVERSATION_META_KEY] as string | undefined;
const conv = (handle: string) => ({ [MCP_CONVERSATION_META_KEY]: handle });

const TOKENS = new Map([
  ['t-alice', new McpPrincipal('alice')],
  ['t-bob', new McpPrincipal('bob')],
]);
const authenticate = bearerAuth((token) => TOKENS.get(token));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function modernClient(url: URL, token?: string): Promise<Sdk2Client> {
  const client = closer.add(new Sdk2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
  await client.connect(new Sdk2Transport(url, token === undefined ? {} : { requestInit: { headers: bearer(token) } }));
  return client;
}

const names = async (client: Sdk2Client, handle?: string): Promise<string[]> =>
  (await client.listTools(handle === undefined ? {} : { _meta: conv(handle) })).tools.map((t) => t.name);

async function serve(toolkit: Toolkit, options: Partial<Parameters<typeof serveMcpHttp>[1]> = {}): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(toolkit, { name: 'conversations', version: '1', stateSecret: SECRET, ...options }));
}

/** The test toolkit, with `purge` in the admin group (off): `runs` counts its runs. */
function handlesToolkit(): { toolkit: Toolkit; runs: string[] } {
  const { toolkit } = createTestToolkit();
  const runs: string[] = [];
  toolkit.registerTool({ name: 'purge', description: 'Purge the caches', parameters: { type: 'object', properties: {} }, execute: () => (runs.push('purge'), 'purged') }, { group: 'admin' });
  return { toolkit, runs };
}

describe('2026-07-28 conversation handles', () => {
  test('an anonymous caller keeps its equipped group across requests by sending back the handle; nobody else gets it', async () => {
    const { toolkit, runs } = handlesToolkit();
    toolkit.enableEquipToolGroups();
    const http = await serve(toolkit);
    const client = await modernClient(http.url);
    const other = await modernClient(http.url);

    const unchanged = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(handleOf(unchanged)).toBeUndefined();
    const equipped = await client.callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] } });
    const handle = handleOf(equipped)!;
    expect(handle).toMatch(/^twc1\./);
    expect(handle).not.toMatch(/admin.*secret|conversations-test-secret/);

    const list = await client.listTools({ _meta: conv(handle) });
    expect(list).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(list.tools.map((t) => t.name)).toContain('reset_all');
    const reset = await client.callTool({ name: 'reset_all', arguments: {}, _meta: conv(handle) });
    expect(textOf(reset)).toBe('reset done');
    expect(handleOf(reset)).toMatch(/^twc1\./); // renewed on every call of a threaded conversation

    for (const caller of [client, other]) {
      expect(await names(caller)).not.toContain('reset_all');
      const refused = await caller.callTool({ name: 'reset_all', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/'reset_all' is disabled/);
      expect((await caller.callTool({ name: 'purge', arguments: {} })).isError).toBe(true);
    }
    expect(runs).toEqual([]);
    expect(toolkit.getActiveTools().map((t) => t.name)).not.toContain('reset_all');
    await eventually(() => toolkit.sessionCount === 0);
  });

  test('one principal, two conversations: each keeps its own groups; the principal session is untouched', async () => {
    const { toolkit } = createTestToolkit();
    toolkit.enableEquipToolGroups();
    const http = await serve(toolkit, { authenticate });
    const alice = await modernClient(http.url, 't-alice');

    const first = handleOf(await alice.callTool({ name: 'add', arguments: { a: 1, b: 1 }, _meta: { [MCP_CONVERSATION_META_KEY]: 'new' } }))!;
    const second = handleOf(await alice.callTool({ name: 'add', arguments: { a: 2, b: 2 }, _meta: { [MCP_CONVERSATION_META_KEY]: 'new' } }))!;
    expect(first).not.toBe(second);
    const equipped = handleOf(await alice.callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] }, _meta: conv(first) }))!;

    expect(await names(alice, equipped)).toContain('reset_all');
    expect(await names(alice, second)).not.toContain('reset_all');
    expect(await names(alice)).not.toContain('reset_all');
    const refused = await alice.callTool({ name: 'reset_all', arguments: {}, _meta: conv(second) });
    expect(refused.isError).toBe(true);
    expect(textOf(await alice.callTool({ name: 'reset_all', arguments: {}, _meta: conv(equipped) }))).toBe('reset done');
    // the handle before the toggle holds the conversation as it was then: signed state, nothing stored
    expect(await names(alice, first)).not.toContain('reset_all');
  });

  test("a skill's layer is restored from the handle without running onActivate again; its tools stay behind the gate", async () => {
    const { toolkit } = createTestToolkit();
    let activations = 0;
    toolkit.registerSkill(
      defineSkill({ name: 'maintenance', description: 'Maintenance mode', tools: ['reset_all'], grantGroups: ['admin'], onActivate: () => void activations++ }),
    );
    toolkit.registerSkill(defineSkill({ name: 'wipe', description: 'Reset everything', tools: ['reset_all'], steps: [{ tool: 'reset_all' }] }));
    const http = await serve(toolkit);
    const client = await modernClient(http.url);

    const activated = await client.callTool({ name: 'invoke_skill', arguments: { name: 'maintenance' } });
    const handle = handleOf(activated)!;
    expect(handle).toBeDefined();
    expect(activations).toBe(1);
    expect(textOf(await client.callTool({ name: 'reset_all', arguments: {}, _meta: conv(handle) }))).toBe('reset done');
    expect(textOf(await client.callTool({ name: 'reset_all', arguments: {}, _meta: conv(handle) }))).toBe('reset done');
    expect(activations).toBe(1);
    // without the handle: the skill is not active, and an executable skill cannot reach the off tool
    const viaSkill = await client.callTool({ name: 'invoke_skill', arguments: { name: 'wipe' } });
    expect(viaSkill.isError).toBe(true);
    expect(textOf(viaSkill)).not.toMatch(/reset done/);
  });
  test('a skill that can no longer be activated (a required tool was unregistered) is dropped from a restored conversation, and from its renewed handle', async () => {
    const { toolkit } = handlesToolkit();
    toolkit.registerSkill(defineSkill({ name: 'audit', description: 'Audit mode', tools: ['reset_all'], requiredTools: ['purge'], grantGroups: ['admin'] }));
    const http = await serve(toolkit);
    const client = await modernClient(http.url);
    const handle = handleOf(await client.callTool({ name: 'invoke_skill', arguments: { name: 'audit' } }))!;
    expect(await names(client, handle)).toContain('reset_all');
    toolkit.unregisterTool('purge');
    expect(await names(client, handle)).not.toContain('reset_all');
    const refused = await client.callTool({ name: 'reset_all', arguments: {}, _meta: conv(handle) });
    expect(refused.isError).toBe(true);
    const renewed = handleOf(refused)!;
    expect(JSON.parse(Buffer.from(renewed.split('.')[1], 'base64url').toString('utf8'))).not.toHaveProperty('s');
  });
});

describe('2026-07-28 conversation handles: an attacker with raw requests', () => {
  /** Two servers of one toolkit and key: one authenticates (alice, bob), one serves anonymous callers; each minted a handle with admin equipped. */
  async function equippedServer(): Promise<{ http: McpHttpServer; open: McpHttpServer; runs: string[]; alices: string; anonymous: string }> {
    const { toolkit, runs } = handlesToolkit();
    toolkit.enableEquipToolGroups();
    const http = await serve(toolkit, { authenticate });
    const open = await serve(toolkit);
    const equip = { name: 'equip_tool_groups', arguments: { add: ['admin'] } };
    const alices = handleOf((await rawRequest(http.url, 'tools/call', equip, { headers: bearer('t-alice'), meta: { [MCP_CONVERSATION_META_KEY]: 'new' } })).result)!;
    const anonymous = handleOf((await rawRequest(open.url, 'tools/call', equip)).result)!;
    expect(alices).toMatch(/^twc1\./);
    expect(anonymous).toMatch(/^twc1\./);
    return { http, open, runs, alices, anonymous };
  }

  const resetWith = (url: URL, handle: unknown, token?: string): Promise<RawAnswer> =>
    rawRequest(url, 'tools/call', { name: 'purge', arguments: {} }, { meta: { [MCP_CONVERSATION_META_KEY]: handle }, ...(token ? { headers: bearer(token) } : {}) });

  test('each forged, foreign, expired, oversized or garbage handle is -32602 naming why, and the tool does not run', async () => {
    const { http, open, runs, alices, anonymous } = await equippedServer();
    expect((await resetWith(http.url, alices, 't-alice')).result?.content).toEqual([{ type: 'text', text: 'purged' }]);
    expect((await resetWith(open.url, anonymous)).result?.content).toEqual([{ type: 'text', text: 'purged' }]);
    expect(runs).toHaveLength(2);

    const [prefix, body, mac] = alices.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedBody = Buffer.from(JSON.stringify({ ...payload, g: ['admin', 'secret'] })).toString('base64url');
    const mine = (secret: string, now = Date.now) => new ConversationHandles(resolveStateSecret(secret), 60_000, now);
    // [what, handle, token (none: the anonymous server), why]
    const cases: [string, unknown, string | undefined, RegExp][] = [
      ["another principal's", alices, 't-bob', /issued to another caller/],
      ["a principal's, used anonymously", alices, undefined, /issued to another caller/],
      ["an anonymous one, used by a principal", anonymous, 't-alice', /issued to another caller/],
      ['tampered state', `${prefix}.${forgedBody}.${mac}`, 't-alice', /signature does not match/],
      ['tampered signature', `${prefix}.${body}.${mac.slice(0, -2)}AA`, 't-alice', /signature does not match/],
      ['another key', mine('a-different-secret-also-32-bytes-long!').mint('alice', 'x'.repeat(22), { groups: ['admin'] }), 't-alice', /signature does not match/],
      ['expired', mine(SECRET, () => Date.now() - 120_000).mint('alice', 'y'.repeat(22), { groups: ['admin'] }), 't-alice', /expired/],
      ['oversized', `twc1.${'A'.repeat(20_000)}.x`, 't-alice', /too large \(20007 characters; the most is 8192\)/],
      ['garbage', 'not a handle', 't-alice', /not a handle this server issued/],
      ['a number', 42, 't-alice', /must be a string/],
      ['an object', { g: ['admin'] }, undefined, /must be a string/],
    ];
    for (const [label, handle, token, why] of cases) {
      const answer = await resetWith(token === undefined ? open.url : http.url, handle, token);
      expect({ label, code: answer.error?.code }).toEqual({ label, code: -32602 });
      expect(answer.error?.message).toMatch(why);
      expect(answer.error!.message.length).toBeLessThan(200);
      if (typeof handle === 'string' && handle.startsWith('twc1.')) expect(answer.error!.message).not.toContain(handle.slice(5, 40));
    }
    // a valid handle signed with the server's key is still bound: reading one's own grants nothing more
    const listed = await rawRequest(http.url, 'tools/list', {}, { meta: { [MCP_CONVERSATION_META_KEY]: alices }, headers: bearer('t-bob') });
    expect(listed.error?.code).toBe(-32602);
    expect(runs).toHaveLength(2);
  });

  test('a handle never carries the principal id or a preset in clear', async () => {
    const { alices } = await equippedServer();
    const decoded = Buffer.from(alices.split('.')[1], 'base64url').toString('utf8');
    expect(decoded).not.toContain('alice');
    expect(decoded).not.toContain(SECRET);
    expect(JSON.parse(decoded)).toMatchObject({ v: 1, g: ['admin'] });
    expect(Object.keys(JSON.parse(decoded) as object).sort()).toEqual(['c', 'g', 'p', 'v', 'x']); // id, groups, caller tag, version, expiry: nothing else
    expect((JSON.parse(decoded) as { c: string }).c).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 random bits
  });
});

describe('2026-07-28 conversation handles: what an anonymous conversation leaves behind is its own', () => {
  test("a round trip started under one anonymous conversation's handle is refused on a retry without it or with another's, and answered with it", async () => {
    const { toolkit } = createTestToolkit();
    toolkit.enableEquipToolGroups();
    const { tool, peeks } = peekTool();
    toolkit.registerTool(tool, { group: 'admin' });
    const http = await serve(toolkit);
    const equip = { name: 'equip_tool_groups', arguments: { add: ['admin'] } };
    const mine = handleOf((await rawRequest(http.url, 'tools/call', equip)).result)!;
    const theirs = handleOf((await rawRequest(http.url, 'tools/call', equip)).result)!;
    const ask = (meta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      rawRequest(http.url, 'tools/call', { name: 'peek', arguments: {}, ...extra }, { tasks: false, capabilities: { elicitation: {} }, meta });
    const first = await ask(conv(mine));
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    const [key] = Object.keys(first.result!.inputRequests as object);
    const retry = { requestState: first.result!.requestState, inputResponses: { [key]: { action: 'accept', content: {} } } };

    const foreign = await ask(conv(theirs), retry);
    expect(foreign.error).toMatchObject({ code: -32602, message: expect.stringMatching(/another principal/) });
    const bare = await ask({}, retry);
    expect(bare.error).toMatchObject({ code: -32602, message: expect.stringMatching(/another principal/) });
    expect(peeks()).toBe(0);
    const answered = await ask(conv(mine), retry);
    expect(answered.result?.content).toEqual([{ type: 'text', text: 'peeked 1' }]);
  });

  test("a task started in an anonymous conversation runs in its view and belongs to it: another conversation, or none, is told it does not exist", async () => {
    const { toolkit } = createTestToolkit();
    toolkit.enableEquipToolGroups();
    const ran: string[] = [];
    const archive = {
      name: 'archive',
      description: 'Archives everything',
      parameters: { type: 'object' as const, properties: {} },
      execute: () => (ran.push('archive'), 'archived'),
    };
    toolkit.registerTool(withMcpOptions(archive, { taskSupport: 'optional' }), { group: 'admin' });
    const http = await serve(toolkit, { tasks: { pollIntervalMs: 20 } });
    const equip = { name: 'equip_tool_groups', arguments: { add: ['admin'] } };
    const mine = handleOf((await rawRequest(http.url, 'tools/call', equip)).result)!;
    const theirs = handleOf((await rawRequest(http.url, 'tools/call', equip)).result)!;

    const refused = await rawRequest(http.url, 'tools/call', { name: 'archive', arguments: {} });
    expect(refused.result).toMatchObject({ isError: true });
    const created = await rawRequest(http.url, 'tools/call', { name: 'archive', arguments: {} }, { meta: conv(mine) });
    expect(created.result).toMatchObject({ resultType: 'task' });
    const taskId = created.result!.taskId!;
    let done: RawAnswer | undefined;
    await eventually(async () => (done = await rawRequest(http.url, 'tasks/get', { taskId }, { meta: conv(mine) })).result?.status === 'completed');
    expect(done!.result).toMatchObject({ result: { content: [{ type: 'text', text: 'archived' }] } });
    const unknown = await rawRequest(http.url, 'tasks/get', { taskId: 'no-such-task' }, { meta: conv(mine) });
    expect(unknown.error?.code).toEqual(expect.any(Number));
    for (const meta of [conv(theirs), {}]) expect((await rawRequest(http.url, 'tasks/get', { taskId }, { meta })).error).toEqual(unknown.error);
    expect(ran).toEqual(['archive']);
  });
});

describe('2026-07-28 conversation handles and onSession', () => {
  test("a restored conversation is exactly the handle's state, whatever onSession set up for the new session", async () => {
    const { toolkit } = handlesToolkit();
    toolkit.enableEquipToolGroups();
    let activations = 0;
    toolkit.registerTool({
      name: 'leave_skill',
      description: "Leaves this conversation's skill",
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => (await toolkit.session(ctx.sessionId!).deactivateSkill(), 'left'),
    });
    toolkit.registerSkill(
      defineSkill({ name: 'maintenance', description: 'Maintenance mode', tools: ['reset_all', 'leave_skill'], grantGroups: ['admin'], onActivate: () => void activations++ }),
    );
    const http = await serve(toolkit, { onSession: (session) => void session.activateSkill('maintenance') });
    const client = await modernClient(http.url);
    expect(await names(client)).toContain('reset_all'); // the defaults onSession gives every new conversation
    const handle = handleOf(await client.callTool({ name: 'leave_skill', arguments: {}, _meta: { [MCP_CONVERSATION_META_KEY]: 'new' } }))!;
    expect(JSON.parse(Buffer.from(handle.split('.')[1], 'base64url').toString('utf8'))).not.toHaveProperty('s');
    expect(await names(client, handle)).not.toContain('reset_all');
    const refused = await client.callTool({ name: 'reset_all', arguments: {}, _meta: conv(handle) });
    expect(refused.isError).toBe(true);
    expect(activations).toBeGreaterThan(0);
  });
});
