import 'reflect-metadata';
import { ToolExecutionContext, type ToolEvent, type ToolResult } from '../../src';
import {
  APPROVAL_NOT_PENDING,
  ApprovalManager,
  createApprovalHook,
  createGuardrailHook,
  isPendingApprovalResult,
  type PendingApproval,
} from '../../src';
import { FileService, RunLog, loggedTool } from '../support/logged-tools';
import { rejection, thrown } from '../support/errors';
import { freshToolkit, toolCall } from '../support/toolkit';

function setup(options: ConstructorParameters<typeof ApprovalManager>[0] = { tools: ['delete_file'] }) {
  FileService.runs = [];
  const toolkit = freshToolkit();
  toolkit.registerTool(FileService);
  const approvals = new ApprovalManager(options);
  toolkit.use(approvals.hook);
  return { toolkit, approvals };
}

describe('ApprovalManager: holding calls', () => {
  it('answers a held call with a pending result and records a serialisable PendingApproval', async () => {
    const { toolkit, approvals } = setup();
    const seen: (readonly PendingApproval[])[] = [];
    approvals.pending$.subscribe((list) => seen.push(list));

    const call = toolCall('delete_file', '{"path":"/tmp/a"}');
    const result = await toolkit.callTool(call);

    expect(FileService.runs).toEqual([]);
    expect(result).toMatchObject({ isError: false, async: true, silent: false, toolCallId: call.id, name: 'delete_file' });
    expect(result.error).toBeUndefined();
    expect(isPendingApprovalResult(result)).toBe(true);
    const [pending] = approvals.pending();
    expect(result.data).toEqual({ approvalId: pending.id });
    expect(result.forLLM).toContain(`'${pending.id}'`);
    expect(result.forLLM).toMatch(/approval/);
    expect(pending).toEqual({
      id: expect.stringMatching(/^appr_/),
      call: { id: call.id, name: 'delete_file', arguments: '{"path":"/tmp/a"}' },
      toolName: 'delete_file',
      arguments: { path: '/tmp/a' },
      reason: "tool 'delete_file' always needs approval",
      createdAt: expect.any(Number),
    });
    expect(JSON.parse(JSON.stringify(pending))).toEqual(pending);
    expect(approvals.get(pending.id)).toBe(pending);
    expect(seen.map((l) => l.length)).toEqual([0, 1]);
  });

  it('lets calls the policy does not match run at once', async () => {
    const { toolkit, approvals } = setup();
    const result = await toolkit.callTool(toolCall('read_file', { path: '/etc/hosts' }));
    expect(result).toMatchObject({ isError: false, async: false, forLLM: 'contents of /etc/hosts' });
    expect(approvals.pending()).toEqual([]);
    expect(FileService.runs).toEqual([{ tool: 'read_file', path: '/etc/hosts' }]);
  });

  it('holds tools at or above a risk level', async () => {
    const { toolkit, approvals } = setup({ minRisk: 'medium' });
    const results = await toolkit.callTools([
      toolCall('read_file', { path: 'a' }),
      toolCall('write_file', { path: 'b', text: 'x' }),
      toolCall('delete_file', { path: 'c' }),
    ]);
    expect(results.map(isPendingApprovalResult)).toEqual([false, true, true]);
    expect(approvals.pending().map((p) => p.reason)).toEqual([
      "tool 'write_file' has risk level 'medium'",
      "tool 'delete_file' has risk level 'high'",
    ]);
    expect(FileService.runs.map((r) => r.tool)).toEqual(['read_file']);
  });

  it('holds calls a predicate matches, with its reason', async () => {
    const { toolkit, approvals } = setup({
      when: (ctx) => (String(ctx.arguments.path).startsWith('/etc') ? 'it touches system configuration' : false),
    });
    const [held, free] = await toolkit.callTools([toolCall('write_file', { path: '/etc/passwd', text: 'x' }), toolCall('write_file', { path: '/tmp/x', text: 'y' })]);
    expect(isPendingApprovalResult(held)).toBe(true);
    expect(free.forLLM).toBe('wrote 1 characters to /tmp/x');
    expect(approvals.pending()[0].reason).toBe('it touches system configuration');
    expect(held.forLLM).toContain('it touches system configuration');
  });

  it('a predicate returning true holds with a generic reason; false, undefined and an empty string let the call run', async () => {
    const verdicts = [true, false, undefined, ''];
    const { toolkit, approvals } = setup({ when: (ctx) => verdicts[Number(ctx.arguments.path)] });
    const results = await toolkit.callTools(verdicts.map((_, i) => toolCall('read_file', { path: String(i) })));
    expect(results.map(isPendingApprovalResult)).toEqual([true, false, false, false]);
    expect(approvals.pending()[0].reason).toBe("the approval policy requires it for tool 'read_file'");
  });

  it('records the session of a held call', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.session('s-1').callTool(toolCall('delete_file', { path: 'x' }));
    expect(approvals.pending()[0].sessionId).toBe('s-1');
  });

  it('rejects an invalid policy at construction', () => {
    expect(thrown(() => new ApprovalManager({ minRisk: 'extreme' as 'high' })).code).toBe('INVALID_OPTIONS');
    expect(thrown(() => new ApprovalManager({ maxPendingPerSession: 0 })).code).toBe('INVALID_OPTIONS');
  });

  it('a generateId that repeats an id fails the second held call, which does not run', async () => {
    const { toolkit, approvals } = setup({ tools: ['delete_file'], generateId: () => 'appr_same' });
    const [held, repeated] = await toolkit.callTools([toolCall('delete_file', { path: 'a' }), toolCall('delete_file', { path: 'b' })]);
    expect(isPendingApprovalResult(held)).toBe(true);
    expect(repeated.error?.code).toBe('HOOK_FAILED');
    expect(repeated.forLLM).toContain("generateId() returned 'appr_same' twice");
    expect(approvals.pending()).toHaveLength(1);
    expect(FileService.runs).toEqual([]);
  });

  it('createApprovalHook returns a usable hook carrying its manager', async () => {
    FileService.runs = [];
    const toolkit = freshToolkit();
    toolkit.registerTool(FileService);
    const approval = createApprovalHook({ tools: ['delete_file'] });
    toolkit.use(approval);
    expect(approval.name).toBe('approval');
    await toolkit.callTool(toolCall('delete_file', { path: 'x' }));
    const [pending] = approval.approvals.pending();
    const result = await approval.approvals.approve(pending.id, { toolkit });
    expect(result.forLLM).toBe('deleted x');
  });
});

