import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveMcpHttp, type McpHttpServer } from '../../../src/mcp';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer } from '../../support/mcp';
import { versionNegotiationOf, type AnyClient, type CallResult, type Mode } from './any-client';

/**
 * One toolwright endpoint, four clients: SDK v2 with each version negotiation mode (the default
 * 2025-11-25 handshake, `auto` which probes `server/discover`, a pin to 2026-07-28) and SDK v1.
 * The same tools answer the same way whatever revision the client speaks.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

async function connect(url: URL, kind: Mode | 'v1'): Promise<AnyClient> {
  if (kind === 'v1') {
    const client = closer.add(new Client({ name: 'v1', version: '1' }));
    await client.connect(new StreamableHTTPClientTransport(url));
    return {
      era: 'legacy',
      listTools: () => client.listTools(),
      callTool: (name, args, onprogress) => client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : {}) as Promise<CallResult>,
    };
  }
  const client = closer.add(new Sdk2Client({ name: 'v2', version: '2' }, versionNegotiationOf(kind)));
  await client.connect(new Sdk2Transport(url));
  return {
    era: client.getProtocolEra() ?? 'unknown',
    listTools: () => client.listTools(),
    callTool: (name, args, onprogress) => client.callTool({ name, arguments: args }, onprogress ? { onprogress } : {}),
  };
}

const textOf = (result: CallResult): string => result.content?.[0]?.text ?? '';

async function serve(): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(createTestToolkit().toolkit, { name: 'toolwright-test', version: '0.0.0' }));
}

describe.each([
  ['SDK v2, default negotiation', 'legacy', 'legacy'],
  ['SDK v2, auto negotiation', 'auto', 'modern'],
  ['SDK v2, pinned to 2026-07-28', 'pin', 'modern'],
  ['SDK v1', 'v1', 'legacy'],
] as const)('%s against serveMcpHttp', (_title, kind, era) => {
  test(`negotiates the ${era} era; lists, calls, error results, progress`, async () => {
    const http = await serve();
    const client = await connect(http.url, kind);
    expect(client.era).toBe(era);

    const listed = await client.listTools();
    const names = listed.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'count', 'explode', 'stats', 'set_group', 'add']));
    expect(names).not.toContain('reset_all'); // the admin group is off
    expect(listed.tools.find((t) => t.name === 'echo')?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    if (era === 'modern') expect(listed).toMatchObject({ ttlMs: 0, cacheScope: 'public' });

    expect(textOf(await client.callTool('echo', { text: 'hello' }))).toBe('echo: hello');
    expect((await client.callTool('stats', { values: [1, 2, 3] })).structuredContent).toEqual({ count: 3, sum: 6, mean: 2 });
    expect((await client.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({ result: 5 });

    const failed = await client.callTool('explode', { reason: 'on purpose' });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/kaboom: on purpose/);
    const invalid = await client.callTool('count', { to: 'many' });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/to/);
    const off = await client.callTool('reset_all', {});
    expect(off.isError).toBe(true);
    expect(textOf(off)).toMatch(/'reset_all' is disabled: its group 'admin' is not active/);
    const unknown = await client.callTool('no_such_tool', {});
    expect(unknown.isError).toBe(true);

    const progress: [number, number | undefined][] = [];
    const counted = await client.callTool('count', { to: 3 }, (p) => progress.push([p.progress, p.total]));
    expect(textOf(counted)).toBe('counted to 3');
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});

describe('serveMcpHttp with clients of both revisions at once', () => {
  test('a 2026-07-28 client and a 2025-11-25 client call the same server; only the 2025 one holds a session', async () => {
    const http = await serve();
    const modern = await connect(http.url, 'pin');
    const legacy = await connect(http.url, 'v1');
    const [a, b] = await Promise.all([modern.callTool('echo', { text: 'new' }), legacy.callTool('echo', { text: 'old' })]);
    expect([textOf(a), textOf(b)]).toEqual(['echo: new', 'echo: old']);
    expect(http.handler.sessionCount).toBe(1);
  });
});
