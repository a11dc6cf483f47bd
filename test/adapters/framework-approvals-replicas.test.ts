import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import { generateText, stepCountIs, type ModelMessage, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { toAiSdkTools } from '../../src/adapters/ai-sdk';
import { toOpenAIAgentsTools } from '../../src/adapters/openai-agents';
import { ROOT } from '../support/child-process';
import { freePort, within } from '../bullmq/fixtures/processes';
import { dropSchema, requirePostgres, uniqueSchema } from '../support/postgres';
import { cleanRedis, requireRedis, uniqueQueue } from '../support/redis';
import { closeServices, openStore, replica, runnersOf, runsOf, userContext, type StoreSpec } from '../approval-stores/fixtures/services';
import { outputs, ScriptedAgentsModel } from './openai-agents/scripted-model';

/**
 * The frameworks' approval flows across replicas. The Agents SDK's across processes: one replica's run is interrupted (the call is
 * held in the shared Redis / PostgreSQL approval store), its `RunState` is resumed and approved in
 * another process, where the call runs once, as its requester; resuming the same state anywhere
 * again is refused.
 */
setTracingDisabled(true);
const runsPrefix = uniqueQueue('agents-approval-runs');
process.env.TW_RUNS = runsPrefix;

afterAll(async () => {
  closeServices();
  await cleanRedis(`${runsPrefix}:*`);
});

/** Resumes `state` in a replica process of its own (`fixtures/agents-replica-main.ts`) that approves it; its answer. */
function resumeElsewhere(spec: StoreSpec, state: string): Promise<{ finalOutput?: string; error?: string }> {
  const child = spawn(process.execPath, ['-r', './scripts/swc-register.js', 'test/adapters/openai-agents/fixtures/agents-replica-main.ts'], {
    cwd: ROOT,
    env: { ...process.env, TW_RUNS: runsPrefix, TW_STORE_KIND: spec.kind, TW_STORE_NAME: spec.name },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(`${state}\n`);
  const done = new Promise<{ finalOutput?: string; error?: string }>((resolve, reject) =>
    child.once('exit', () => {
      const line = stdout.trim().split('\n').at(-1);
      if (line === undefined || line === '') reject(new Error(`the replica printed nothing: ${stderr.slice(0, 2_000)}`));
      else resolve(JSON.parse(line) as { finalOutput?: string; error?: string });
    }),
  );
  return within(60_000, 'the replica process to resume the run', done).finally(() => child.kill('SIGKILL'));
}

/** A store of its own for one test (a Redis prefix or a PostgreSQL schema), and how to remove it. */
async function freshStore(kind: 'redis' | 'postgres'): Promise<{ spec: StoreSpec; drop(): Promise<void> }> {
  await (kind === 'redis' ? requireRedis() : requirePostgres());
  const name = kind === 'redis' ? uniqueQueue('agents-approvals') : uniqueSchema('agents_approvals');
  return { spec: { kind, name }, drop: () => (kind === 'redis' ? cleanRedis(`{${name}}:*`) : dropSchema(name)) };
}

/** The AI SDK's mock model: one call of the payment tool with reference `ref`, then the last tool output as text. */
function paymentModel(ref: string): MockLanguageModelV3 {
  let turn = 0;
  const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const content =
        turn++ === 0
          ? [{ type: 'tool-call' as const, toolCallId: 'call_pay', toolName: 'send_payment', input: JSON.stringify({ amount: 250, to: 'bob', ref }) }]
          : [{ type: 'text' as const, text: 'ok' }];
      return { content, finishReason: { unified: turn === 1 ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] } as never;
    },
  });
}

describe('AI SDK approvals across replicas sharing an approval store', () => {
  it.each(['redis', 'postgres'] as const)('%s: held on one replica, approved through the SDK on another: runs once there; the approval replayed on the first is refused', async (kind) => {
    const { spec, drop } = await freshStore(kind);
    const ref = `${runsPrefix}-ai-${kind}`;
    const a = openStore(spec);
    const b = openStore(spec);
    try {
      const toolsOf = (store: typeof a.store, who: string) => {
        const { toolkit, approvals } = replica(store);
        return toAiSdkTools(toolkit.session('s-ann'), { approvals: { manager: approvals, decidedBy: who }, context: userContext('ann') }) as unknown as ToolSet;
      };
      const onA = toolsOf(a.store, 'replica-a');
      const onB = toolsOf(b.store, 'replica-b');
      const prompt: ModelMessage[] = [{ role: 'user', content: 'pay bob 250' }];
      const first = await generateText({ model: paymentModel(ref), tools: onA, messages: prompt, stopWhen: stepCountIs(3) });
      const request = first.content.find((p) => p.type === 'tool-approval-request') as { approvalId: string } | undefined;
      expect(request).toBeDefined();
      const approved: ModelMessage[] = [...prompt, ...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request!.approvalId, approved: true }] }];

      const onReplicaB = await generateText({ model: paymentModel(ref), tools: onB, messages: approved, stopWhen: stepCountIs(3) });
      expect(JSON.stringify(onReplicaB.response.messages[0])).toMatch(/paid 250 to bob for ann@t1/);
      expect(await runsOf(ref)).toBe(1);
      const replayed = await generateText({ model: paymentModel(ref), tools: onA, messages: approved, stopWhen: stepCountIs(3) });
      expect(JSON.stringify(replayed.response.messages[0])).toMatch(/No approval is pending for call 'call_pay'/);
      expect(await runsOf(ref)).toBe(1);
      expect(await a.store.audit()).toMatchObject([{ decision: 'approved', callId: 'call_pay', decidedBy: 'replica-b' }]);
    } finally {
      await a.close();
      await b.close();
      await drop();
    }
  });
});

