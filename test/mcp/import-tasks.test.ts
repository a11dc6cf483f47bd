import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AgentTool, CallProgress } from '../../src';
import { importMcpTools, serveMcpHttp, withMcpOptions, type McpImportSdk1Client, type McpServerOptions } from '../../src/mcp';
import { Closer, eventually } from '../support/mcp';
import { freshToolkit } from '../support/toolkit';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** A toolwright server over Streamable HTTP with a tool it runs only as an MCP task; a client connected to it. */
async function taskServer(options: Partial<McpServerOptions> = {}) {
  const state = { started: 0, aborted: 0, release: undefined as (() => void) | undefined };
  const research: AgentTool = {
    name: 'research',
    description: 'Researches a topic (long-running)',
    parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    execute: (args, ctx) => {
      state.started++;
      ctx.emit({ progress: 1, total: 2, message: `reading about ${String(args.topic)}` });
      return new Promise<string>((resolve) => {
        state.release = () => resolve(`findings on ${String(args.topic)}`);
        ctx.signal.addEventListener('abort', () => {
          state.aborted++;
          resolve('aborted');
        });
      });
    },
  };
  const remote = freshToolkit();
  remote.registerTool(withMcpOptions(research, { taskSupport: 'required' }));
  const http = closer.add(await serveMcpHttp(remote, { name: 'researcher', version: '1', ...options }));
  const client = closer.add(new Client({ name: 'importer', version: '1' }));
  await client.connect(new StreamableHTTPClientTransport(http.url));
  return { client, state };
}

describe('importMcpTools: tools a server runs only as MCP tasks', () => {
  test('a toolwright server’s task-only tool is imported and called through tasks, with its progress', async () => {
    const { client, state } = await taskServer();
    expect((await client.listTools()).tools[0].execution).toEqual({ taskSupport: 'required' });
    const toolkit = freshToolkit();
    const handle = closer.add(await importMcpTools(client, toolkit, { prefix: 'r' }));
    expect(handle.report.skipped).toEqual([]);
    // an SDK 1.x client over Streamable HTTP: its transport tells the revision
    expect(handle.report.protocolVersion).toBe('2025-11-25');
    expect(handle.report.imported[0].changes).toContain('called as an MCP task (execution.taskSupport required): tools/call with task, then tasks/get and tasks/result');
    const progress: CallProgress[] = [];
    const call = toolkit.callTool({ id: 'c1', name: 'r_research', arguments: { topic: 'tides' } }, { onProgress: (p) => progress.push(p) });
    await eventually(() => state.started === 1 && progress.length > 0);
    expect(progress[0]).toMatchObject({ progress: 1, total: 2, message: 'reading about tides' });
    state.release!();
    expect(await call).toMatchObject({ isError: false, forLLM: 'findings on tides' });
  });

  test('the importing call’s timeout cancels the remote task (tasks/cancel reaches the tool’s signal)', async () => {
    const { client, state } = await taskServer();
    const toolkit = freshToolkit({ execution: { timeoutMs: 1_000 } });
    closer.add(await importMcpTools(client, toolkit, { prefix: 'r' }));
    const result = await toolkit.callTool({ id: 'c2', name: 'r_research', arguments: { topic: 'waves' } });
    expect(result).toMatchObject({ isError: true, error: { code: 'TIMEOUT' } });
    await eventually(() => state.aborted === 1);
  });

  test('a client without the SDK task API skips the tool, saying why', async () => {
    const { client } = await taskServer();
    const bare: McpImportSdk1Client = {
      request: (...args) => client.request(...args),
      callTool: (...args) => client.callTool(...args),
      setNotificationHandler: (...args) => client.setNotificationHandler(...args),
      removeNotificationHandler: (...args) => client.removeNotificationHandler(...args),
      getServerVersion: () => client.getServerVersion(),
    };
    const handle = closer.add(await importMcpTools(bare, freshToolkit()));
    expect(handle.report.skipped).toEqual([{ name: 'research', code: 'task-required', reason: expect.stringMatching(/^requires MCP tasks .*no task API \(client\.experimental\.tasks\)/) }]);
  });
});
