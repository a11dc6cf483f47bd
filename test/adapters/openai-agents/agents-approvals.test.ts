import 'reflect-metadata';
import { Agent, RunState, Runner, setTracingDisabled } from '@openai/agents';
import { ApprovalManager, Principal, ToolExecutionContext } from '../../../src';
import { toOpenAIAgentsTools } from '../../../src/adapters/openai-agents';
import { paymentsToolkit, runs } from '../approval-payments';
import { outputs, ScriptedAgentsModel, type Turn } from './scripted-model';

/**
 * The Agents SDK's own approval flow (`needsApproval`, `result.interruptions`,
 * `state.approve(item)` / `state.reject(item)`, a serialised `RunState` resumed) deciding the calls
 * toolwright's ApprovalManager holds.
 */
setTracingDisabled(true);

const pay = (callId: string, args = '{"to":"bob","amount":5}'): Turn => ({ calls: [{ name: 'send_payment', arguments: args, callId }] });

/** The model: turn 1 from `first`, later turns say what the last call answered. */
function agentWith(tools: ReturnType<typeof toOpenAIAgentsTools>, first: Turn): Agent {
  const model = new ScriptedAgentsModel((request, turn) => (turn === 1 ? first : { text: [...outputs(request).values()].at(-1) ?? 'nothing' }));
  return new Agent({ name: 'payer', model, tools });
}

function setup(sessionId = 'chat-1', manager?: ApprovalManager) {
  const { toolkit, approvals, decisions } = paymentsToolkit(manager);
  const tools = toOpenAIAgentsTools(toolkit.session(sessionId), { approvals: { manager: approvals, decidedBy: 'ann@example.com' } });
  return { tools, approvals, decisions };
}

const runner = new Runner({ tracingDisabled: true });

async function interrupted(agent: Agent) {
  const first = await runner.run(agent, 'pay bob 5');
  expect(first.interruptions.map((i) => i.name)).toEqual(['send_payment']);
  return first;
}

beforeEach(() => {
  runs.length = 0;
});

