import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { ApprovalManager, defineSkill, Tool, ToolParam, ToolService, Toolkit } from '../../../src';
import { McpPrincipal, bearerAuth, serveMcpHttp, type McpHttpServer } from '../../../src/mcp';
import { createCatalogToolkit, CALLER_CONTEXT } from '../catalog-conformance';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer, eventually } from '../../support/mcp';
import { Reports } from '../../support/scoped-reports';

/**
 * 2026-07-28 clients have no protocol session: what a caller sees is its principal's
 * (`authenticate`), or the toolkit's defaults for an anonymous caller. Resources, prompts and
 * completion are served like tools; list changes reach `subscriptions/listen` streams.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

type CallResult = Awaited<ReturnType<Sdk2Client['callTool']>>;
const textOf = (result: CallResult): string => {
  const first = result.content?.[0];
  return first?.type === 'text' ? first.text : '';
};

async function modernClient(url: URL, token?: string): Promise<Sdk2Client> {
  const client = closer.add(new Sdk2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
  const headers = token === undefined ? undefined : { authorization: `Bearer ${token}` };
  await client.connect(new Sdk2Transport(url, headers ? { requestInit: { headers } } : {}));
  expect(client.getProtocolEra()).toBe('modern');
  return client;
}

const TOKENS = new Map([
  ['t-alice', new McpPrincipal('alice', { scopes: ['reports:write'] })],
  ['t-bob', new McpPrincipal('bob', { scopes: [] })],
]);
const authenticate = bearerAuth((token) => TOKENS.get(token));

describe('2026-07-28: resources, prompts and completion', () => {
  test('lists with cache hints, reads, an unknown resource is -32602 naming its URI, prompts, completion', async () => {
    const http: McpHttpServer = closer.add(await serveMcpHttp(createCatalogToolkit(), { name: 'library', version: '1', context: CALLER_CONTEXT }));
    const client = await modernClient(http.url);
    const resources = await client.listResources();
    expect(resources.resources[0]).toEqual({ uri: 'library://catalog', name: 'catalog', mimeType: 'text/plain', description: 'The catalogue' });
    expect(resources).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('library://books/{isbn}');
    expect((await client.readResource({ uri: 'library://catalog' })).contents).toEqual([{ uri: 'library://catalog', mimeType: 'text/plain', text: 'catalogue for mcp-user' }]);
    expect((await client.readResource({ uri: 'library://books/101' })).contents).toEqual([{ uri: 'library://books/101', mimeType: 'application/json', text: '{"isbn":"101"}' }]);
    await expect(client.readResource({ uri: 'library://nothing' })).rejects.toMatchObject({ code: -32602, data: { uri: 'library://nothing' } });

    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('recommend');
    const prompt = await client.getPrompt({ name: 'recommend', arguments: { genre: 'file-1' } });
    expect(prompt.messages.length).toBeGreaterThan(0);
    await expect(client.getPrompt({ name: 'no_such_prompt', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(await client.complete({ ref: { type: 'ref/resource', uri: 'library://books/{isbn}' }, argument: { name: 'isbn', value: '10' } })).toMatchObject({
      completion: { values: ['100', '101'] },
    });
  });
});

describe('2026-07-28: per-caller lists and the gate', () => {
  function scopedToolkit(): { toolkit: Toolkit; reports: Reports } {
    const { toolkit } = createTestToolkit();
    const reports = new Reports();
    toolkit.registerTool(reports);
    return { toolkit, reports };
  }

  test("another principal's tool is absent from the list (cacheScope private) and refused on call: FORBIDDEN, it did not run", async () => {
    const { toolkit, reports } = scopedToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'reports', version: '1', authenticate }));
    const bob = await modernClient(http.url, 't-bob');
    const alice = await modernClient(http.url, 't-alice');
    const bobList = await bob.listTools();
    expect(bobList).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect(bobList.tools.map((t) => t.name)).not.toContain('write_report');
    expect((await alice.listTools()).tools.map((t) => t.name)).toContain('write_report');

    const refused = await bob.callTool({ name: 'write_report', arguments: { title: 'forged' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/FORBIDDEN|scope/i);
    expect(reports.written).toEqual([]);
    expect(textOf(await alice.callTool({ name: 'write_report', arguments: { title: 'q3' } }))).toBe('wrote q3');
    expect(reports.written).toEqual(['q3']);
  });

  test("a principal's toggle stays its own: another principal neither lists nor calls the tool it switched on", async () => {
    const { toolkit } = scopedToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'reports', version: '1', authenticate }));
    const alice = await modernClient(http.url, 't-alice');
    const bob = await modernClient(http.url, 't-bob');
    expect(textOf(await alice.callTool({ name: 'set_group', arguments: { group: 'admin', active: true } }))).toBe('group admin is on');
    expect((await alice.listTools()).tools.map((t) => t.name)).toContain('reset_all');
    expect(textOf(await alice.callTool({ name: 'reset_all', arguments: {} }))).not.toMatch(/Unknown tool/);

    expect((await bob.listTools()).tools.map((t) => t.name)).not.toContain('reset_all');
    const refused = await bob.callTool({ name: 'reset_all', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/'reset_all' is disabled: its group 'admin' is not active/);
    expect(toolkit.getActiveTools().map((t) => t.name)).not.toContain('reset_all');
  });

  test("an anonymous caller's toggle ends with its request: nobody, itself included, sees it later", async () => {
    const { toolkit } = createTestToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'anon', version: '1' }));
    const first = await modernClient(http.url);
    const other = await modernClient(http.url);
    const sessionsBefore = toolkit.sessionCount;
    expect(textOf(await first.callTool({ name: 'set_group', arguments: { group: 'admin', active: true } }))).toBe('group admin is on');
    for (const client of [first, other]) {
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('reset_all');
      expect((await client.callTool({ name: 'reset_all', arguments: {} })).isError).toBe(true);
    }
    await eventually(() => toolkit.sessionCount === sessionsBefore);
  });
});

describe('2026-07-28: the meta tools are doors too', () => {
  test("equip_tool_groups equips the caller alone; a skill naming an off tool does not reach it; an anonymous equip ends with its request", async () => {
    const { toolkit } = createTestToolkit();
    toolkit.enableEquipToolGroups();
    toolkit.registerSkill(defineSkill({ name: 'wipe', description: 'Reset everything', tools: ['reset_all'], steps: [{ tool: 'reset_all' }] }));
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'meta', version: '1', authenticate }));
    const alice = await modernClient(http.url, 't-alice');
    const bob = await modernClient(http.url, 't-bob');

    const viaSkill = await bob.callTool({ name: 'invoke_skill', arguments: { name: 'wipe' } });
    expect(textOf(viaSkill)).not.toMatch(/reset done/);
    expect(textOf(viaSkill)).toMatch(/reset_all/);
    expect(viaSkill.isError).toBe(true);
    await alice.callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] } });
    expect((await alice.listTools()).tools.map((t) => t.name)).toContain('reset_all');
    expect(textOf(await alice.callTool({ name: 'reset_all', arguments: {} }))).toBe('reset done');
    expect((await bob.listTools()).tools.map((t) => t.name)).not.toContain('reset_all');
    const refused = await bob.callTool({ name: 'reset_all', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/'reset_all' is disabled/);
    expect(textOf(await bob.callTool({ name: 'invoke_skill', arguments: { name: 'wipe' } }))).not.toMatch(/reset done/);

    const open = closer.add(await serveMcpHttp(toolkit, { name: 'meta-anonymous', version: '1' }));
    const anonymous = await modernClient(open.url);
    await anonymous.callTool({ name: 'equip_tool_groups', arguments: { add: ['admin'] } });
    const later = await anonymous.callTool({ name: 'reset_all', arguments: {} });
    expect(later.isError).toBe(true);
    expect(textOf(later)).toMatch(/'reset_all' is disabled/);
  });
});

describe('2026-07-28: approvals decided later', () => {
  @ToolService({ group: 'payments' })
  class Payments {
    readonly runs: string[] = [];

    @Tool({ name: 'pay', description: 'Pay an amount', risk: 'high' })
    pay(@ToolParam({ name: 'amount' }) amount: number, who: McpPrincipal): string {
      this.runs.push(`${who.id}:${amount}`);
      return `paid ${amount} as ${who.id}`;
    }
  }

  test("an approved call runs as its requester, in its view: after the requester's group went off it is refused", async () => {
    const { toolkit } = createTestToolkit();
    toolkit.createToolGroup('payments', 'Payments', false);
    const payments = new Payments();
    toolkit.registerTool(payments);
    toolkit.enableEquipToolGroups();
    const approvals = new ApprovalManager({ minRisk: 'high' });
    toolkit.use(approvals.hook);
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'pay', version: '1', authenticate }));
    const alice = await modernClient(http.url, 't-alice');
    const bob = await modernClient(http.url, 't-bob');

    await alice.callTool({ name: 'equip_tool_groups', arguments: { add: ['payments'] } });
    await alice.callTool({ name: 'pay', arguments: { amount: 5 } });
    expect(approvals.pending()).toHaveLength(1);
    expect(approvals.pending()[0]).toMatchObject({ sessionId: 'principal:alice' });
    expect((await approvals.approve(approvals.pending()[0].id)).forLLM).toBe('paid 5 as alice');

    const bobs = await bob.callTool({ name: 'pay', arguments: { amount: 7 } });
    expect(bobs.isError).toBe(true);
    expect(approvals.pending()).toHaveLength(0);

    await alice.callTool({ name: 'pay', arguments: { amount: 6 } });
    await alice.callTool({ name: 'equip_tool_groups', arguments: { remove: ['payments'] } });
    const late = await approvals.approve(approvals.pending()[0].id);
    expect(late.isError).toBe(true);
    expect(late.error?.code).toBe('TOOL_DISABLED');
    expect(payments.runs).toEqual(['alice:5']);
  });
});

describe('2026-07-28: subscriptions/listen', () => {
  test('a toolkit toggle reaches a listening client as tools list_changed', async () => {
    const { toolkit } = createTestToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'listen', version: '1' }));
    const client = await modernClient(http.url);
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    const subscription = closer.add(await client.listen({ toolsListChanged: true }));
    toolkit.updateToolGroups(['admin'], true);
    await eventually(() => changed > 0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('reset_all');
    await subscription.close();
  });
});