describe('ApprovalManager: deciding', () => {
  it('approve runs the call once and resolves to its result, answering the original call id', async () => {
    const { toolkit, approvals } = setup();
    const call = toolCall('delete_file', { path: '/tmp/a' });
    await toolkit.callTool(call);
    const [pending] = approvals.pending();
    const decisions: string[] = [];
    approvals.decisions$.subscribe((d) => decisions.push(`${d.decision}:${d.result.toolCallId}`));

    const result = await approvals.approve(pending.id, { toolkit });

    expect(result).toMatchObject({ forLLM: 'deleted /tmp/a', isError: false, async: false, toolCallId: call.id, name: 'delete_file' });
    expect(FileService.runs).toEqual([{ tool: 'delete_file', path: '/tmp/a' }]);
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toEqual([`approved:${call.id}`]);
  });

  it('a second approve or reject of the same id throws APPROVAL_NOT_PENDING and runs nothing', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.callTool(toolCall('delete_file', { path: 'p' }));
    const [{ id }] = approvals.pending();
    await approvals.approve(id, { toolkit });

    const again = await rejection(approvals.approve(id, { toolkit }));
    expect(again.code).toBe(APPROVAL_NOT_PENDING);
    expect(again.message).toMatch(/already approved/);
    const late = await rejection(approvals.reject(id, 'too late'));
    expect(late.code).toBe(APPROVAL_NOT_PENDING);
    expect(FileService.runs).toHaveLength(1);
  });

  it('two approvals of the same id at the same moment run the call once', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.callTool(toolCall('delete_file', { path: 'p' }));
    const [{ id }] = approvals.pending();
    const outcomes = await Promise.allSettled([approvals.approve(id, { toolkit }), approvals.approve(id, { toolkit })]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(FileService.runs).toHaveLength(1);
  });

  it('an unknown id is a clear error', async () => {
    const { toolkit, approvals } = setup();
    const error = await rejection(approvals.approve('appr_nope', { toolkit }));
    expect(error.code).toBe(APPROVAL_NOT_PENDING);
    expect(error.message).toContain("No pending approval 'appr_nope'");
  });

  it('approve of a call held in this process needs no toolkit or view: it runs where it was requested', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.callTool(toolCall('delete_file', { path: 'p' }));
    const [{ id }] = approvals.pending();
    expect((await approvals.approve(id)).forLLM).toBe('deleted p');
    expect(approvals.pending()).toHaveLength(0);
  });

  it('reject answers with an APPROVAL_REJECTED error result; the tool never runs', async () => {
    const { toolkit, approvals } = setup();
    const call = toolCall('delete_file', { path: '/important' });
    await toolkit.callTool(call);
    const [{ id }] = approvals.pending();

    const result = await approvals.reject(id, 'that file is needed');

    expect(result).toMatchObject({ isError: true, toolCallId: call.id, name: 'delete_file', error: { code: 'APPROVAL_REJECTED' } });
    expect(result.forLLM).toContain('that file is needed');
    expect(result.error!.message).toBe(result.forLLM);
    expect(FileService.runs).toEqual([]);
    expect(approvals.pending()).toEqual([]);
    expect((await rejection(approvals.approve(id, { toolkit }))).message).toMatch(/already rejected/);
  });

  it('an approved call runs in its session', async () => {
    const log = new RunLog();
    const toolkit = freshToolkit();
    toolkit.registerTool(loggedTool(log, 'wipe', { risk: 'high' }));
    const approvals = new ApprovalManager({ minRisk: 'high' });
    toolkit.use(approvals.hook);
    const events: ToolEvent[] = [];
    toolkit.events$.subscribe((e) => events.push(e));

    await toolkit.session('s-7').callTool(toolCall('wipe', { n: 1 }));
    await approvals.approve(approvals.pending()[0].id, { toolkit });

    expect(log.runs).toEqual([expect.objectContaining({ tool: 'wipe', sessionId: 's-7', args: { n: 1 } })]);
    // one start for the call held for approval, one for the approved run: both in the session
    expect(events.filter((e) => e.type === 'call_started').map((e) => 'sessionId' in e && e.sessionId)).toEqual(['s-7', 's-7']);
  });

  it('the approved run still goes through the other hooks', async () => {
    const { toolkit, approvals } = setup();
    let locked = false;
    toolkit.use(createGuardrailHook({ input: [{ name: 'lock', check: () => (locked ? { block: 'the file system is locked' } : undefined) }] }));
    await toolkit.callTool(toolCall('delete_file', { path: 'p' }));
    locked = true;
    const result = await approvals.approve(approvals.pending()[0].id, { toolkit });
    expect(result.error?.code).toBe('DENIED');
    expect(result.forLLM).toContain('the file system is locked');
    expect(FileService.runs).toEqual([]);
  });

  it("the approved run gets the requester's call-level context", async () => {
    class Tenant {
      constructor(readonly id: string) {}
    }
    const toolkit = freshToolkit();
    let seenTenant: string | undefined;
    toolkit.registerTool({
      name: 'charge',
      description: 'Charge',
      parameters: { type: 'object', properties: {} },
      behaviour: { risk: 'high' },
      execute: (_args, ctx) => {
        seenTenant = ctx.context.get(Tenant)?.id;
        return 'charged';
      },
    });
    const approvals = new ApprovalManager({ minRisk: 'high' });
    toolkit.use(approvals.hook);
    await toolkit.callTool(toolCall('charge'), { context: ToolExecutionContext.of(new Tenant('t-1')) });
    await approvals.approve(approvals.pending()[0].id);
    expect(seenTenant).toBe('t-1');
  });
});

