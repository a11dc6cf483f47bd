import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ListToolsResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Toolkit } from '../../../src';
import { importMcpTools, MCP_IMPORT_LIMITS, type McpImportHandle, type McpImportOptions } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { newToolkit } from '../../support/toolkit';
import { hostileMcpServer } from '../../support/hostile-mcp-server';

const closer = new Closer();
afterEach(() => closer.closeAll());

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** `properties` string properties, each with a description of `pad` characters: about `properties * (pad + 60)` characters of JSON. */
function wideSchema(tool: number, properties: number, pad: number): McpTool['inputSchema'] {
  const out: Record<string, object> = {};
  for (let p = 0; p < properties; p++) out[`field_${p}`] = { type: 'string', maxLength: 50, description: `Field ${p} of tool ${tool}: `.padEnd(pad, 'x') };
  return { type: 'object', properties: out };
}

/**
 * A server of `count` tools, listed in pages of 20. Their input schemas are made once, up front
 * (the hostile server is another process in real life: its own work is not the importer's); the
 * tools around them are made again for every listing by `make`, from the tool's index and schema.
 */
function catalogue(count: number, schemaOf: (i: number) => McpTool['inputSchema'], make: (i: number, inputSchema: McpTool['inputSchema']) => McpTool): (cursor: string | undefined) => ListToolsResult {
  const schemas = Array.from({ length: count }, (_, i) => schemaOf(i));
  return (cursor) => {
    const start = Number(cursor ?? 0);
    const end = Math.min(count, start + 20);
    const tools = Array.from({ length: end - start }, (_, i) => make(start + i, schemas[start + i]));
    return { tools, ...(end < count ? { nextCursor: String(end) } : {}) };
  };
}

/** The longest the event loop went without a turn while `run` ran (a 1 ms interval's lateness). */
async function longestBlock<T>(run: () => Promise<T>): Promise<{ value: T; longest: number }> {
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    const value = await run();
    return { value, longest: Math.max(longest, performance.now() - last) };
  } finally {
    clearInterval(probe);
  }
}

/** Generous: the unbounded import blocks for seconds; a slice is 10 ms of work (slower on a loaded machine). */
const MAX_BLOCK_MS = 1000;

async function importing(client: Client, toolkit: Toolkit, options: McpImportOptions = {}): Promise<{ handle: McpImportHandle; longest: number }> {
  const { value, longest } = await longestBlock(() => importMcpTools(client, toolkit, { prefix: 'r', ...options }));
  return { handle: closer.add(value), longest };
}

beforeAll(() => {
  // the process has checked a schema before (the meta-schema is compiled once per process, not per import)
  newToolkit().registerTool({ name: 'warm', description: 'warm', parameters: { type: 'object', properties: { a: { type: 'string' } } }, execute: () => 'ok' });
});

