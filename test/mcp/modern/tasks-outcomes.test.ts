import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ClientRequests, Tool, ToolEmitter, ToolParam, ToolService } from '../../../src';
import { memoryMcpStateStore, serveMcpHttp, type McpStateStore } from '../../../src/mcp';
import { Closer, eventually } from '../../support/mcp';
import { rawRequest, type RawAnswer } from '../../support/mcp-modern-raw';
import { freshToolkit } from '../../support/toolkit';

/**
 * How a task's call ends under the tasks extension: a tool error is `completed` with
 * `result.isError`; a JSON-RPC error the tool throws (a protocol-level fault) is `failed` with
 * that error, its message redacted of preset values; a plain call of the same tool is unchanged.
 * While it runs, its progress is the task's `statusMessage` on `tasks/get`.
 */

const SECRET = 'sk-live-PANIC-SECRET-4242';
const closer = new Closer();
afterEach(() => closer.closeAll());

@ToolService()
class Jobs {
  @Tool({ description: 'Panics with a JSON-RPC error (SDK v2) that quotes its key' })
  panic(@ToolParam({ name: 'apiKey' }) apiKey: string): string {
    throw new ProtocolError(ProtocolErrorCode.InternalError, `upstream refused key ${apiKey}: ${'x'.repeat(500)}`);
  }

  @Tool({ description: 'Panics with a JSON-RPC error (SDK v1)' })
  legacyPanic(): string {
    throw new McpError(-32000, 'the backend is gone');
  }

  @Tool({ description: 'Fails as tools fail' })
  oops(): string {
    throw new Error('the job failed');
  }

  static gate: Promise<void> = Promise.resolve();

  @Tool({ description: 'Reports progress a thousand times, then waits' })
  async crunch(@ToolParam({ name: 'apiKey' }) apiKey: string, emitter: ToolEmitter): Promise<string> {
    for (let i = 1; i <= 1000; i++) emitter.emit({ progress: i, total: 1000, message: `step ${i} of 1000 with ${apiKey} ${'y'.repeat(300)}` });
    await Jobs.gate;
    emitter.emit({ progress: 7 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    return 'crunched';
  }

  @Tool({ description: 'Lists the client’s roots' })
  async roots(client: ClientRequests): Promise<string> {
    const { roots } = await client.listRoots();
    return roots.map((root) => `${root.uri}|${root.name ?? ''}`).join(',');
  }

  @Tool({ description: 'Fails with a system error (a string code)' })
  reset(): string {
    throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  }
}

async function serve(stateStore: McpStateStore = memoryMcpStateStore()): Promise<URL> {
  const toolkit = freshToolkit();
  toolkit.registration().tool(new Jobs()).presetParameters({ panic: { apiKey: SECRET }, crunch: { apiKey: SECRET } }).apply();
  const optional = { taskSupport: 'optional' } as const;
  const http = closer.add(
    await serveMcpHttp(toolkit, {
      name: 'jobs',
      version: '1',
      stateSecret: 'a-shared-key-of-at-least-32-bytes!',
      stateStore,
      tools: { panic: optional, legacy_panic: optional, oops: optional, reset: optional, crunch: optional, roots: optional },
      tasks: { pollIntervalMs: 20 },
    }),
  );
  return http.url;
}

async function runAsTask(url: URL, name: string): Promise<RawAnswer> {
  const created = await rawRequest(url, 'tools/call', { name, arguments: {} });
  expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
  let got!: RawAnswer;
  await eventually(async () => (got = await rawRequest(url, 'tasks/get', { taskId: created.result!.taskId })).result?.status !== 'working');
  return got;
}

describe('how a task of the tasks extension ends when its tool throws', () => {
  it('a JSON-RPC error (SDK v2 ProtocolError, SDK v1 McpError) ends the task failed with its code and a bounded, redacted message, and no result', async () => {
    const url = await serve();
    const panicked = await runAsTask(url, 'panic');
    expect(panicked.result).toMatchObject({ status: 'failed', error: { code: -32603, message: expect.stringContaining('upstream refused key') } });
    expect(panicked.result).not.toHaveProperty('result');
    const error = panicked.result!.error as { message: string };
    expect(error.message.length).toBeLessThanOrEqual(200);
    expect(JSON.stringify(panicked)).not.toContain(SECRET);
    const legacy = await runAsTask(url, 'legacy_panic');
    expect(legacy.result).toMatchObject({ status: 'failed', error: { code: -32000, message: expect.stringContaining('the backend is gone') } });
  });

  it('an ordinary throw, or an error with a string code, is a tool error: completed with result.isError', async () => {
    const url = await serve();
    for (const name of ['oops', 'reset']) {
      const done = await runAsTask(url, name);
      expect(done.result).toMatchObject({ status: 'completed', result: { isError: true } });
      expect(done.result).not.toHaveProperty('error');
    }
  });

  it('a plain call (no extension declared) of the panicking tool is still an error result, never a JSON-RPC error, and redacted', async () => {
    const url = await serve();
    const plain = await rawRequest(url, 'tools/call', { name: 'panic', arguments: {} }, { tasks: false });
    expect(plain.error).toBeUndefined();
    expect(plain.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('upstream refused key') }] });
    expect(JSON.stringify(plain)).not.toContain(SECRET);
  });
});

