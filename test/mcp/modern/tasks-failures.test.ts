import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolParam, ToolService } from '../../../src';
import { serveMcpHttp } from '../../../src/mcp';
import { Closer, eventually } from '../../support/mcp';
import { rawRequest, type RawAnswer } from '../../support/mcp-modern-raw';
import { freshToolkit } from '../../support/toolkit';

/**
 * How a task's call ends under the tasks extension: a tool error is `completed` with
 * `result.isError`; a JSON-RPC error the tool throws (a protocol-level fault) is `failed` with
 * that error, its message redacted of preset values; a plain call of the same tool is unchanged.
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

  @Tool({ description: 'Fails with a system error (a string code)' })
  reset(): string {
    throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  }
}

async function serve(): Promise<URL> {
  const toolkit = freshToolkit();
  toolkit.registration().tool(new Jobs()).presetParameters({ panic: { apiKey: SECRET } }).apply();
  const optional = { taskSupport: 'optional' } as const;
  const http = closer.add(
    await serveMcpHttp(toolkit, {
      name: 'jobs',
      version: '1',
      stateSecret: 'a-shared-key-of-at-least-32-bytes!',
      tools: { panic: optional, legacy_panic: optional, oops: optional, reset: optional },
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