describe('ApprovalManager: batches (the bar)', () => {
  it('a batch of 10 calls where 3 need approval: 7 results at once, 3 pending, 3 results on approval, nothing twice', async () => {
    const log = new RunLog();
    const toolkit = freshToolkit({ maxConcurrency: 4 });
    toolkit.registerTool(loggedTool(log, 'lookup', { risk: 'low' }));
    toolkit.registerTool(loggedTool(log, 'transfer', { risk: 'high' }));
    const approvals = new ApprovalManager({ minRisk: 'high' });
    toolkit.use(approvals.hook);

    const calls = Array.from({ length: 10 }, (_, i) => toolCall([2, 5, 9].includes(i) ? 'transfer' : 'lookup', { n: i }));
    const results = await toolkit.callTools(calls);

    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
    const ran = results.filter((r) => !isPendingApprovalResult(r));
    const held = results.filter(isPendingApprovalResult);
    expect(ran).toHaveLength(7);
    expect(held).toHaveLength(3);
    expect(ran.every((r) => !r.isError && r.forLLM.startsWith('lookup done'))).toBe(true);
    expect(log.runs.map((r) => r.tool)).toEqual(Array(7).fill('lookup'));
    expect(approvals.pending().map((p) => p.call.id).sort()).toEqual([calls[2].id, calls[5].id, calls[9].id].sort());
    expect(new Set(held.map((r) => r.data.approvalId)).size).toBe(3);

    // a UI approves them later, out of order and concurrently
    const later = await Promise.all([...approvals.pending()].reverse().map((p) => approvals.approve(p.id, { toolkit })));

    expect(later.map((r) => r.toolCallId).sort()).toEqual([calls[2].id, calls[5].id, calls[9].id].sort());
    expect(later.every((r) => !r.isError && r.forLLM.startsWith('transfer done'))).toBe(true);
    expect(approvals.pending()).toEqual([]);
    // every call ran exactly once, with its own arguments
    for (const [i, call] of calls.entries()) {
      expect(log.count(undefined, call.id)).toBe(1);
      expect(log.runs.find((r) => r.callId === call.id)?.args).toEqual({ n: i });
    }
    expect(log.runs).toHaveLength(10);
    // deciding again runs nothing
    for (const r of held) await expect(approvals.approve(r.data.approvalId, { toolkit })).rejects.toThrow(/already approved/);
    expect(log.runs).toHaveLength(10);
  });
});

