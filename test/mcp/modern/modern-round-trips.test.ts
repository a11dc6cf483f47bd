import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { ApprovalManager, Toolkit, type AgentTool, type ClientRequests } from '../../../src';
import { McpPrincipal, bearerAuth, memoryMcpStateStore, serveMcpHttp, type McpHttpOptions, type McpHttpServer } from '../../../src/mcp';
import { Closer } from '../../support/mcp';

/**
 * Multi Round-Trip Requests over HTTP: SDK v2 clients pinned to 2026-07-28 answer a tool's
 * questions with their own elicitation and sampling handlers; raw POSTs try what a hostile client
 * would do with `requestState` and `inputResponses`.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

const SECRET = 'a-test-secret-of-at-least-32-bytes!!';
const TOKENS = new Map([
  ['t-alice', new McpPrincipal('alice')],
  ['t-mallory', new McpPrincipal('mallory')],
]);

/** Tools that ask; `effects` counts what each did after its questions. */
function askingToolkit() {
  const effects: Record<string, number> = {};
  const effect = (name: string) => (effects[name] = (effects[name] ?? 0) + 1);
  const toolkit = new Toolkit();
  const tool = (name: string, annotations: Record<string, boolean>, body: (client: ClientRequests) => Promise<string>, risk?: 'high'): AgentTool => ({
    name,
    description: name,
    parameters: { type: 'object', properties: { n: { type: 'number' } } },
    behaviour: { annotations, ...(risk ? { risk } : {}) },
    execute: (_args, ctx) => body(ctx.client!),
  });
  const NAME_FORM = { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] } as const;
  toolkit.registerTool(
    tool('greet', { readOnly: true }, async (client) => {
      const answer = await client.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: NAME_FORM });
      effect('greet');
      return answer.action === 'accept' ? `Hello, ${answer.content!.name}!` : `no name (${answer.action})`;
    }),
  );
  toolkit.registerTool(
    tool('two_steps', { idempotent: true }, async (client) => {
      const one = await client.elicit<{ name: string }>({ message: 'Step 1: name?', requestedSchema: NAME_FORM });
      const two = await client.elicit<{ color: string }>({ message: 'Step 2: color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } });
      effect('two_steps');
      return `${one.content?.name} likes ${two.content?.color}`;
    }),
  );
  toolkit.registerTool(
    tool('capital', { readOnly: true }, async (client) => {
      const reply = await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }], maxTokens: 20 });
      effect('capital');
      return `LLM: ${reply.content.type === 'text' ? reply.content.text : '?'} (${reply.model})`;
    }),
  );
  toolkit.registerTool(
    tool('transfer', {}, async (client) => {
      await client.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
      effect('transfer');
      return 'transferred';
    }),
  );
  toolkit.registerTool(tool('pay', {}, async () => `paid ${effect('pay')}`, 'high'));
  const approvals = new ApprovalManager({ minRisk: 'high', elicitation: true });
  toolkit.use(approvals.hook);
  return { toolkit, effects, approvals };
}

async function serve(toolkit: Toolkit, options: Partial<McpHttpOptions> = {}): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(toolkit, { name: 'asking', version: '1', stateSecret: SECRET, authenticate: bearerAuth((token) => TOKENS.get(token)), ...options }));
}

type Answers = { elicit?: (params: { message: string }) => Record<string, unknown>; sample?: () => Record<string, unknown> };

/** An SDK v2 client pinned to 2026-07-28, with elicitation and sampling handlers; `asked` records the questions. */
async function modernClient(url: URL, answers: Answers) {
  const asked: string[] = [];
  const client = closer.add(
    new Sdk2Client({ name: 'asker', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: {}, sampling: {} } }),
  );
  client.setRequestHandler('elicitation/create', (request) => {
    const params = request.params as { message: string };
    asked.push(params.message);
    return answers.elicit!(params) as never;
  });
  client.setRequestHandler('sampling/createMessage', () => {
    asked.push('sampling');
    return answers.sample!() as never;
  });
  await client.connect(new Sdk2Transport(url, { requestInit: { headers: { authorization: 'Bearer t-alice' } } }));
  expect(client.getProtocolEra()).toBe('modern');
  return { client, asked };
}

type CallResult = Awaited<ReturnType<Sdk2Client['callTool']>>;
const textOf = (result: CallResult): string => (result.content?.[0]?.type === 'text' ? result.content[0].text : '');

/** A raw 2026-07-28 `tools/call` POST; resolves with the JSON-RPC response. */
async function rawCall(url: URL, token: string, name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} },
      },
      ...extra,
    },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('text/event-stream') ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).pop()! : text;
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** A first round by raw POST: its question id and state. */
async function firstRound(url: URL, name: string, args: Record<string, unknown> = {}) {
  const { result } = await rawCall(url, 't-alice', name, args);
  expect(result).toMatchObject({ resultType: 'input_required' });
  const inputRequests = result!.inputRequests as Record<string, { method: string; params: unknown }>;
  return { key: Object.keys(inputRequests)[0], state: result!.requestState as string, inputRequests };
}

