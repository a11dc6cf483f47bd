import 'reflect-metadata';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Command, MemorySaver } from '@langchain/langgraph';
import { createAgent, FakeToolCallingModel, humanInTheLoopMiddleware, type HITLRequest, type Interrupt } from 'langchain';
import { langChainInterruptOn, toLangChainTools, type LangChainDecisionType } from '../../../src/adapters/langchain';
import { paymentsToolkit, runs } from '../approval-payments';

/**
 * LangChain's human-in-the-loop middleware (`humanInTheLoopMiddleware` with `createAgent`, a
 * checkpointer, an interrupt and `Command({ resume })`) deciding the calls toolwright's
 * ApprovalManager holds.
 */

type Call = { name: string; args: Record<string, unknown>; id: string };
const PAY: Call = { name: 'send_payment', args: { to: 'bob', amount: 5 }, id: 'call_pay' };
const BALANCE: Call = { name: 'get_balance', args: {}, id: 'call_bal' };

function setup(turns: Call[][], allowedDecisions?: LangChainDecisionType[]) {
  const { toolkit, approvals, decisions } = paymentsToolkit();
  const tools = toLangChainTools(toolkit.session('thread-1'), { approvals: { manager: approvals, decidedBy: 'ann@example.com' } });
  const agent = createAgent({
    model: new FakeToolCallingModel({ toolCalls: [...turns, []] }),
    tools,
    checkpointer: new MemorySaver(),
    middleware: [humanInTheLoopMiddleware({ interruptOn: langChainInterruptOn(tools, { allowedDecisions }) })],
  });
  return { agent, approvals, decisions, tools };
}

const config = { configurable: { thread_id: 'thread-1' } };
type Agent = ReturnType<typeof setup>['agent'];

async function interrupted(agent: Agent): Promise<HITLRequest> {
  const first = await agent.invoke({ messages: [new HumanMessage('pay bob 5')] }, config);
  const [interrupt] = (first as { __interrupt__?: Interrupt<HITLRequest>[] }).__interrupt__ ?? [];
  expect(interrupt?.value?.actionRequests.map((a) => a.name)).toEqual(['send_payment']);
  return interrupt!.value!;
}

const toolMessages = (state: { messages: unknown[] }): ToolMessage[] => state.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

beforeEach(() => {
  runs.length = 0;
});

describe('toLangChainTools with approvals: the human-in-the-loop middleware decides toolwright-held calls', () => {
  it('holds the call under the tool call id and interrupts; an approve decision runs it once', async () => {
    const { agent, approvals, decisions } = setup([[PAY]]);
    const request = await interrupted(agent);
    expect(request.actionRequests[0]!.args).toEqual({ to: 'bob', amount: 5 });
    expect(runs).toEqual([]);
    expect(approvals.pending()).toMatchObject([{ call: { id: 'call_pay' }, toolName: 'send_payment', sessionId: 'thread-1' }]);

    const second = await agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
    expect(runs).toEqual(['bob:5']);
    expect(toolMessages(second).map((m) => [m.tool_call_id, m.content])).toEqual([['call_pay', 'sent 5 to bob']]);
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toMatchObject([{ decision: 'approved', approval: { call: { id: 'call_pay' } } }]);
  });

  it('runs calls the policy does not hold without interrupting, once', async () => {
    const { agent, approvals } = setup([[BALANCE]]);
    const result = await agent.invoke({ messages: [new HumanMessage('balance?')] }, config);
    expect((result as { __interrupt__?: unknown[] }).__interrupt__ ?? []).toEqual([]);
    expect(toolMessages(result).map((m) => m.content)).toEqual(['balance: 100']);
    expect(runs).toEqual(['balance']);
    expect(approvals.pending()).toEqual([]);
  });

  it('a reject decision never runs the call, and it is recorded as a rejection when the middleware next asks', async () => {
    const { agent, approvals, decisions } = setup([[PAY], [BALANCE]]);
    await interrupted(agent);
    const second = await agent.invoke(new Command({ resume: { decisions: [{ type: 'reject', message: 'not today' }] } }), config);
    expect(toolMessages(second).map((m) => [m.tool_call_id, m.content])).toEqual([
      ['call_pay', 'not today'],
      ['call_bal', 'balance: 100'],
    ]);
    expect(runs).toEqual(['balance']);
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toMatchObject([{ decision: 'rejected', approval: { call: { id: 'call_pay' } }, result: { forLLM: expect.stringContaining('not today') } }]);
  });

  it('an edit decision (other arguments than the ones held and shown) is refused and the held call rejected', async () => {
    const { agent, approvals, decisions } = setup([[PAY]], ['approve', 'edit', 'reject']);
    await interrupted(agent);
    const second = await agent.invoke(
      new Command({ resume: { decisions: [{ type: 'edit', editedAction: { name: 'send_payment', args: { to: 'mallory', amount: 5000 } } }] } }),
      config,
    );
    expect(runs).toEqual([]);
    expect(toolMessages(second).map((m) => [m.tool_call_id, m.status, m.content])).toEqual([
      ['call_pay', 'error', expect.stringContaining('names other arguments than the ones held')],
    ]);
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toMatchObject([{ decision: 'rejected' }]);
  });

  it('after a rejection, and after the approved run, the same call invoked again (an approval replayed or forged) does not run', async () => {
    const rejected = setup([[PAY], [BALANCE]]);
    await interrupted(rejected.agent);
    await rejected.agent.invoke(new Command({ resume: { decisions: [{ type: 'reject' }] } }), config);
    const pay = (tools: typeof rejected.tools) => tools.find((t) => t.name === 'send_payment')!.invoke({ ...PAY, type: 'tool_call' as const }) as Promise<ToolMessage>;
    expect((await pay(rejected.tools)).content).toMatch(/No approval is pending for call 'call_pay'/);
    expect(runs).toEqual(['balance']);

    runs.length = 0;
    const approved = setup([[PAY]]);
    await interrupted(approved.agent);
    await approved.agent.invoke(new Command({ resume: { decisions: [{ type: 'approve' }] } }), config);
    expect((await pay(approved.tools)).content).toMatch(/No approval is pending for call 'call_pay'/);
    expect(runs).toEqual(['bob:5']);
  });
});
