import 'reflect-metadata';
import { Container } from 'inversify';
import { defineSkill, Tool, Toolkit, ToolExecutionContext, ToolParam, ToolService } from '../../../src';
import { rejection } from '../../support/errors';
import { ApprovalManager, isPendingApprovalResult, type CallOptions } from '../../../src';
import { runToolLoop, ScriptedProvider } from '../../../src/loop';

/** Regression: an approved call ran with the toolkit-default context (user `system`), not its requester's. */
class UserContext {
  constructor(readonly id: string) {}
}

class TenantContext {
  constructor(readonly id: string) {}
}

@ToolService({ group: 'payments' })
class PaymentService {
  readonly runs: string[] = [];

  @Tool({ name: 'pay', description: 'Pay an amount', risk: 'high' })
  pay(@ToolParam({ name: 'amount' }) amount: number, user: UserContext, tenant: TenantContext): string {
    this.runs.push(`${user.id}@${tenant.id}:${amount}`);
    return `paid ${amount} as ${user.id}`;
  }
}

function setup() {
  const container = new Container();
  const toolkit = new Toolkit({ container, context: ToolExecutionContext.of(new UserContext('system'), new TenantContext('default')) });
  toolkit.registerTool(PaymentService);
  const approvals = new ApprovalManager({ minRisk: 'high', principal: (ctx) => ctx.context.get(UserContext)?.id });
  toolkit.use(approvals.hook);
  return { toolkit, approvals, payments: container.get(PaymentService) };
}


const alice = ToolExecutionContext.of(new UserContext('alice'));

describe('security: an approved call runs as its requester', () => {
  it('approve(id) runs with the call-level context and session the call was requested with (not the toolkit default)', async () => {
    const { toolkit, approvals, payments } = setup();
    const held = await toolkit.session('s-alice').callTool({ id: 'c1', name: 'pay', arguments: { amount: 5 } }, { context: alice });
    expect(isPendingApprovalResult(held)).toBe(true);
    expect(approvals.pending()[0]).toMatchObject({ sessionId: 's-alice', principal: 'alice' });
    const result = await approvals.approve(approvals.pending()[0].id);
    expect(result.forLLM).toBe('paid 5 as alice');
    // the old style target is accepted and changes nothing
    await toolkit.session('s-alice').callTool({ id: 'c2', name: 'pay', arguments: { amount: 6 } }, { context: alice });
    await approvals.approve(approvals.pending()[0].id, { toolkit });
    expect(payments.runs).toEqual(['alice@default:5', 'alice@default:6']);
  });

  it('runs with the contexts and session the call was made with, though the caller changes its options object after the call was held', async () => {
    const { toolkit, approvals, payments } = setup();
    const options: CallOptions = { context: alice, agentContext: ToolExecutionContext.of(new TenantContext('acme')), sessionId: 's-alice' };
    const held = await toolkit.callTool({ id: 'm1', name: 'pay', arguments: { amount: 3 } }, options);
    expect(isPendingApprovalResult(held)).toBe(true);
    // the caller reuses its options object for someone else
    options.context = ToolExecutionContext.of(new UserContext('mallory'));
    options.agentContext = ToolExecutionContext.of(new TenantContext('evil'));
    options.sessionId = 's-mallory';
    const [pending] = approvals.pending();
    expect(pending).toMatchObject({ sessionId: 's-alice', principal: 'alice' });
    const result = await approvals.approve(pending.id);
    expect(result.forLLM).toBe('paid 3 as alice');
    expect(payments.runs).toEqual(['alice@acme:3']);
  });

  it('keeps the agent-level context of runToolLoop', async () => {
    const { toolkit, approvals, payments } = setup();
    const provider = new ScriptedProvider([{ toolCalls: [{ id: 'l1', name: 'pay', arguments: { amount: 7 } }] }, { content: 'waiting' }]);
    await runToolLoop({ provider, model: 'scripted', toolkit, context: ToolExecutionContext.of(new TenantContext('acme')) }, [{ role: 'user', content: 'pay' }]);
    await approvals.approve(approvals.pending()[0].id);
    expect(payments.runs).toEqual(['system@acme:7']);
  });

  it('each call of a batch held in different sessions runs as its own requester', async () => {
    const { toolkit, approvals, payments } = setup();
    await Promise.all(
      ['alice', 'bob', 'carol'].map((user) =>
        toolkit.session(`s-${user}`).callTools([{ id: `b-${user}`, name: 'pay', arguments: { amount: 1 } }], { context: ToolExecutionContext.of(new UserContext(user)) }),
      ),
    );
    for (const pending of approvals.pending().reverse()) await approvals.approve(pending.id);
    expect([...payments.runs].sort()).toEqual(['alice@default:1', 'bob@default:1', 'carol@default:1']);
  });

  it('refuses a context or a view of another session for a call held here: nothing runs, it stays pending', async () => {
    const { toolkit, approvals, payments } = setup();
    await toolkit.session('s-alice').callTool({ id: 'c1', name: 'pay', arguments: { amount: 5 } }, { context: alice });
    const [pending] = approvals.pending();
    const mallory = ToolExecutionContext.of(new UserContext('mallory'));
    expect((await rejection(approvals.approve(pending.id, { context: mallory }), 'APPROVAL_CONTEXT_CONFLICT')).message).toContain("session 's-alice'");
    await rejection(approvals.approve(pending.id, { view: toolkit.session('s-mallory') }), 'APPROVAL_CONTEXT_CONFLICT');
    await rejection(approvals.approve(pending.id, { view: toolkit }), 'APPROVAL_CONTEXT_CONFLICT');
    expect(payments.runs).toEqual([]);
    expect(approvals.pending()).toHaveLength(1);
  });

  it('after a restart the application must re-supply the context: without it the call is refused, never run as the default user', async () => {
    const before = setup();
    await before.toolkit.session('s-alice').callTool({ id: 'c1', name: 'pay', arguments: { amount: 9 } }, { context: alice });
    const snapshot = before.approvals.serialize();

    const after = setup();
    after.approvals.restore(snapshot);
    const [pending] = after.approvals.pending();
    const missing = await rejection(after.approvals.approve(pending.id, { toolkit: after.toolkit }), 'APPROVAL_CONTEXT_REQUIRED');
    expect(missing.message).toContain("principal 'alice' in session 's-alice'");
    await rejection(after.approvals.approve(pending.id), 'APPROVAL_CONTEXT_REQUIRED');
    // a view of another session is refused even with a context
    await rejection(after.approvals.approve(pending.id, { view: after.toolkit.session('s-bob'), context: alice }), 'APPROVAL_CONTEXT_CONFLICT');
    expect(after.payments.runs).toEqual([]);
    expect(after.approvals.pending()).toHaveLength(1);

    const result = await after.approvals.approve(pending.id, { toolkit: after.toolkit, context: ToolExecutionContext.of(new UserContext(pending.principal!)) });
    expect(result.forLLM).toBe('paid 9 as alice');
    expect(after.payments.runs).toEqual(['alice@default:9']);
  });

  it('a call held inside a skill run resumes in that run scope, in its session', async () => {
    const container = new Container();
    const toolkit = new Toolkit({ container });
    toolkit.createToolGroup('payments', 'Payments', false);
    toolkit.registerTool(PaymentService);
    const approvals = new ApprovalManager({ minRisk: 'high' });
    toolkit.use(approvals.hook);
    toolkit.registerSkill(
      defineSkill({ name: 'payout', description: 'Pay out', tools: ['pay'], grantGroups: ['payments'], steps: [{ tool: 'pay', arguments: { amount: 3 } }] }),
    );
    const context = ToolExecutionContext.of(new UserContext('dave'), new TenantContext('t-9'));
    const answer = await toolkit.session('s-dave').callTool({ id: 'k1', name: 'invoke_skill', arguments: { name: 'payout' } }, { context });
    expect(answer.error?.code).toBe('APPROVAL_PENDING');
    const [pending] = approvals.pending();
    expect(pending.sessionId).toBe('s-dave');
    expect((await approvals.approve(pending.id)).forLLM).toBe('paid 3 as dave');
    expect(container.get(PaymentService).runs).toEqual(['dave@t-9:3']);
    // the same call made directly in the session is still disabled: the grant belongs to the skill run
    expect((await toolkit.session('s-dave').callTool({ id: 'k2', name: 'pay', arguments: { amount: 1 } }, { context })).error?.code).toBe('TOOL_DISABLED');
  });
});

