import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { defineSkill, type ToolResult } from '../../../src';
import { createMcpServer } from '../../../src/mcp';
import { ApprovalManager, isPendingApprovalResult } from '../../../src';
import { setupToolkit } from '../../toolkit/fixtures';
import { call } from '../../support/toolkit';

/**
 * Regression: with group `admin` inactive and `equip_tool_groups` off, `invoke_skill` of a skill
 * whose steps (or run) call `delete_user` ran the admin tool. Groups are the permission boundary:
 * a skill selects among the tools its view permits, unless its definition grants the group.
 */
const wipeSteps = defineSkill({
  name: 'wipe',
  description: 'Delete a user in one step',
  tools: [],
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  steps: [{ tool: 'delete_user', arguments: ({ params }) => ({ id: params.id as string }) }],
});

const wipeRun = defineSkill({
  name: 'wipe_run',
  description: 'Delete a user from code',
  tools: ['delete_user'],
  parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  run: async ({ id }, ctx) => (await ctx.callTool('delete_user', { id: id as string })).forLLM,
});

const adminScope = defineSkill({ name: 'admin_mode', description: 'Administration', tools: ['delete_user', 'summarise'] });

function expectDisabled(result: ToolResult, tool = 'delete_user'): void {
  expect(result.isError).toBe(true);
  expect(result.forLLM).toContain(`Tool '${tool}' is disabled`);
}

describe('security: a skill cannot reach a tool of an inactive group', () => {
  it('invoke_skill of a workflow whose step calls an admin tool: the step gets TOOL_DISABLED, nothing is deleted', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(wipeSteps);
    const result = await call(toolkit, 'invoke_skill', { name: 'wipe', parameters: { id: 'u1' } });
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('SKILL_FAILED');
    expect(result.forLLM).toContain("Tool 'delete_user' is disabled: its group 'admin' is not active");
    expect(admin.deleted).toEqual([]);
  });

  it('invoke_skill of a run() that calls an admin tool: TOOL_DISABLED for the call, nothing is deleted (toolkit and session views)', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(wipeRun);
    expect((await call(toolkit, 'invoke_skill', { name: 'wipe_run', parameters: { id: 'u1' } })).forLLM).toContain("Tool 'delete_user' is disabled");
    const session = toolkit.session('s-1');
    expect((await call(session, 'invoke_skill', { name: 'wipe_run', parameters: { id: 'u2' } })).forLLM).toContain("Tool 'delete_user' is disabled");
    expect(admin.deleted).toEqual([]);
  });

  it('a scoping skill that lists an admin tool does not enable it: not listed, and a direct call is TOOL_DISABLED', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(adminScope);
    await call(toolkit, 'invoke_skill', { name: 'admin_mode' });
    expect(toolkit.activeSkill).toBe('admin_mode');
    expect(toolkit.getActiveTools().map((t) => t.name)).not.toContain('delete_user');
    expect(toolkit.toProviderDefs('openai').map((d) => d.function.name)).not.toContain('delete_user');
    const result = await call(toolkit, 'delete_user', { id: 'u1' });
    expect(result.error?.code).toBe('TOOL_DISABLED');
    expectDisabled(result);
    expect(admin.deleted).toEqual([]);
  });

  it('a session that switched admin on sees the scoped admin tool; another session does not', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(wipeRun);
    const allowed = toolkit.session('ops');
    allowed.updateToolGroups(['admin'], true);
    const other = toolkit.session('guest');
    expect((await call(allowed, 'invoke_skill', { name: 'wipe_run', parameters: { id: 'u1' } })).forLLM).toBe('deleted u1');
    expect((await call(other, 'invoke_skill', { name: 'wipe_run', parameters: { id: 'u2' } })).forLLM).toContain("Tool 'delete_user' is disabled");
    expect(admin.deleted).toEqual(['u1']);
  });

  it('the developer grants a group explicitly in the skill definition (grantGroups): then the skill reaches it', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(defineSkill({ ...wipeSteps, name: 'wipe_granted', grantGroups: ['admin'] }));
    toolkit.registerSkill(defineSkill({ ...adminScope, name: 'admin_granted', grantGroups: ['admin'] }));
    expect((await call(toolkit, 'invoke_skill', { name: 'wipe_granted', parameters: { id: 'u1' } })).forLLM).toBe('deleted u1');
    await toolkit.activateSkill('admin_granted');
    expect(toolkit.getAvailability().find((a) => a.name === 'delete_user')).toEqual({ name: 'delete_user', source: 'skill', owner: 'admin_granted' });
    expect((await call(toolkit, 'delete_user', { id: 'u2' })).forLLM).toBe('deleted u2');
    await toolkit.deactivateSkill();
    expect((await call(toolkit, 'delete_user', { id: 'u3' })).error?.code).toBe('TOOL_DISABLED');
    expect(admin.deleted).toEqual(['u1', 'u2']);
  });

  it('grantGroups is checked at definition time', () => {
    expect(() => defineSkill({ ...wipeSteps, grantGroups: 'admin' as unknown as string[] })).toThrow(/grantGroups must be an array of group names/);
  });

  it('a nested skill run does not inherit the outer run grant', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(wipeSteps);
    toolkit.registerSkill(
      defineSkill({
        name: 'outer',
        description: 'Invokes wipe',
        tools: [],
        grantGroups: ['admin'],
        run: async (_p, ctx) => (await ctx.invokeSkill('wipe', { id: 'u9' })).forLLM,
      }),
    );
    expect((await call(toolkit, 'invoke_skill', { name: 'outer' })).forLLM).toContain("Tool 'delete_user' is disabled");
    expect(admin.deleted).toEqual([]);
  });

  it('an approval resumed later is gated by the requester view as it is then', async () => {
    const { toolkit, admin } = setupToolkit();
    const approvals = new ApprovalManager({ tools: ['delete_user'] });
    toolkit.use(approvals.hook);
    const session = toolkit.session('s-approve');
    session.updateToolGroups(['admin'], true);
    const held = await call(session, 'delete_user', { id: 'u1' });
    expect(isPendingApprovalResult(held)).toBe(true);
    session.updateToolGroups(['admin'], false);
    const [pending] = approvals.pending();
    const result = await approvals.approve(pending.id, { toolkit });
    expect(result.error?.code).toBe('TOOL_DISABLED');
    expect(admin.deleted).toEqual([]);
  });

  it('over MCP: tools/call of invoke_skill reaches no admin tool', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(wipeSteps);
    const server = createMcpServer(toolkit, { name: 'test', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'attacker', version: '1.0.0' });
    await client.connect(clientTransport);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name)).not.toContain('delete_user');
      const direct = await client.callTool({ name: 'delete_user', arguments: { id: 'u1' } });
      expect(direct.isError).toBe(true);
      const viaSkill = await client.callTool({ name: 'invoke_skill', arguments: { name: 'wipe', parameters: { id: 'u2' } } });
      expect(viaSkill.isError).toBe(true);
      expect(JSON.stringify(viaSkill.content)).toContain("Tool 'delete_user' is disabled");
      expect(admin.deleted).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
