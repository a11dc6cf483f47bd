import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { asyncResult, type AgentTool, type AsyncCallback, type ToolEvent } from '../../../src';
import { createMcpServer } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { setupToolkit } from '../../toolkit/fixtures';

const closer = new Closer();
afterEach(() => closer.closeAll());

/**
 * Attack: two MCP clients (one toolkit session each) call the same `AsyncTool`. JSON-RPC request
 * ids count from 0 in every SDK client, and the server used the request id as the toolkit call
 * id, which names the call toolkit-wide: the second client's call took over the first one's
 * completion, so Alice's background result was delivered as Bob's (`async_completed` with
 * Bob's session id).
 */
describe('attack: MCP clients cannot receive each other’s background completions', () => {
  it('Alice’s completion reaches Alice’s call, not Bob’s, although both used the same request id', async () => {
    const { toolkit } = setupToolkit();
    let complete: AsyncCallback | undefined;
    const jobs: { callId: string; owner: string; sessionId?: string }[] = [];
    const exportTool: AgentTool & { setCallback(callback: AsyncCallback): void } = {
      name: 'export_data',
      description: 'Export your data; the link follows',
      parameters: { type: 'object', properties: { owner: { type: 'string' } }, required: ['owner'] },
      setCallback: (callback) => (complete = callback),
      execute: (args, ctx) => {
        jobs.push({ callId: ctx.callId, owner: String(args.owner), ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}) });
        return asyncResult('export started');
      },
    };
    toolkit.registerTool(exportTool);
    const completions: Extract<ToolEvent, { type: 'async_completed' }>[] = [];
    const subscription = toolkit.events$.subscribe((e) => e.type === 'async_completed' && completions.push(e));
    for (const who of ['alice', 'bob']) {
      const server = closer.add(createMcpServer(toolkit, { name: 'app', version: '1.0.0', sessions: true, sessionId: who }));
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = closer.add(new Client({ name: who, version: '1.0.0' }));
      await client.connect(clientSide);
      await client.callTool({ name: 'export_data', arguments: { owner: who } });
    }
    expect(jobs.map((j) => j.owner)).toEqual(['alice', 'bob']);
    expect(jobs[0].callId).not.toBe(jobs[1].callId);
    complete!({ toolCallId: jobs[0].callId, forLLM: 'export of alice: https://files.example/alice', isError: false, async: false, silent: false });
    subscription.unsubscribe();
    expect(completions).toHaveLength(1);
    expect(completions[0].sessionId).toBe('alice');
    expect(completions[0].result.forLLM).toContain('alice');
  });
});
