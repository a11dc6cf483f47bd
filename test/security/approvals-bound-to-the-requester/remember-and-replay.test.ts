import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, ToolExecutionContext, ToolkitError, type AgentTool } from '../../../src';
import { rejection } from '../../support/errors';
import { ApprovalManager, InMemoryApprovalDecisions, isPendingApprovalResult, type ApprovalManagerOptions } from '../../../src';

/**
 * Regressions: `remember: 'session'` on a sessionless call approved every later sessionless
 * caller; restoring an older snapshot ran an approved call a second time (also once the record of
 * decided ids rolled over, and across processes); restore() trusted its input; pending() listed
 * every session's calls and arguments.
 */
class UserContext {
  constructor(readonly id: string) {}
}

function setup(options: ApprovalManagerOptions = {}) {
  const runs: string[] = [];
  const toolkit = new Toolkit({ container: new Container() });
  const wipe: AgentTool = {
    name: 'wipe',
    description: 'Wipe a disk',
    parameters: { type: 'object', properties: { disk: { type: 'string' } }, required: ['disk'] },
    execute: (args) => {
      runs.push(String(args.disk));
      return `wiped ${String(args.disk)}`;
    },
  };
  toolkit.registerTool(wipe);
  const approvals = new ApprovalManager({ tools: ['wipe'], principal: (ctx) => ctx.context.get(UserContext)?.id, ...options });
  toolkit.use(approvals.hook);
  return { toolkit, approvals, runs };
}

let nextId = 0;
const as = (user: string) => ({ context: ToolExecutionContext.of(new UserContext(user)) });
const wipeCall = (disk: string) => ({ id: `w${++nextId}`, name: 'wipe', arguments: { disk } });


