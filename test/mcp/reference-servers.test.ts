import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { Toolkit, type ProviderName } from '../../src';
import { importMcpTools, type McpImportHandle } from '../../src/mcp';
import { checkGemini, checkOpenAIStrict } from '../schema/lowering/provider-rule-checks';
import { Closer, connectInMemory, eventually } from '../support/mcp';

/**
 * The official reference servers, `@modelcontextprotocol/server-everything` and
 * `@modelcontextprotocol/server-memory`, started as real child processes over stdio and imported
 * into one toolkit.
 */
const closer = new Closer();
const memoryDir = mkdtempSync(path.join(tmpdir(), 'toolwright-memory-'));
let toolkit: Toolkit;
let everything: { client: Client; listed: McpTool[]; handle: McpImportHandle };
let memory: { client: Client; listed: McpTool[]; handle: McpImportHandle };
let warn: jest.SpyInstance;

async function spawnServer(bin: string, args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [require.resolve(`@modelcontextprotocol/${bin}/dist/index.js`), ...args],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  // the client declares what server-everything asks of it before listing its tools that use them
  const capabilities = { sampling: {}, elicitation: {}, roots: {} };
  const client = closer.add(new Client({ name: 'toolwright-reference-test', version: '0.0.0' }, { capabilities }));
  await client.connect(transport);
  return client;
}

async function importServer(client: Client, prefix: string) {
  const listed = (await client.listTools()).tools;
  const handle = closer.add(await importMcpTools(client, toolkit, { group: prefix, prefix }));
  return { client, listed, handle };
}

beforeAll(async () => {
  warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  toolkit = new Toolkit();
  const [ev, mem] = await Promise.all([
    spawnServer('server-everything', ['stdio']),
    spawnServer('server-memory', [], { MEMORY_FILE_PATH: path.join(memoryDir, 'memory.jsonl') }),
  ]);
  everything = await importServer(ev, 'ev');
  memory = await importServer(mem, 'mem');
}, 60_000);

afterAll(async () => {
  await closer.closeAll();
  warn.mockRestore();
  rmSync(memoryDir, { recursive: true, force: true });
});