describe('a framework approval flow whose approval store cannot be reached', () => {
  it('answers the call with APPROVAL_STORE_FAILED, without an approval request, and nothing runs', async () => {
    const ref = `${runsPrefix}-unreachable`;
    const { store, close } = openStore({ kind: 'redis', name: uniqueQueue('agents-approvals-down'), port: await freePort() });
    try {
      const reported: string[] = [];
      const { toolkit, approvals } = replica(store, { onCallbackError: (_error, source) => reported.push(source) });
      const tools = toAiSdkTools(toolkit.session('s-ann'), { approvals: { manager: approvals }, context: userContext('ann') }) as unknown as ToolSet;
      const result = await generateText({ model: paymentModel(ref), tools, prompt: 'pay bob 250', stopWhen: stepCountIs(3) });
      expect(result.steps[0]!.content.some((p) => p.type === 'tool-approval-request')).toBe(false);
      expect(result.steps[0]!.content.find((p) => p.type === 'tool-error')).toMatchObject({ toolCallId: 'call_pay', error: { code: 'APPROVAL_STORE_FAILED' } });
      expect(await runsOf(ref)).toBe(0);
      expect(reported).toContain('store');
    } finally {
      await close();
    }
  });
});

describe('Agents SDK approvals across replicas sharing an approval store', () => {
  it.each(['redis', 'postgres'] as const)('%s: a RunState interrupted here is approved and resumed in another process: the call runs once there, as its requester; this copy is refused', async (kind) => {
    const { spec, drop } = await freshStore(kind);
    const ref = `${runsPrefix}-${kind}`;
    const { store, close } = openStore(spec);
    try {
      const { toolkit, approvals } = replica(store);
      const tools = toOpenAIAgentsTools(toolkit.session('s-ann'), { approvals: { manager: approvals }, context: userContext('ann') });
      const model = new ScriptedAgentsModel((request, turn) =>
        turn === 1
          ? { calls: [{ name: 'send_payment', arguments: JSON.stringify({ amount: 250, to: 'bob', ref }), callId: 'call_pay' }] }
          : { text: [...outputs(request).values()].at(-1) ?? 'nothing' },
      );
      const agent = new Agent({ name: 'payer', model, tools });
      const runner = new Runner({ tracingDisabled: true });
      const first = await runner.run(agent, 'pay bob 250');
      expect(first.interruptions.map((i) => i.name)).toEqual(['send_payment']);
      await approvals.refresh();
      expect(approvals.pending()).toMatchObject([{ call: { id: 'call_pay' }, sessionId: 's-ann', principal: 'ann' }]);

      const elsewhere = await resumeElsewhere(spec, first.state.toString());
      expect(elsewhere.finalOutput).toMatch(/^paid 250 to bob for ann@t1/);
      expect(await runsOf(ref)).toBe(1);
      const [runner1] = await runnersOf(ref);
      expect(runner1).toMatch(/^ann@t1\|ann\|payments:send\|\d+$/);
      expect(runner1!.endsWith(`|${process.pid}`)).toBe(false);

      // this replica's own copy of the state, approved too: refused, nothing runs again
      first.state.approve(first.interruptions[0]!);
      const approvedCopy = first.state.toString();
      const here = await runner.run(agent, first.state);
      expect(here.finalOutput).toMatch(/No approval is pending for call 'call_pay'/);
      // and the approved copy replayed in yet another process
      const again = await resumeElsewhere(spec, approvedCopy);
      expect(again.finalOutput).toMatch(/No approval is pending for call 'call_pay'/);
      expect(await runsOf(ref)).toBe(1);
      const audit = await store.audit();
      expect(audit).toMatchObject([{ decision: 'approved', callId: 'call_pay', toolName: 'send_payment' }]);
      expect(audit[0]!.decidedBy).toMatch(/^replica-\d+$/);
    } finally {
      await close();
      await drop();
    }
  });
});