describe('toOpenAIAgentsTools with approvals: the SDK approval flow decides toolwright-held calls', () => {
  it('holds the call under the SDK call id and interrupts; state.approve runs it once, as the SDK resumes', async () => {
    const { tools, approvals, decisions } = setup();
    const agent = agentWith(tools, pay('call_pay'));
    const first = await interrupted(agent);
    expect(runs).toEqual([]);
    expect(approvals.pending()).toMatchObject([{ call: { id: 'call_pay' }, toolName: 'send_payment', sessionId: 'chat-1', arguments: { to: 'bob', amount: 5 } }]);
    first.state.approve(first.interruptions[0]!);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe('sent 5 to bob');
    expect(runs).toEqual(['bob:5']);
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toMatchObject([{ decision: 'approved', approval: { call: { id: 'call_pay' } } }]);
  });

  it('resumes from a serialised RunState (RunState.fromString) and runs once', async () => {
    const { tools } = setup();
    const agent = agentWith(tools, pay('call_pay'));
    const first = await interrupted(agent);
    const restored = await RunState.fromString(agent, first.state.toString());
    restored.approve(restored.getInterruptions()[0]!);
    const second = await runner.run(agent, restored);
    expect(second.finalOutput).toBe('sent 5 to bob');
    expect(runs).toEqual(['bob:5']);
  });

  it('runs calls the policy does not hold without interrupting, once', async () => {
    const { tools, approvals } = setup();
    const result = await runner.run(agentWith(tools, { calls: [{ name: 'get_balance', arguments: '{}', callId: 'call_bal' }] }), 'balance?');
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe('balance: 100');
    expect(runs).toEqual(['balance']);
    expect(approvals.pending()).toEqual([]);
  });

  it('state.reject never runs the call, the model gets the rejection, and it is a tombstone: an approving copy of the state is refused', async () => {
    const { tools, approvals, decisions } = setup();
    const agent = agentWith(tools, pay('call_pay'));
    const first = await interrupted(agent);
    const saved = first.state.toString();
    first.state.reject(first.interruptions[0]!, { message: 'not today' });
    const second = await runner.run(agent, first.state);
    expect(runs).toEqual([]);
    expect(second.finalOutput).toBe('not today');
    expect(decisions).toMatchObject([{ decision: 'rejected', approval: { call: { id: 'call_pay' } } }]);
    expect(approvals.pending()).toEqual([]);

    // the copy saved before the decision, approved afterwards
    const copy = await RunState.fromString(agent, saved);
    copy.approve(copy.getInterruptions()[0]!);
    const third = await runner.run(agent, copy);
    expect(runs).toEqual([]);
    expect(third.finalOutput).toMatch(/No approval is pending for call 'call_pay'/);
  });

  it('approving twice (the same approved state resumed again) runs the call once', async () => {
    const { tools } = setup();
    const agent = agentWith(tools, pay('call_pay'));
    const first = await interrupted(agent);
    first.state.approve(first.interruptions[0]!);
    const approved = first.state.toString();
    await runner.run(agent, first.state);
    const replay = await runner.run(agent, await RunState.fromString(agent, approved));
    expect(runs).toEqual(['bob:5']);
    expect(replay.finalOutput).toMatch(/No approval is pending for call 'call_pay'/);
  });

  it('refuses an approval of a state whose call arguments were edited after they were shown, and rejects the held call', async () => {
    const { tools, approvals, decisions } = setup();
    const agent = agentWith(tools, pay('call_pay'));
    const first = await interrupted(agent);
    const edited = first.state.toString().replaceAll('\\"amount\\":5', '\\"amount\\":5000');
    expect(edited).not.toBe(first.state.toString());
    const state = await RunState.fromString(agent, edited);
    state.approve(state.getInterruptions()[0]!);
    const result = await runner.run(agent, state);
    expect(runs).toEqual([]);
    expect(result.finalOutput).toMatch(/names other arguments than the ones held/);
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toMatchObject([{ decision: 'rejected' }]);
  });

  it('refuses an approval for a call id toolwright never held, and one from another session', async () => {
    const { tools, approvals } = setup();
    const agent = agentWith(tools, pay('call_pay'));
    const first = await interrupted(agent);
    first.state.approve(first.interruptions[0]!);
    const forged = first.state.toString().replaceAll('call_pay', 'call_other');
    const other = await runner.run(agent, await RunState.fromString(agent, forged));
    expect(other.finalOutput).toMatch(/No approval is pending for call 'call_other'/);

    const intruder = setup('chat-2', approvals);
    const intruderAgent = agentWith(intruder.tools, pay('call_pay'));
    const stolen = await runner.run(intruderAgent, await RunState.fromString(intruderAgent, first.state.toString()));
    expect(stolen.finalOutput).toMatch(/No approval is pending for call 'call_pay'/);
    expect(runs).toEqual([]);
    expect(approvals.pending()).toHaveLength(1);
  });

  it("in one session, another principal's tool set can neither approve nor reject a call held for its requester", async () => {
    const { toolkit, approvals } = paymentsToolkit(new ApprovalManager({ tools: ['send_payment'], principal: (ctx) => ctx.context.get(Principal)?.id }));
    const as = (id: string) =>
      toOpenAIAgentsTools(toolkit.session('shared'), { approvals: { manager: approvals }, context: ToolExecutionContext.of(new Principal(id, { scopes: [] })) });
    const annAgent = agentWith(as('ann'), pay('call_pay'));
    const first = await interrupted(annAgent);
    expect(approvals.pending()).toMatchObject([{ principal: 'ann' }]);
    const malloryAgent = agentWith(as('mallory'), pay('call_pay'));
    const approvedByMallory = await RunState.fromString(malloryAgent, first.state.toString());
    approvedByMallory.approve(approvedByMallory.getInterruptions()[0]!);
    const result = await runner.run(malloryAgent, approvedByMallory);
    expect(result.finalOutput).toMatch(/No approval is pending for call 'call_pay'/);
    const rejectedByMallory = await RunState.fromString(malloryAgent, first.state.toString());
    rejectedByMallory.reject(rejectedByMallory.getInterruptions()[0]!);
    await runner.run(malloryAgent, rejectedByMallory);
    expect(runs).toEqual([]);
    expect(approvals.pending()).toMatchObject([{ principal: 'ann', call: { id: 'call_pay' } }]);

    first.state.approve(first.interruptions[0]!);
    expect((await runner.run(annAgent, first.state)).finalOutput).toBe('sent 5 to bob');
    expect(runs).toEqual(['bob:5']);
  });
});