const ACCEPT_ALICE = { action: 'accept', content: { name: 'Alice' } };

describe('2026-07-28 Multi Round-Trip Requests with SDK v2 clients', () => {
  test('an elicitation round trip completes; the tool’s effect runs once', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { client, asked } = await modernClient(http.url, { elicit: () => ACCEPT_ALICE });
    expect(textOf(await client.callTool({ name: 'greet', arguments: {} }))).toBe('Hello, Alice!');
    expect(asked).toEqual(['What is your name?']);
    expect(effects.greet).toBe(1);
  });

  test('a multi-question tool: two rounds', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { client, asked } = await modernClient(http.url, {
      elicit: ({ message }) => (message.startsWith('Step 1') ? { action: 'accept', content: { name: 'Bo' } } : { action: 'accept', content: { color: 'green' } }),
    });
    expect(textOf(await client.callTool({ name: 'two_steps', arguments: {} }))).toBe('Bo likes green');
    expect(asked).toEqual(['Step 1: name?', 'Step 2: color?']);
    expect(effects.two_steps).toBe(1);
  });

  test('sampling', async () => {
    const { toolkit } = askingToolkit();
    const http = await serve(toolkit);
    const { client } = await modernClient(http.url, { sample: () => ({ role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm1', stopReason: 'endTurn' }) });
    expect(textOf(await client.callTool({ name: 'capital', arguments: {} }))).toBe('LLM: Paris (m1)');
  });

  test('an approval elicited, then approved: the call runs once', async () => {
    const { toolkit, effects, approvals } = askingToolkit();
    const http = await serve(toolkit);
    const { client, asked } = await modernClient(http.url, { elicit: () => ({ action: 'accept', content: {} }) });
    expect(textOf(await client.callTool({ name: 'pay', arguments: { n: 7 } }))).toBe('paid 1');
    expect(asked).toEqual([expect.stringContaining('Allow the assistant to run pay with {"n":7}')]);
    expect(effects.pay).toBe(1);
    expect(approvals.pending()).toEqual([]);
  });

  test('a non-idempotent tool asking mid-body is refused with an isError naming the fix; its effect never runs', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { client, asked } = await modernClient(http.url, { elicit: () => ({ action: 'accept', content: {} }) });
    const result = await client.callTool({ name: 'transfer', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cannot ask the client .* neither read-only nor idempotent.*Mark it idempotent/s);
    expect(asked).toEqual([]);
    expect(effects.transfer).toBeUndefined();
  });
});

describe('2026-07-28: a tool asking a capability the request did not declare', () => {
  test('a tool that asks anyway: JSON-RPC -32021 with HTTP 400, naming the capability; one that checks supports() falls back', async () => {
    const toolkit = new Toolkit();
    const form = { type: 'object', properties: {} } as const;
    toolkit.registerTool({ name: 'asks', description: 'asks', parameters: { type: 'object', properties: {} }, behaviour: { annotations: { readOnly: true } }, execute: async (_a, ctx) => (await ctx.client!.elicit({ message: 'q', requestedSchema: form })).action });
    toolkit.registerTool({
      name: 'checks',
      description: 'checks',
      parameters: { type: 'object', properties: {} },
      behaviour: { annotations: { readOnly: true } },
      execute: async (_a, ctx) => (ctx.client!.supports('elicitation') ? (await ctx.client!.elicit({ message: 'q', requestedSchema: form })).action : 'fallback'),
    });
    const http = await serve(toolkit);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const post = (name: string) =>
      fetch(http.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer t-alice', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {}, _meta: meta } }),
      });
    const refused = await post('asks');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ id: 7, error: { code: -32021, message: expect.stringContaining("needs the client's 'elicitation' capability"), data: { requiredCapabilities: { elicitation: {} } } } });
    const fallback = await post('checks');
    expect(fallback.status).toBe(200);
    expect(await fallback.text()).toContain('fallback');
  });
});

describe('2026-07-28 requestState: what a hostile client tries (raw POSTs)', () => {
  test('one byte flipped: -32602, the tool did not run', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { key, state } = await firstRound(http.url, 'greet');
    const at = 12;
    const forged = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
    const { error } = await rawCall(http.url, 't-alice', 'greet', {}, { requestState: forged, inputResponses: { [key]: ACCEPT_ALICE } });
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('signature does not match') });
    expect(effects.greet).toBeUndefined();
  });

  test('another principal (a second bearer token), another tool, other arguments: -32602 each', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { key, state } = await firstRound(http.url, 'greet', { n: 1 });
    const retry = { requestState: state, inputResponses: { [key]: ACCEPT_ALICE } };
    expect((await rawCall(http.url, 't-mallory', 'greet', { n: 1 }, retry)).error).toMatchObject({ code: -32602, message: expect.stringContaining('another principal') });
    expect((await rawCall(http.url, 't-alice', 'capital', { n: 1 }, retry)).error).toMatchObject({ code: -32602, message: expect.stringContaining('another tool') });
    expect((await rawCall(http.url, 't-alice', 'greet', { n: 2 }, retry)).error).toMatchObject({ code: -32602, message: expect.stringContaining('other arguments') });
    expect(effects.greet).toBeUndefined();
  });

  test('a state reused after success is refused: the tool ran once', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { key, state } = await firstRound(http.url, 'greet');
    const retry = { requestState: state, inputResponses: { [key]: ACCEPT_ALICE } };
    expect((await rawCall(http.url, 't-alice', 'greet', {}, retry)).result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Alice!' }] });
    expect((await rawCall(http.url, 't-alice', 'greet', {}, retry)).error).toMatchObject({ code: -32602, message: expect.stringContaining('used before') });
    expect(effects.greet).toBe(1);
  });

  test('answers for ids that were not asked, with and without a state, are ignored: the tool asks again and runs nothing', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { state } = await firstRound(http.url, 'greet');
    const withState = await rawCall(http.url, 't-alice', 'greet', {}, { requestState: state, inputResponses: { forged: ACCEPT_ALICE } });
    expect(withState.result).toMatchObject({ resultType: 'input_required', requestState: expect.any(String) });
    expect(withState.result?.requestState).not.toBe(state);
    const without = await rawCall(http.url, 't-alice', 'greet', {}, { inputResponses: { user_name: ACCEPT_ALICE } });
    expect(without.result).toMatchObject({ resultType: 'input_required' });
    expect(effects.greet).toBeUndefined();
  });

  test('an answer that fails the form: -32602 with the problem', async () => {
    const { toolkit, effects } = askingToolkit();
    const http = await serve(toolkit);
    const { key, state } = await firstRound(http.url, 'greet');
    const { error } = await rawCall(http.url, 't-alice', 'greet', {}, { requestState: state, inputResponses: { [key]: { action: 'accept', content: { name: 'A' } } } });
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('does not match the requested form') });
    expect(effects.greet).toBeUndefined();
  });

  test('a 1 MB state is refused for its size (the body itself is within the handler’s limit)', async () => {
    const { toolkit } = askingToolkit();
    const http = await serve(toolkit);
    const { key } = await firstRound(http.url, 'greet');
    const { error } = await rawCall(http.url, 't-alice', 'greet', {}, { requestState: `tw1.${'A'.repeat(1024 * 1024)}.x`, inputResponses: { [key]: ACCEPT_ALICE } });
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('too large') });
  });

  test('an expired state (a 1 ms requestStateTtlMs) is refused', async () => {
    const { toolkit } = askingToolkit();
    const http = await serve(toolkit, { requestStateTtlMs: 1 });
    const { key, state } = await firstRound(http.url, 'greet');
    const { error } = await rawCall(http.url, 't-alice', 'greet', {}, { requestState: state, inputResponses: { [key]: ACCEPT_ALICE } });
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('expired') });
  });

  test('two servers of one fleet (one stateSecret, one stateStore): a round started on one completes on the other; its replay on the first is refused', async () => {
    const one = askingToolkit();
    const two = askingToolkit();
    const stateStore = memoryMcpStateStore();
    const a = await serve(one.toolkit, { stateStore });
    const b = await serve(two.toolkit, { stateStore });
    const { key, state } = await firstRound(a.url, 'greet');
    const retry = { requestState: state, inputResponses: { [key]: ACCEPT_ALICE } };
    expect((await rawCall(b.url, 't-alice', 'greet', {}, retry)).result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Alice!' }] });
    expect((await rawCall(a.url, 't-alice', 'greet', {}, retry)).error).toMatchObject({ code: -32602, message: expect.stringContaining('used before') });
    expect([one.effects.greet, two.effects.greet]).toEqual([undefined, 1]);
  });

  test('a state signed by a server with another key is refused', async () => {
    const { toolkit } = askingToolkit();
    const other = await serve(askingToolkit().toolkit, { stateSecret: 'another-secret-of-at-least-32-bytes!' });
    const http = await serve(toolkit);
    const { key, state } = await firstRound(other.url, 'greet');
    expect((await rawCall(http.url, 't-alice', 'greet', {}, { requestState: state, inputResponses: { [key]: ACCEPT_ALICE } })).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('signed with another key'),
    });
  });
});