describe('ApprovalManager: remembering decisions per session', () => {
  it("approve(id, { remember: 'session' }) lets later calls of that tool in that session through", async () => {
    const { toolkit, approvals } = setup({ tools: ['delete_file', 'write_file'] });
    const s1 = toolkit.session('s1');
    await s1.callTool(toolCall('delete_file', { path: 'a' }));
    await approvals.approve(approvals.pending()[0].id, { toolkit, remember: 'session' });

    const again = await s1.callTool(toolCall('delete_file', { path: 'b' }));
    expect(again.forLLM).toBe('deleted b');
    // another tool in the same session, and the same tool in another session or without one, still ask
    const others = await Promise.all([
      s1.callTool(toolCall('write_file', { path: 'c', text: 't' })),
      toolkit.session('s2').callTool(toolCall('delete_file', { path: 'd' })),
      toolkit.callTool(toolCall('delete_file', { path: 'e' })),
    ]);
    expect(others.map(isPendingApprovalResult)).toEqual([true, true, true]);
    expect(approvals.remembered()).toEqual([{ sessionId: 's1', toolName: 'delete_file', decision: 'approved' }]);

    approvals.forgetSession('s1');
    expect(isPendingApprovalResult(await s1.callTool(toolCall('delete_file', { path: 'f' })))).toBe(true);
    expect(FileService.runs.map((r) => r.path)).toEqual(['a', 'b']);
  });

  it("reject(id, reason, { remember: 'session' }) rejects later calls of that tool in that session without asking", async () => {
    const { toolkit, approvals } = setup();
    const s1 = toolkit.session('s1');
    await s1.callTool(toolCall('delete_file', { path: 'a' }));
    await approvals.reject(approvals.pending()[0].id, 'no deletions today', { remember: 'session' });

    const again = await s1.callTool(toolCall('delete_file', { path: 'b' }));
    expect(again).toMatchObject({ isError: true, error: { code: 'APPROVAL_REJECTED' } });
    expect(again.forLLM).toContain('no deletions today');
    expect(approvals.pending()).toEqual([]);
    expect(FileService.runs).toEqual([]);
  });
});

