import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, TaskStatusNotificationSchema, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { AsyncCompletion, ClientRequests, Tool, ToolParam, ToolService, asyncResult, type AgentTool, type Toolkit, type ToolResult } from '../../src';
import { McpPrincipal, bearerAuth, createMcpServer, serveMcpHttp, withMcpOptions, type McpHttpServeOptions, type McpHttpServer } from '../../src/mcp';
import { Closer, connectInMemory, eventually, textOf } from '../support/mcp';
import { freshToolkit } from '../support/toolkit';

const SECRET = 'sk-task-SECRET-4711';
const closer = new Closer();
afterEach(() => closer.closeAll());

@ToolService()
class Reports {
  readonly jobs: { done: AsyncCompletion; title: string; owner: string }[] = [];

  @Tool({ description: 'Builds a report in the background; the report follows' })
  buildReport(@ToolParam({ name: 'title' }) title: string, @ToolParam({ name: 'apiKey' }) apiKey: string, done: AsyncCompletion, who: McpPrincipal): ToolResult {
    this.jobs.push({ done, title: `${title} (key ${apiKey})`, owner: who.id });
    return asyncResult(`Report ${title} started.`);
  }
}

@ToolService()
class Asking {
  @Tool({ description: 'Asks the user for a colour' })
  async pickColour(client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ colour: string }>({ message: 'Which colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] } });
    return `picked ${answer.content?.colour ?? answer.action}`;
  }
}

/** A tool that reports progress, then waits until `release()` or its signal fires. */
function slowTool(support: 'optional' | 'required', name: string) {
  const state = { started: 0, aborted: 0, gates: [] as (() => void)[] };
  const tool: AgentTool = {
    name,
    description: 'Slow work',
    parameters: { type: 'object', properties: {} },
    execute: (_args, ctx) => {
      state.started++;
      ctx.emit({ progress: 1, total: 2, message: 'half way' });
      return new Promise<string>((resolve) => {
        state.gates.push(() => resolve('slow work done'));
        ctx.signal.addEventListener('abort', () => {
          state.aborted++;
          resolve('aborted');
        });
      });
    },
  };
  return { tool: withMcpOptions(tool, { taskSupport: support }), state, release: () => state.gates.shift()?.() };
}

function tasksToolkit() {
  const toolkit = freshToolkit();
  const reports = new Reports();
  toolkit.registration().tool(reports).presetParameters({ build_report: { apiKey: SECRET } }).apply();
  const slow = slowTool('optional', 'slow');
  const only = slowTool('required', 'task_only');
  toolkit.registerTool(slow.tool);
  toolkit.registerTool(only.tool);
  toolkit.registerTool({ name: 'echo', description: 'Echo', parameters: { type: 'object', properties: { text: { type: 'string' } } }, execute: (a) => String(a.text) });
  return { toolkit, reports, slow, only };
}

const principals = new Map([
  ['t-alice', new McpPrincipal('alice')],
  ['t-bob', new McpPrincipal('bob')],
]);

async function serve(toolkit: Toolkit, options: Partial<McpHttpServeOptions> = {}): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(toolkit, { name: 'tasks', version: '1', authenticate: bearerAuth((t) => principals.get(t)), ...options }));
}

async function connect(http: McpHttpServer, token: string): Promise<Client> {
  const client = closer.add(new Client({ name: token, version: '1' }));
  await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** Creates a task for `name` and returns its id (the raw request, as any client may send it). */
async function createTask(client: Client, name: string, args: Record<string, unknown> = {}, ttl?: number, onprogress?: (p: Progress) => void): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: args, task: ttl === undefined ? {} : { ttl } } },
    CreateTaskResultSchema,
    onprogress ? { onprogress } : {},
  );
  expect(created.task).toMatchObject({ status: 'working', pollInterval: 500 });
  return created.task.taskId;
}