describe('the progress of a task', () => {
  it('is its statusMessage on tasks/get: redacted, cut to 200 characters, a flood of reports written at most once per poll', async () => {
    let release!: () => void;
    Jobs.gate = new Promise((resolve) => (release = resolve));
    const inner = memoryMcpStateStore();
    const writes: string[] = [];
    const store: McpStateStore = { ...inner, set: (key, value, ttl) => (writes.push(key), inner.set(key, value, ttl)), setIfAbsent: (k, v, t) => inner.setIfAbsent(k, v, t), get: (k) => inner.get(k), delete: (k) => inner.delete(k) };
    const url = await serve(store);
    const created = await rawRequest(url, 'tools/call', { name: 'crunch', arguments: {} });
    const taskId = created.result!.taskId!;
    let got!: RawAnswer;
    await eventually(async () => typeof (got = await rawRequest(url, 'tasks/get', { taskId })).result?.statusMessage === 'string');
    expect(got.result).toMatchObject({ status: 'working', statusMessage: expect.stringMatching(/^step 1000 of 1000 with /) });
    expect((got.result!.statusMessage as string).length).toBe(200);
    expect(JSON.stringify(got)).not.toContain(SECRET);
    expect(writes.filter((key) => key.endsWith(':state')).length).toBeLessThan(10);
    release();
    await eventually(async () => (await rawRequest(url, 'tasks/get', { taskId })).result?.statusMessage === '7');
    await eventually(async () => (got = await rawRequest(url, 'tasks/get', { taskId })).result?.status === 'completed');
    expect(got.result).toMatchObject({ result: { content: [{ type: 'text', text: 'crunched' }] } });
  });
});

describe('roots under the tasks extension', () => {
  it('parks the task input_required with a roots/list request; a shape-checked answer through tasks/update resumes it; a malformed one is a tool error', async () => {
    const url = await serve();
    const ask = async (answer: unknown): Promise<RawAnswer> => {
      const created = await rawRequest(url, 'tools/call', { name: 'roots', arguments: {} }, { capabilities: { roots: {} } });
      const taskId = created.result!.taskId!;
      let got!: RawAnswer;
      await eventually(async () => (got = await rawRequest(url, 'tasks/get', { taskId })).result?.status === 'input_required');
      const [key, request] = Object.entries(got.result!.inputRequests as Record<string, { method: string }>)[0];
      expect(request).toMatchObject({ method: 'roots/list' });
      expect((await rawRequest(url, 'tasks/update', { taskId, inputResponses: { [key]: answer } })).result).toMatchObject({ resultType: 'complete' });
      await eventually(async () => ['completed', 'failed'].includes(String((got = await rawRequest(url, 'tasks/get', { taskId })).result?.status)));
      return got;
    };
    const done = await ask({ roots: [{ uri: 'file:///src', name: 'Src', extra: 'dropped' }] });
    expect(done.result).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'file:///src|Src' }] } });
    const bad = await ask({ roots: 'all of them' });
    expect(bad.result).toMatchObject({ status: 'completed', result: { isError: true, content: [{ text: expect.stringMatching(/not a valid roots result/) }] } });
  });
});
