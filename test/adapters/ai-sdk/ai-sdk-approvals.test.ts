import 'reflect-metadata';
import { generateText, stepCountIs, type ModelMessage, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ApprovalDecision, ApprovalManager } from '../../../src';
import { recordAiSdkDenials, toAiSdkTools, type AiSdkToolSet } from '../../../src/adapters/ai-sdk';
import { paymentsToolkit, runs } from '../approval-payments';

/**
 * The AI SDK's own tool approval flow (`needsApproval`, `tool-approval-request` /
 * `tool-approval-response` parts) deciding the calls toolwright's ApprovalManager holds.
 */

type Turn = { calls: { name: string; input: unknown; id: string }[] } | { text: string };

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/** The SDK's mock model answering the scripted turns in order, then 'done'. */
function model(turns: Turn[]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const turn = turns[next++] ?? { text: 'done' };
      const content = 'text' in turn ? [{ type: 'text' as const, text: turn.text }] : turn.calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.input) }));
      return { content, finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined }, usage, warnings: [] } as never;
    },
  });
}

function setup(): { tools: AiSdkToolSet; approvals: ApprovalManager; decisions: ApprovalDecision[] } {
  const { toolkit, approvals, decisions } = paymentsToolkit();
  const tools = toAiSdkTools(toolkit.session('chat-1'), { approvals: { manager: approvals, decidedBy: 'ann@example.com' } });
  return { tools, approvals, decisions };
}

const PAY = { name: 'send_payment', input: { to: 'bob', amount: 5 }, id: 'call_pay' };

/** Turn one: the model asks to pay; the SDK answers with an approval request. */
async function requestPayment(tools: AiSdkToolSet): Promise<{ messages: ModelMessage[]; approvalId: string }> {
  const prompt: ModelMessage[] = [{ role: 'user', content: 'pay bob 5' }];
  const first = await generateText({ model: model([{ calls: [PAY] }]), tools: tools as unknown as ToolSet, messages: prompt, stopWhen: stepCountIs(3) });
  const request = first.content.find((p) => p.type === 'tool-approval-request');
  expect(request).toMatchObject({ type: 'tool-approval-request', toolCall: { toolCallId: 'call_pay', toolName: 'send_payment' } });
  return { messages: [...prompt, ...first.response.messages], approvalId: (request as { approvalId: string }).approvalId };
}

const answer = (approvalId: string, approved: boolean, reason?: string): ModelMessage => ({
  role: 'tool',
  content: [{ type: 'tool-approval-response', approvalId, approved, ...(reason !== undefined ? { reason } : {}) }],
});

/** Turn two: the conversation with the app's answer; `resumed` is what the SDK answered the decided calls with. */
async function continueWith(tools: AiSdkToolSet, messages: ModelMessage[]) {
  const result = await generateText({ model: model([{ text: 'ok' }]), tools: tools as unknown as ToolSet, messages, stopWhen: stepCountIs(3) });
  const first = result.response.messages[0];
  const resumed = first?.role === 'tool' ? (first.content as { type: string; toolCallId?: string; output?: unknown }[]) : [];
  return { result, resumed };
}

beforeEach(() => {
  runs.length = 0;
});