describe('MCP tasks served by createMcpServer', () => {
  test('the tasks capability is declared; tools that finish in the background (or say so) offer task support', async () => {
    const { toolkit } = tasksToolkit();
    const { client } = await connectInMemory(toolkit, closer);
    expect(client.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const tools = new Map((await client.client.listTools()).tools.map((t) => [t.name, t.execution]));
    expect(Object.fromEntries(tools)).toEqual({ build_report: { taskSupport: 'optional' }, slow: { taskSupport: 'optional' }, task_only: { taskSupport: 'required' }, echo: undefined });
  });

  test('tasks: false declares no capability, serves no task support, and a task-only tool is called directly', async () => {
    const { toolkit, only } = tasksToolkit();
    const { client } = await connectInMemory(toolkit, closer, { tasks: false });
    expect(client.client.getServerCapabilities()?.tasks).toBeUndefined();
    expect((await client.client.listTools()).tools.every((t) => t.execution === undefined)).toBe(true);
    const answer = client.call('task_only');
    await eventually(() => only.state.started === 1);
    only.release();
    expect(textOf(await answer)).toBe('slow work done');
  });

  test('an async tool runs as a task: the task works until the completion, which is its result (presets redacted, principal kept)', async () => {
    const { toolkit, reports } = tasksToolkit();
    const http = await serve(toolkit);
    const alice = await connect(http, 't-alice');
    const statuses: string[] = [];
    const stream = alice.experimental.tasks.callToolStream({ name: 'build_report', arguments: { title: 'Q3' } }, CallToolResultSchema, { task: { ttl: 60_000 } });
    let result: CallToolResult | undefined;
    for await (const message of stream) {
      if (message.type === 'taskCreated') statuses.push(`created:${message.task.status}`);
      if (message.type === 'taskStatus') {
        statuses.push(`${message.task.status}:${message.task.statusMessage ?? ''}`);
        if (message.task.status === 'working' && reports.jobs.length === 1 && !reports.jobs[0].done.settled) {
          expect(message.task.statusMessage).toBe('Report Q3 started.');
          reports.jobs[0].done.complete(`Report ${reports.jobs[0].title} is ready`);
        }
      }
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(reports.jobs[0].owner).toBe('alice');
    expect(statuses[0]).toBe('created:working');
    expect(statuses.at(-1)).toMatch(/^completed:/);
    expect(result!.isError).toBeFalsy();
    expect(textOf(result!)).toMatch(/^Report Q3 \(key .+\) is ready$/);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    const listed = await alice.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.status)).toEqual(['completed']);
  });

  test('progress reaches the client after the task was created; tasks/result waits for the end', async () => {
    const { toolkit, slow } = tasksToolkit();
    const http = await serve(toolkit);
    const alice = await connect(http, 't-alice');
    const progress: Progress[] = [];
    const id = await createTask(alice, 'slow', {}, undefined, (p) => progress.push(p));
    await eventually(() => slow.state.started === 1 && progress.length === 1);
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half way', _meta: { 'io.modelcontextprotocol/related-task': { taskId: id } } }]);
    let settled = false;
    const result = alice.experimental.tasks.getTaskResult(id, CallToolResultSchema).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    expect((await alice.experimental.tasks.getTask(id)).status).toBe('working');
    slow.release();
    expect(textOf((await result) as CallToolResult)).toBe('slow work done');
    expect((await alice.experimental.tasks.getTask(id)).status).toBe('completed');
  });

  test('tasks/cancel aborts the call; the result says it was cancelled; a finished task cannot be cancelled', async () => {
    const { toolkit, slow } = tasksToolkit();
    const http = await serve(toolkit);
    const alice = await connect(http, 't-alice');
    const id = await createTask(alice, 'slow');
    await eventually(() => slow.state.started === 1);
    expect(await alice.experimental.tasks.cancelTask(id)).toMatchObject({ taskId: id, status: 'cancelled' });
    await eventually(() => slow.state.aborted === 1);
    const result = (await alice.experimental.tasks.getTaskResult(id, CallToolResultSchema)) as CallToolResult;
    expect([result.isError, textOf(result)]).toEqual([true, 'The task was cancelled by the client (tasks/cancel) before it finished.']);
    await expect(alice.experimental.tasks.cancelTask(id)).rejects.toThrow(/it already ended \(cancelled\)/);
  });

  test('a request to the client from a task is marked as related to it; the task is input_required until the answer', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(Asking);
    const http = await serve(toolkit, { tools: { pick_colour: { taskSupport: 'optional' } } });
    const alice = closer.add(new Client({ name: 'alice', version: '1' }, { capabilities: { elicitation: {} } }));
    const seen: { related: unknown; status: string }[] = [];
    const statuses: string[] = [];
    alice.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
      statuses.push(n.params.status);
      return Promise.resolve();
    });
    alice.setRequestHandler(ElicitRequestSchema, async (request) => {
      const related = request.params._meta?.['io.modelcontextprotocol/related-task'] as { taskId: string };
      seen.push({ related, status: (await alice.experimental.tasks.getTask(related.taskId)).status });
      return { action: 'accept', content: { colour: 'teal' } };
    });
    await alice.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: 'Bearer t-alice' } } }));
    expect((await alice.listTools()).tools[0].execution).toEqual({ taskSupport: 'optional' });
    const id = await createTask(alice, 'pick_colour');
    const result = (await alice.experimental.tasks.getTaskResult(id, CallToolResultSchema)) as CallToolResult;
    expect(textOf(result)).toBe('picked teal');
    expect(seen).toEqual([{ related: { taskId: id }, status: 'input_required' }]);
    await eventually(() => statuses.at(-1) === 'completed');
    expect(statuses).toEqual(['input_required', 'working', 'completed']);
  });

  test('with sdkValidation the SDK-validated tools/call handler creates tasks too', async () => {
    const { toolkit, slow } = tasksToolkit();
    const { client } = await connectInMemory(toolkit, closer, { sdkValidation: true });
    const id = await createTask(client.client, 'slow');
    await eventually(() => slow.state.started === 1);
    slow.release();
    expect(textOf((await client.client.experimental.tasks.getTaskResult(id, CallToolResultSchema)) as CallToolResult)).toBe('slow work done');
    await expect(createTask(client.client, 'echo')).rejects.toMatchObject({ code: -32601 });
  });

  test('forbidden and required task support are enforced with -32601 and a message saying what to do', async () => {
    const { toolkit } = tasksToolkit();
    const { client } = await connectInMemory(toolkit, closer);
    await expect(createTask(client.client, 'echo', { text: 'x' })).rejects.toThrow(/Tool 'echo' cannot be called as an MCP task .*call it without params.task/);
    await expect(client.client.request({ method: 'tools/call', params: { name: 'task_only', arguments: {} } }, CallToolResultSchema)).rejects.toMatchObject({
      code: -32601,
      message: expect.stringMatching(/Tool 'task_only' must be called as an MCP task .*send params.task/),
    });
    // an unknown tool still gets the toolkit's own answer, as a task result
    const id = await createTask(client.client, 'no_such_tool');
    const result = (await client.client.experimental.tasks.getTaskResult(id, CallToolResultSchema)) as CallToolResult;
    expect([result.isError, textOf(result)]).toEqual([true, expect.stringContaining('no_such_tool')]);
  });
});

