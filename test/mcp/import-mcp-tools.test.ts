import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { Toolkit, type CallProgress } from '../../src';
import { createMcpServer, importMcpTools } from '../../src/mcp';
import { fromCallToolResult } from '../../src/mcp/import/remote-result';
import { portableToolName } from '../../src/mcp/shared/tool-names';
import { createTestToolkit } from './fixtures/test-toolkit';
import { Closer, connectInMemory, eventually, textOf } from '../support/mcp';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** Toolkit A served in memory; a connected SDK client to it. */
async function remoteA(): Promise<{ a: ReturnType<typeof createTestToolkit>; client: Client }> {
  const a = createTestToolkit();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = closer.add(createMcpServer(a.toolkit, { name: 'toolkit-a', version: '1.0.0' }));
  await mcp.connect(serverSide);
  const client = closer.add(new Client({ name: 'toolkit-b', version: '1.0.0' }));
  await client.connect(clientSide);
  return { a, client };
}

const call = (toolkit: Toolkit, name: string, args: Record<string, unknown> = {}, options = {}) =>
  toolkit.callTool({ id: `c-${name}`, name, arguments: args }, options);

describe('importMcpTools: toolkit A served over MCP, imported into toolkit B', () => {
  test('registers the remote tools into a group with prefixed, portable names and forwards calls', async () => {
    const { client } = await remoteA();
    const b = new Toolkit();
    const imported = closer.add(await importMcpTools(client, b, { group: 'remote', prefix: 'a' }));
    expect(imported.tools.map((t) => t.name)).toEqual(['a_echo', 'a_count', 'a_wait_for_abort', 'a_abort_count', 'a_explode', 'a_stats', 'a_set_group', 'a_add']);
    expect(imported.names.get('echo')).toBe('a_echo');
    expect(b.getToolGroups()).toEqual([{ name: 'remote', description: 'Tools imported from MCP server toolkit-a', active: true }]);
    expect(b.getToolSchemas().find((s) => s.name === 'a_echo')).toEqual({
      name: 'a_echo',
      description: 'Echo the text back',
      parameters: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo' } }, required: ['text'], additionalProperties: false },
    });
    // the server's hints are not trusted by default: the tool is taken to be of unknown behaviour
    expect(b.getTool('a_explode')!.behaviour).toMatchObject({ annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true } });

    const echo = await call(b, 'a_echo', { text: 'through B' });
    expect(echo).toMatchObject({ forLLM: 'echo: through B', isError: false });

    const stats = await call(b, 'a_stats', { values: [2, 4] });
    expect(stats.data).toEqual({ count: 2, sum: 6, mean: 3 });

    const thrown = await call(b, 'a_explode', { reason: 'remote' });
    expect(thrown.isError).toBe(true);
    expect(thrown.forLLM).toMatch(/kaboom: remote/);

    // B validates with the remote schema before anything crosses the wire
    const invalid = await call(b, 'a_count', { to: 'x' });
    expect(invalid.error?.code).toBe('INVALID_ARGUMENTS');

    b.updateToolGroups(['remote'], false);
    expect((await call(b, 'a_echo', { text: 'x' })).error?.code).toBe('TOOL_DISABLED');
  });

  test("progress and cancellation cross both hops: B's onProgress, A's AbortSignal", async () => {
    const { a, client } = await remoteA();
    const b = new Toolkit();
    closer.add(await importMcpTools(client, b, { prefix: 'a' }));

    const progress: CallProgress[] = [];
    const counted = await call(b, 'a_count', { to: 3 }, { onProgress: (p: CallProgress) => progress.push(p) });
    expect(counted.forLLM).toBe('counted to 3');
    expect(progress.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 3, 'step 1'],
      [2, 3, 'step 2'],
      [3, 3, 'step 3'],
    ]);

    const controller = new AbortController();
    const waiting = call(b, 'a_wait_for_abort', {}, { signal: controller.signal, onProgress: () => controller.abort('stop') });
    const result = await waiting;
    expect(result.error?.code).toBe('ABORTED');
    await eventually(() => a.probe.aborted === 1);
  });

  test("follows the remote's list_changed: tools appear and disappear", async () => {
    const { a, client } = await remoteA();
    const b = new Toolkit();
    const imported = closer.add(await importMcpTools(client, b, { group: 'remote', prefix: 'a' }));
    expect(b.getTool('a_reset_all')).toBeUndefined();

    a.toolkit.updateToolGroups(['admin'], true);
    await eventually(() => b.getTool('a_reset_all') !== undefined);
    expect((await call(b, 'a_reset_all')).forLLM).toBe('reset done');
    expect(imported.names.get('reset_all')).toBe('a_reset_all');

    a.toolkit.updateToolGroups(['admin'], false);
    await eventually(() => b.getTool('a_reset_all') === undefined);

    await imported.close();
    expect(b.getAllTools()).toEqual([]);
    a.toolkit.updateToolGroups(['admin'], true); // no longer followed
    await client.ping();
    expect(b.getAllTools()).toEqual([]);
  });

  test('filter by predicate or by names; B served again over MCP keeps output schemas and titles', async () => {
    const { client } = await remoteA();
    const b = new Toolkit();
    closer.add(await importMcpTools(client, b, { filter: (t) => t.annotations?.readOnlyHint === true }));
    expect(b.getAllTools().map((t) => t.name)).toEqual(['echo', 'abort_count']);
    closer.add(await importMcpTools(client, b, { prefix: 'x', filter: ['stats', 'add'] }));
    expect(b.getAllTools().map((t) => t.name)).toEqual(['echo', 'abort_count', 'x_stats', 'x_add']);

    const { client: viaB } = await connectInMemory(b, closer);
    const listed = (await viaB.client.listTools()).tools;
    expect(listed.find((t) => t.name === 'x_add')).toMatchObject({ title: 'Adder', outputSchema: { properties: { result: { type: 'number' } } } });
    const added = await viaB.call('x_add', { a: 1, b: 2 });
    expect(added.structuredContent).toEqual({ result: 3 });
    expect(textOf(added)).toBe('3');
  });

  test("imports from the SDK's own McpServer (zod schemas); names with dots and long names stay portable", async () => {
    const remote = new McpServer({ name: 'zod-server', version: '1.0.0' });
    remote.registerTool('repo.search', { description: 'Search repos', inputSchema: { query: z.string(), limit: z.number().int().optional() } }, ({ query }) => ({
      content: [{ type: 'text', text: `found ${query}` }],
    }));
    remote.registerTool('x'.repeat(70), { description: 'Long' }, () => ({ content: [{ type: 'text', text: 'long' }] }));
    remote.registerTool('repo_search', { description: 'Clashes after sanitising' }, () => ({ content: [{ type: 'text', text: 'other' }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await remote.connect(serverSide);
    closer.add(remote);
    const client = closer.add(new Client({ name: 'b', version: '1' }));
    await client.connect(clientSide);

    const b = new Toolkit();
    const imported = closer.add(await importMcpTools(client, b, { prefix: 'gh.' }));
    const names = [...imported.names.values()];
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(imported.names.get('repo.search')).toBe('gh_repo_search');
    expect(imported.names.get('repo_search')).not.toBe('gh_repo_search');
    expect(new Set(names).size).toBe(3);
    expect(imported.skipped).toEqual([]);
    // the report says why each name differs from the remote's
    expect(imported.report.imported.map((t) => [t.remote, t.local, t.changes])).toEqual([
      ['repo.search', 'gh_repo_search', ["renamed to 'gh_repo_search' (prefix 'gh'; characters a provider rejects replaced by _)"]],
      ['x'.repeat(70), names[1], [`renamed to '${names[1]}' (prefix 'gh'; longer than 64 characters: shortened, with a hash)`]],
      ['repo_search', names[2], [`renamed to '${names[2]}' (prefix 'gh'; 'gh_repo_search' was taken: a hash appended)`]],
    ]);
    expect(imported.report.server).toBe('zod-server');

    expect((await call(b, 'gh_repo_search', { query: 'toolwright', limit: null })).forLLM).toBe('found toolwright');
    const bad = await call(b, 'gh_repo_search', {});
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
  });
});

describe('import helpers', () => {
  test('portableToolName: prefix with _, invalid characters replaced, hashed when long or taken', () => {
    const none = () => false;
    expect(portableToolName('search', 'github', none)).toBe('github_search');
    expect(portableToolName('repo.search', 'gh.', none)).toBe('gh_repo_search');
    expect(portableToolName('a b/c', undefined, none)).toBe('a_b_c');
    const long = portableToolName('y'.repeat(100), 'p', none);
    expect(long).toHaveLength(64);
    expect(long).toBe(portableToolName('y'.repeat(100), 'p', none)); // stable
    const taken = portableToolName('echo', undefined, (n) => n === 'echo');
    expect(taken).toMatch(/^echo_[a-z0-9]{7}$/);
  });

  test('fromCallToolResult: text, images and resources kept as parts and described in forLLM, structured content as data, errors', () => {
    expect(fromCallToolResult({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toMatchObject({ forLLM: 'a\nb', isError: false });
    const mixed = fromCallToolResult({
      content: [
        { type: 'text', text: 'chart:' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource_link', uri: 'file:///r.txt', name: 'r.txt' },
        { type: 'resource', resource: { uri: 'mem://x', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'mem://y', blob: 'AAAAAA==', mimeType: 'application/pdf' } },
      ],
    });
    expect(mixed.forLLM).toBe(
      'chart:\n[image: image/png, 3 bytes]\n[resource link: r.txt <file:///r.txt>]\n[resource mem://x]\ninline text\n[resource mem://y (application/pdf), 4 bytes]',
    );
    expect(mixed.content?.map((part) => part.type)).toEqual(['text', 'image', 'resource_link', 'resource', 'resource']);
    expect(mixed.data).toBeUndefined();
    expect(fromCallToolResult({ content: [], structuredContent: { n: 1 } })).toMatchObject({ forLLM: '{"n":1}', data: { n: 1 } });
    expect(fromCallToolResult({ content: [{ type: 'text', text: 'nope' }], isError: true })).toMatchObject({ isError: true, forLLM: 'nope' });
    expect(fromCallToolResult({ content: [], isError: true }).forLLM).toMatch(/failed without a message/);
  });
});
