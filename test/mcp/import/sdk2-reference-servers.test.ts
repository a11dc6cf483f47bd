import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as Sdk2Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Toolkit } from '../../../src';
import { importMcpTools } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { negotiation, type Negotiation } from './sdk2-servers';

/**
 * The official reference servers (`server-everything`, `server-memory`, built on the SDK 1.x:
 * 2025-11-25 servers) as child processes over stdio, imported through an MCP SDK 2 client: with
 * the 2025 handshake, and with an `'auto'` probe (on stdio the SDK probes a sibling process first).
 */
const closer = new Closer();
const memoryDir = mkdtempSync(path.join(tmpdir(), 'toolwright-memory-sdk2-'));
let warn: jest.SpyInstance;

beforeAll(() => {
  warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterEach(() => closer.closeAll());
afterAll(() => {
  warn.mockRestore();
  rmSync(memoryDir, { recursive: true, force: true });
});

async function spawnSdk2(bin: string, args: string[], mode: Negotiation, env: Record<string, string> = {}): Promise<Sdk2Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [require.resolve(`@modelcontextprotocol/${bin}/dist/index.js`), ...args],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  // the client declares what server-everything asks of it before listing the tools that use them
  const client = closer.add(new Sdk2Client({ name: 'toolwright-reference-test', version: '0.0.0' }, { capabilities: { sampling: {}, elicitation: {}, roots: {} }, ...negotiation(mode) }));
  await client.connect(transport);
  return client;
}

describe.each(['legacy', 'auto'] as const)('the reference servers imported through an MCP SDK 2 client over stdio (%s negotiation)', (mode) => {
  test('the whole catalogues import on 2025-11-25, and calls go through: text, structured data, the task-only tool', async () => {
    const toolkit = new Toolkit();
    const [ev, mem] = await Promise.all([
      spawnSdk2('server-everything', ['stdio'], mode),
      spawnSdk2('server-memory', [], mode, { MEMORY_FILE_PATH: path.join(memoryDir, `${mode}.jsonl`) }),
    ]);
    const everything = closer.add(await importMcpTools(ev, toolkit, { group: 'ev', prefix: 'ev' }));
    const memory = closer.add(await importMcpTools(mem, toolkit, { group: 'mem', prefix: 'mem' }));
    for (const { report } of [everything, memory]) expect([report.protocolVersion, report.skipped]).toEqual(['2025-11-25', []]);
    expect(everything.report.server).toBe('mcp-servers/everything');
    expect(everything.names.get('simulate-research-query')).toBe('ev_simulate-research-query');
    expect(memory.report.imported.map((t) => t.local)).toContain('mem_read_graph');

    expect(await toolkit.callTool({ id: 'e', name: 'ev_echo', arguments: { message: 'through SDK 2' } })).toMatchObject({ isError: false, forLLM: 'Echo: through SDK 2' });
    const entities = [{ name: 'toolwright', entityType: 'library', observations: ['imports through SDK 2'] }];
    expect((await toolkit.callTool({ id: 'm1', name: 'mem_create_entities', arguments: { entities } })).isError).toBe(false);
    expect((await toolkit.callTool({ id: 'm2', name: 'mem_read_graph', arguments: {} })).data).toEqual({ entities, relations: [] });

    const messages: string[] = [];
    const report = await toolkit.callTool(
      { id: 't', name: 'ev_simulate-research-query', arguments: { topic: 'tides' } },
      { onProgress: (p) => void (p.message !== undefined && messages.push(p.message)) },
    );
    expect(report).toMatchObject({ isError: false, forLLM: expect.stringContaining('# Research Report: tides') });
    expect(messages).toEqual(expect.arrayContaining(['Gathering sources...']));
  }, 60_000);
});