describe('MCP tasks are isolated and bounded (hostile clients over Streamable HTTP)', () => {
  test("another principal's session cannot get, read, list or cancel a task; nor can the owner's other session", async () => {
    const { toolkit, slow } = tasksToolkit();
    const http = await serve(toolkit);
    const alice = await connect(http, 't-alice');
    const bob = await connect(http, 't-bob');
    const aliceAgain = await connect(http, 't-alice');
    const id = await createTask(alice, 'slow');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const other of [bob, aliceAgain]) {
      await expect(other.experimental.tasks.getTask(id)).rejects.toThrow(/Task not found/);
      await expect(other.experimental.tasks.getTaskResult(id, CallToolResultSchema)).rejects.toThrow(/Task not found/);
      await expect(other.experimental.tasks.cancelTask(id)).rejects.toThrow(/Task not found/);
      expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    }
    expect(slow.state.aborted).toBe(0);
    expect((await alice.experimental.tasks.getTask(id)).status).toBe('working');
    slow.release();
    expect(textOf((await alice.experimental.tasks.getTaskResult(id, CallToolResultSchema)) as CallToolResult)).toBe('slow work done');
  });

  test('a client flooding task creation is refused past maxTasks with a clear error; finished tasks make room', async () => {
    const { toolkit, slow } = tasksToolkit();
    const http = await serve(toolkit, { tasks: { maxTasks: 3 } });
    const alice = await connect(http, 't-alice');
    const ids = [await createTask(alice, 'slow'), await createTask(alice, 'slow'), await createTask(alice, 'slow')];
    const refused = await Promise.allSettled(Array.from({ length: 50 }, () => createTask(alice, 'slow')));
    expect(refused.every((r) => r.status === 'rejected')).toBe(true);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({ code: -32000, message: expect.stringMatching(/Too many tasks: this session has 3 tasks running \(the server's tasks.maxTasks\)/) });
    expect(slow.state.started).toBe(3);
    slow.release();
    await alice.experimental.tasks.getTaskResult(ids[0], CallToolResultSchema);
    const next = await createTask(alice, 'slow');
    const listed = (await alice.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
    expect(listed).toEqual([ids[1], ids[2], next]);
    // another session has its own room
    const bob = await connect(http, 't-bob');
    await createTask(bob, 'slow');
  });

  test('a task lives at most ttlMs: a longer ttl is cut, and a task running past it is cancelled and forgotten', async () => {
    const { toolkit, slow } = tasksToolkit();
    const http = await serve(toolkit, { tasks: { ttlMs: 300 } });
    const alice = await connect(http, 't-alice');
    const created = await alice.request({ method: 'tools/call', params: { name: 'slow', arguments: {}, task: { ttl: 3_600_000 } } }, CreateTaskResultSchema);
    expect(created.task.ttl).toBe(300);
    await eventually(() => slow.state.aborted === 1, 10_000);
    await expect(alice.experimental.tasks.getTask(created.task.taskId)).rejects.toThrow(/Task not found/);
  });

  test('task limits that are not whole numbers >= 1 are refused when the server is made', async () => {
    const { toolkit } = tasksToolkit();
    expect(() => createMcpServer(toolkit, { name: 't', version: '1', tasks: { maxTasks: 0 } })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS', message: 'MCP server option tasks.maxTasks must be a whole number >= 1, got 0.' }),
    );
    await expect(serveMcpHttp(toolkit, { name: 't', version: '1', tasks: { ttlMs: Number.NaN } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  test('closing the session cancels its running tasks', async () => {
    const { toolkit, slow } = tasksToolkit();
    const http = await serve(toolkit);
    const alice = await connect(http, 't-alice');
    await createTask(alice, 'slow');
    await eventually(() => slow.state.started === 1);
    await http.close();
    await eventually(() => slow.state.aborted === 1);
  });
});
