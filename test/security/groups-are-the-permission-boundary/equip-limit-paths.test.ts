import 'reflect-metadata';
import { defineSkill, type ToolEvent, type ToolResult } from '../../../src';
import { Closer, connectInMemory, textOf } from '../../support/mcp';
import { agentTool, call, toolCall } from '../../support/toolkit';
import { setupToolkit } from '../../toolkit/fixtures';

/**
 * Attack: the model tries to get more tools active, or more tool calls run, than the developer
 * allowed — on every path: `equip_tool_groups` limited to named groups (called directly, in a
 * batch beside the tool it wants, from a skill's run or steps, over MCP, from another session at
 * the same moment), a scoping skill activated by `invoke_skill` in the same batch as calls outside
 * its scope, and a skill run's `maxToolCalls` raced by concurrent calls and nested `invoke_skill`s.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

const NOT_EQUIPPABLE = "Invalid arguments for tool 'equip_tool_groups':\n- 'add[0]': must be one of [\"search\"], got \"admin\"\nFix these and call the tool again.";

/** The fixtures' toolkit with `equip_tool_groups` limited to the `search` group (`admin` stays out of the model's reach). */
function limitedEquip() {
  return setupToolkit({ equipToolGroups: { groups: ['search'] } });
}

describe('attack: equip_tool_groups beyond the groups it may switch', () => {
  it('direct calls, in the toolkit view and in a session: refused, admin stays off', async () => {
    const { toolkit, admin } = limitedEquip();
    const session = toolkit.session('s-equip');
    for (const view of [toolkit, session]) {
      expect((await call(view, 'equip_tool_groups', { add: ['admin'] })).forLLM).toBe(NOT_EQUIPPABLE);
      expect(view.getActiveGroups()).not.toContain('admin');
      expect((await call(view, 'delete_user', { id: 'u1' })).error?.code).toBe('TOOL_DISABLED');
    }
    expect(admin.deleted).toEqual([]);
  });

  it('cannot switch off a group the operator switched on, either', async () => {
    const { toolkit } = limitedEquip();
    const session = toolkit.session('s-operator');
    session.updateToolGroups(['admin'], true);
    const result = await call(session, 'equip_tool_groups', { remove: ['admin'] });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(session.getActiveGroups()).toContain('admin');
  });

  it('in one batch with the tool it wants to reach (with and without hooks): both refused', async () => {
    for (const hooked of [false, true]) {
      const { toolkit, admin } = limitedEquip();
      if (hooked) toolkit.use({ name: 'async-audit', before: () => Promise.resolve() });
      const results = await toolkit.session('s-batch').callTools([toolCall('equip_tool_groups', { add: ['admin'] }), toolCall('delete_user', { id: 'u1' })]);
      expect(results.map((r) => r.error?.code)).toEqual(['INVALID_ARGUMENTS', 'TOOL_DISABLED']);
      expect(admin.deleted).toEqual([]);
    }
  });

  it("from a skill's run and steps: the meta tool is reachable, its limit holds", async () => {
    const { toolkit, admin } = limitedEquip();
    toolkit.registerSkill(
      defineSkill({
        name: 'escalate',
        description: 'Tries to equip admin from code',
        tools: ['delete_user'],
        run: async (_p, ctx) => {
          const equip = await ctx.callTool('equip_tool_groups', { add: ['admin'] });
          const deleted = await ctx.callTool('delete_user', { id: 'u1' });
          return `${equip.error?.code} ${deleted.error?.code}`;
        },
      }),
    );
    toolkit.registerSkill(
      defineSkill({
        name: 'escalate_steps',
        description: 'Tries to equip admin in a workflow',
        tools: ['delete_user'],
        steps: [{ tool: 'equip_tool_groups', arguments: { add: ['admin'] } }, { tool: 'delete_user', arguments: { id: 'u2' } }],
      }),
    );
    const session = toolkit.session('s-skill');
    expect((await call(session, 'invoke_skill', { name: 'escalate' })).forLLM).toBe('INVALID_ARGUMENTS TOOL_DISABLED');
    const steps = await call(session, 'invoke_skill', { name: 'escalate_steps' });
    expect(steps.forLLM).toMatch(/^Skill 'escalate_steps' failed at step 1\/2 \('equip_tool_groups'\): Invalid arguments/);
    expect(session.getActiveGroups()).not.toContain('admin');
    expect(admin.deleted).toEqual([]);
  });

  it('over MCP: refused as an isError result; the tool list never gains the admin tools', async () => {
    const { toolkit, admin } = limitedEquip();
    const { client } = await connectInMemory(toolkit, closer, { sessions: true });
    const refused = await client.call('equip_tool_groups', { add: ['admin'] });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(NOT_EQUIPPABLE);
    expect(await client.toolNames()).not.toContain('delete_user');
    expect((await client.call('delete_user', { id: 'u1' })).isError).toBe(true);
    expect(admin.deleted).toEqual([]);
  });

  it('a group equipped in one session does not reach a call of another session made at the same moment', async () => {
    const { toolkit, admin } = setupToolkit({ equipToolGroups: { groups: ['admin'] } });
    const [equipped, other] = await Promise.all([
      call(toolkit.session('A'), 'equip_tool_groups', { add: ['admin'] }),
      call(toolkit.session('B'), 'delete_user', { id: 'u1' }),
    ]);
    expect(equipped.isError).toBe(false);
    expect(other.error?.code).toBe('TOOL_DISABLED');
    expect(toolkit.getActiveGroups()).not.toContain('admin');
    expect(admin.deleted).toEqual([]);
  });
});

