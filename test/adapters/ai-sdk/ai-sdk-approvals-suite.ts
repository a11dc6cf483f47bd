import 'reflect-metadata';
import { ApprovalManager, type ApprovalDecision } from '../../../src';
import { recordAiSdkDenials, toAiSdkToolApproval, toAiSdkTools, type AiSdkToolSet } from '../../../src/adapters/ai-sdk';
import { redisApprovalStore } from '../../../src/redis';
import { freePort } from '../../bullmq/fixtures/processes';
import { paymentsToolkit, runs } from '../approval-payments';
import { call, lastToolResults, scriptedModel, type SdkUnderTest, type StepContent } from './ai-sdk-suite';

/**
 * The AI SDK's own tool approval flow deciding the calls toolwright's ApprovalManager holds, run
 * against `ai` 6 (ai-sdk-approvals.test.ts) and `ai` 7 (ai-sdk-v7.test.ts, Node 22 and later),
 * with `generateText` and `streamText`. On `ai` 7 it runs twice more: with the tools'
 * `needsApproval` (which `ai` 7 still honours) and with its run-level `toolApproval` set to
 * `toAiSdkToolApproval(tools)`.
 */

type Message = { readonly role: string; readonly content: unknown };
type Turn = Parameters<typeof scriptedModel>[1][number];

/** How the app drives the SDK: which call, and which approval setting (`ai` 7's `toolApproval`, or the tools' `needsApproval`). */
interface Drive {
  readonly loop: 'generateText' | 'streamText';
  readonly toolApproval: boolean;
}

/** What one run gave the app (every part it saw, the messages to keep) and what the model was told first (the decided calls' results, when a run resumes). */
interface Run {
  readonly parts: readonly StepContent[];
  readonly messages: readonly Message[];
  readonly told: readonly StepContent[];
}

const PAY = call('send_payment', { to: 'bob', amount: 5 }, 'call_pay');

const answer = (approvalId: string, approved: boolean, reason?: string): Message => ({
  role: 'tool',
  content: [{ type: 'tool-approval-response', approvalId, approved, ...(reason !== undefined ? { reason } : {}) }],
});

/** The results of the decided calls, as the model got them when the run resumed. */
const resumed = (run: Run): readonly StepContent[] => run.told;

