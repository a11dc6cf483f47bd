import type { AgentTool, ToolHook } from '../../../src';
import { serveMcpHttp, withMcpOptions } from '../../../src/mcp';
import { Closer, eventually } from '../../support/mcp';
import { rawRequest, type RawAnswer } from '../../support/mcp-modern-raw';
import { freshToolkit } from '../../support/toolkit';

/**
 * Multi Round-Trip Requests before a task (the tasks extension's MRTR → task composition), for a
 * tool with `askBeforeTask`: a before-hook's question is a round with no task yet; the retry with the answer creates the task,
 * which runs the tool once with it. The round's run never reaches the tool's body.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

const FORM = { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] } as const;

async function serve(hooks: readonly ToolHook[], askBeforeTask = true) {
  const runs: Record<string, unknown>[] = [];
  const toolkit = freshToolkit();
  const tool: AgentTool = {
    name: 'deploy',
    description: 'Deploys for someone',
    parameters: { type: 'object', properties: { who: { type: 'string' } } },
    execute: (args) => {
      runs.push({ ...args });
      return `deployed for ${String(args.who ?? 'nobody')}`;
    },
  };
  toolkit.registerTool(withMcpOptions(tool, { taskSupport: 'required', askBeforeTask }));
  for (const hook of hooks) toolkit.use(hook);
  const http = closer.add(await serveMcpHttp(toolkit, { name: 'compose', version: '1', stateSecret: 'a-shared-key-of-at-least-32-bytes!', tasks: { pollIntervalMs: 20 } }));
  return { url: http.url, runs };
}

const askWho: ToolHook = {
  name: 'ask-who',
  before: async (ctx) => {
    const answer = await ctx.client!.elicit<{ name: string }>({ message: 'For whom?', requestedSchema: FORM }, { key: 'who' });
    return answer.action === 'accept' ? { action: 'rewrite', arguments: { who: answer.content!.name } } : { action: 'deny', reason: `the user said ${answer.action}` };
  },
};

const ELICIT = { capabilities: { elicitation: {} } };

async function settle(url: URL, taskId: string): Promise<RawAnswer> {
  let got!: RawAnswer;
  await eventually(async () => (got = await rawRequest(url, 'tasks/get', { taskId })).result?.status !== 'working');
  return got;
}

describe('a Multi Round-Trip round before a task', () => {
  it('asks first (no task, the body not run), then creates the task on the retry; the task runs the body once with the answer', async () => {
    const { url, runs } = await serve([askWho]);
    const first = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {} }, ELICIT);
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { who: { method: 'elicitation/create' } } });
    expect(first.result).not.toHaveProperty('taskId');
    expect(runs).toEqual([]);
    const answer = { who: { action: 'accept', content: { name: 'Alice' } } };
    const second = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {}, requestState: first.result!.requestState, inputResponses: answer }, ELICIT);
    expect(second.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(second.result).not.toHaveProperty('requestState');
    expect(second.result).not.toHaveProperty('inputRequests');
    const done = await settle(url, second.result!.taskId!);
    expect(done.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'deployed for Alice' }] } });
    expect(runs).toEqual([{ who: 'Alice' }]);
    const replayed = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {}, requestState: first.result!.requestState, inputResponses: answer }, ELICIT);
    expect(replayed.error).toMatchObject({ code: -32602, message: expect.stringMatching(/used before/) });
    expect(runs).toHaveLength(1);
  });

  it('hostile: an answer that fails the form is -32602; a declined question, or a hook asking a client without elicitation, ends the call without a task (as on a plain call); the body never runs', async () => {
    const { url, runs } = await serve([askWho]);
    const round = async () => (await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {} }, ELICIT)).result!.requestState;
    const short = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {}, requestState: await round(), inputResponses: { who: { action: 'accept', content: { name: 'A' } } } }, ELICIT);
    expect(short.error).toMatchObject({ code: -32602, message: expect.stringMatching(/does not match the requested form/) });
    const declined = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {}, requestState: await round(), inputResponses: { who: { action: 'decline' } } }, ELICIT);
    expect(declined.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/the user said decline/) }] });
    expect(declined.result).not.toHaveProperty('taskId');
    const undeclared = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {} });
    expect(undeclared.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/stopped by hook 'ask-who'.*did not declare the 'elicitation' capability/) }] });
    expect(undeclared.result).not.toHaveProperty('taskId');
    expect(runs).toEqual([]);
  });

  it('a hook that asks nothing: the first request is the task, and the body runs once', async () => {
    const { url, runs } = await serve([{ name: 'audit', before: () => undefined }]);
    const created = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: { who: 'Bob' } });
    expect(created.result).toMatchObject({ resultType: 'task' });
    expect((await settle(url, created.result!.taskId!)).result).toMatchObject({ status: 'completed', result: { content: [{ text: 'deployed for Bob' }] } });
    expect(runs).toEqual([{ who: 'Bob' }]);
  });

  it('without askBeforeTask the hook’s question is parked on the task (input_required on tasks/get, answered with tasks/update)', async () => {
    const { url, runs } = await serve([askWho], false);
    const created = await rawRequest(url, 'tools/call', { name: 'deploy', arguments: {} }, ELICIT);
    expect(created.result).toMatchObject({ resultType: 'task' });
    const taskId = created.result!.taskId!;
    let got!: RawAnswer;
    await eventually(async () => (got = await rawRequest(url, 'tasks/get', { taskId })).result?.status === 'input_required');
    const [key] = Object.keys(got.result!.inputRequests as object);
    await rawRequest(url, 'tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { name: 'Carol' } } } });
    expect((await settle(url, taskId)).result).toMatchObject({ status: 'completed', result: { content: [{ text: 'deployed for Carol' }] } });
    expect(runs).toEqual([{ who: 'Carol' }]);
  });
});
