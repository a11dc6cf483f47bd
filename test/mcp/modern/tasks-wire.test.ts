import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import * as sdk from '@modelcontextprotocol/server';
import { memoryMcpStateStore } from '../../../src/mcp';
import { serveTasksExtension, taskModeOf, TASKS_CAPABILITY } from '../../../src/mcp/server/modern/modern-tasks';
import { TasksExtension } from '../../../src/mcp/server/modern/tasks-extension';
import type { McpTaskSupport } from '../../../src/mcp/shared/mcp-tool-options';
import { rawRequest } from '../../support/mcp-modern-raw';

/**
 * The tasks extension on the wire of a real SDK v2 server (createMcpHandler, 2026-07-28 only) on
 * 127.0.0.1: server-directed task creation, the flat CreateTaskResult, tasks/get, tasks/cancel,
 * the -32021 gates, the removed methods and the routing headers.
 */

const SUPPORT: Record<string, McpTaskSupport> = { greet: 'forbidden', slow: 'optional', must_task: 'required' };
let server: http.Server;
let url: URL;
const tasks = new TasksExtension(sdk.ProtocolError, memoryMcpStateStore(), 'x'.repeat(32), { pollIntervalMs: 20 });

beforeAll(async () => {
  const handler = sdk.createMcpHandler(
    (context) => {
      const mcp = new sdk.McpServer({ name: 'wire', version: '1' }, { capabilities: { tools: {}, ...TASKS_CAPABILITY } });
      const owner = context.requestInfo?.headers.get('x-user') ?? undefined;
      mcp.server.setRequestHandler('tools/call', async (call, ctx) => {
        const run = async (signal: AbortSignal) => {
          const seconds = Number(call.params.arguments?.seconds ?? 0);
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, seconds * 1000);
            signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason as Error)));
          });
          return { content: [{ type: 'text' as const, text: `hello ${call.params.name}` }] };
        };
        if (taskModeOf(sdk, SUPPORT[call.params.name] ?? 'forbidden', ctx) === 'task') {
          return (await tasks.create(owner, (task) => run(task.signal))) as unknown as sdk.CallToolResult;
        }
        return run(ctx.mcpReq.signal);
      });
      serveTasksExtension(sdk, mcp.server, tasks, owner);
      return mcp;
    },
    { legacy: 'reject' },
  );
  server = http.createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  await tasks.close();
  await new Promise((resolve) => server.close(resolve));
});

async function settled(taskId: string, headers = {}) {
  for (;;) {
    const got = await rawRequest(url, 'tasks/get', { taskId }, { headers });
    if (got.result?.status !== 'working') return got;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the tasks extension on an SDK v2 server', () => {
  it('creates a task for a task-supporting tool (flat CreateTaskResult, no requestState), answers a sync tool synchronously', async () => {
    const sync = await rawRequest(url, 'tools/call', { name: 'greet', arguments: {} });
    expect(sync.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'hello greet' }] });
    expect(sync.result).not.toHaveProperty('taskId');
    const created = await rawRequest(url, 'tools/call', { name: 'slow', arguments: { seconds: 0.05 }, task: { ttl: 5 } });
    expect(created.result).toMatchObject({ resultType: 'task', taskId: expect.any(String), status: 'working', ttlMs: 3_600_000, pollIntervalMs: 20 });
    for (const absent of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval']) expect(created.result).not.toHaveProperty(absent);
    const taskId = created.result?.taskId ?? '';
    const done = await settled(taskId);
    expect(done.result).toMatchObject({ resultType: 'complete', taskId, status: 'completed', result: { content: [{ type: 'text', text: 'hello slow' }] } });
    expect(done.result).not.toHaveProperty('requestState');
  });

  it('cancels with an empty ack, the same on a task that ended; -32602 for an unknown or foreign id', async () => {
    const { result } = await rawRequest(url, 'tools/call', { name: 'slow', arguments: { seconds: 60 } }, { headers: { 'x-user': 'alice' } });
    const taskId = result?.taskId ?? '';
    expect((await rawRequest(url, 'tasks/cancel', { taskId }, { headers: { 'x-user': 'mallory' } })).error?.code).toBe(-32602);
    expect((await rawRequest(url, 'tasks/get', { taskId })).error?.code).toBe(-32602);
    const ack = await rawRequest(url, 'tasks/cancel', { taskId }, { headers: { 'x-user': 'alice' } });
    expect(ack.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    expect((await settled(taskId, { 'x-user': 'alice' })).result?.status).toBe('cancelled');
    expect((await rawRequest(url, 'tasks/cancel', { taskId }, { headers: { 'x-user': 'alice' } })).result).toEqual(ack.result);
    expect((await rawRequest(url, 'tasks/get', { taskId: 'never-made' })).error?.code).toBe(-32602);
  });

  it('gates the task methods and required-task tools on the extension (-32021), and runs optional ones synchronously without it', async () => {
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const refused = await rawRequest(url, method, { taskId: 'gate-test', inputResponses: {} }, { tasks: false });
      expect(refused.error?.code).toBe(-32021);
    }
    const required = await rawRequest(url, 'tools/call', { name: 'must_task', arguments: {} }, { tasks: false });
    expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    const optional = await rawRequest(url, 'tools/call', { name: 'slow', arguments: { seconds: 0 } }, { tasks: false });
    expect(optional.result).toMatchObject({ resultType: 'complete', content: [{ text: 'hello slow' }] });
  });

  it('answers the removed tasks/list and tasks/result with -32601, and a mismatched Mcp-Name with -32020', async () => {
    expect((await rawRequest(url, 'tasks/list', {})).error?.code).toBe(-32601);
    expect((await rawRequest(url, 'tasks/result', { taskId: 'x' })).error?.code).toBe(-32601);
    const mismatch = await rawRequest(url, 'tasks/get', { taskId: 'abc' }, { mcpName: 'other' });
    expect(mismatch.error?.code).toBe(-32020);
  });
});
