import 'reflect-metadata';
import { ApprovalManager, defineSkill, isPendingApprovalResult, type ToolEvent, type ToolkitSession, type ToolResult } from '../../../src';
import { Closer, connectInMemory, textOf } from '../../support/mcp';
import { agentTool, call, toolCall } from '../../support/toolkit';
import { setupToolkit } from '../../toolkit/fixtures';

/**
 * Attack: the model (or a client replaying a conversation) keeps calling through a session that
 * was closed (the user logged out) or expired — on every path that reaches a tool: a direct call,
 * a batch, a skill's steps or run, the meta tools, an MCP session, an approval decided later. Each
 * is refused with a clear `SESSION_CLOSED` error result, the tool body never runs, and the refused
 * call still gets its start and end events. A session's caller cannot make a call run as another
 * session either.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

const CLOSED = /^Session '[^']*' is closed \(it expired or was closed\); get a new one with toolkit\.session\(id\)\.$/;

function expectClosed(result: ToolResult): void {
  expect(result).toMatchObject({ isError: true, error: { code: 'SESSION_CLOSED' } });
  expect(result.forLLM).toMatch(CLOSED);
}

/** The toolkit of the fixtures with admin on in session `id`, a `delete_user` that records, and events recorded. */
function adminSession(id: string, ttlMs?: number) {
  const fixture = setupToolkit();
  const session = fixture.toolkit.session(id, ttlMs !== undefined ? { ttlMs } : {});
  session.updateToolGroups(['admin'], true);
  const events: ToolEvent[] = [];
  fixture.toolkit.events$.subscribe((e) => events.push(e));
  return { ...fixture, session, events };
}

/** Each call id of `results` has exactly a call_started and a call_failed with SESSION_CLOSED. */
function expectRefusedEvents(events: readonly ToolEvent[], results: readonly ToolResult[]): void {
  for (const { toolCallId } of results) {
    const own = events.filter((e) => 'callId' in e && e.callId === toolCallId);
    expect(own.map((e) => e.type)).toEqual(['call_started', 'call_failed']);
    expect(own[1]).toMatchObject({ error: { code: 'SESSION_CLOSED' } });
  }
}

describe('attack: calls through a closed or expired session', () => {
  it('callTool after close(): SESSION_CLOSED, nothing runs, with its events', async () => {
    const { session, admin, events } = adminSession('s-close');
    session.close();
    const result = await call(session, 'delete_user', { id: 'u1' });
    expectClosed(result);
    expect(admin.deleted).toEqual([]);
    expectRefusedEvents(events, [result]);
  });

  it('callTool after the TTL ran out (no sweep, no lookup since): SESSION_CLOSED, nothing runs', async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const { session, admin } = adminSession('s-ttl', 1_000);
      jest.setSystemTime(1_001);
      expectClosed(await call(session, 'delete_user', { id: 'u1' }));
      expect(session.closed).toBe(true);
      expect(admin.deleted).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('callTools: every call of the batch is refused in order, none runs', async () => {
    const { session, admin, events } = adminSession('s-batch');
    session.close();
    const calls = [toolCall('delete_user', { id: 'u1' }), toolCall('summarise', { text: 'x' }), toolCall('no_such_tool'), toolCall('delete_user', '{bad')];
    const results = await session.callTools(calls);
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
    results.forEach(expectClosed);
    expect(admin.deleted).toEqual([]);
    expectRefusedEvents(events, results);
  });

  it('skill steps: the session closes during the workflow; the next step is refused and the workflow fails there', async () => {
    const { toolkit, session, admin } = adminSession('s-steps');
    toolkit.registerTool(agentTool('logout', () => (session.close(), 'logged out')));
    toolkit.registerSkill(
      defineSkill({ name: 'wipe', description: 'Log out, then delete', tools: ['logout', 'delete_user'], steps: [{ tool: 'logout' }, { tool: 'delete_user', arguments: { id: 'u1' } }] }),
    );
    const result = await call(session, 'invoke_skill', { name: 'wipe' });
    expect(result.error?.code).toBe('SKILL_FAILED');
    expect(result.forLLM).toMatch(/^Skill 'wipe' failed at step 2\/2 \('delete_user'\): Session 's-steps' is closed/);
    expect(admin.deleted).toEqual([]);
  });

  it('skill run: calls, batches and nested skills of a run whose session closed meanwhile are refused', async () => {
    const { toolkit, session, admin } = adminSession('s-run');
    let release!: () => void;
    const paused = new Promise<void>((resolve) => (release = resolve));
    const seen: ToolResult[] = [];
    toolkit.registerSkill(defineSkill({ name: 'inner', description: 'Nested', tools: ['delete_user'], run: async (_p, ctx) => (await ctx.callTool('delete_user', { id: 'u-inner' })).forLLM }));
    toolkit.registerSkill(
      defineSkill({
        name: 'outer',
        description: 'Waits, then deletes',
        tools: ['delete_user'],
        run: async (_p, ctx) => {
          await paused;
          seen.push(await ctx.callTool('delete_user', { id: 'u1' }));
          seen.push(...(await ctx.callTools([{ name: 'delete_user', arguments: { id: 'u2' } }, { name: 'summarise', arguments: { text: 'x' } }])));
          seen.push(await ctx.invokeSkill('inner'));
          return 'done';
        },
      }),
    );
    const running = call(session, 'invoke_skill', { name: 'outer' });
    await new Promise((resolve) => setImmediate(resolve));
    session.close();
    release();
    await running;
    expect(seen).toHaveLength(4);
    seen.forEach(expectClosed);
    expect(admin.deleted).toEqual([]);
  });

  it('meta tools: invoke_skill, equip_tool_groups and list_skills on a closed session change nothing', async () => {
    const { toolkit, admin } = setupToolkit({ equipToolGroups: true });
    toolkit.registerSkill(defineSkill({ name: 'admin_mode', description: 'Administration', tools: ['delete_user'] }));
    toolkit.registerSkill(defineSkill({ name: 'wipe', description: 'Wipe', tools: ['delete_user'], grantGroups: ['admin'], run: async (_p, ctx) => (await ctx.callTool('delete_user', { id: 'u1' })).forLLM }));
    const session = toolkit.session('s-meta');
    session.close();
    const results = await session.callTools([
      toolCall('equip_tool_groups', { add: ['admin'] }),
      toolCall('invoke_skill', { name: 'admin_mode' }),
      toolCall('invoke_skill', { name: 'wipe' }),
      toolCall('list_skills'),
    ]);
    results.forEach(expectClosed);
    expect(session.activeSkill).toBeUndefined();
    expect(session.getActiveGroups()).not.toContain('admin');
    expect(admin.deleted).toEqual([]);
    // the id now names a new session, from the toolkit's defaults: nothing of the closed one carries over
    const fresh = toolkit.session('s-meta');
    expect(fresh).not.toBe(session);
    expect((await call(fresh, 'delete_user', { id: 'u2' })).error?.code).toBe('TOOL_DISABLED');
  });

  it("MCP: tools/call on a connection whose toolkit session closed or expired is an isError result and runs nothing", async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { toolkit, admin } = setupToolkit({ sessionTtlMs: 1_000 });
      const events: ToolEvent[] = [];
      toolkit.events$.subscribe((e) => events.push(e));
      const sessions: ToolkitSession[] = [];
      const open = async () => {
        const { client } = await connectInMemory(toolkit, closer, { sessions: true, onSession: (s) => (sessions.push(s), s.updateToolGroups(['admin'], true)) });
        expect(textOf(await client.call('summarise', { text: 'warm-up' }))).toBe('summary(warm-up)');
        return client;
      };
      const closed = await open();
      sessions[0].close();
      const refused = await closed.call('delete_user', { id: 'u1' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(CLOSED);

      const expiring = await open();
      jest.setSystemTime(5_000);
      const late = await expiring.call('delete_user', { id: 'u2' });
      expect(late.isError).toBe(true);
      expect(textOf(late)).toMatch(CLOSED);
      expect(admin.deleted).toEqual([]);
      const refusedIds = events.filter((e) => e.type === 'call_failed' && e.error.code === 'SESSION_CLOSED').map((e) => (e as { callId: string }).callId);
      expect(refusedIds).toHaveLength(2);
      for (const id of refusedIds) expect(events.filter((e) => e.type === 'call_started' && e.callId === id)).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('approvals held from a batch and from a skill step, decided after the session closed: SESSION_CLOSED, nothing runs', async () => {
    const { toolkit, session, admin, events } = adminSession('s-held');
    const approvals = new ApprovalManager({ tools: ['delete_user'] });
    toolkit.use(approvals.hook);
    toolkit.registerSkill(defineSkill({ name: 'wipe', description: 'Wipe', tools: ['delete_user'], steps: [{ tool: 'delete_user', arguments: { id: 'u3' } }] }));
    const held = await session.callTools([toolCall('delete_user', { id: 'u1' }), toolCall('delete_user', { id: 'u2' })]);
    expect(held.every(isPendingApprovalResult)).toBe(true);
    expect((await call(session, 'invoke_skill', { name: 'wipe' })).error?.code).toBe('APPROVAL_PENDING');
    expect(approvals.pending({ sessionId: 's-held' })).toHaveLength(3);
    session.close();
    const decided = await Promise.all(approvals.pending().map((p) => approvals.approve(p.id)));
    decided.forEach(expectClosed);
    expect(admin.deleted).toEqual([]);
    expect(approvals.pending()).toEqual([]);
    for (const result of decided) expect(events.filter((e) => e.type === 'call_failed' && e.callId === result.toolCallId)).toHaveLength(1);
  });

  it('the session closes while a before hook of the call is still deciding: the tool does not run', async () => {
    const { toolkit, session, admin } = adminSession('s-hook');
    let decide!: () => void;
    const decided = new Promise<void>((resolve) => (decide = resolve));
    toolkit.use({ name: 'slow-guard', before: () => decided });
    const pending = call(session, 'delete_user', { id: 'u1' });
    await new Promise((resolve) => setImmediate(resolve));
    session.close();
    decide();
    expectClosed(await pending);
    expect(admin.deleted).toEqual([]);
  });

  it("the session's TTL runs out while a before hook of the call is still deciding (nobody closes it): the tool does not run", async () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const { toolkit, session, admin } = adminSession('s-hook-ttl', 1_000);
      let decide!: () => void;
      const decided = new Promise<void>((resolve) => (decide = resolve));
      toolkit.use({ name: 'slow-guard', before: () => decided });
      // the call passes its first check now, while the session is open
      const pending = call(session, 'delete_user', { id: 'u1' });
      jest.setSystemTime(1_001);
      decide();
      expectClosed(await pending);
      expect(admin.deleted).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("attack: a session's caller naming another session in the call options", () => {
  it("callTool(call, { sessionId: 'other' }) runs as the view's own session: context, events and hooks see its id", async () => {
    const { toolkit } = setupToolkit();
    const seen: (string | undefined)[] = [];
    toolkit.registerTool(agentTool('whoami', (_args, ctx) => (seen.push(ctx.sessionId), ctx.sessionId ?? '-')));
    const hooked: (string | undefined)[] = [];
    toolkit.use({ name: 'audit', before: (ctx) => void hooked.push(ctx.sessionId) });
    const events: ToolEvent[] = [];
    toolkit.events$.subscribe((e) => events.push(e));
    const mine = toolkit.session('mine');
    await mine.callTool(toolCall('whoami'), { sessionId: 'other' });
    await mine.callTools([toolCall('whoami')], { sessionId: 'other' });
    expect(seen).toEqual(['mine', 'mine']);
    expect(hooked).toEqual(['mine', 'mine']);
    expect(events.filter((e) => 'callId' in e).every((e) => (e as { sessionId?: string }).sessionId === 'mine')).toBe(true);
  });

  it("a remembered approval of another session does not cover a call that names that session's id", async () => {
    const { toolkit, admin } = setupToolkit();
    const approvals = new ApprovalManager({ tools: ['delete_user'] });
    toolkit.use(approvals.hook);
    const trusted = toolkit.session('trusted');
    trusted.updateToolGroups(['admin'], true);
    await call(trusted, 'delete_user', { id: 'u1' });
    await approvals.approve(approvals.pending()[0].id, { remember: 'session' });
    const attacker = toolkit.session('attacker');
    attacker.updateToolGroups(['admin'], true);
    const result = await call(attacker, 'delete_user', { id: 'u2' }, { sessionId: 'trusted' });
    expect(isPendingApprovalResult(result)).toBe(true);
    expect(approvals.pending().map((p) => p.sessionId)).toEqual(['attacker']);
    expect(admin.deleted).toEqual(['u1']);
  });

  it('a closed session stays closed when the options name an open session', async () => {
    const { toolkit, admin } = setupToolkit();
    toolkit.session('open').updateToolGroups(['admin'], true);
    const closed = toolkit.session('closed');
    closed.close();
    expectClosed(await call(closed, 'delete_user', { id: 'u1' }, { sessionId: 'open' }));
    expect(admin.deleted).toEqual([]);
  });
});