describe('ApprovalManager: serialise and restore', () => {
  it('a fresh manager and a fresh toolkit approve a call held before a restart', async () => {
    const before = setup();
    const call = toolCall('delete_file', { path: '/tmp/old' });
    await before.toolkit.session('s-9').callTool(call);
    await before.toolkit.callTool(toolCall('delete_file', { path: '/tmp/other' }));
    const json = before.approvals.serialize();
    const [first, second] = before.approvals.pending();

    // "restart": nothing of the old process is used
    const after = setup();
    const added = after.approvals.restore(json);
    expect(added).toBe(2);
    expect(after.approvals.pending()).toEqual([first, second]);

    // the requester's context is gone with the old process: the application supplies it again
    const result = await after.approvals.approve(first.id, { toolkit: after.toolkit, context: ToolExecutionContext.EMPTY });
    expect(result).toMatchObject({ forLLM: 'deleted /tmp/old', toolCallId: call.id, isError: false });
    const rejected = await after.approvals.reject(second.id, 'stale request');
    expect(rejected.error?.code).toBe('APPROVAL_REJECTED');
    expect(FileService.runs).toEqual([{ tool: 'delete_file', path: '/tmp/old' }]);
  });

  it('remembered decisions survive a restart', async () => {
    const before = setup();
    await before.toolkit.session('s1').callTool(toolCall('delete_file', { path: 'a' }));
    await before.approvals.approve(before.approvals.pending()[0].id, { toolkit: before.toolkit, remember: 'session' });
    const json = before.approvals.serialize();

    const after = setup();
    after.approvals.restore(json);
    const result = await after.toolkit.session('s1').callTool(toolCall('delete_file', { path: 'b' }));
    expect(result.forLLM).toBe('deleted b');
  });

  it('a stale copy of a decided approval is not restored, so it cannot run twice', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.callTool(toolCall('delete_file', { path: 'a' }));
    const stale = approvals.serialize();
    const { id } = approvals.pending()[0];
    await approvals.approve(id, { toolkit });
    const fresh = approvals.serialize();

    expect(approvals.restore(stale)).toBe(0);
    const restarted = setup();
    restarted.approvals.restore(fresh);
    expect(restarted.approvals.restore(stale)).toBe(0);
    await expect(restarted.approvals.approve(id, { toolkit: restarted.toolkit })).rejects.toThrow(/already approved/);
    expect(FileService.runs).toEqual([]); // the log was reset by setup() of `restarted`, after the one approved run
  });

  it('rejects what is not a serialised state', () => {
    const approvals = new ApprovalManager();
    const notJson = thrown(() => approvals.restore('{oops'));
    expect(notJson.code).toBe('INVALID_SNAPSHOT');
    expect(notJson.message).toMatch(/not JSON because .+/);
    expect(notJson.cause).toBeInstanceOf(SyntaxError);
    expect(thrown(() => approvals.restore('{"version":2,"pending":[]}')).code).toBe('INVALID_SNAPSHOT');
    expect(thrown(() => approvals.restore('{"version":2,"pending":[]}')).message).toMatch(/unsupported version/);
    expect(thrown(() => approvals.restore(JSON.stringify({ version: 1, pending: [{ id: 'x' }] }))).message).toMatch(/pending\[0\]/);
  });

  it('serialize() holds no preset values', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(
      {
        name: 'send',
        description: 'Send',
        parameters: { type: 'object', properties: { to: { type: 'string' }, apiKey: { type: 'string' } }, required: ['to', 'apiKey'] },
        execute: (args) => `sent to ${String(args.to)}`,
      },
      { presets: { send: { apiKey: 'sk-very-secret-value' } } },
    );
    const approvals = new ApprovalManager({ tools: ['send'] });
    toolkit.use(approvals.hook);
    await toolkit.callTool(toolCall('send', { to: 'bob' }));
    expect(approvals.serialize()).not.toContain('sk-very-secret-value');
    const result: ToolResult = await approvals.approve(approvals.pending()[0].id, { toolkit });
    expect(result.forLLM).toBe('sent to bob');
  });
});
