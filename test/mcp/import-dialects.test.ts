import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { importMcpTools } from '../../src/mcp';
import { hostileMcpServer } from '../support/hostile-mcp-server';
import { Closer } from '../support/mcp';
import { call, freshToolkit } from '../support/toolkit';

const closer = new Closer();
afterEach(() => closer.closeAll());

const D2020 = 'https://json-schema.org/draft/2020-12/schema';
const D07 = 'http://json-schema.org/draft-07/schema#';

const remote = (name: string, inputSchema: Record<string, unknown>): McpTool => ({ name, inputSchema: inputSchema as McpTool['inputSchema'] });
const pair = { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false };

async function imported(tools: McpTool[]) {
  const client = await hostileMcpServer(closer, () => ({ tools }));
  const toolkit = freshToolkit();
  const handle = closer.add(await importMcpTools(client, toolkit));
  return { toolkit, handle };
}

describe('importMcpTools validates by the dialect the remote declares (2020-12 by default)', () => {
  it('accepts a valid prefixItems + items: false argument the remote accepts, with or without $schema', async () => {
    const { toolkit, handle } = await imported([
      remote('declared', { $schema: D2020, type: 'object', properties: { pair }, required: ['pair'] }),
      remote('implied', { type: 'object', properties: { pair }, required: ['pair'] }),
    ]);
    expect(handle.skipped).toEqual([]);
    // the declared dialect stays on the schema (MCP clients of this toolkit read it too)
    expect(toolkit.getToolSchemas().map((s) => s.parameters.$schema)).toEqual([D2020, undefined]);
    for (const name of ['declared', 'implied']) {
      expect((await call(toolkit, name, { pair: [1, 'a'] })).forLLM).toBe('remote ran');
      expect((await call(toolkit, name, { pair: [1, 'a', 'b'] })).forLLM).toContain("'pair': must NOT have more than 2 items");
      expect((await call(toolkit, name, { pair: ['a', 1] })).error?.code).toBe('INVALID_ARGUMENTS');
    }
  });

  it('validates a draft-07 remote by draft-07 rules', async () => {
    const { toolkit } = await imported([
      remote('old', { $schema: D07, type: 'object', properties: { pair: { type: 'array', items: [{ type: 'number' }, { type: 'string' }], additionalItems: false } } }),
    ]);
    expect((await call(toolkit, 'old', { pair: [1, 'a'] })).forLLM).toBe('remote ran');
    expect((await call(toolkit, 'old', { pair: [1, 'a', 'b'] })).error?.code).toBe('INVALID_ARGUMENTS');
  });

  it('skips a tool whose dialect it does not validate, or whose schema is invalid in its dialect, saying why', async () => {
    const { handle } = await imported([
      remote('draft4', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: {} }),
      remote('broken', { type: 'object', properties: { pair: { prefixItems: { type: 'number' } } } }),
      remote('fine', { type: 'object', properties: {} }),
    ]);
    expect([...handle.names.keys()]).toEqual(['fine']);
    expect(handle.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['draft4', expect.stringContaining('names a JSON Schema dialect toolwright does not validate')],
      ['broken', expect.stringContaining('schema/properties/pair/prefixItems must be array')],
    ]);
  });
});

describe('adversarial: hostile 2020-12 references stay refused or bounded', () => {
  it('refuses a remote $dynamicRef and a remote $ref inside $defs', async () => {
    const { handle } = await imported([
      remote('dyn', { $schema: D2020, type: 'object', properties: { a: { $dynamicRef: 'https://evil.example/meta#node' } } }),
      remote('defs', { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { $ref: 'https://evil.example/a.json' } } }),
    ]);
    expect(handle.skipped).toEqual([
      { name: 'dyn', code: 'unsafe-schema', reason: "its schema refers outside itself ($dynamicRef 'https://evil.example/meta#node')" },
      { name: 'defs', code: 'unsafe-schema', reason: "its schema refers outside itself ($ref 'https://evil.example/a.json')" },
    ]);
  });

  it('a local $dynamicRef recursion with deeply nested arguments ends in an error result, quickly', async () => {
    const tree = { $dynamicAnchor: 'node', type: 'object', properties: { kids: { type: 'array', items: { $dynamicRef: '#node' } } }, additionalProperties: false };
    const { toolkit, handle } = await imported([remote('tree', { $schema: D2020, type: 'object', properties: { root: { $ref: '#/$defs/tree' } }, $defs: { tree } })]);
    expect(handle.skipped).toEqual([]);
    expect((await call(toolkit, 'tree', { root: { kids: [{ kids: [] }] } })).forLLM).toBe('remote ran');
    expect((await call(toolkit, 'tree', { root: { kids: [{ bad: 1 }] } })).forLLM).toContain("'root.kids[0].bad': is not a parameter of this tool (remove it)");
    const depth = 20_000;
    const started = Date.now();
    const result = await call(toolkit, 'tree', `{"root":${'{"kids":['.repeat(depth)}{"kids":[]}${']}'.repeat(depth)}}`);
    expect(Date.now() - started).toBeLessThan(5_000);
    // the validator's recursion ends in an error result (EXECUTION_FAILED), as draft-07's `$ref: "#"` does: never a crash or a hang
    expect(result.isError).toBe(true);
    expect(result.forLLM.length).toBeLessThan(2_000);
  });
});