describe('item 5: importing a large catalogue within the default limits cannot freeze the process', () => {
  it('300 tools of 60 KB: the tools past maxCatalogBytes (4 MiB) are skipped with the reason; no long block; the heap kept is bounded', async () => {
    const client = await hostileMcpServer(closer, catalogue(300, (i) => wideSchema(i, 200, 240), (i, inputSchema) => ({ name: `tool_${i}`, description: `Tool ${i}`, inputSchema })));
    const toolkit = newToolkit();
    const before = heapUsed();
    const { handle, longest } = await importing(client, toolkit);
    const held = heapUsed() - before;

    // no single block: the unbounded import held the event loop for the whole catalogue
    expect(longest).toBeLessThan(MAX_BLOCK_MS);
    // what is kept is the imported schemas (about 60 KB of JSON each), not copies of the catalogue's text
    expect(held).toBeLessThan(20 * 1024 * 1024);
    const imported = handle.report.imported.length;
    expect(imported).toBeGreaterThan(40);
    expect(imported).toBeLessThan(100);
    expect(handle.report.imported.map((t) => t.remote)).toEqual(Array.from({ length: imported }, (_, i) => `tool_${i}`));
    expect(handle.skipped).toHaveLength(300 - imported);
    expect(new Set(handle.skipped.map((s) => s.code))).toEqual(new Set(['over-budget']));
    expect(handle.skipped[0]).toEqual({
      name: `tool_${imported}`,
      code: 'over-budget',
      reason: expect.stringMatching(/^its definition \(\d+ characters of JSON\) would take the import's tools past maxCatalogBytes \(4194304\); the tools before it hold \d+$/),
    });
    // what is skipped is not in the toolkit
    expect(toolkit.getTool(`r_tool_${imported}`)).toBeUndefined();
    expect(toolkit.getAllTools()).toHaveLength(imported);
    expect(held / imported).toBeLessThan(400 * 1024);
    expect(MCP_IMPORT_LIMITS.maxCatalogBytes).toBe(4 * 1024 * 1024);
  });

  it('maxCatalogBytes is an option: a smaller budget imports fewer, a larger one all', async () => {
    const client = await hostileMcpServer(closer, catalogue(30, (i) => wideSchema(i, 20, 100), (i, inputSchema) => ({ name: `tool_${i}`, inputSchema })));
    const small = await importing(client, newToolkit(), { maxCatalogBytes: 20_000 });
    expect(small.handle.tools.length).toBeGreaterThan(0);
    expect(small.handle.tools.length).toBeLessThan(30);
    const all = await importing(client, newToolkit(), { maxCatalogBytes: 10_000_000 });
    expect(all.handle.tools).toHaveLength(30);
  });

  it('a tool whose schemas hold more than maxSchemaNodes (1000) objects and arrays is skipped: its validator would cost too much to compile', async () => {
    const nested = (n: number): McpTool['inputSchema'] => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: n }, (_, p) => [`f${p}`, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } }])),
    });
    const client = await hostileMcpServer(closer, () => ({
      tools: [
        { name: 'huge', inputSchema: nested(400) },
        { name: 'fits', inputSchema: nested(200) },
        // the input and output schemas count together
        { name: 'both', inputSchema: nested(200), outputSchema: nested(200) as McpTool['outputSchema'] },
      ],
    }));
    const toolkit = newToolkit();
    const { handle } = await importing(client, toolkit);
    expect([...handle.names.keys()]).toEqual(['fits']);
    expect(handle.skipped).toEqual([
      { name: 'huge', code: 'too-large', reason: 'its schemas hold more than 1000 objects and arrays (maxSchemaNodes)' },
      { name: 'both', code: 'too-large', reason: 'its schemas hold more than 1000 objects and arrays (maxSchemaNodes)' },
    ]);
    expect(toolkit.getTool('r_huge')).toBeUndefined();
    const raised = await importing(client, newToolkit(), { maxSchemaNodes: 2000 });
    expect([...raised.handle.names.keys()]).toEqual(['huge', 'fits', 'both']);
  });

  it('1,000 small tools (within every default) watched by an activeTools$ subscriber: the import and a refresh that changes them all stay in short blocks', async () => {
    let version = 0;
    const client = await hostileMcpServer(
      closer,
      catalogue(1000, (i) => wideSchema(i, 5, 100), (i, inputSchema) => ({ name: `tool_${i}`, description: `Tool ${i}, version ${version}`, inputSchema })),
    );
    const toolkit = newToolkit();
    let emitted = 0;
    const watching = toolkit.activeTools$.subscribe(() => emitted++);
    try {
      const { handle, longest } = await importing(client, toolkit);
      expect(longest).toBeLessThan(MAX_BLOCK_MS);
      expect(handle.tools).toHaveLength(1000);
      version = 1;
      const refreshed = await longestBlock(() => handle.refresh());
      expect(refreshed.longest).toBeLessThan(MAX_BLOCK_MS);
      expect(toolkit.getTool('r_tool_999')?.description).toBe('Tool 999, version 1');
      expect(emitted).toBeGreaterThan(2);
    } finally {
      watching.unsubscribe();
    }
  });

  it('a server that changes every description on each list_changed: only the changed parts are processed again, in slices, and calls still validate', async () => {
    let version = 0;
    const calls: string[] = [];
    const client = await hostileMcpServer(
      closer,
      catalogue(
        100,
        (i) => wideSchema(i, 100, 240),
        (i, inputSchema) => ({ name: `tool_${i}`, description: `Tool ${i}, ${i % 2 === 0 ? `version ${version}` : 'stable'}`, inputSchema }),
      ),
      (params) => {
        calls.push(params.name);
        return { content: [{ type: 'text', text: 'remote ran' }] };
      },
    );
    const toolkit = newToolkit();
    const { handle } = await importing(client, toolkit);
    expect(handle.tools).toHaveLength(100);
    const before = new Map(handle.tools.map((t) => [t.name, t]));

    for (let round = 1; round <= 3; round++) {
      version = round;
      const { longest } = await longestBlock(() => handle.refresh());
      expect(longest).toBeLessThan(MAX_BLOCK_MS);
    }
    expect(handle.tools).toHaveLength(100);
    for (let i = 0; i < 100; i++) {
      const now = toolkit.getTool(`r_tool_${i}`)!;
      const then = before.get(`r_tool_${i}`)!;
      if (i % 2 === 1) expect(now).toBe(then); // unchanged: not registered again
      else {
        expect(now.description).toBe(`Tool ${i}, version 3`);
        // a new description, the same input schema: the schema made ready before is reused, not walked, frozen and checked again
        expect(now.parameters).toBe(then.parameters);
      }
    }
    const invalid = await toolkit.callTool({ id: 'c1', name: 'r_tool_0', arguments: { field_0: 'y'.repeat(51) } });
    expect(invalid.error?.code).toBe('INVALID_ARGUMENTS');
    expect(calls).toEqual([]);
    const valid = await toolkit.callTool({ id: 'c2', name: 'r_tool_0', arguments: { field_0: 'ok', field_1: null } });
    expect(valid.forLLM).toBe('remote ran');
    expect(calls).toEqual(['tool_0']);
  });
});