describe('importing the official reference servers over stdio', () => {
  test('the whole catalogue imports, the task-only tool too (it is called as an MCP task)', () => {
    expect(everything.handle.report.server).toBe('mcp-servers/everything');
    expect(everything.listed.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-roots-list', 'trigger-sampling-request', 'trigger-elicitation-request']));
    const taskOnly = everything.listed.filter((t) => t.execution?.taskSupport === 'required').map((t) => t.name);
    expect(taskOnly).toEqual(['simulate-research-query']);
    expect(everything.handle.report.skipped).toEqual([]);
    expect(everything.handle.report.imported.map((t) => t.remote)).toEqual(everything.listed.map((t) => t.name));
    expect(everything.handle.report.imported.find((t) => t.remote === 'simulate-research-query')?.changes).toContain(
      'called as an MCP task (execution.taskSupport required): tools/call with task, then tasks/get and tasks/result',
    );
    expect(memory.handle.report.skipped).toEqual([]);
    expect(memory.handle.report.imported.map((t) => t.remote)).toEqual(memory.listed.map((t) => t.name));
    expect(memory.handle.report.imported.map((t) => t.local)).toEqual(memory.listed.map((t) => `mem_${t.name}`));
    for (const { changes } of [...everything.handle.report.imported, ...memory.handle.report.imported]) {
      expect(changes[0]).toMatch(/^renamed to '(ev|mem)_[a-zA-Z0-9_-]+' \(prefix '(ev|mem)'\)$/);
    }
  });

  test('annotations and titles are kept, and served again exactly by createMcpServer', async () => {
    const { client } = await connectInMemory(toolkit, closer);
    const served = new Map((await client.client.listTools()).tools.map((t) => [t.name, t]));
    for (const [listed, handle] of [[everything.listed, everything.handle], [memory.listed, memory.handle]] as const) {
      for (const remote of listed) {
        const local = handle.names.get(remote.name);
        if (local === undefined) continue;
        const again = served.get(local)!;
        expect([local, again.title, again.annotations]).toEqual([local, remote.title, { title: remote.title, ...remote.annotations }]);
        if (remote.outputSchema) expect(again.outputSchema).toMatchObject({ type: 'object', properties: remote.outputSchema.properties });
      }
    }
    expect(served.get('mem_delete_entities')?.annotations).toMatchObject({ destructiveHint: true });
  });

  test('their hints are not relied on: the imported tools are of unknown behaviour to toolwright', () => {
    expect(toolkit.getTool('ev_echo')?.behaviour?.annotations).toEqual({ readOnly: false, destructive: true, idempotent: false, openWorld: true });
    const echo = everything.handle.report.imported.find((t) => t.remote === 'echo')!;
    expect(echo.changes[1]).toMatch(/^annotations readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false kept as untrusted hints/);
  });

  test('every provider takes every imported tool; Gemini gets no format it rejects', () => {
    const all = toolkit.getToolSchemas().length;
    expect(all).toBe(everything.handle.tools.length + memory.handle.tools.length);
    for (const [provider, strict] of [
      ['openai', false],
      ['openai', true],
      ['openai-responses', true],
      ['anthropic', false],
      ['gemini', false],
      ['mcp', false],
    ] as [ProviderName, boolean][]) {
      const { definitions, omitted } = toolkit.lowerTools(provider, { strict });
      expect([provider, strict, omitted]).toEqual([provider, strict, []]);
      expect(definitions).toHaveLength(all);
    }
    for (const definition of toolkit.toProviderDefs('openai', { strict: true })) expect(checkOpenAIStrict(definition.function.parameters)).toEqual([]);
    const gemini = toolkit.toProviderDefs('gemini');
    for (const definition of gemini) expect([definition.name, checkGemini(definition.parameters)]).toEqual([definition.name, []]);
    expect(gemini.find((d) => d.name === 'ev_gzip-file-as-resource')?.parameters?.properties?.data).toEqual({
      type: 'string',
      default: 'https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md',
      description: 'URL or data URI of the file content to compress (format: uri)',
    });
    expect(JSON.stringify(gemini)).not.toMatch(/"format":"(?!date-time|enum|float|double|int32|int64)/);
  });

  test('calls go through: text, and structured content as data', async () => {
    const echo = await toolkit.callTool({ id: 'c1', name: 'ev_echo', arguments: { message: 'through toolwright' } });
    expect(echo).toMatchObject({ isError: false, forLLM: 'Echo: through toolwright' });
    const created = await toolkit.callTool({
      id: 'c2',
      name: 'mem_create_entities',
      arguments: { entities: [{ name: 'toolwright', entityType: 'library', observations: ['imports MCP tools'] }] },
    });
    expect(created.isError).toBe(false);
    const graph = await toolkit.callTool({ id: 'c3', name: 'mem_read_graph', arguments: {} });
    expect(graph.data).toEqual({ entities: [{ name: 'toolwright', entityType: 'library', observations: ['imports MCP tools'] }], relations: [] });
    const invalid = await toolkit.callTool({ id: 'c4', name: 'mem_search_nodes', arguments: {} });
    expect(invalid.error?.code).toBe('INVALID_ARGUMENTS');
  });

  test("the task-only tool is called through MCP tasks: its status messages arrive as progress, its report as the result", async () => {
    const messages: string[] = [];
    const report = await toolkit.callTool(
      { id: 'c5', name: 'ev_simulate-research-query', arguments: { topic: 'tides' } },
      { onProgress: (p) => void (p.message !== undefined && messages.push(p.message)) },
    );
    expect(report).toMatchObject({ isError: false, forLLM: expect.stringContaining('# Research Report: tides') });
    expect(messages).toEqual(expect.arrayContaining(['Gathering sources...', 'Generating report...']));
  }, 30_000);

  test('aborting a task-only call cancels the remote task', async () => {
    const controller = new AbortController();
    const working = async () => (await everything.client.experimental.tasks.listTasks()).tasks.filter((t) => t.status === 'working').map((t) => t.taskId);
    const before = new Set(await working());
    const call = toolkit.callTool({ id: 'c6', name: 'ev_simulate-research-query', arguments: { topic: 'waves' } }, { signal: controller.signal });
    let id: string | undefined;
    await eventually(async () => (id = (await working()).find((t) => !before.has(t))) !== undefined, 10_000);
    controller.abort();
    expect(await call).toMatchObject({ isError: true, error: { code: 'ABORTED' } });
    await eventually(async () => (await everything.client.experimental.tasks.getTask(id!)).status === 'cancelled', 10_000);
  }, 30_000);
});