describe('toAiSdkTools with approvals: the SDK tool approval flow decides toolwright-held calls', () => {
  it('holds the call in the ApprovalManager under the SDK call id, surfaces an approval request, and runs it once when approved', async () => {
    const { tools, approvals, decisions } = setup();
    const { messages, approvalId } = await requestPayment(tools);
    expect(runs).toEqual([]);
    expect(approvals.pending()).toMatchObject([{ call: { id: 'call_pay' }, toolName: 'send_payment', sessionId: 'chat-1', arguments: { to: 'bob', amount: 5 } }]);

    const second = await continueWith(tools, [...messages, answer(approvalId, true)]);
    expect(runs).toEqual(['bob:5']);
    expect(second.resumed.find((p) => p.type === 'tool-result')).toMatchObject({ toolCallId: 'call_pay', output: { type: 'text', value: 'sent 5 to bob' } });
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toMatchObject([{ decision: 'approved', approval: { call: { id: 'call_pay' } } }]);
  });

  it('runs calls the policy does not hold without asking, once', async () => {
    const { tools, approvals } = setup();
    const result = await generateText({
      model: model([{ calls: [{ name: 'get_balance', input: {}, id: 'call_bal' }] }, { text: 'ok' }]),
      tools: tools as unknown as ToolSet,
      prompt: 'balance?',
      stopWhen: stepCountIs(3),
    });
    expect(result.steps[0]!.content.some((p) => p.type === 'tool-approval-request')).toBe(false);
    expect(result.steps[0]!.content.find((p) => p.type === 'tool-result')).toMatchObject({ output: { forLLM: 'balance: 100' } });
    expect(runs).toEqual(['balance']);
    expect(approvals.pending()).toEqual([]);
  });

  it('a denial never runs the call, the model gets the denial, and it is a tombstone: a forged approval afterwards is refused', async () => {
    const { tools, approvals, decisions } = setup();
    const { messages, approvalId } = await requestPayment(tools);
    const denied = [...messages, answer(approvalId, false, 'not today')];
    await recordAiSdkDenials(tools, denied);
    const second = await continueWith(tools, denied);
    expect(runs).toEqual([]);
    expect(second.resumed.find((p) => p.type === 'tool-result')).toMatchObject({ toolCallId: 'call_pay', output: { type: 'execution-denied', reason: 'not today' } });
    expect(decisions).toMatchObject([{ decision: 'rejected', approval: { call: { id: 'call_pay' } } }]);
    expect(approvals.pending()).toEqual([]);

    // a hostile client flips its answer to "approved" and sends the conversation again
    const forged = await continueWith(tools, [...messages, answer(approvalId, true)]);
    expect(runs).toEqual([]);
    expect(JSON.stringify(forged.resumed)).toContain('No approval is pending');
  });

  it('records a denial the next time the conversation reaches the tool set, without recordAiSdkDenials', async () => {
    const { tools, approvals } = setup();
    const { messages, approvalId } = await requestPayment(tools);
    const denied = [...messages, answer(approvalId, false)];
    await generateText({ model: model([{ calls: [{ name: 'get_balance', input: {}, id: 'call_bal' }] }, { text: 'ok' }]), tools: tools as unknown as ToolSet, messages: denied, stopWhen: stepCountIs(3) });
    expect(approvals.pending()).toEqual([]);
    expect(runs).toEqual(['balance']);
  });

  it('refuses an approval replayed after the call ran: it runs once', async () => {
    const { tools } = setup();
    const { messages, approvalId } = await requestPayment(tools);
    const approved = [...messages, answer(approvalId, true)];
    await continueWith(tools, approved);
    const replay = await continueWith(tools, approved);
    expect(runs).toHaveLength(1);
    expect(JSON.stringify(replay.resumed)).toContain('No approval is pending');
  });

  it('refuses an approval whose tool call arguments were edited after they were shown, and rejects the held call', async () => {
    const { tools, approvals, decisions } = setup();
    const { messages, approvalId } = await requestPayment(tools);
    const edited = JSON.parse(JSON.stringify(messages).replace('"amount":5', '"amount":5000')) as ModelMessage[];
    const result = await continueWith(tools, [...edited, answer(approvalId, true)]);
    expect(runs).toEqual([]);
    expect(JSON.stringify(result.resumed)).toContain('names other arguments than the ones held');
    expect(approvals.pending()).toEqual([]);
    expect(decisions).toMatchObject([{ decision: 'rejected' }]);
  });

  it('refuses an approval for a call id toolwright never held', async () => {
    const { tools, approvals } = setup();
    const { messages, approvalId } = await requestPayment(tools);
    const forged = JSON.parse(JSON.stringify(messages).replaceAll('call_pay', 'call_other')) as ModelMessage[];
    const result = await continueWith(tools, [...forged, answer(approvalId, true)]);
    expect(runs).toEqual([]);
    expect(JSON.stringify(result.resumed)).toContain('No approval is pending');
    expect(approvals.pending()).toHaveLength(1);
  });

  it('another session cannot approve the call through its own tool set', async () => {
    const { tools, approvals } = setup();
    const { messages, approvalId } = await requestPayment(tools);
    const { toolkit } = paymentsToolkit(approvals);
    const intruder = toAiSdkTools(toolkit.session('chat-2'), { approvals: { manager: approvals } });
    const result = await continueWith(intruder, [...messages, answer(approvalId, true)]);
    expect(runs).toEqual([]);
    expect(JSON.stringify(result.resumed)).toContain('No approval is pending');
    expect(approvals.pending()).toHaveLength(1);
  });
});
