import 'reflect-metadata';
import { asyncResult, defineSkill, type AgentTool, type AsyncCallback, type ToolEvent } from '../../../src';
import { setupToolkit } from '../../toolkit/fixtures';
import { call } from '../../support/toolkit';

/**
 * Attacks found in review: a group switched off while a skill was active kept its tools running
 * (and came back on when the skill ended); two live calls with one call id to an AsyncTool got each
 * other's background completions.
 */
describe('attack: revoking a group while a skill is active', () => {
  it('updateToolGroups(admin, false) during a scoping skill disables its admin tool now and after the skill', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(defineSkill({ name: 'admin_mode', description: 'Administration', tools: ['delete_user', 'summarise'] }));
    const session = toolkit.session('s-revoke');
    session.updateToolGroups(['admin'], true);
    await session.activateSkill('admin_mode');
    expect((await call(session, 'delete_user', { id: 'u0' })).forLLM).toBe('deleted u0');
    session.updateToolGroups(['admin'], false); // the operator revokes admin for this session
    expect(session.getToolGroups().find((g) => g.name === 'admin')?.active).toBe(false);
    expect((await call(session, 'delete_user', { id: 'u1' })).error?.code).toBe('TOOL_DISABLED');
    await session.deactivateSkill();
    expect((await call(session, 'delete_user', { id: 'u2' })).error?.code).toBe('TOOL_DISABLED');
    expect(admin.deleted).toEqual(['u0']);
  });

  it('a revoked group stays out of reach of executable skills without a grant', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(defineSkill({ name: 'scope', description: 'Scope', tools: ['summarise'] }));
    toolkit.registerSkill(
      defineSkill({ name: 'wipe', description: 'Wipe', tools: ['delete_user'], run: async (_p, ctx) => (await ctx.callTool('delete_user', { id: 'u9' })).forLLM }),
    );
    const session = toolkit.session('s-revoke-2');
    session.updateToolGroups(['admin'], true);
    await session.activateSkill('scope');
    session.updateToolGroups(['admin'], false);
    expect((await call(session, 'invoke_skill', { name: 'wipe' })).forLLM).toContain("Tool 'delete_user' is disabled");
    expect(admin.deleted).toEqual([]);
  });
});

describe('attack: revoking a group while a before hook of the call is deciding', () => {
  it('the tool does not run: TOOL_DISABLED once the hooks are done', async () => {
    const { toolkit, admin } = setupToolkit();
    let decide!: () => void;
    const decided = new Promise<void>((resolve) => (decide = resolve));
    toolkit.use({ name: 'slow-guard', before: () => decided });
    const session = toolkit.session('s-revoke-hook');
    session.updateToolGroups(['admin'], true);
    const pending = call(session, 'delete_user', { id: 'u1' });
    await new Promise((resolve) => setImmediate(resolve));
    session.updateToolGroups(['admin'], false);
    decide();
    expect((await pending).error?.code).toBe('TOOL_DISABLED');
    expect(admin.deleted).toEqual([]);
  });
});

describe('attack: the same call id in two sessions of one toolkit', () => {
  it("an AsyncTool completion for session A's call never reaches session B: B's call with the same live id is refused", async () => {
    const { toolkit } = setupToolkit();
    let complete: AsyncCallback | undefined;
    let runs = 0;
    const tool: AgentTool & { setCallback(c: AsyncCallback): void } = {
      name: 'export_data',
      description: 'Export',
      parameters: { type: 'object', properties: {} },
      setCallback: (c) => (complete = c),
      execute: () => (++runs, asyncResult('started')),
    };
    toolkit.registerTool(tool);
    const done: Extract<ToolEvent, { type: 'async_completed' }>[] = [];
    toolkit.events$.subscribe((e) => e.type === 'async_completed' && done.push(e));
    await toolkit.session('A').callTool({ id: 'call_1', name: 'export_data', arguments: {} });
    const second = await toolkit.session('B').callTool({ id: 'call_1', name: 'export_data', arguments: {} });
    expect(second.error?.code).toBe('DUPLICATE_CALL_ID');
    expect(runs).toBe(1);
    complete!({ toolCallId: 'call_1', forLLM: "A's export", isError: false, async: false, silent: false });
    expect(done.map((e) => e.sessionId)).toEqual(['A']);
    // once completed, the id is free again
    expect((await toolkit.session('B').callTool({ id: 'call_1', name: 'export_data', arguments: {} })).forLLM).toBe('started');
  });
});
