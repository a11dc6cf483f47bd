import { join } from 'node:path';
import { Client as Sdk2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Server, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/server';
import * as sdk from '@modelcontextprotocol/server';
import { Toolkit, type CallProgress, type ClientRequestHandler } from '../../../src';
import { importMcpTools, serveMcpHttp, withMcpOptions } from '../../../src/mcp';
import { declaresTasks, TASKS_CAPABILITY, taskModeOf } from '../../../src/mcp/server/modern/modern-tasks';
import { Closer, eventually } from '../../support/mcp';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { researchTool } from '../fixtures/research-tool';
import { connectSdk2, serveSdk2, type Negotiation } from './sdk2-servers';

/**
 * An import through an MCP SDK 2 client from a 2026-07-28 server calls a tool the server runs only
 * as a task through the tasks extension (`io.modelcontextprotocol/tasks`): against toolwright's own
 * server (results, progress, a question inside the task, cancellation), and against an attacker's
 * server (hostile task ids, a task that never ends, huge status messages and results, a
 * `tasks/get` about another task), every case bounded with a clear error.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

/** A task-only tool that asks its caller's user inside the task. */
const askInTask = withMcpOptions(
  {
    name: 'ask_later',
    description: 'Asks for a colour inside a task',
    parameters: { type: 'object', properties: {} },
    execute: async (_args, ctx) => {
      const answer = await ctx.client!.elicit({ message: 'Your colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } });
      return `colour: ${String(answer.content?.colour)}`;
    },
  },
  { taskSupport: 'required' },
);

const answering = (colour: string): ClientRequestHandler => ({
  supports: () => true,
  createMessage: async () => ({ role: 'assistant', content: { type: 'text', text: 'sure' }, model: 'test' }),
  elicit: async () => ({ action: 'accept', content: { colour } }),
});

async function importFromToolwright(mode: Negotiation, clientRequests?: ClientRequestHandler) {
  const { toolkit } = createTestToolkit();
  const state = { started: 0, aborted: 0 } as { started: number; aborted: number; release?: () => void };
  toolkit.registerTool(researchTool(state));
  toolkit.registerTool(askInTask);
  const http = closer.add(await serveMcpHttp(toolkit, { name: 'toolwright-test', version: '0.0.0', tasks: { pollIntervalMs: 20 } }));
  const client = await connectSdk2(closer, http.url, mode);
  const b = new Toolkit(clientRequests !== undefined ? { clientRequests } : {});
  closer.add(await importMcpTools(client, b, { prefix: 'a', followListChanged: false }));
  return { b, state };
}

describe.each(['auto', 'pinned'] as const)('a task-only tool of toolwright on 2026-07-28, imported through an SDK 2 client (%s negotiation)', (mode: Negotiation) => {
  test('is called through the tasks extension: its status reaches progress, its result the caller', async () => {
    const { b, state } = await importFromToolwright(mode);
    const progress: CallProgress[] = [];
    const call = b.callTool({ id: 't', name: 'a_research', arguments: { topic: 'tides' } }, { onProgress: (p) => progress.push(p) });
    await eventually(() => state.release !== undefined);
    await eventually(() => progress.some((p) => p.message === 'reading about tides'));
    state.release!();
    expect(await call).toMatchObject({ isError: false, forLLM: 'findings on tides' });
    expect(state.started).toBe(1);
  });

  test("a question inside the task is answered through the importing call's client (tasks/update)", async () => {
    const { b } = await importFromToolwright(mode, answering('teal'));
    expect(await b.callTool({ id: 'q', name: 'a_ask_later', arguments: {} })).toMatchObject({ isError: false, forLLM: 'colour: teal' });
  });

  test('aborting the importing call cancels the remote task', async () => {
    const { b, state } = await importFromToolwright(mode);
    const controller = new AbortController();
    const call = b.callTool({ id: 'c', name: 'a_research', arguments: { topic: 'x' } }, { signal: controller.signal });
    await eventually(() => state.started === 1);
    controller.abort('stop');
    expect((await call).error?.code).toBe('ABORTED');
    await eventually(() => state.aborted === 1);
  });
});

test('over stdio (a real child process), a task-only tool is called through the tasks extension on the same connection', async () => {
  const root = join(__dirname, '..', '..', '..');
  const client = closer.add(new Sdk2Client({ name: 'importer', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
  await client.connect(new Sdk2StdioTransport({ command: process.execPath, args: [join(root, 'test', 'mcp', 'modern', 'fixtures', 'stdio-server.js')], cwd: root, stderr: 'pipe' }));
  const b = new Toolkit();
  closer.add(await importMcpTools(client, b, { prefix: 's', filter: ['slow_report', 'echo'], followListChanged: false }));
  expect(await b.callTool({ id: 'r', name: 's_slow_report', arguments: { topic: 'tides' } })).toMatchObject({ isError: false, forLLM: 'report on tides' });
  // the connection goes on serving the SDK's own requests
  expect(await b.callTool({ id: 'e', name: 's_echo', arguments: { text: 'after' } })).toMatchObject({ isError: false, forLLM: 'echo: after' });
}, 30_000);

/** What the attacker's server answers, set by each test. */
interface Script {
  created: Record<string, unknown>;
  /** Delays each tasks/get answer by this many ms. */
  slowGetMs?: number;
  /** Answers a `tools/call` instead of `created` (given what the retry carried). */
  call?: (retry: { inputResponses: unknown; requestState: unknown }) => Record<string, unknown>;
  get: (taskId: unknown, polls: number) => Record<string, unknown>;
}

/** An SDK 2 server (2026-07-28) that declares the tasks extension and answers its methods as `script` says; it records what it was sent. */
async function attacker(script: Script, options: { timeoutMs?: number; requestTimeoutMs?: number; clientRequests?: ClientRequestHandler; declare?: boolean } = {}) {
  const seen = { cancels: [] as unknown[], updates: [] as unknown[], polls: 0 };
  const any = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value: value as { taskId?: unknown } }) } } as const;
  const url = await serveSdk2(closer, () => {
    const server = new Server({ name: 'attacker', version: '1.0.0' }, { capabilities: { tools: {}, ...(options.declare === false ? {} : TASKS_CAPABILITY) } });
    server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'job', inputSchema: { type: 'object' } }] }) as ListToolsResult);
    server.setRequestHandler('tools/call', (_request, ctx) => {
      taskModeOf(sdk, 'required', ctx);
      const retry = { inputResponses: ctx.mcpReq.inputResponses, requestState: ctx.mcpReq.requestState() };
      return (script.call?.(retry) ?? script.created) as unknown as CallToolResult;
    });
    server.setRequestHandler('tasks/get', { params: any }, async (params, ctx) => {
      expect(declaresTasks(ctx)).toBe(true);
      if (script.slowGetMs !== undefined) await new Promise((resolve) => setTimeout(resolve, script.slowGetMs));
      return script.get((params as { taskId?: unknown }).taskId, ++seen.polls) as never;
    });
    server.setRequestHandler('tasks/update', { params: any }, (_params, ctx) => (seen.updates.push(ctx.mcpReq.inputResponses), { resultType: 'complete' }) as never);
    server.setRequestHandler('tasks/cancel', { params: any }, (params) => (seen.cancels.push((params as { taskId?: unknown }).taskId), { resultType: 'complete' }) as never);
    return server;
  });
  const client = await connectSdk2(closer, url, 'pinned');
  const errors: Error[] = [];
  client.onerror = (error) => void errors.push(error);
  const b = new Toolkit({
    ...(options.timeoutMs !== undefined ? { execution: { timeoutMs: options.timeoutMs } } : {}),
    ...(options.clientRequests !== undefined ? { clientRequests: options.clientRequests } : {}),
  });
  const requestTimeout = options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {};
  closer.add(await importMcpTools(client, b, { followListChanged: false, maxContentBytes: 1_000, ...requestTimeout }));
  return { b, seen, errors };
}