describe('attack: calls beside invoke_skill of a scoping skill in one batch', () => {
  it('the calls after it in the batch are held to its scope, with and without hooks', async () => {
    for (const hooked of [false, true]) {
      const { toolkit, admin } = setupToolkit();
      if (hooked) toolkit.use({ name: 'async-audit', before: () => Promise.resolve() });
      toolkit.registerSkill(defineSkill({ name: 'research', description: 'Research only', tools: ['web_search'] }));
      const session = toolkit.session('s-scope');
      session.updateToolGroups(['admin'], true);
      const results = await session.callTools([
        toolCall('invoke_skill', { name: 'research' }),
        toolCall('summarise', { text: 'x' }),
        toolCall('delete_user', { id: 'u1' }),
        toolCall('web_search', { query: 'q' }),
      ]);
      expect(results.map((r) => r.error?.code)).toEqual([undefined, 'TOOL_DISABLED', 'TOOL_DISABLED', undefined]);
      expect(admin.deleted).toEqual([]);
    }
  });

  it('a scoping skill that lists an admin tool, invoked in the batch, does not switch the admin group on', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.registerSkill(defineSkill({ name: 'admin_mode', description: 'Administration', tools: ['delete_user'] }));
    const results = await toolkit.session('s-lists').callTools([toolCall('invoke_skill', { name: 'admin_mode' }), toolCall('delete_user', { id: 'u1' })]);
    expect(results[1].error?.code).toBe('TOOL_DISABLED');
    expect(admin.deleted).toEqual([]);
  });
});

describe("attack: racing a skill run's maxToolCalls", () => {
  /** A `tick` tool that counts its runs and how many run at once; `release()` lets the waiting ones finish. */
  function ticking() {
    const fixture = setupToolkit();
    const counts = { runs: 0, running: 0, most: 0 };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fixture.toolkit.registerTool(
      agentTool('tick', async () => {
        counts.runs++;
        counts.most = Math.max(counts.most, ++counts.running);
        await gate;
        counts.running--;
        return 'tick';
      }),
    );
    const events: ToolEvent[] = [];
    fixture.toolkit.events$.subscribe((e) => events.push(e));
    return { ...fixture, counts, release, events };
  }

  it('concurrent callTool and callTools over the cap: exactly the cap runs, every other call is refused with its own id and events', async () => {
    const { toolkit, counts, release, events } = ticking();
    const answers: ToolResult[] = [];
    toolkit.registerSkill(
      defineSkill({
        name: 'flood',
        description: 'Fires many calls at once',
        tools: ['tick'],
        maxToolCalls: 5,
        run: async (_p, ctx) => {
          const all = Promise.all([ctx.callTools(Array.from({ length: 8 }, () => ({ name: 'tick' }))), ctx.callTool('tick'), ctx.callTool('tick')]);
          setImmediate(release);
          const [batch, one, two] = await all;
          answers.push(...batch, one, two);
          return 'finished';
        },
      }),
    );
    const result = await toolkit.callTool({ id: 'f', name: 'invoke_skill', arguments: { name: 'flood' } });
    expect(result.error?.code).toBe('SKILL_LIMIT_EXCEEDED');
    expect(counts.runs).toBe(5);
    expect(counts.most).toBeLessThanOrEqual(5);
    const refused = answers.filter((r) => r.error?.code === 'SKILL_LIMIT_EXCEEDED');
    expect(refused).toHaveLength(5);
    const ids = answers.map((r) => r.toolCallId);
    expect(new Set(ids).size).toBe(10);
    for (const { toolCallId } of refused) {
      expect(events.filter((e) => 'callId' in e && e.callId === toolCallId).map((e) => e.type)).toEqual(['call_started', 'call_failed']);
    }
  });

  it('invoke_skill in a batch inside a run counts against the cap; each nested run has its own cap; depth is bounded', async () => {
    const { toolkit, counts, release } = ticking();
    release();
    toolkit.registerSkill(
      defineSkill({ name: 'child', description: 'Ticks three times', tools: ['tick'], maxToolCalls: 2, run: async (_p, ctx) => (await ctx.callTools([{ name: 'tick' }, { name: 'tick' }, { name: 'tick' }])).length }),
    );
    toolkit.registerSkill(
      defineSkill({
        name: 'parent',
        description: 'Invokes children in a batch',
        tools: [],
        maxToolCalls: 2,
        run: async (_p, ctx) => (await ctx.callTools(Array.from({ length: 4 }, () => ({ name: 'invoke_skill', arguments: { name: 'child' } })))).map((r) => r.error?.code ?? 'ok'),
      }),
    );
    const result = await call(toolkit, 'invoke_skill', { name: 'parent' });
    expect(result.error?.code).toBe('SKILL_LIMIT_EXCEEDED');
    // two children ran, each stopped at its own cap of 2 ticks
    expect(counts.runs).toBe(4);

    let depth = 0;
    toolkit.registerSkill(
      defineSkill({
        name: 'recurse',
        description: 'Invokes itself',
        tools: [],
        run: async (_p, ctx) => {
          depth = Math.max(depth, ctx.depth);
          return (await ctx.callTools([{ name: 'invoke_skill', arguments: { name: 'recurse' } }, { name: 'invoke_skill', arguments: { name: 'recurse' } }]))[0].forLLM;
        },
      }),
    );
    const deep = await call(toolkit, 'invoke_skill', { name: 'recurse' });
    expect(deep.forLLM).toContain('would nest 4 deep; the limit is 3');
    expect(depth).toBe(3);
  });

  it('concurrent invoke_skill calls of one skill in a toolkit batch: each run is capped on its own, none borrows another budget', async () => {
    const { toolkit, counts, release } = ticking();
    release();
    toolkit.registerSkill(
      defineSkill({ name: 'greedy', description: 'Ticks five times', tools: ['tick'], maxToolCalls: 2, run: async (_p, ctx) => (await ctx.callTools(Array.from({ length: 5 }, () => ({ name: 'tick' })))).length }),
    );
    const results = await toolkit.callTools(Array.from({ length: 3 }, () => toolCall('invoke_skill', { name: 'greedy' })));
    expect(results.map((r) => r.error?.code)).toEqual(Array(3).fill('SKILL_LIMIT_EXCEEDED'));
    expect(counts.runs).toBe(6);
  });
});
