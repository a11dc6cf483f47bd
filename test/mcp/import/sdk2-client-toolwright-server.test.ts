import { Toolkit, type AgentTool, type CallProgress } from '../../../src';
import { importMcpTools, serveMcpHttp } from '../../../src/mcp';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer, eventually } from '../../support/mcp';
import { researchTool } from '../fixtures/research-tool';
import { connectSdk2, type Negotiation } from './sdk2-servers';

/**
 * toolwright's own server serves both revisions: an MCP SDK 2 client reaches 2025-11-25 with the
 * 2025 handshake (its default) and imports from it as an SDK 1.x client does; with an `'auto'` probe
 * or a pin it reaches 2026-07-28.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

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

describe.each(['legacy'] as const)('importMcpTools through an MCP SDK 2 client (%s negotiation) from toolwright’s own server', (mode: Negotiation) => {
  test('imports on 2025-11-25, calls with progress and cancellation, and follows list_changed', async () => {
    const { url, probe } = await serveToolwright();
    const client = await connectSdk2(closer, url, mode);
    // the application's own handler keeps being called beside the import's, and is put back by close()
    let own = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void own++);
    const b = new Toolkit();
    const imported = await importMcpTools(client, b, { group: 'remote', prefix: 'a' });
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
    await eventually(() => b.getTool('a_reset_all') !== undefined && own === 1);
    await imported.close();
    await client.callTool({ name: 'set_group', arguments: { group: 'admin', active: false } });
    await eventually(() => own === 2);
    expect(b.getAllTools()).toEqual([]);
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

    // the progress of a plain call still reaches its caller through the SDK's own handler
    closer.add(await importMcpTools(client, b, { prefix: 'p', filter: ['count'] }));
    const progress: CallProgress[] = [];
    await b.callTool({ id: 'c', name: 'p_count', arguments: { to: 2 } }, { onProgress: (p) => progress.push(p) });
    expect(progress.map((p) => p.progress)).toEqual([1, 2]);
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

test.each(['auto', 'pinned'] as const)('an SDK 2 client (%s negotiation) imports from toolwright on 2026-07-28: calls, progress; a task-only tool through the tasks extension', async (mode: Negotiation) => {
  const { url, state } = await serveToolwright();
  const client = await connectSdk2(closer, url, mode);
  const b = new Toolkit();
  closer.add(await importMcpTools(client, b, { prefix: 'a' }));
  expect((await importMcpTools(client, new Toolkit(), { filter: ['echo'] })).report).toMatchObject({ server: 'toolwright-test', protocolVersion: '2026-07-28', skipped: [] });
  expect(await b.callTool({ id: 'e', name: 'a_echo', arguments: { text: 'via 2026-07-28' } })).toMatchObject({ forLLM: 'echo: via 2026-07-28', isError: false });
  const progress: CallProgress[] = [];
  await b.callTool({ id: 'c', name: 'a_count', arguments: { to: 2 } }, { onProgress: (p) => progress.push(p) });
  expect(progress.map((p) => p.progress)).toEqual([1, 2]);
  // a tool the server runs only as a task: refused without the tasks extension, then called through it
  const research = b.callTool({ id: 't', name: 'a_research', arguments: { topic: 'tides' } });
  await eventually(() => state.release !== undefined);
  state.release!();
  expect(await research).toMatchObject({ isError: false, forLLM: 'findings on tides' });
  expect(state.started).toBe(1);
});
