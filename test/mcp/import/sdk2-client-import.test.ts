import { acceptedContent, inputRequired, McpServer as Sdk2McpServer, type InMemoryServerEventBus, type McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Toolkit, type CallProgress, type ClientRequestHandler, type ElicitationRequest } from '../../../src';
import { importMcpTools } from '../../../src/mcp';
import { Closer, eventually } from '../../support/mcp';
import { connectSdk2, NEGOTIATIONS, REVISION, expectPlainToolsImported, registerPlainTools, serveSdk2, type Negotiation } from './sdk2-servers';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** What the SDK 2 server's tools saw. */
interface Seen {
  deployed: string[];
}

/** An SDK 2 `McpServer` per request, as `createMcpHandler` wants it: tools of every kind a call can meet. */
function sdk2Factory(seen: Seen) {
  return () => {
    const server = new Sdk2McpServer({ name: 'sdk2-server', version: '2.4.0' });
    registerPlainTools(server);
    server.registerTool(
      'steps',
      { description: 'Reports progress, then answers', inputSchema: z.object({ n: z.number().int().min(1).max(10) }), outputSchema: z.object({ steps: z.number() }) },
      async ({ n }, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        for (let i = 1; i <= n; i++) {
          if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
        }
        return { content: [{ type: 'text', text: `${n} steps` }], structuredContent: { steps: n } };
      },
    );
    // a write-once tool: it asks before its side effect, and runs it on the retry that carries the answer
    const confirmation = z.object({ confirm: z.boolean() });
    server.registerTool('deploy', { description: 'Deploys after a confirmation', inputSchema: z.object({ env: z.string() }) }, ({ env }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', confirmation);
      if (answer === undefined) {
        return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: confirmation }) } });
      }
      if (answer.confirm !== true) return { content: [{ type: 'text', text: 'not deployed' }] };
      seen.deployed.push(env);
      return { content: [{ type: 'text', text: `deployed to ${env}` }] };
    });
    return server;
  };
}

/** A toolkit whose calls have a client that answers forms with `confirm: true` and records what it was asked. */
function answeringToolkit(asked: ElicitationRequest[]): Toolkit {
  const clientRequests: ClientRequestHandler = {
    description: 'the test user',
    supports: (capability) => capability === 'elicitation',
    createMessage: () => Promise.reject(new Error('no model here')),
    elicit: async (request) => {
      asked.push(request);
      return { action: 'accept', content: { confirm: true } };
    },
  };
  return new Toolkit({ clientRequests });
}

describe.each(NEGOTIATIONS)('importMcpTools through an MCP SDK 2 client (%s negotiation) from an SDK 2 server', (mode: Negotiation) => {
  test('imports the tools, names the revision, and calls them: text, an error result, a thrown handler, invalid arguments, progress, structured data', async () => {
    const url = await serveSdk2(closer, sdk2Factory({ deployed: [] }));
    const client = await connectSdk2(closer, url, mode);
    expect(client.getNegotiatedProtocolVersion()).toBe(REVISION[mode]);
    const toolkit = new Toolkit();
    const imported = closer.add(await importMcpTools(client, toolkit, { group: 'sdk2', prefix: 's2' }));
    expect(imported.report).toMatchObject({ server: 'sdk2-server', protocolVersion: REVISION[mode], skipped: [] });
    expect(imported.tools.map((t) => t.name)).toEqual(['s2_shout', 's2_refuse', 's2_crash', 's2_steps', 's2_deploy']);
    await expectPlainToolsImported(toolkit);
    const call = (name: string, args: Record<string, unknown>, onProgress?: (p: CallProgress) => void) =>
      toolkit.callTool({ id: `c-${name}`, name, arguments: args }, onProgress ? { onProgress } : {});
    expect((await call('s2_steps', { n: 'two' })).error?.code).toBe('INVALID_ARGUMENTS');

    const progress: CallProgress[] = [];
    expect(await call('s2_steps', { n: 3 }, (p) => progress.push(p))).toMatchObject({ forLLM: '3 steps', isError: false, data: { steps: 3 } });
    expect(progress.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);

    const before = imported.report;
    await imported.refresh();
    expect(imported.report).not.toBe(before);
    expect(imported.report.imported.map((t) => t.changes)).toEqual(before.imported.map((t) => t.changes));
  });
});

describe('what a server asks of the user during an imported call', () => {
  test.each(['auto', 'pinned'] as const)(
    '2026-07-28 (%s): the input_required form goes to the importing call’s own ClientRequests, and the side effect runs once, on the retry',
    async (mode) => {
      const seen: Seen = { deployed: [] };
      const url = await serveSdk2(closer, sdk2Factory(seen));
      const client = await connectSdk2(closer, url, mode);
      const asked: ElicitationRequest[] = [];
      const toolkit = answeringToolkit(asked);
      closer.add(await importMcpTools(client, toolkit, { prefix: 's2' }));
      const result = await toolkit.callTool({ id: 'd1', name: 's2_deploy', arguments: { env: 'staging' } });
      expect(result).toMatchObject({ isError: false, forLLM: 'deployed to staging' });
      expect(asked).toEqual([{ message: 'Deploy to staging?', requestedSchema: expect.objectContaining({ type: 'object', properties: { confirm: { type: 'boolean' } } }) }]);
      expect(seen.deployed).toEqual(['staging']);
    },
  );

  test('2026-07-28: a call whose caller has no client declares no elicitation capability: the server refuses to ask, and nothing is deployed', async () => {
    const seen: Seen = { deployed: [] };
    const url = await serveSdk2(closer, sdk2Factory(seen));
    const client = await connectSdk2(closer, url, 'pinned');
    const toolkit = new Toolkit();
    closer.add(await importMcpTools(client, toolkit, { prefix: 's2' }));
    const result = await toolkit.callTool({ id: 'd2', name: 's2_deploy', arguments: { env: 'prod' } });
    expect(result).toMatchObject({ isError: true, forLLM: expect.stringMatching(/client capabilities do not declare the required capability/) });
    expect(seen.deployed).toEqual([]);
  });
});

describe.each(['auto', 'pinned'] as const)('list_changed under 2026-07-28 (%s)', (mode) => {
  test('arrives on the subscriptions/listen stream the import opens, and the import follows; close() ends the subscription', async () => {
    let extra = false;
    let mcp: McpHttpHandler | undefined;
    const url = await serveSdk2(
      closer,
      () => {
        const server = new Sdk2McpServer({ name: 'changing', version: '1' });
        server.registerTool('base', { description: 'Always there' }, () => ({ content: [{ type: 'text', text: 'base' }] }));
        if (extra) server.registerTool('extra', { description: 'Added later' }, () => ({ content: [{ type: 'text', text: 'extra' }] }));
        return server;
      },
      (handler) => (mcp = handler),
    );
    const client = await connectSdk2(closer, url, mode);
    const toolkit = new Toolkit();
    const imported = await importMcpTools(client, toolkit, { prefix: 'c' });
    expect(imported.tools.map((t) => t.name)).toEqual(['c_base']);
    extra = true;
    // the stream may still be opening: publish until the import has followed
    await eventually(() => {
      mcp!.notify.toolsChanged();
      return toolkit.getTool('c_extra') !== undefined;
    });
    expect(await toolkit.callTool({ id: 'x', name: 'c_extra', arguments: {} })).toMatchObject({ forLLM: 'extra', isError: false });
    const bus = mcp!.bus as InMemoryServerEventBus;
    expect(bus.listenerCount).toBe(1);
    await imported.close();
    expect(toolkit.getAllTools()).toEqual([]);
    await eventually(() => bus.listenerCount === 0);
  });
});