describe('security: approvals are keyed by the requester, and end with their session', () => {
  const as = (user: string) => ({ context: ToolExecutionContext.of(new UserContext(user)) });
  const pay = (id: string, amount: number) => ({ id, name: 'pay', arguments: { amount } });

  it("two principals without a session send the same call id: rejecting Bob's leaves Alice's to be approved", async () => {
    const { toolkit, approvals, payments } = setup();
    await toolkit.callTool(pay('call_1', 10), as('alice'));
    await toolkit.callTool(pay('call_1', 99), as('bob'));
    const [alices, bobs] = approvals.pending();
    expect([alices.principal, bobs.principal]).toEqual(['alice', 'bob']);
    expect(alices.id).not.toBe(bobs.id);
    await approvals.reject(bobs.id, 'not Bob');
    expect((await approvals.approve(alices.id)).forLLM).toBe('paid 10 as alice');
    expect(payments.runs).toEqual(['alice@default:10']);
    // and the decided call id of each stays decided for that requester alone
    await expect(approvals.approve(alices.id)).rejects.toMatchObject({ code: 'APPROVAL_NOT_PENDING' });
  });

  it('sessionless callers named by the principal option each have their own pending bucket', async () => {
    const container = new Container();
    const toolkit = new Toolkit({ container, context: ToolExecutionContext.of(new TenantContext('default')) });
    toolkit.registerTool(PaymentService);
    const approvals = new ApprovalManager({ minRisk: 'high', principal: (ctx) => ctx.context.get(UserContext)?.id, maxPendingPerSession: 2 });
    toolkit.use(approvals.hook);
    const flood = await toolkit.callTools(Array.from({ length: 5 }, (_, i) => pay(`m${i}`, i)), as('mallory'));
    expect(flood.filter((r) => r.error?.code === 'APPROVAL_LIMIT_EXCEEDED')).toHaveLength(3);
    expect(flood[4].forLLM).toContain('2 calls of this principal are already waiting');
    expect(isPendingApprovalResult(await toolkit.callTool(pay('a1', 1), as('alice')))).toBe(true);
    expect(approvals.pending({ principal: 'alice' })).toHaveLength(1);
    expect(container.get(PaymentService).runs).toEqual([]);
  });

  it("remember: 'session' ends with the session: a session reopened under the same id is asked again", async () => {
    const { toolkit, approvals, payments } = setup();
    await toolkit.session('s-1').callTool(pay('c1', 1), as('alice'));
    await approvals.approve(approvals.pending()[0].id, { remember: 'session' });
    expect((await toolkit.session('s-1').callTool(pay('c2', 2), as('alice'))).forLLM).toBe('paid 2 as alice');
    toolkit.session('s-1').close();
    expect(approvals.remembered()).toEqual([]);
    const reopened = await toolkit.session('s-1').callTool(pay('c3', 3), as('alice'));
    expect(isPendingApprovalResult(reopened)).toBe(true);
    expect(payments.runs).toEqual(['alice@default:1', 'alice@default:2']);
  });

  it("a session's pending approvals are withdrawn when it closes; an older snapshot cannot bring them back into a reopened session", async () => {
    const { toolkit, approvals, payments } = setup();
    await toolkit.session('s-2').callTool(pay('c1', 7), as('alice'));
    await toolkit.session('s-other').callTool(pay('c1', 8), as('bob'));
    const snapshot = approvals.serialize();
    const [held] = approvals.pending({ sessionId: 's-2' });
    toolkit.session('s-2').close();
    expect(approvals.pending().map((p) => p.sessionId)).toEqual(['s-other']);
    expect(approvals.restore(snapshot)).toBe(0);
    await expect(approvals.approve(held.id, { toolkit, context: ToolExecutionContext.of(new UserContext('alice')) })).rejects.toMatchObject({ code: 'APPROVAL_NOT_PENDING' });
    expect(payments.runs).toEqual([]);
  });

  it('closed sessions leave nothing behind: 1,000 sessions that remembered a decision and closed hold no entry', async () => {
    const { toolkit, approvals } = setup();
    for (let i = 0; i < 1_000; i++) {
      const session = toolkit.session(`s-${i}`);
      await session.callTool(pay(`c${i}`, i), as('alice'));
      await approvals.reject(approvals.pending()[0].id, 'no', { remember: 'session' });
      session.close();
    }
    expect(approvals.remembered()).toEqual([]);
    expect(approvals.pending()).toEqual([]);
  });

  it("a session's remembered decision covers the principal that was asked, not another user in the same session id", async () => {
    const { toolkit, approvals, payments } = setup();
    await toolkit.session('shared-conversation').callTool(pay('c1', 1), as('alice'));
    await approvals.approve(approvals.pending()[0].id, { remember: 'session' });
    expect(isPendingApprovalResult(await toolkit.session('shared-conversation').callTool(pay('c2', 500), as('bob')))).toBe(true);
    expect(payments.runs).toEqual(['alice@default:1']);
  });

  it('a model-chosen call id of any length cannot make the state unrestorable (decided calls are keyed by a digest)', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.session('s-long').callTool(pay(`call_${'x'.repeat(2_000)}`, 1), as('alice'));
    await approvals.reject(approvals.pending()[0].id);
    const restarted = setup();
    expect(() => restarted.approvals.restore(approvals.serialize())).not.toThrow();
    expect(approvals.toJSON().decided[0].callKey!.length).toBeLessThanOrEqual(100);
  });
});

describe('security: a session that ends while its call is being checked holds nothing', () => {
  it('the policy answers after the session closed: SESSION_CLOSED, no pending approval is left behind', async () => {
    const toolkit = new Toolkit({ container: new Container(), context: ToolExecutionContext.of(new UserContext('system'), new TenantContext('default')) });
    toolkit.registerTool(PaymentService);
    let answer: (verdict: string) => void = () => undefined;
    const approvals = new ApprovalManager({ when: () => new Promise<string>((resolve) => (answer = resolve)) });
    toolkit.use(approvals.hook);
    const session = toolkit.session('s-leaving');
    const call = session.callTool({ id: 'c1', name: 'pay', arguments: { amount: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    session.close();
    answer('a person must look at every payment');
    expect((await call).error?.code).toBe('SESSION_CLOSED');
    expect(approvals.pending()).toEqual([]);
  });
});
