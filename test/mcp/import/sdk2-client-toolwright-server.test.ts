import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2HttpTransport } from '@modelcontextprotocol/client';
import { Toolkit, type AgentTool, type CallProgress } from '../../../src';
import { importMcpTools, serveMcpHttp, withMcpOptions } from '../../../src/mcp';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer, eventually } from '../../support/mcp';
import { connectSdk2, negotiation, type Negotiation } from './sdk2-servers';

/**
 * toolwright's own server speaks 2025-11-25: an MCP SDK 2 client reaches it with the 2025
 * handshake, by default or after an `'auto'` probe, and imports from it as an SDK 1.x client does.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

/** A long tool the server runs only as a task, released by the test. */
function researchTool(state: { started: number; aborted: number; release?: () => void }): AgentTool {
  return withMcpOptions(
    {
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
    },
    { taskSupport: 'required' },
  );
}

/** A tool that asks its caller's user before it answers. */
const askTool: AgentTool = {
  name: 'ask',
  description: 'Asks the user for a colour',
  parameters: { type: 'object', properties: {} },
  execute: async (_args, ctx) => {
    const answer = await ctx.client!.elicit({ message: 'Your colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } });
    return `colour: ${String(answer.content?.colour)}`;
  },
};

async function serveToolwright() {
  const { toolkit, probe } = createTestToolkit();
  const state = { started: 0, aborted: 0 } as { started: number; aborted: number; release?: () => void };
  toolkit.registerTool(researchTool(state));
  toolkit.registerTool(askTool);
  const http = closer.add(await serveMcpHttp(toolkit, { name: 'toolwright-test', version: '0.0.0' }));
  return { url: http.url, probe, state };
}

describe.each(['legacy', 'auto'] as const)('importMcpTools through an MCP SDK 2 client (%s negotiation) from toolwright’s own server', (mode: Negotiation) => {
  test('imports on 2025-11-25, calls with progress and cancellation, and follows list_changed', async () => {
    const { url, probe } = await serveToolwright();
    const client = await connectSdk2(closer, url, mode);
    const b = new Toolkit();
    const imported = closer.add(await importMcpTools(client, b, { group: 'remote', prefix: 'a' }));
    expect(imported.report).toMatchObject({ server: 'toolwright-test', protocolVersion: '2025-11-25', skipped: [] });
    expect(imported.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['a_echo', 'a_count', 'a_research', 'a_ask']));
    expect(await b.callTool({ id: 'e', name: 'a_echo', arguments: { text: 'via SDK 2' } })).toMatchObject({ forLLM: 'echo: via SDK 2', isError: false });

    const progress: CallProgress[] = [];
    await b.callTool({ id: 'c', name: 'a_count', arguments: { to: 2 } }, { onProgress: (p) => progress.push(p) });
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);

    const controller = new AbortController();
    const waiting = b.callTool({ id: 'w', name: 'a_wait_for_abort', arguments: {} }, { signal: controller.signal, onProgress: () => controller.abort('stop') });
    expect((await waiting).error?.code).toBe('ABORTED');
    await eventually(() => probe.aborted === 1);

    // the remote turns its admin group on: the import follows
    await b.callTool({ id: 'g', name: 'a_set_group', arguments: { group: 'admin', active: true } });
    await eventually(() => b.getTool('a_reset_all') !== undefined);
  });

  test('a tool the server runs only as a task is called through the 2025 task methods; the call’s abort cancels the task', async () => {
    const { url, state } = await serveToolwright();
    const client = await connectSdk2(closer, url, mode);
    const b = new Toolkit();
    const imported = closer.add(await importMcpTools(client, b, { prefix: 'a', filter: ['research'] }));
    expect(imported.report.imported[0].changes).toContain('called as an MCP task (execution.taskSupport required): tools/call with task, then tasks/get and tasks/result');
    const messages: string[] = [];
    const call = b.callTool({ id: 't1', name: 'a_research', arguments: { topic: 'tides' } }, { onProgress: (p) => void (p.message && messages.push(p.message)) });
    await eventually(() => state.started === 1 && messages.length > 0);
    expect(messages[0]).toBe('reading about tides');
    state.release!();
    expect(await call).toMatchObject({ isError: false, forLLM: 'findings on tides' });

    const controller = new AbortController();
    const aborted = b.callTool({ id: 't2', name: 'a_research', arguments: { topic: 'waves' } }, { signal: controller.signal });
    await eventually(() => state.started === 2);
    controller.abort();
    expect(await aborted).toMatchObject({ isError: true, error: { code: 'ABORTED' } });
    await eventually(() => state.aborted === 1);
  });
});

test('on 2025-11-25 a server’s elicitation/create reaches the handler the application set on the SDK 2 Client (the SDK ties it to no call)', async () => {
  const { url } = await serveToolwright();
  const client = await connectSdk2(closer, url, 'legacy', { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { colour: 'teal' } }));
  const b = new Toolkit();
  closer.add(await importMcpTools(client, b, { prefix: 'a', filter: ['ask'] }));
  expect(await b.callTool({ id: 'q', name: 'a_ask', arguments: {} })).toMatchObject({ isError: false, forLLM: 'colour: teal' });
});

test('a client pinned to 2026-07-28 cannot connect to a 2025-11-25 server, so there is nothing to import from', async () => {
  const { url } = await serveToolwright();
  const pinned = closer.add(new Sdk2Client({ name: 'modern-only', version: '1' }, negotiation('pinned')));
  await expect(pinned.connect(new Sdk2HttpTransport(url))).rejects.toThrow(/did not offer pinned protocol version 2026-07-28/);
});