describe('security: remembered decisions are scoped to a real identity', () => {
  it("remember: 'session' on a call without a session is refused; later sessionless callers are still asked", async () => {
    const { toolkit, approvals, runs } = setup({ principal: () => undefined });
    await toolkit.callTool(wipeCall('a'));
    const [pending] = approvals.pending();
    const error = await rejection(approvals.approve(pending.id, { remember: 'session' }), 'APPROVAL_IDENTITY_MISSING');
    expect(error.message).toContain('never covers everyone');
    expect(approvals.pending()).toHaveLength(1); // nothing was decided
    await rejection(approvals.reject(pending.id, 'no', { remember: 'principal' }), 'APPROVAL_IDENTITY_MISSING');
    expect(runs).toEqual([]);
    await approvals.approve(pending.id);
    expect(isPendingApprovalResult(await toolkit.callTool(wipeCall('b')))).toBe(true);
    expect(approvals.remembered()).toEqual([]);
    expect(runs).toEqual(['a']);
  });

  it("remember: 'principal' covers that principal in any session, nobody else", async () => {
    const { toolkit, approvals, runs } = setup();
    await toolkit.session('s1').callTool(wipeCall('a'), as('alice'));
    await approvals.approve(approvals.pending()[0].id, { remember: 'principal' });
    expect((await toolkit.session('s2').callTool(wipeCall('b'), as('alice'))).forLLM).toBe('wiped b');
    expect((await toolkit.callTool(wipeCall('c'), as('alice'))).forLLM).toBe('wiped c');
    expect(isPendingApprovalResult(await toolkit.session('s1').callTool(wipeCall('d'), as('bob')))).toBe(true);
    expect(isPendingApprovalResult(await toolkit.callTool(wipeCall('e')))).toBe(true);
    expect(approvals.remembered()).toEqual([{ principal: 'alice', toolName: 'wipe', decision: 'approved' }]);
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it('restore() refuses a remembered decision without an identity (it would approve everyone)', () => {
    const { approvals } = setup();
    const everyone = { version: 1, pending: [], remembered: [{ toolName: 'wipe', decision: 'approved' }], decided: [] };
    expect(() => approvals.restore(everyone as never)).toThrow(/a sessionId or a principal/);
    expect(approvals.remembered()).toEqual([]);
  });
});

describe('security: a decided call never runs again, whatever is restored', () => {
  it('a stale snapshot restored into the same manager or into a restarted one does not run the call twice', async () => {
    const first = setup();
    await first.toolkit.session('s1').callTool(wipeCall('a'), as('alice'));
    const stale = first.approvals.serialize();
    await first.approvals.approve(first.approvals.pending()[0].id);
    expect(first.approvals.restore(stale)).toBe(0);

    const restarted = setup();
    restarted.approvals.restore(first.approvals.serialize());
    expect(restarted.approvals.restore(stale)).toBe(0);
    expect(restarted.approvals.pending()).toEqual([]);
    expect(first.runs).toEqual(['a']);
    expect(restarted.runs).toEqual([]);
  });

  it('a stale copy under a new approval id (same session and call) is not restored', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.session('s1').callTool(wipeCall('a'), as('alice'));
    const snapshot = JSON.parse(approvals.serialize()) as { pending: { id: string }[] };
    await approvals.approve(approvals.pending()[0].id);
    snapshot.pending[0].id = 'appr_forged';
    expect(approvals.restore(snapshot as never)).toBe(0);
  });

  it('also once the in-memory record of decided ids rolled over (10,000): older copies count as decided', async () => {
    let clock = 1_000;
    const { toolkit, approvals, runs } = setup({ now: () => clock++, maxPending: 1 });
    await toolkit.session('s1').callTool(wipeCall('first'), as('alice'));
    const stale = approvals.serialize();
    await approvals.approve(approvals.pending()[0].id);
    for (let i = 0; i < 10_001; i++) {
      await toolkit.callTool(wipeCall(`x${i}`), as('bob'));
      await approvals.reject(approvals.pending()[0].id);
    }
    const state = approvals.toJSON();
    expect(state.decided).toHaveLength(10_000);
    expect(state.horizon).toBeGreaterThan(0);
    expect(approvals.restore(stale)).toBe(0);
    const restarted = setup();
    restarted.approvals.restore(approvals.serialize());
    expect(restarted.approvals.restore(stale)).toBe(0);
    expect(runs).toEqual(['first']);
  });

  it('across processes sharing a decision store, exactly one of two restored copies runs', async () => {
    const shared = new InMemoryApprovalDecisions();
    const origin = setup();
    await origin.toolkit.session('s1').callTool(wipeCall('a'), as('alice'));
    const snapshot = origin.approvals.serialize();
    const one = setup({ decisions: shared });
    const two = setup({ decisions: shared });
    one.approvals.restore(snapshot);
    two.approvals.restore(snapshot);
    const id = one.approvals.pending()[0].id;
    const context = ToolExecutionContext.of(new UserContext('alice'));
    const outcomes = await Promise.allSettled([
      one.approvals.approve(id, { toolkit: one.toolkit, context }),
      two.approvals.approve(id, { toolkit: two.toolkit, context }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect([...one.runs, ...two.runs]).toEqual(['a']);
    expect(two.approvals.pending()).toEqual([]);
  });

  it('a decision store that fails decides nothing: the call does not run and stays pending', async () => {
    let down = true;
    const store = new InMemoryApprovalDecisions();
    const { toolkit, approvals, runs } = setup({
      decisions: { claim: async (c) => (down ? Promise.reject(new Error('redis is down')) : store.claim(c)) },
    });
    await toolkit.session('s1').callTool(wipeCall('a'), as('alice'));
    const [pending] = approvals.pending();
    expect((await rejection(approvals.approve(pending.id), 'APPROVAL_STORE_FAILED')).message).toContain('redis is down');
    expect(approvals.pending()).toEqual([pending]);
    expect(runs).toEqual([]);
    down = false;
    expect((await approvals.approve(pending.id)).forLLM).toBe('wiped a'); // still as its requester
    expect(runs).toEqual(['a']);
  });

  it('rolled-over entries of a shared store still refuse older copies (the horizon)', async () => {
    let clock = 5_000;
    const now = () => clock++;
    const shared = new InMemoryApprovalDecisions(2, now);
    const origin = setup({ now, decisions: shared });
    await origin.toolkit.session('s1').callTool(wipeCall('a'), as('alice'));
    const stale = origin.approvals.serialize();
    await origin.approvals.approve(origin.approvals.pending()[0].id);
    for (const disk of ['b', 'c', 'd']) {
      await origin.toolkit.callTool(wipeCall(disk), as('bob'));
      await origin.approvals.reject(origin.approvals.pending()[0].id);
    }
    const other = setup({ now, decisions: shared });
    expect(other.approvals.restore(stale)).toBe(1); // this process never heard of it…
    const [pending] = other.approvals.pending();
    await rejection(other.approvals.approve(pending.id, { toolkit: other.toolkit, context: ToolExecutionContext.EMPTY }), 'APPROVAL_NOT_PENDING'); // …the store refuses it
    expect(other.runs).toEqual([]);
  });
});

describe('security: restore() validates its input', () => {
  it.each([
    ['a pending entry with a non-string id', { version: 1, pending: [{ id: 5 }] }],
    ['duplicate pending ids', { version: 1, pending: [0, 1].map(() => ({ id: 'x', call: { id: 'c', name: 'wipe', arguments: {} }, toolName: 'wipe', arguments: {}, reason: 'r', createdAt: 1 })) }],
    ['a non-finite createdAt', { version: 1, pending: [{ id: 'x', call: { id: 'c', name: 'wipe', arguments: {} }, toolName: 'wipe', arguments: {}, reason: 'r', createdAt: 'soon' }] }],
    ['an id of 10,000 characters', { version: 1, pending: [{ id: 'x'.repeat(10_000), call: { id: 'c', name: 'wipe', arguments: {} }, toolName: 'wipe', arguments: {}, reason: 'r', createdAt: 1 }] }],
    ['a decided entry without a decision', { version: 1, pending: [], decided: [{ id: 'x' }] }],
    ['a horizon that is not a number', { version: 1, pending: [], horizon: 'never' }],
    ['a pending entry dated in the future (it could pass for one held after a decision)', { version: 1, pending: [{ id: 'x', call: { id: 'c', name: 'wipe', arguments: {} }, toolName: 'wipe', arguments: {}, reason: 'r', createdAt: Date.now() + 3_600_000 }] }],
  ])('refuses %s, whole: nothing is loaded', (_what, state) => {
    const { approvals } = setup();
    expect(() => approvals.restore(state as never)).toThrow(ToolkitError);
    expect(approvals.pending()).toEqual([]);
  });

  it('keeps only the fields it knows', () => {
    const { approvals } = setup();
    const state = JSON.parse(
      '{"version":1,"pending":[{"id":"x","call":{"id":"c","name":"wipe","arguments":{}},"toolName":"wipe","arguments":{"disk":"d"},"reason":"r","createdAt":1,"__proto__":{"polluted":true},"extra":1}]}',
    ) as never;
    expect(approvals.restore(state)).toBe(1);
    const [pending] = approvals.pending();
    expect(Object.keys(pending).sort()).toEqual(['arguments', 'call', 'createdAt', 'id', 'reason', 'toolName']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('security: pending approvals are bounded and listed per session', () => {
  it('pending({ sessionId }) shows one session its own calls only', async () => {
    const { toolkit, approvals } = setup();
    await toolkit.session('s1').callTool(wipeCall('secret-of-s1'), as('alice'));
    await toolkit.session('s2').callTool(wipeCall('b'), as('bob'));
    expect(approvals.pending({ sessionId: 's2' }).map((p) => p.arguments)).toEqual([{ disk: 'b' }]);
    expect(approvals.pending({ principal: 'alice' }).map((p) => p.sessionId)).toEqual(['s1']);
    expect(approvals.pending()).toHaveLength(2);
  });

  it('a flooding session hits its own cap, the toolkit-wide cap stops everyone; nothing over a cap runs', async () => {
    const { toolkit, approvals, runs } = setup({ maxPending: 5, maxPendingPerSession: 3 });
    const flood = await toolkit.session('attacker').callTools(Array.from({ length: 10 }, (_, i) => wipeCall(`d${i}`)));
    expect(flood.filter(isPendingApprovalResult)).toHaveLength(3);
    const refused = flood.filter((r) => r.error?.code === 'APPROVAL_LIMIT_EXCEEDED');
    expect(refused).toHaveLength(7);
    expect(refused[0].forLLM).toContain('3 calls of this session are already waiting for approval');
    expect(isPendingApprovalResult(await toolkit.session('s2').callTool(wipeCall('ok')))).toBe(true);
    await toolkit.session('s3').callTool(wipeCall('ok2'));
    expect((await toolkit.session('s4').callTool(wipeCall('over'))).forLLM).toContain('5 calls are already waiting for approval');
    expect(approvals.pending()).toHaveLength(5);
    expect(runs).toEqual([]);
    await approvals.reject(approvals.pending({ sessionId: 'attacker' })[0].id);
    expect(isPendingApprovalResult(await toolkit.session('s4').callTool(wipeCall('now')))).toBe(true);
  });

  it.each([0, -1, 1.5])('refuses maxPending %p at construction', (value) => {
    expect(() => new ApprovalManager({ maxPending: value })).toThrow(/maxPending must be a whole number >= 1/);
    expect(() => new ApprovalManager({ maxPending: value })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
