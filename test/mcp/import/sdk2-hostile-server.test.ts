import { ToolkitError, Toolkit, type ClientRequestHandler, type ToolCallContext } from '../../../src';
import { answerInputRequests } from '../../../src/mcp/import/sdk2-input-requests';
import { importMcpTools, MCP_IMPORT_LIMITS, type McpImportOptions } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { connectSdk2, hostileSdk2Server, REVISION, type HostileCaller, type HostileLister, type Negotiation } from './sdk2-servers';

/**
 * What a hostile server tries against an import through an MCP SDK 2 client, on both revisions:
 * the bounds, checks and reports of an SDK 1.x import hold the same.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }) => ({ name, inputSchema });

async function hostileClient(mode: Negotiation, list: HostileLister, call?: HostileCaller) {
  return connectSdk2(closer, await hostileSdk2Server(closer, list, call), mode);
}

async function importError(client: Parameters<typeof importMcpTools>[0], options: McpImportOptions = {}): Promise<ToolkitError> {
  const error: unknown = await importMcpTools(client, new Toolkit(), options).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ToolkitError.is(error, 'IMPORT_LIMIT_EXCEEDED')) throw new Error(`expected IMPORT_LIMIT_EXCEEDED, got ${String(error)}`);
  return error;
}

describe.each(['legacy', 'pinned'] as const)('a hostile SDK 2 server against an import through an SDK 2 client (%s negotiation)', (mode: Negotiation) => {
  test('an endless nextCursor chain stops at maxPages, with the error of an SDK 1.x import', async () => {
    let pages = 0;
    const client = await hostileClient(mode, () => ({ tools: [tool(`t${pages}`)], nextCursor: String(++pages) }));
    const error = await importError(client, { maxPages: 20 });
    expect(pages).toBe(20);
    expect(error.message).toBe(
      "MCP server 'hostile' listed more than 20 pages of tools (importMcpTools option maxPages: 20); nothing was imported or changed. Raise maxPages if the server is trusted to need it.",
    );
  });

  test('more tools than maxTools fail the listing; a slow listing fails at timeoutMs', async () => {
    const big = await hostileClient(mode, (cursor) => {
      const page = Number(cursor ?? 0);
      return { tools: Array.from({ length: 300 }, (_, i) => tool(`p${page}_${i}`)), ...(page < 3 ? { nextCursor: String(page + 1) } : {}) };
    });
    expect((await importError(big)).message).toContain(`listed more than ${MCP_IMPORT_LIMITS.maxTools} tools (importMcpTools option maxTools: 1000)`);

    let pages = 0;
    const slow = await hostileClient(mode, () => new Promise((resolve) => setTimeout(() => resolve({ tools: [], nextCursor: String(++pages) }), 40)));
    const started = Date.now();
    expect((await importError(slow, { timeoutMs: 300 })).message).toContain('took longer than 300 ms to list its tools (importMcpTools option timeoutMs: 300)');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('a server that never answers fails at timeoutMs', async () => {
    const client = await hostileClient(mode, () => new Promise(() => undefined));
    const started = Date.now();
    await importError(client, { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('huge, deep, catastrophic, referring, over-budget and badly named tools are skipped with their reasons; the report names the revision', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    const client = await hostileClient(mode, () => ({
      tools: [
        tool('fine', { type: 'object', properties: { q: { type: 'string', pattern: '^[a-z]+$' } } }),
        { name: 'big', description: 'x'.repeat(200_000), inputSchema: { type: 'object' } },
        tool('deep', deep),
        tool('redos', { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+\\1$' } } }),
        tool('remote_ref', { type: 'object', properties: { a: { $ref: 'https://evil.example/schema.json' } } }),
        tool('with_id', { type: 'object', $id: 'https://toolwright.local/shared' }),
        { name: 'n'.repeat(10_000), inputSchema: { type: 'object' } },
        { name: 'deep_output', inputSchema: { type: 'object' }, outputSchema: deep },
        { name: 'heavy', description: 'y'.repeat(60_000), inputSchema: { type: 'object' } },
      ],
    }));
    const imported = closer.add(await importMcpTools(client, new Toolkit(), { prefix: 'h', maxCatalogBytes: 50_000 }));
    expect(imported.report.protocolVersion).toBe(REVISION[mode]);
    expect([...imported.names]).toEqual([['fine', 'h_fine']]);
    expect(imported.skipped.map((s) => [s.name.slice(0, 12), s.code])).toEqual([
      ['big', 'too-large'],
      ['deep', 'too-deep'],
      ['redos', 'unsafe-schema'],
      ['remote_ref', 'unsafe-schema'],
      ['with_id', 'unsafe-schema'],
      ['n'.repeat(12), 'invalid-name'],
      ['deep_output', 'too-deep'],
      ['heavy', 'over-budget'],
    ]);
    expect(imported.skipped.find((s) => s.name === 'redos')?.reason).toMatch(/needs a backtracking regular expression engine/);
    for (const { name, reason } of imported.skipped) expect([name.length <= 128, reason.length <= 300]).toEqual([true, true]);
  });

  test('hostile results stay bounded: 10,000 parts, 12 MB of text, 20 MB of structured content', async () => {
    const results: Record<string, unknown> = {
      many_parts: { content: Array.from({ length: 10_000 }, (_, i) => ({ type: 'text', text: `part ${i}`, annotations: { priority: 0.5 } })) },
      huge_text: { content: [{ type: 'text', text: 'x'.repeat(12 * 1024 * 1024) }] },
      huge_structured: { content: [], structuredContent: { blob: 'x'.repeat(20 * 1024 * 1024) } },
    };
    const client = await hostileClient(mode, () => ({ tools: Object.keys(results).map((name) => tool(name)) }), (name) => results[name]);
    const toolkit = new Toolkit();
    closer.add(await importMcpTools(client, toolkit, { followListChanged: false }));
    const call = (name: string) => toolkit.callTool({ id: name, name, arguments: {} });
    const parts = await call('many_parts');
    expect(parts.content).toHaveLength(MCP_IMPORT_LIMITS.maxContentParts + 1);
    expect(parts.forLLM).toMatch(/9900 more content parts? dropped/);
    expect((await call('huge_text')).forLLM.length).toBeLessThanOrEqual(MCP_IMPORT_LIMITS.maxContentBytes + 200);
    const structured = await call('huge_structured');
    expect([structured.data, structured.forLLM]).toEqual([undefined, expect.stringMatching(/structuredContent of \d+ characters of JSON dropped/)]);
  }, 60_000);
});

describe('a hostile 2026-07-28 server that keeps asking for input', () => {
  /** A caller whose client answers every form at once, and counts them. */
  function answering(): { toolkit: Toolkit; asked: () => number } {
    let asked = 0;
    const clientRequests: ClientRequestHandler = {
      supports: () => true,
      createMessage: async () => ({ role: 'assistant', content: { type: 'text', text: 'sure' }, model: 'test' }),
      elicit: async () => {
        asked++;
        return { action: 'accept', content: { ok: true } };
      },
    };
    return { toolkit: new Toolkit({ clientRequests }), asked: () => asked };
  }
  const form = { method: 'elicitation/create', params: { message: 'again?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } } };

  async function importAsking(call: HostileCaller) {
    const { toolkit, asked } = answering();
    const client = await hostileClient('pinned', () => ({ tools: [tool('ask')] }), call);
    closer.add(await importMcpTools(client, toolkit, { followListChanged: false }));
    return { result: await toolkit.callTool({ id: 'a', name: 'ask', arguments: {} }), asked };
  }

  test('endless rounds stop after 10, with an error that says so', async () => {
    let rounds = 0;
    const { result, asked } = await importAsking(() => {
      rounds++;
      return { resultType: 'input_required', inputRequests: { again: form }, requestState: `round-${rounds}` };
    });
    expect(result).toMatchObject({ isError: true, forLLM: expect.stringMatching(/asked for input more than 10 times in one call of tool 'ask'/) });
    expect([rounds, asked()]).toEqual([11, 10]);
  });

  test('more than 8 forms in one round are refused before any reaches the user', async () => {
    const inputRequests = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`q${i}`, form]));
    const { result, asked } = await importAsking(() => ({ resultType: 'input_required', inputRequests }));
    expect(result).toMatchObject({ isError: true, forLLM: expect.stringMatching(/asked for 50 inputs in one round; an imported tool answers at most 8/) });
    expect(asked()).toBe(0);
  });

  test('roots, URL elicitations and other methods are not even asked: each call declares only form elicitation and sampling; a huge requestState is not echoed', async () => {
    const answers = [
      { inputRequests: { r: { method: 'roots/list' } }, error: /Cannot request input 'r' \(roots\/list\): the request's client capabilities do not declare the required capability/ },
      {
        inputRequests: { u: { method: 'elicitation/create', params: { mode: 'url', message: 'go', url: 'https://evil.example' } } },
        error: /Cannot request input 'u' \(elicitation\/create\): the request's client capabilities do not declare the required capability/,
      },
      { inputRequests: { a: form }, requestState: 's'.repeat(300 * 1024), error: /requestState that is not a string of at most 262144 characters/ },
    ];
    for (const { error, ...answer } of answers) {
      const { result, asked } = await importAsking(() => ({ resultType: 'input_required', ...answer }));
      expect([result.isError, result.forLLM, asked()]).toEqual([true, expect.stringMatching(error), 0]);
    }
  });

  test('a server that asks anyway for what toolwright cannot answer gets a refusal by name, and the user is not asked', async () => {
    const { toolkit, asked } = answering();
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ r: { method: 'roots/list' } }, /roots\/list, which an imported tool cannot answer/],
      [{ u: { method: 'elicitation/create', params: { mode: 'url', message: 'go', url: 'https://evil.example' } } }, /elicitation in 'url' mode/],
      [{ x: { method: 'ping' } }, /input request 'x' is not an elicitation or sampling request \(method 'ping'\)/],
      [{ x: 'not a request' }, /input request 'x' is not an elicitation or sampling request/],
    ];
    // the tool's own context, as the toolkit gives it to an imported tool's execute
    toolkit.registerTool({
      name: 'probe',
      description: 'Answers each set of input requests as an imported tool would',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx: ToolCallContext) => {
        const errors: string[] = [];
        for (const [requests] of refusals) errors.push(await answerInputRequests(requests, ctx).then(() => 'answered', (e: Error) => e.message));
        return errors.join('\n');
      },
    });
    const lines = (await toolkit.callTool({ id: 'p', name: 'probe', arguments: {} })).forLLM.split('\n');
    refusals.forEach(([, error], i) => expect(lines[i]).toMatch(error));
    expect(asked()).toBe(0);
  });
});
