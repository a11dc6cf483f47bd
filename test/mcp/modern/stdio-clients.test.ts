import { join } from 'node:path';
import { Client as Sdk2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as Sdk2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Closer, eventually } from '../../support/mcp';
import { versionNegotiationOf, type AnyClient, type CallResult, type Mode } from './any-client';

/**
 * serveMcpStdio in a real child process against official clients of both revisions: SDK v2 in its
 * three version negotiation modes (the default 2025-11-25 handshake, `auto` which probes
 * `server/discover`, a pin to 2026-07-28) and SDK v1. The first message decides the connection's
 * revision; the same tools answer the same way. One child per client (stdio is one connection).
 */

const SERVER = join(__dirname, 'fixtures', 'stdio-server.js');
const ROOT = join(__dirname, '..', '..', '..');
const closer = new Closer();
afterEach(() => closer.closeAll());

interface AskingClient extends AnyClient {
  readonly asked: string[];
}

const params = (env?: Record<string, string>) => ({ command: process.execPath, args: [SERVER], cwd: ROOT, stderr: 'pipe' as const, ...(env ? { env: { ...process.env, ...env } as Record<string, string> } : {}) });

async function connect(kind: Mode | 'v1', env?: Record<string, string>): Promise<AskingClient> {
  if (kind === 'v1') {
    const client = closer.add(new Client({ name: 'v1', version: '1' }));
    await client.connect(new StdioClientTransport(params(env)));
    return {
      era: 'legacy',
      asked: [],
      listTools: () => client.listTools(),
      callTool: (name, args, onprogress) => client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : {}) as Promise<CallResult>,
    };
  }
  const client = closer.add(new Sdk2Client({ name: 'v2', version: '2' }, { capabilities: { elicitation: {} }, ...versionNegotiationOf(kind) }));
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { name: 'Ada' } } as never;
  });
  await client.connect(new Sdk2StdioTransport(params(env)));
  return {
    era: client.getProtocolEra() ?? 'unknown',
    asked,
    listTools: () => client.listTools(),
    callTool: (name, args, onprogress) => client.callTool({ name, arguments: args }, onprogress ? { onprogress } : {}),
  };
}

const textOf = (result: CallResult): string => result.content?.[0]?.text ?? '';

describe.each([
  ['SDK v2, default negotiation', 'legacy', 'legacy'],
  ['SDK v2, auto negotiation', 'auto', 'modern'],
  ['SDK v2, pinned to 2026-07-28', 'pin', 'modern'],
  ['SDK v1', 'v1', 'legacy'],
] as const)('%s against serveMcpStdio in a child process', (_title, kind, era) => {
  test(`negotiates the ${era} era; lists, calls, error results, progress`, async () => {
    const client = await connect(kind);
    expect(client.era).toBe(era);

    const listed = await client.listTools();
    const names = listed.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'count', 'explode', 'greet']));
    expect(names).not.toContain('reset_all'); // the admin group is off
    if (era === 'modern') expect(listed).toMatchObject({ ttlMs: 0, cacheScope: 'public' });

    expect(textOf(await client.callTool('echo', { text: 'hello' }))).toBe('echo: hello');
    const failed = await client.callTool('explode', { reason: 'on purpose' });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/kaboom: on purpose/);
    const off = await client.callTool('reset_all', {});
    expect(off.isError).toBe(true);
    expect(textOf(off)).toMatch(/'reset_all' is disabled/);

    const progress: [number, number | undefined][] = [];
    expect(textOf(await client.callTool('count', { to: 3 }, (p) => progress.push([p.progress, p.total])))).toBe('counted to 3');
    const all: [number, number | undefined][] = [
      [1, 3],
      [2, 3],
      [3, 3],
    ];
    if (era === 'modern') {
      // 2026-07-28 has no server-to-client ping to order progress before the response (the 2025
      // era's barrier), and the SDK client runs a notification's handler a microtask after reading
      // it: when the last notifications and the response reach the client in one read (a loaded
      // machine), it has dropped the call's progress handler by then. What arrives is in order.
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress).toEqual(all.slice(0, progress.length));
    } else {
      expect(progress).toEqual(all);
    }
  }, 30_000);
});

test('a client pinned to 2026-07-28 answers an elicitation as Multi Round-Trip Requests over stdio', async () => {
  const client = await connect('pin');
  expect(textOf(await client.callTool('greet', {}))).toBe('Hello, Ada!');
  expect(client.asked).toEqual(['What is your name?']);
  // a second round trip on the same connection: the state of the first does not leak into it
  expect(textOf(await client.callTool('greet', {}))).toBe('Hello, Ada!');
  expect(client.asked).toHaveLength(2);
}, 30_000);

test('a 2026-07-28 client listening over stdio hears a group toggle of its connection, and the list follows it', async () => {
  const client = closer.add(new Sdk2Client({ name: 'listener', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }));
  await client.connect(new Sdk2StdioTransport(params()));
  let changed = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changed++;
  });
  const subscription = await client.listen({ toolsListChanged: true });
  expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('reset_all');
  expect(textOf(await client.callTool({ name: 'set_group', arguments: { group: 'admin', active: true } }))).toBe('group admin is on');
  await eventually(() => changed > 0);
  expect((await client.listTools()).tools.map((t) => t.name)).toContain('reset_all');
  await subscription.close();
}, 30_000);

test('without SDK v2 installed, stdio serves 2025-11-25: an auto client falls back, a pinned client is refused', async () => {
  const auto = await connect('auto', { WITHOUT_SDK2: '1' });
  expect(auto.era).toBe('legacy');
  expect(textOf(await auto.callTool('echo', { text: 'old' }))).toBe('echo: old');
  await expect(connect('pin', { WITHOUT_SDK2: '1' })).rejects.toThrow(/2026-07-28/);
}, 30_000);