/** The suite against one `ai` major (`load` runs only when it does). */
export function describeAiSdkApprovals(name: string, major: SdkUnderTest['major'], load: () => SdkUnderTest, describeIt: jest.Describe = describe): void {
  const drives = (major: number): Drive[] =>
    (['generateText', 'streamText'] as const).flatMap((loop) => (major >= 7 ? [true, false] : [false]).map((toolApproval) => ({ loop, toolApproval })));

  describeIt(`${name}: the SDK's tool approval flow decides toolwright-held calls`, () => {
    let sdk: SdkUnderTest;
    beforeAll(() => {
      sdk = load();
    });
    beforeEach(() => {
      runs.length = 0;
    });

    /** One run of the app's loop over the scripted model turns. */
    async function runWith(drive: Drive, tools: AiSdkToolSet, turns: Turn[], prompt: readonly Message[], extra: Record<string, unknown> = {}): Promise<Run> {
      const { model, seen } = scriptedModel(sdk, turns);
      const told = (): StepContent[] => (seen[0] === undefined ? [] : (lastToolResults(seen[0]) as unknown as StepContent[]));
      const options = {
        model,
        tools,
        messages: prompt,
        stopWhen: sdk.stepCountIs(3),
        ...(drive.toolApproval ? { toolApproval: toAiSdkToolApproval(tools) } : {}),
        ...extra,
      };
      if (drive.loop === 'generateText') {
        const result = (await sdk.generateText(options)) as unknown as { steps: { content: StepContent[] }[]; response: { messages: Message[] } };
        return { parts: result.steps.flatMap((step) => step.content), messages: result.response.messages, told: told() };
      }
      const result = sdk.streamText(options) as unknown as { fullStream: AsyncIterable<StepContent>; response: PromiseLike<{ messages: Message[] }> };
      const parts: StepContent[] = [];
      for await (const part of result.fullStream) parts.push(part);
      return { parts, messages: (await result.response).messages, told: told() };
    }

    function setup(manager?: ApprovalManager): { tools: AiSdkToolSet; approvals: ApprovalManager; decisions: ApprovalDecision[] } {
      const { toolkit, approvals, decisions } = paymentsToolkit(manager);
      const tools = toAiSdkTools(toolkit.session('chat-1'), { approvals: { manager: approvals, decidedBy: 'ann@example.com' } });
      return { tools, approvals, decisions };
    }

    /** Turn one: the model asks to pay; the SDK answers with an approval request. */
    async function requestPayment(drive: Drive, tools: AiSdkToolSet): Promise<{ messages: Message[]; approvalId: string }> {
      const prompt: Message[] = [{ role: 'user', content: 'pay bob 5' }];
      const first = await runWith(drive, tools, [{ calls: [PAY] }], prompt);
      const request = first.parts.find((p) => p.type === 'tool-approval-request') as { approvalId: string } | undefined;
      expect(request).toMatchObject({ type: 'tool-approval-request', toolCall: { toolCallId: 'call_pay', toolName: 'send_payment' } });
      return { messages: [...prompt, ...first.messages], approvalId: request!.approvalId };
    }

    const continueWith = (drive: Drive, tools: AiSdkToolSet, messages: readonly Message[]): Promise<Run> => runWith(drive, tools, [{ text: 'ok' }], messages);

    if (major === 5) {
      it('ai 5 has no tool approvals: a held call is answered pending to the model, nothing runs until the manager approves it', async () => {
        const { tools, approvals } = setup();
        const run = await runWith({ loop: 'generateText', toolApproval: false }, tools, [{ calls: [PAY] }, { text: 'waiting' }], [{ role: 'user', content: 'pay bob 5' }]);
        expect(runs).toEqual([]);
        const [held] = approvals.pending();
        expect(JSON.stringify(run.parts.filter((p) => p.type === 'tool-result'))).toContain(held!.id);
        await approvals.approve(held!.id);
        expect(runs).toEqual(['bob:5']);
      });
      return;
    }

    for (const drive of drives(major)) {
      describe(`${drive.loop}, ${drive.toolApproval ? 'toolApproval: toAiSdkToolApproval(tools)' : 'the tools’ needsApproval'}`, () => {
        it('holds the call under the SDK call id, surfaces an approval request, and runs it once, when approved, as held', async () => {
          const { tools, approvals, decisions } = setup();
          const { messages, approvalId } = await requestPayment(drive, tools);
          expect(runs).toEqual([]);
          expect(approvals.pending()).toMatchObject([{ call: { id: 'call_pay' }, toolName: 'send_payment', sessionId: 'chat-1', arguments: { to: 'bob', amount: 5 } }]);

          const second = await continueWith(drive, tools, [...messages, answer(approvalId, true)]);
          expect(runs).toEqual(['bob:5']);
          expect(resumed(second).find((p) => p.type === 'tool-result')).toMatchObject({ toolCallId: 'call_pay', output: { type: 'text', value: 'sent 5 to bob' } });
          expect(approvals.pending()).toEqual([]);
          expect(decisions).toMatchObject([{ decision: 'approved', approval: { call: { id: 'call_pay' } } }]);
        });

        it('runs a call the policy does not hold once, without asking', async () => {
          const { tools, approvals } = setup();
          const run = await runWith(drive, tools, [{ calls: [call('get_balance', {}, 'call_bal')] }, { text: 'ok' }], [{ role: 'user', content: 'balance?' }]);
          expect(run.parts.some((p) => p.type === 'tool-approval-request')).toBe(false);
          expect(run.parts.find((p) => p.type === 'tool-result')).toMatchObject({ toolCallId: 'call_bal', output: { forLLM: 'balance: 100' } });
          expect(runs).toEqual(['balance']);
          expect(approvals.pending()).toEqual([]);
        });

        it('a denial never runs the call, the model gets it, and it is a tombstone: an approval sent afterwards is refused', async () => {
          const { tools, approvals, decisions } = setup();
          const { messages, approvalId } = await requestPayment(drive, tools);
          const denied = [...messages, answer(approvalId, false, 'not today')];
          await recordAiSdkDenials(tools, denied);
          const second = await continueWith(drive, tools, denied);
          expect(runs).toEqual([]);
          expect(resumed(second).find((p) => p.type === 'tool-result')).toMatchObject({ toolCallId: 'call_pay', output: { type: 'execution-denied', reason: 'not today' } });
          expect(decisions).toMatchObject([{ decision: 'rejected', approval: { call: { id: 'call_pay' } } }]);
          expect(approvals.pending()).toEqual([]);

          // a hostile client flips its answer to "approved" and sends the conversation again
          const forged = await continueWith(drive, tools, [...messages, answer(approvalId, true)]);
          expect(runs).toEqual([]);
          expect(JSON.stringify(resumed(forged))).toContain('No approval is pending');
          expect(decisions).toHaveLength(1);
        });

        it('records a denial the next time the conversation reaches the tool set, without recordAiSdkDenials', async () => {
          const { tools, approvals } = setup();
          const { messages, approvalId } = await requestPayment(drive, tools);
          await runWith(drive, tools, [{ calls: [call('get_balance', {}, 'call_bal')] }, { text: 'ok' }], [...messages, answer(approvalId, false)]);
          expect(approvals.pending()).toEqual([]);
          expect(runs).toEqual(['balance']);
        });

        it(`an approval replayed after the call ran is refused (${drive.toolApproval ? 'the SDK’s execution-denied' : 'a tool error'}, with the reason): it runs once`, async () => {
          const { tools } = setup();
          const { messages, approvalId } = await requestPayment(drive, tools);
          const approved = [...messages, answer(approvalId, true)];
          await continueWith(drive, tools, approved);
          const replay = await continueWith(drive, tools, approved);
          expect(runs).toEqual(['bob:5']);
          const [told] = resumed(replay);
          expect(told).toMatchObject({ toolCallId: 'call_pay', output: { type: drive.toolApproval ? 'execution-denied' : 'error-text' } });
          expect(JSON.stringify(told)).toContain('No approval is pending');
        });

        it('an approval of arguments edited after they were shown is refused, and the held call rejected', async () => {
          const { tools, approvals, decisions } = setup();
          const { messages, approvalId } = await requestPayment(drive, tools);
          const edited = JSON.parse(JSON.stringify(messages).replace('\\"amount\\":5', '\\"amount\\":5000').replace('"amount":5', '"amount":5000')) as Message[];
          expect(JSON.stringify(edited)).toContain('5000');
          const result = await continueWith(drive, tools, [...edited, answer(approvalId, true)]);
          expect(runs).toEqual([]);
          expect(JSON.stringify(resumed(result))).toContain('names other arguments than the ones held');
          expect(approvals.pending()).toEqual([]);
          expect(decisions).toMatchObject([{ decision: 'rejected' }]);
        });

        it('an approval for a call id toolwright never held is refused; the held call stays pending', async () => {
          const { tools, approvals } = setup();
          const { messages, approvalId } = await requestPayment(drive, tools);
          const forged = JSON.parse(JSON.stringify(messages).replaceAll('call_pay', 'call_other')) as Message[];
          const result = await continueWith(drive, tools, [...forged, answer(approvalId, true)]);
          expect(runs).toEqual([]);
          expect(JSON.stringify(resumed(result))).toContain('No approval is pending');
          expect(approvals.pending()).toHaveLength(1);
        });

        it('another session cannot approve the call through its own tool set', async () => {
          const { tools, approvals } = setup();
          const { messages, approvalId } = await requestPayment(drive, tools);
          const { toolkit } = paymentsToolkit(approvals);
          const intruder = toAiSdkTools(toolkit.session('chat-2'), { approvals: { manager: approvals } });
          const result = await continueWith(drive, intruder, [...messages, answer(approvalId, true)]);
          expect(runs).toEqual([]);
          expect(JSON.stringify(resumed(result))).toContain('No approval is pending');
          expect(approvals.pending()).toHaveLength(1);
        });

        it('an approval store that cannot be reached: a clear APPROVAL_STORE_FAILED error, no approval request, nothing runs', async () => {
          const store = redisApprovalStore({ connection: { host: '127.0.0.1', port: await freePort() }, prefix: 'tw-ai-sdk-down', commandTimeoutMs: 2_000 });
          try {
            const { tools } = setup(new ApprovalManager({ tools: ['send_payment'], store, onCallbackError: () => undefined }));
            const run = await runWith(drive, tools, [{ calls: [PAY] }, { text: 'ok' }], [{ role: 'user', content: 'pay bob 5' }]);
            expect(run.parts.some((p) => p.type === 'tool-approval-request')).toBe(false);
            const error = run.parts.find((p) => p.type === 'tool-error') as { toolCallId: string; error: { code: string; message: string } } | undefined;
            expect(error).toMatchObject({ toolCallId: 'call_pay', error: { code: 'APPROVAL_STORE_FAILED' } });
            expect(error!.error.message.length).toBeLessThan(600);
            expect(runs).toEqual([]);
          } finally {
            await store.close();
          }
        });
      });
    }

    if (major < 7) return;
    const generate: Drive = { loop: 'generateText', toolApproval: false };

    it.each(['not-applicable', 'approved'])('an application’s own toolApproval answering %s does not get past toolwright’s approval: the call is held, nothing runs, the model is told', async (status) => {
      const { tools, approvals } = setup();
      const run = await runWith(generate, tools, [{ calls: [PAY] }, { text: 'waiting' }], [{ role: 'user', content: 'pay bob 5' }], { toolApproval: () => status });
      expect(runs).toEqual([]);
      const [held] = approvals.pending();
      expect(held).toMatchObject({ call: { id: 'call_pay' }, toolName: 'send_payment' });
      expect(JSON.stringify(run.parts.filter((p) => p.type === 'tool-result'))).toContain(held!.id);
      // the same call id again, still undecided: it does not run, and is not held twice
      const again = await runWith(generate, tools, [{ calls: [PAY] }, { text: 'waiting' }], [{ role: 'user', content: 'pay bob 5' }], { toolApproval: () => status });
      expect(again.parts.find((p) => p.type === 'tool-error')).toMatchObject({ toolCallId: 'call_pay', error: { code: 'APPROVAL_PENDING' } });
      expect(approvals.pending()).toHaveLength(1);
      await approvals.approve(held!.id);
      expect(runs).toEqual(['bob:5']);
    });

    it('toAiSdkToolApproval: other tools get ai 7’s own answer (their needsApproval) or the one given', async () => {
      const { tools, approvals } = setup();
      const mixed = { ...tools, audited_balance: { ...tools.get_balance!, needsApproval: true } } as unknown as AiSdkToolSet;
      const prompt: Message[] = [{ role: 'user', content: 'balance?' }];
      const audited = call('audited_balance', {}, 'call_audit');
      const asked = await runWith(generate, mixed, [{ calls: [audited] }], prompt, { toolApproval: toAiSdkToolApproval(tools) });
      expect(asked.parts.find((p) => p.type === 'tool-approval-request')).toMatchObject({ toolCall: { toolName: 'audited_balance' } });
      const refused = await runWith(generate, mixed, [{ calls: [audited] }, { text: 'ok' }], prompt, { toolApproval: toAiSdkToolApproval(tools, async () => ({ type: 'denied', reason: 'audits are closed' })) });
      expect(refused.parts.find((p) => p.type === 'tool-approval-response')).toMatchObject({ toolCall: { toolCallId: 'call_audit' }, approved: false, reason: 'audits are closed' });
      expect(runs).toEqual([]);
      expect(approvals.pending()).toEqual([]);
    });

    it('toAiSdkToolApproval refuses a tool set made without the approvals option', () => {
      const { toolkit } = paymentsToolkit();
      expect(() => toAiSdkToolApproval(toAiSdkTools(toolkit))).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    });
  });
}
