import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ListToolsResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ToolkitError } from '../../../src';
import { importMcpTools, MCP_IMPORT_LIMITS, type McpImportOptions } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { newToolkit } from '../../support/toolkit';
import { hostileMcpServer, type Lister } from '../../support/hostile-mcp-server';

const closer = new Closer();
afterEach(() => closer.closeAll());

const hostile = (list: Lister) => hostileMcpServer(closer, list);

const tool = (name: string, inputSchema: McpTool['inputSchema'] = { type: 'object' }): McpTool => ({ name, inputSchema });
/** The next page after a macrotask, as over a real transport (the in-memory one runs on microtasks alone). */
const later = <T>(value: T) => new Promise<T>((resolve) => setImmediate(() => resolve(value)));

async function importError(client: Client, options: McpImportOptions = {}): Promise<ToolkitError> {
  const error: unknown = await importMcpTools(client, newToolkit(), options).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolkitError.is(error, 'IMPORT_LIMIT_EXCEEDED')) throw new Error(`expected IMPORT_LIMIT_EXCEEDED, got ${String(error)}`);
  return error;
}

describe('item 8: importMcpTools bounds what a remote server can make it hold or spend', () => {
  it('an endless nextCursor chain stops at maxPages (default 100) with a clear error', async () => {
    let pages = 0;
    const client = await hostile(() => later({ tools: [tool(`t${pages}`)], nextCursor: String(++pages) }));
    const started = Date.now();
    const error = await importError(client);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(pages).toBe(MCP_IMPORT_LIMITS.maxPages);
    expect(error.message).toBe(
      "MCP server 'hostile' listed more than 100 pages of tools (importMcpTools option maxPages: 100); nothing was imported or changed. Raise maxPages if the server is trusted to need it.",
    );
  });

  it('also when every page answers on microtasks alone (no timer could ever fire)', async () => {
    let pages = 0;
    const client = await hostile(() => ({ tools: [], nextCursor: String(++pages) }));
    await importError(client, { maxPages: 5 });
    expect(pages).toBe(5);
  });

  it('more tools than maxTools fail the listing', async () => {
    const client = await hostile((cursor) => {
      const page = Number(cursor ?? 0);
      return { tools: Array.from({ length: 300 }, (_, i) => tool(`p${page}_${i}`)), ...(page < 3 ? { nextCursor: String(page + 1) } : {}) };
    });
    expect((await importError(client)).message).toContain('listed more than 1000 tools (importMcpTools option maxTools: 1000)');
    const imported = closer.add(await importMcpTools(client, newToolkit(), { maxTools: 1200 }));
    expect(imported.tools).toHaveLength(1200);
  });

  it('a listing slower than timeoutMs fails', async () => {
    let pages = 0;
    const client = await hostile(() => new Promise((resolve) => setTimeout(() => resolve({ tools: [], nextCursor: String(++pages) }), 40)));
    const started = Date.now();
    const error = await importError(client, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.message).toContain('took longer than 300 ms to list its tools (importMcpTools option timeoutMs: 300)');
  });

  it('a server that never answers fails at timeoutMs, not at the SDK request timeout', async () => {
    const client = await hostile(() => new Promise<ListToolsResult>(() => undefined));
    const started = Date.now();
    await importError(client, { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('untrusted tools are skipped with the reason; the others are imported', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    const client = await hostile(() => ({
      tools: [
        tool('fine', { type: 'object', properties: { q: { type: 'string', pattern: '^[a-z]+$', enum: [{ pattern: '(?=x)' }] } } }),
        { name: 'big', description: 'x'.repeat(200_000), inputSchema: { type: 'object' } },
        tool('deep', deep as McpTool['inputSchema']),
        tool('remote_ref', { type: 'object', properties: { a: { $ref: 'https://evil.example/schema.json' } } }),
        tool('with_id', { type: 'object', $id: 'https://toolwright.local/shared' }),
        { name: 'n'.repeat(10_000), inputSchema: { type: 'object' } },
        { name: 'deep_output', inputSchema: { type: 'object' }, outputSchema: deep as McpTool['inputSchema'] },
      ],
    }));
    const toolkit = newToolkit();
    const imported = closer.add(await importMcpTools(client, toolkit, { prefix: 'h' }));
    expect([...imported.names]).toEqual([['fine', 'h_fine']]);
    const reasons = Object.fromEntries(imported.skipped.map((s) => [s.name.slice(0, 20), s.reason]));
    expect(reasons).toEqual({
      big: 'its definition is 200042 characters of JSON, more than 100000 (maxSchemaBytes)',
      deep: 'its schema nests deeper than 64 levels (maxSchemaDepth)',
      remote_ref: "its schema refers outside itself ($ref 'https://evil.example/schema.json')",
      with_id: "its schema declares an $id ('https://toolwright.local/shared')",
      ['n'.repeat(20)]: 'its name is not 1-128 characters long',
      deep_output: 'its schema nests deeper than 64 levels (maxSchemaDepth)',
    });
    expect(imported.skipped.map((s) => s.code)).toEqual(['too-large', 'too-deep', 'unsafe-schema', 'unsafe-schema', 'invalid-name', 'too-deep']);
    for (const { name } of imported.skipped) expect(name.length).toBeLessThanOrEqual(128);
    // the bounds are options
    const relaxed = closer.add(await importMcpTools(client, newToolkit(), { maxSchemaBytes: 300_000, maxSchemaDepth: 128, filter: ['big', 'deep'] }));
    expect([...relaxed.names.keys()]).toEqual(['big', 'deep']);
  });

  it('a refresh that hits a bound keeps the tools imported before', async () => {
    let endless = false;
    let pages = 0;
    const client = await hostile(() => (endless ? { tools: [], nextCursor: String(++pages) } : { tools: [tool('kept')] }));
    const toolkit = newToolkit();
    const imported = closer.add(await importMcpTools(client, toolkit, { maxPages: 3 }));
    endless = true;
    await expect(imported.refresh()).rejects.toMatchObject({ code: 'IMPORT_LIMIT_EXCEEDED' });
    expect(imported.tools.map((t) => t.name)).toEqual(['kept']);
    expect(toolkit.getTool('kept')).toBeDefined();
  });
});
