import { CallToolResultSchema, ErrorCode, EmptyResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { Toolkit, ToolExecutionContext, userResult, type AgentTool } from '../../src';
import { createMcpServer } from '../../src/mcp';
import { toCallToolResult } from '../../src/mcp/server/call-result';
import { outputShapeOf } from '../../src/mcp/shared/mcp-tool-options';
import { describeConformance } from './conformance';
import { createTestToolkit } from './fixtures/test-toolkit';
import { Closer, connectInMemory, textOf } from '../support/mcp';

const closer = new Closer();
afterEach(() => closer.closeAll());

describe('createMcpServer over the in-memory transport (toolkit view)', () => {
  describeConformance(async () => (await connectInMemory(createTestToolkit().toolkit, closer)).client);
});

describe('createMcpServer over the in-memory transport (sessions)', () => {
  describeConformance(async () => (await connectInMemory(createTestToolkit().toolkit, closer, { sessions: true })).client);
});

describe('createMcpServer over the in-memory transport (sdkValidation: tools/call via setRequestHandler)', () => {
  describeConformance(async () => (await connectInMemory(createTestToolkit().toolkit, closer, { sdkValidation: true })).client);
});

describe('createMcpServer', () => {
  test('malformed tools/call requests are JSON-RPC InvalidParams errors; other unknown methods MethodNotFound', async () => {
    const { client } = await connectInMemory(createTestToolkit().toolkit, closer);
    await expect(client.client.request({ method: 'tools/call', params: { arguments: {} } } as never, CallToolResultSchema)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(client.client.request({ method: 'tools/call', params: { name: 'echo', arguments: [1] } } as never, CallToolResultSchema)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(client.client.request({ method: 'toolwright/no_such_method' } as never, EmptyResultSchema)).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(textOf(await client.call('echo', { text: 'still fine' }))).toBe('echo: still fine');
  });

  test('list_changed follows host-side group toggles and registrations, once per change', async () => {
    const { toolkit } = createTestToolkit();
    const { client } = await connectInMemory(toolkit, closer);
    await client.toolNames();

    let changed = client.nextListChanged();
    toolkit.updateToolGroups(['admin'], true);
    await changed;
    expect(await client.toolNames()).toContain('reset_all');

    changed = client.nextListChanged();
    const extra: AgentTool = { name: 'late', description: 'Registered later', parameters: { type: 'object', properties: {} }, execute: () => 'late' };
    toolkit.registerTool(extra);
    await changed;
    expect(await client.toolNames()).toContain('late');

    // a toggle that changes nothing sends nothing; one burst of toggles sends one notification
    const count = client.listChanged;
    toolkit.updateToolGroups(['admin'], true);
    changed = client.nextListChanged();
    toolkit.updateToolGroups(['admin'], false);
    toolkit.updateToolGroups(['admin'], true);
    toolkit.updateToolGroups(['admin'], false);
    await changed;
    await client.client.ping();
    expect(client.listChanged).toBe(count + 1);
  });

  test('a change while not connected is ignored', async () => {
    const { toolkit } = createTestToolkit();
    const mcp = closer.add(createMcpServer(toolkit, { name: 't', version: '1' }));
    expect(mcp.view).toBe(toolkit);
    expect(() => toolkit.updateToolGroups(['admin'], true)).not.toThrow();
    await mcp.close();
    expect(() => toolkit.updateToolGroups(['admin'], false)).not.toThrow();
  });

  test('sessions: each connection gets its own toolkit session; closing the server closes it', async () => {
    const { toolkit } = createTestToolkit();
    const sessions: string[] = [];
    const a = await connectInMemory(toolkit, closer, { sessions: true, onSession: (s) => sessions.push(s.id) });
    const b = await connectInMemory(toolkit, closer, { sessions: true, sessionId: 'fixed-b' });

    const changed = a.client.nextListChanged();
    await a.client.call('set_group', { group: 'admin', active: true });
    await changed;
    expect(await a.client.toolNames()).toContain('reset_all');
    expect(await b.client.toolNames()).not.toContain('reset_all');
    expect(b.client.listChanged).toBe(0);
    expect(toolkit.getActiveGroups()).not.toContain('admin');
    expect(sessions).toHaveLength(1);
    expect(toolkit.getSessionIds().sort()).toEqual([sessions[0], 'fixed-b'].sort());

    await a.mcp.close();
    expect(toolkit.getSessionIds()).toEqual(['fixed-b']);
  });

  test('per-tool overrides: title and output schema by name; context factory feeds the call', async () => {
    class Caller {
      constructor(readonly name: string) {}
    }
    const toolkit = new Toolkit();
    const whoami: AgentTool = {
      name: 'whoami',
      description: 'Who is calling',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => ({ caller: ctx.context.get(Caller)?.name ?? 'nobody' }),
    };
    toolkit.registerTool(whoami);
    const { client } = await connectInMemory(toolkit, closer, {
      tools: { whoami: { title: 'Who am I', outputSchema: { type: 'object', properties: { caller: { type: 'string' } }, required: ['caller'] } } },
      context: () => ToolExecutionContext.of(new Caller('mcp-client')),
    });
    const [tool] = (await client.client.listTools()).tools;
    expect(tool).toMatchObject({ title: 'Who am I', outputSchema: { required: ['caller'] } });
    const result = await client.call('whoami');
    expect(result.structuredContent).toEqual({ caller: 'mcp-client' });
  });

  test('progress from a tool that reports nothing numeric still counts up', async () => {
    const toolkit = new Toolkit();
    toolkit.registerTool({
      name: 'mixed',
      description: 'Mixed progress',
      parameters: { type: 'object', properties: {} },
      async *execute() {
        yield { progress: 10, total: 100 };
        yield 'no number';
        yield { progress: 5 };
        yield { progress: 50, total: 100 };
        return 'ok';
      },
    });
    const { client } = await connectInMemory(toolkit, closer);
    const seen: Progress[] = [];
    expect(textOf(await client.call('mixed', {}, (p) => seen.push(p)))).toBe('ok');
    expect(seen).toEqual([
      { progress: 10, total: 100 },
      { progress: 11, message: 'no number' },
      { progress: 12 },
      { progress: 50, total: 100 },
    ]);
  });

  test('toCallToolResult: forUser goes to the user only; a missing structured value is an error', () => {
    expect(toCallToolResult({ ...userResult('same'), forLLM: 'for the model', forUser: 'for you' }, undefined, 't').content).toEqual([
      { type: 'text', text: 'for the model', annotations: { audience: ['assistant'] } },
      { type: 'text', text: 'for you', annotations: { audience: ['user'] } },
    ]);
    const shape = { schema: { type: 'object' as const, properties: {} }, wrap: false };
    expect(toCallToolResult({ forLLM: 'plain text', silent: false, isError: false, async: false }, shape, 't')).toMatchObject({ isError: true });
    expect(toCallToolResult({ forLLM: '{"a":1}', silent: false, isError: false, async: false }, shape, 't')).toMatchObject({ structuredContent: { a: 1 } });
    expect(toCallToolResult({ forLLM: 'x', silent: false, isError: false, async: false, data: { at: new Date(0) } }, shape, 't').structuredContent).toEqual({
      at: '1970-01-01T00:00:00.000Z',
    });
  });
});

describe('output shapes', () => {
  const tool = (returns?: unknown): AgentTool =>
    Object.assign({ name: 't', description: 'd', parameters: { type: 'object' as const, properties: {} }, execute: () => '' }, returns ? { descriptor: { returns } } : {});

  test('object schemas are served as is, others wrapped as { result }, text-like ones declare nothing', () => {
    const object = { type: 'object', properties: { a: { type: 'number' } }, $schema: 'http://json-schema.org/draft-07/schema#' };
    expect(outputShapeOf(tool(object), undefined)).toEqual({ schema: { type: 'object', properties: { a: { type: 'number' } } }, wrap: false });
    expect(outputShapeOf(tool({ type: 'array', items: { type: 'string' } }), undefined)).toEqual({
      schema: { type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'] },
      wrap: true,
    });
    expect(outputShapeOf(tool({ type: 'string' }), undefined)).toBeUndefined();
    expect(outputShapeOf(tool({ type: ['string', 'null'] }), undefined)).toBeUndefined();
    expect(outputShapeOf(tool(), undefined)).toBeUndefined();
    // a method returning toolResult(...)/userResult(...): the manifest describes ToolResult itself
    const toolResultSchema = { type: 'object', properties: { forLLM: { type: 'string' }, isError: { type: 'boolean' } } };
    expect(outputShapeOf(tool(toolResultSchema), undefined)).toBeUndefined();
    // explicit options win over the manifest, false turns it off
    expect(outputShapeOf(tool(object), { outputSchema: false })).toBeUndefined();
    expect(outputShapeOf(tool(object), { outputSchema: { type: 'integer' } })?.wrap).toBe(true);
  });
});