const created = (taskId: unknown) => ({ resultType: 'task', taskId, status: 'working', createdAt: '2026-11-27T00:00:00Z', lastUpdatedAt: '2026-11-27T00:00:00Z', ttlMs: 60_000, pollIntervalMs: 10 });
const task = (taskId: unknown, fields: Record<string, unknown>) => ({ ...created(taskId), resultType: 'complete', ...fields });

describe('an attacker’s 2026-07-28 server against a task call through the tasks extension', () => {
  test.each([
    ['a task id of 10 000 characters', 'x'.repeat(10_000)],
    ['a task id that is not a string', { $gt: '' }],
    ['a task id with control characters', 'a\nb'],
  ])('%s is refused before any tasks/get', async (_what, taskId) => {
    const { b, seen } = await attacker({ created: created(taskId), get: () => ({}) });
    const result = await b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.forLLM).toContain('not a printable string of at most 256 characters');
    expect(result.forLLM.length).toBeLessThan(600);
    expect(seen.polls).toBe(0);
  });

  test('a tasks/get answer about another task ends the call, and the task is cancelled', async () => {
    const { b, seen } = await attacker({ created: created('mine'), get: () => task('theirs', { status: 'completed', result: { content: [{ type: 'text', text: 'stolen' }] } }) });
    const result = await b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(result.forLLM).toContain('about another task');
    expect(result.forLLM).not.toContain('stolen');
    await eventually(() => seen.cancels.length === 1);
    expect(seen.cancels).toEqual(['mine']);
  });

  test('a task that stays working ends with the call’s timeout, cancels the task, and relays a huge status message bounded and once', async () => {
    const { b, seen } = await attacker({ created: created('slow'), get: () => task('slow', { status: 'working', statusMessage: 'w'.repeat(1_000_000), pollIntervalMs: 0 }) }, { timeoutMs: 400 });
    const progress: CallProgress[] = [];
    const started = Date.now();
    const result = await b.callTool({ id: 'j', name: 'job', arguments: {} }, { onProgress: (p) => progress.push(p) });
    expect(result.error?.code).toMatch(/TIMEOUT|ABORTED/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // polls held to the 50 ms floor: not a spin
    expect(seen.polls).toBeLessThan(15);
    expect(progress.filter((p) => p.message !== undefined)).toHaveLength(1);
    expect(progress[0]!.message!.length).toBeLessThanOrEqual(300);
    await eventually(() => seen.cancels.length === 1);
  });

  test('a task result larger than maxContentBytes is cut as any result; a failed task reports its bounded error', async () => {
    const big = await attacker({ created: created('big'), get: () => task('big', { status: 'completed', result: { content: [{ type: 'text', text: 'y'.repeat(50_000) }] } }) });
    const result = await big.b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(result.isError).toBe(false);
    expect(result.forLLM.length).toBeLessThan(2_000);
    const failed = await attacker({ created: created('f'), get: () => task('f', { status: 'failed', error: { code: -32603, message: 'e'.repeat(100_000) } }) });
    const failure = await failed.b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(failure.isError).toBe(true);
    expect(failure.forLLM).toContain("the remote task of tool 'job' failed: eee");
    expect(failure.forLLM.length).toBeLessThan(1_000);
    expect(failed.seen.cancels).toEqual([]);
  });

  test('an unknown status, and input asked without a client to answer, end the call with clear errors', async () => {
    const odd = await attacker({ created: created('o'), get: () => task('o', { status: 'pwned' }) });
    expect((await odd.b.callTool({ id: 'j', name: 'job', arguments: {} })).forLLM).toContain('not an MCP task status');
    const asking = await attacker({ created: created('a'), get: () => task('a', { status: 'input_required', inputRequests: { q: form } }) });
    const asked = await asking.b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(asked.isError).toBe(true);
    expect(asking.seen.updates).toEqual([]);
  });

  test('a question before the task (input_required on tools/call) is answered, and the retry creates the task', async () => {
    const retries: unknown[] = [];
    const { b } = await attacker(
      {
        created: created('t'),
        call: (retry) => {
          if (retry.requestState === undefined) return { resultType: 'input_required', inputRequests: { colour: form }, requestState: 'state-1' };
          retries.push(retry);
          return created('t');
        },
        get: () => task('t', { status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } }),
      },
      { clientRequests: answering('teal') },
    );
    expect(await b.callTool({ id: 'j', name: 'job', arguments: {} })).toMatchObject({ isError: false, forLLM: 'done' });
    expect(retries).toEqual([{ inputResponses: { colour: { action: 'accept', content: { colour: 'teal' } } }, requestState: 'state-1' }]);
  });

  test('a task that keeps asking stops after 10 rounds of tasks/update, with an error that says so, and is cancelled', async () => {
    let asked = 0;
    const clientRequests: ClientRequestHandler = { ...answering('teal'), elicit: async () => (asked++, { action: 'accept', content: { colour: 'teal' } }) };
    const { b, seen } = await attacker({ created: created('k'), get: (_id, polls) => task('k', { status: 'input_required', inputRequests: { [`q${polls}`]: form } }) }, { clientRequests });
    const result = await b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.forLLM).toContain('asked for input more than 10 times');
    expect(asked).toBe(10);
    expect(seen.updates).toHaveLength(10);
    await eventually(() => seen.cancels.length === 1);
  });

  test('a server that requires the extension without declaring it: the refusal reaches the caller, nothing is retried', async () => {
    const { b, seen } = await attacker({ created: created('n'), get: () => task('n', { status: 'completed', result: { content: [] } }) }, { declare: false });
    const result = await b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.forLLM).toContain('io.modelcontextprotocol/tasks');
    expect(seen.polls).toBe(0);
  });

  test('a tasks/get slower than requestTimeoutMs ends the call with an error naming it; its late answer never reaches the SDK client', async () => {
    const { b, seen, errors } = await attacker({ created: created('s'), slowGetMs: 300, get: () => task('s', { status: 'working' }) }, { requestTimeoutMs: 100 });
    const result = await b.callTool({ id: 'j', name: 'job', arguments: {} });
    expect(result.forLLM).toContain('did not answer tasks/get within 100 ms');
    await eventually(() => seen.polls === 1 && seen.cancels.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(errors).toEqual([]);
  });
});

const form = { method: 'elicitation/create', params: { message: 'Colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } } };
