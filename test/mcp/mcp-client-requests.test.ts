import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientRequests, Tool, ToolParam, ToolService, Toolkit, type ClientRequestHandler, type ElicitationSchema } from '../../src';
import { createMcpServer, serveMcpHttp } from '../../src/mcp';
import { recordEvents } from '../support/events';
import { Closer, eventually, textOf } from '../support/mcp';
import { AskingClient, HostileClient, connectAsking } from '../support/mcp-asking';
import { POST_HEADERS, post, rawSession, toolsCall } from '../support/mcp-http';

const closer = new Closer();
afterEach(() => closer.closeAll());

const SECRET = 'sk-"live"\\ünï/2024-ABCDEFGH';

/** The conformance suite's `test_elicitation` form. */
const USER_FORM: ElicitationSchema = {
  type: 'object',
  properties: { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } },
  required: ['username', 'email'],
};

/** Every kind of field MCP allows (SEP-1034 defaults, SEP-1330 enums), with constraints. */
const EVERY_FIELD: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe', minLength: 2 },
    age: { type: 'integer', default: 30, minimum: 18 },
    score: { type: 'number', default: 95.5, maximum: 100 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    titled: { type: 'string', oneOf: [{ const: 'value1', title: 'First Option' }, { const: 'value2', title: 'Second Option' }] },
    legacy: { type: 'string', enum: ['opt1', 'opt2'], enumNames: ['Option One', 'Option Two'] },
    verified: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    titledTags: { type: 'array', items: { anyOf: [{ const: 'x', title: 'Ex' }, { const: 'y', title: 'Why' }] } },
    email: { type: 'string', format: 'email' },
  },
  required: ['name', 'age'],
};

class Probe {
  settled: string[] = [];
}

@ToolService()
class AskingService {
  constructor(private readonly probe: Probe) {}

  /** The conformance suite's `test_sampling`. */
  @Tool({ description: 'Asks the client’s model' })
  async testSampling(@ToolParam({ name: 'prompt' }) prompt: string, client: ClientRequests): Promise<string> {
    const reply = await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    return `LLM response: ${reply.content.type === 'text' ? reply.content.text : `[${reply.content.type}]`} (${reply.model}, ${reply.stopReason ?? '-'})`;
  }

  /** The conformance suite's `test_elicitation`. */
  @Tool({ description: 'Asks the client’s user' })
  async testElicitation(@ToolParam({ name: 'message' }) message: string, client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ username: string; email: string }>({ message, requestedSchema: USER_FORM });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({ description: 'Asks for every kind of field' })
  async everyField(client: ClientRequests): Promise<string> {
    const answer = await client.elicit({ message: 'Fill everything', requestedSchema: EVERY_FIELD });
    return JSON.stringify(answer);
  }

  @Tool({ description: 'Summarises with the client’s model when it can' })
  async summarise(@ToolParam({ name: 'text' }) text: string, client: ClientRequests): Promise<string> {
    if (!client.supports('sampling')) return `fallback: ${text.slice(0, 12)}`;
    const reply = await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 20 });
    return reply.content.type === 'text' ? reply.content.text : '';
  }

  @Tool({ description: 'Puts its secret in what it asks' })
  async leakyAsk(@ToolParam({ name: 'apiKey', preset: true }) apiKey: string, client: ClientRequests): Promise<string> {
    await client.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: `use key ${apiKey}` } }], maxTokens: 5, systemPrompt: apiKey });
    const answer = await client.elicit({ message: `Confirm ${JSON.stringify({ apiKey })}`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: apiKey } } } });
    return answer.action;
  }

  @Tool({ description: 'Asks the user and waits', timeoutMs: 300 })
  async slowQuestion(client: ClientRequests): Promise<string> {
    try {
      return (await client.elicit({ message: 'Take your time', requestedSchema: { type: 'object', properties: {} } })).action;
    } catch (error) {
      this.probe.settled.push(error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  @Tool({ description: 'Asks with its own timeout' })
  async impatient(@ToolParam({ name: 'ms', integer: true }) ms: number, client: ClientRequests): Promise<string> {
    return (await client.elicit({ message: 'Quick!', requestedSchema: { type: 'object', properties: {} } }, { timeoutMs: ms })).action;
  }

  @Tool({ description: 'Sends requests MCP cannot carry' })
  async badRequests(@ToolParam({ name: 'which' }) which: string, client: ClientRequests): Promise<string> {
    if (which === 'nested') {
      await client.elicit({ message: 'x', requestedSchema: { type: 'object', properties: { address: { type: 'object' } as never } } });
    } else await client.createMessage({ messages: [], maxTokens: 0 });
    return 'unreachable';
  }
}

function askingToolkit(options: ConstructorParameters<typeof Toolkit>[0] = {}): { toolkit: Toolkit; probe: Probe } {
  const toolkit = new Toolkit(options);
  const probe = new Probe();
  toolkit.registration().tool(new AskingService(probe)).presetParameters({ leaky_ask: { apiKey: SECRET } }).apply();
  return { toolkit, probe };
}

const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'This is a test response from the client' }, model: 'test-model', stopReason: 'endTurn' };

describe('sampling and elicitation over MCP (in memory)', () => {
  test('the conformance expectations of test_sampling: the request the client gets, the answer the tool gets', async () => {
    const { client } = await connectAsking(askingToolkit().toolkit, closer, new AskingClient({ sampling: {} }, { sample: () => SAMPLED }));
    const result = await client.call('test_sampling', { prompt: 'Test prompt for sampling' });
    expect(textOf(result)).toBe('LLM response: This is a test response from the client (test-model, endTurn)');
    expect(client.sampled).toEqual([{ messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt for sampling' } }], maxTokens: 100 }]);
  });

  test('the conformance expectations of test_elicitation: accept, decline and cancel; only the fields asked for reach the tool', async () => {
    const answers = [
      { action: 'accept', content: { username: 'testuser', email: 'test@example.com', admin: true } },
      { action: 'decline' },
      { action: 'cancel' },
    ];
    const { client } = await connectAsking(askingToolkit().toolkit, closer, new AskingClient({ elicitation: {} }, { elicit: () => answers.shift() }));
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push(textOf(await client.call('test_elicitation', { message: 'Please provide your information' })));
    expect(texts).toEqual([
      'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
      'User response: action=decline, content={}',
      'User response: action=cancel, content={}',
    ]);
    expect(client.elicited[0]).toEqual({ message: 'Please provide your information', requestedSchema: USER_FORM });
  });

  test('every kind of field (SEP-1034 defaults, SEP-1330 enums) reaches the client as written, and valid answers reach the tool', async () => {
    const content = { name: 'Jane Smith', age: 25, score: 88, status: 'inactive', titled: 'value2', legacy: 'opt1', verified: false, tags: ['a', 'c'], titledTags: ['y'], email: 'j@example.com' };
    const { client } = await connectAsking(askingToolkit().toolkit, closer, new AskingClient({ elicitation: {} }, { elicit: () => ({ action: 'accept', content }) }));
    expect(JSON.parse(textOf(await client.call('every_field')))).toEqual({ action: 'accept', content });
    expect(client.elicited[0]).toMatchObject({ requestedSchema: EVERY_FIELD });
  });

  test('adversarial: content that does not match the form is refused field by field; the tool gets CLIENT_REQUEST_FAILED and the server goes on', async () => {
    const bad = [
      { action: 'accept', content: { username: 5 } },
      { action: 'accept', content: { name: 'J', age: 12.5, score: 101, status: 'gone', tags: ['a', 'b', 'z'], email: 'not-an-email', verified: 'yes' } },
      { action: 'accept' },
    ];
    const toolkit = askingToolkit().toolkit;
    const recording = recordEvents(toolkit);
    const { client } = await connectAsking(toolkit, closer, new AskingClient({ elicitation: {} }, { elicit: () => bad.shift() }));
    const first = await client.call('test_elicitation', { message: 'm' });
    expect(first.isError).toBe(true);
    expect(textOf(first)).toContain("Tool 'test_elicitation' asked the MCP client 'asking-client' for elicitation (elicitation/create) and got no usable answer: the user's answer does not match the requested form:");
    expect(textOf(first)).toMatch(/username.*string/);
    expect(textOf(first)).toMatch(/email/);
    const second = textOf(await client.call('every_field'));
    for (const field of ['name', 'age', 'score', 'status', 'tags', 'email', 'verified']) expect(second).toContain(field);
    expect(second.length).toBeLessThan(3_000);
    expect(textOf(await client.call('every_field'))).toContain("- 'name': is required but missing\n- 'age': is required but missing");
    expect(recording.of('call_failed').map((e) => e.error.code)).toEqual(['CLIENT_REQUEST_FAILED', 'CLIENT_REQUEST_FAILED', 'CLIENT_REQUEST_FAILED']);
    recording.stop();
  });

  test('a client without the capability: CLIENT_CAPABILITY_MISSING names it; supports() lets a tool fall back', async () => {
    const toolkit = askingToolkit().toolkit;
    const recording = recordEvents(toolkit);
    const { client } = await connectAsking(toolkit, closer, new AskingClient({}));
    const sampled = await client.call('test_sampling', { prompt: 'p' });
    expect(sampled.isError).toBe(true);
    expect(textOf(sampled)).toBe(
      "Tool 'test_sampling' asked the MCP client 'asking-client' for sampling (sampling/createMessage), but it did not declare the 'sampling' capability. " +
        "Check client.supports('sampling') first and fall back when it is false.",
    );
    expect(textOf(await client.call('test_elicitation', { message: 'm' }))).toContain("did not declare the 'elicitation' capability");
    expect(textOf(await client.call('summarise', { text: 'a long text to summarise' }))).toBe('fallback: a long text ');
    expect(recording.of('call_failed').map((e) => e.error.code)).toEqual(['CLIENT_CAPABILITY_MISSING', 'CLIENT_CAPABILITY_MISSING']);
    recording.stop();
  });

  test('requests MCP cannot carry are the tool’s INVALID_OPTIONS error, sent nowhere', async () => {
    const { client } = await connectAsking(askingToolkit().toolkit, closer, new AskingClient({ sampling: {}, elicitation: {} }));
    expect(textOf(await client.call('bad_requests', { which: 'nested' }))).toContain("field 'address' must be a flat field");
    expect(textOf(await client.call('bad_requests', { which: 'empty' }))).toContain('messages must be a non-empty array');
    expect(client.sampled).toHaveLength(0);
    expect(client.elicited).toHaveLength(0);
  });

  test('secrets: what a tool sends the client is redacted of its preset values (prompt, system prompt, message, form)', async () => {
    const { client } = await connectAsking(
      askingToolkit().toolkit,
      closer,
      new AskingClient({ sampling: {}, elicitation: {} }, { sample: () => SAMPLED, elicit: () => ({ action: 'accept', content: {} }) }),
    );
    expect(textOf(await client.call('leaky_ask'))).toBe('accept');
    const sent = JSON.stringify([client.sampled, client.elicited]);
    expect(sent).not.toContain('ABCDEFGH');
    expect(client.sampled[0]).toMatchObject({ systemPrompt: '[REDACTED]', messages: [{ content: { text: 'use key [REDACTED]' } }] });
    expect(client.elicited[0]).toMatchObject({ message: 'Confirm {"apiKey":"[REDACTED]"}', requestedSchema: { properties: { ok: { title: '[REDACTED]' } } } });
  });

  test('cancellation: the client cancelling the call cancels the pending elicitation; the tool’s request rejects', async () => {
    const { toolkit, probe } = askingToolkit();
    let cancelled = 0;
    const asking = new AskingClient(
      { elicitation: {} },
      {
        elicit: (request, extra) =>
          request.params.message === 'Take your time'
            ? new Promise((resolve) => extra.signal.addEventListener('abort', () => (cancelled++, resolve({ action: 'cancel' }))))
            : { action: 'accept', content: { username: 'u', email: 'e@x.io' } },
      },
    );
    const { client } = await connectAsking(toolkit, closer, asking);
    // the SDK client ignores the cancellation of a request whose id is 0 (a falsy check): the server's first request is answered
    await client.call('test_elicitation', { message: 'first' });
    const controller = new AbortController();
    const call = client.call('slow_question', {}, controller.signal).catch((error: unknown) => error);
    await eventually(() => client.elicited.length === 2);
    controller.abort(new Error('user pressed stop'));
    expect(String(await call)).toContain('user pressed stop');
    await eventually(() => cancelled === 1 && probe.settled.length === 1);
    expect(probe.settled[0]).toContain('user pressed stop');
  });

  test('timeouts bound the request: the call’s timeout, the tool’s own timeoutMs, the server’s clientRequestTimeoutMs', async () => {
    const { toolkit, probe } = askingToolkit();
    const recording = recordEvents(toolkit);
    const never = () => new AskingClient({ elicitation: {} }, { elicit: (_request, extra) => new Promise((resolve) => extra.signal.addEventListener('abort', () => resolve({ action: 'cancel' }))) });
    const patient = (await connectAsking(toolkit, closer, never())).client;
    const timedOut = await patient.call('slow_question');
    expect(textOf(timedOut)).toContain("Tool 'slow_question' timed out after 300 ms");
    await eventually(() => probe.settled.length === 1);
    expect(textOf(await patient.call('impatient', { ms: 50 }))).toMatch(/got no usable answer: MCP error -32001: Request timed out$/);

    const strict = (await connectAsking(toolkit, closer, never(), { clientRequestTimeoutMs: 100 })).client;
    expect(textOf(await strict.call('test_elicitation', { message: 'm' }))).toMatch(/got no usable answer: MCP error -32001: Request timed out$/);
    expect(recording.of('call_timed_out')).toHaveLength(1);
    expect(recording.of('call_failed').map((e) => e.error.code)).toEqual(['CLIENT_REQUEST_FAILED', 'CLIENT_REQUEST_FAILED']);
    recording.stop();
  });
});

describe('a hostile client (raw JSON-RPC)', () => {
  const malformedSamples: unknown[] = [
    { role: 'assistant', content: { type: 'text' }, model: 'm' },
    { role: 'system', content: { type: 'text', text: 'x' }, model: 'm' },
    { role: 'assistant', content: { type: 'video', data: 'x' }, model: 'm' },
    { role: 'assistant', content: { type: 'text', text: 'x' } },
    { role: 'assistant', content: [{ type: 'text', text: 'x' }], model: 'm' },
    { role: 'assistant', content: { type: 'image', data: 42, mimeType: 'image/png' }, model: 'm' },
  ];

  test('malformed sampling results: each call gets a clear, bounded error; answers that are no result time out; the connection keeps working', async () => {
    const toolkit = askingToolkit().toolkit;
    const recording = recordEvents(toolkit);
    const answers = [...malformedSamples, null, 'a string'];
    const mcp = closer.add(createMcpServer(toolkit, { name: 't', version: '1', clientRequestTimeoutMs: 300 }));
    const hostile = closer.add(await HostileClient.connect(mcp, { sampling: {} }, () => ({ result: answers.shift() })));
    const texts: string[] = [];
    for (let i = 0; i < malformedSamples.length + 2; i++) {
      const answer = await hostile.request('tools/call', { name: 'test_sampling', arguments: { prompt: 'p' } });
      const result = answer.result as { isError: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      texts.push(result.content[0].text);
    }
    for (const text of texts.slice(0, malformedSamples.length)) {
      expect(text).toContain("asked the MCP client 'hostile' for sampling (sampling/createMessage) and got no usable answer: the client's answer is not a valid sampling result:");
      expect(text.length).toBeLessThan(1_500);
    }
    // `result: null` or a string is no JSON-RPC response at all: the SDK drops it, the timeout ends the wait
    for (const text of texts.slice(malformedSamples.length)) expect(text).toMatch(/Request timed out$/);
    expect(recording.of('call_failed')).toHaveLength(malformedSamples.length + 2);
    recording.stop();
    const ping = await hostile.request('ping', {});
    expect(ping.result).toEqual({});
  });

  test('malformed elicitation results, error answers of any size and requests never answered stay bounded', async () => {
    const toolkit = askingToolkit().toolkit;
    const answers: (Record<string, unknown> | undefined)[] = [
      { result: { action: 'maybe' } },
      { result: { action: 'accept', content: [1, 2] } },
      { result: { action: 'accept', content: { username: { nested: true }, email: 'e@x.io' } } },
      { result: { action: 'accept', content: JSON.parse('{"__proto__":{"polluted":true},"username":"u","email":"e@x.io"}') } },
      { error: { code: -32000, message: 'E'.repeat(1_000_000) } },
      undefined,
    ];
    const mcp = closer.add(createMcpServer(toolkit, { name: 't', version: '1', clientRequestTimeoutMs: 200 }));
    const hostile = closer.add(await HostileClient.connect(mcp, { elicitation: {} }, () => answers.shift()));
    const texts: string[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await hostile.request('tools/call', { name: 'test_elicitation', arguments: { message: 'm' } });
      texts.push((answer.result as { content: { text: string }[] }).content[0].text);
    }
    expect(texts[0]).toContain("the client's answer is not a valid elicitation result:");
    expect(texts[1]).toContain("the client's answer is not a valid elicitation result:");
    expect(texts[2]).toContain("the client's answer is not a valid elicitation result:");
    // a __proto__ key is a plain field name: the answer carries only the fields asked for
    expect(texts[3]).toBe('User response: action=accept, content={"username":"u","email":"e@x.io"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(texts[4]).toContain('got no usable answer: MCP error -32000: EEEE');
    expect(texts[4].length).toBeLessThan(2_500);
    expect(texts[5]).toContain('Request timed out');
  });
});

describe('outside MCP', () => {
  test('toolkit.callTool: CLIENT_UNAVAILABLE says why and how to fix it; supports() is false', async () => {
    const { toolkit } = askingToolkit();
    const result = await toolkit.callTool({ id: 'c1', name: 'test_sampling', arguments: { prompt: 'p' } });
    expect(result.error?.code).toBe('CLIENT_UNAVAILABLE');
    expect(result.forLLM).toContain("Tool 'test_sampling' asked the client for sampling (sampling/createMessage), but this call has no client to ask");
    expect(result.forLLM).toContain('new Toolkit({ clientRequests })');
    expect((await toolkit.callTool({ id: 'c2', name: 'summarise', arguments: { text: 'abc' } })).forLLM).toBe('fallback: abc');
  });

  test('an application’s own handler (Toolkit clientRequests) answers for the agent loop, adapters and direct calls; a call’s own client wins', async () => {
    const seen: string[] = [];
    const handler: ClientRequestHandler = {
      description: 'the console',
      supports: () => true,
      createMessage: async (request) => (seen.push('sample'), { role: 'assistant', content: { type: 'text', text: `echo ${request.messages.length}` }, model: 'local' }),
      elicit: async () => (seen.push('elicit'), { action: 'decline' }),
    };
    const { toolkit } = askingToolkit({ clientRequests: handler });
    expect((await toolkit.callTool({ id: 'c1', name: 'test_sampling', arguments: { prompt: 'p' } })).forLLM).toBe('LLM response: echo 1 (local, -)');
    expect((await toolkit.callTool({ id: 'c2', name: 'test_elicitation', arguments: { message: 'm' } })).forLLM).toBe('User response: action=decline, content={}');
    const own: ClientRequestHandler = { ...handler, supports: () => false };
    expect((await toolkit.callTool({ id: 'c3', name: 'summarise', arguments: { text: 'abc' } }, { client: own })).forLLM).toBe('fallback: abc');
    expect(seen).toEqual(['sample', 'elicit']);
  });

  test('plain AgentTools ask through ctx.client; a handler that throws is CLIENT_REQUEST_FAILED with its message', async () => {
    const toolkit = new Toolkit({
      clientRequests: { supports: () => true, createMessage: () => Promise.reject(new Error('model offline')), elicit: () => Promise.reject(new Error('nobody home')) },
    });
    toolkit.registerTool({
      name: 'plain',
      description: 'Asks through its context',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => (await ctx.client!.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } })).action,
    });
    const result = await toolkit.callTool({ id: 'p1', name: 'plain', arguments: {} });
    expect(result.error?.code).toBe('CLIENT_REQUEST_FAILED');
    expect(result.forLLM).toBe("Tool 'plain' asked the client for elicitation (elicitation/create) and got no usable answer: nobody home");
  });
});

/** POSTs `body` and reads its SSE stream event by event, answering the server's requests with `answer` on a second POST. */
function streamCall(url: URL, headers: Record<string, string>, body: string, answer: (request: { id: number; method: string }) => unknown): Promise<{ method?: string; id?: number; result?: unknown }[]> {
  return new Promise((resolve, reject) => {
    const seen: { method?: string; id?: number; result?: unknown }[] = [];
    const req = httpRequest(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers } }, (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const message = JSON.parse(data.slice(6)) as { method?: string; id?: number; result?: unknown };
          seen.push(message);
          if (message.method !== undefined && message.id !== undefined) {
            void post(url, JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answer(message as { id: number; method: string }) }), headers);
          }
        }
      });
      res.on('end', () => resolve(seen));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('sampling and elicitation over Streamable HTTP', () => {
  test('the server’s request travels on the stream of the call that made it, and the answer comes back on a POST', async () => {
    const http = closer.add(await serveMcpHttp(askingToolkit().toolkit, { name: 't', version: '1', port: 0 }));
    const capabilities = { sampling: {}, elicitation: {} };
    const init = await post(
      http.url,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities, clientInfo: { name: 'raw', version: '1' } } }),
    );
    const headers = { 'mcp-session-id': init.sessionId!, 'mcp-protocol-version': '2025-06-18' };
    await post(http.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), headers);
    const messages = await streamCall(http.url, headers, toolsCall(7, 'test_elicitation', { message: 'who?' }), () => ({ action: 'accept', content: { username: 'u', email: 'e@x.io' } }));
    expect(messages.map((m) => m.method ?? `result ${m.id}`)).toEqual(['elicitation/create', 'result 7']);
    expect(messages[1].result).toEqual({ content: [{ type: 'text', text: 'User response: action=accept, content={"username":"u","email":"e@x.io"}' }] });
    expect(await rawSession(http.url)).toEqual(expect.any(String));
  });

  test('with the official SDK client', async () => {
    const http = closer.add(await serveMcpHttp(askingToolkit().toolkit, { name: 't', version: '1', port: 0 }));
    const client = new AskingClient({ sampling: {}, elicitation: {} }, { sample: () => SAMPLED, elicit: () => ({ action: 'accept', content: { username: 'u', email: 'e@x.io' } }) });
    closer.add(client);
    await client.connect(new StreamableHTTPClientTransport(http.url));
    expect(textOf(await client.call('test_sampling', { prompt: 'p' }))).toBe('LLM response: This is a test response from the client (test-model, endTurn)');
    expect(textOf(await client.call('test_elicitation', { message: 'm' }))).toBe('User response: action=accept, content={"username":"u","email":"e@x.io"}');
  });
});
