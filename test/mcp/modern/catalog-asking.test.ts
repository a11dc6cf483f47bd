import 'reflect-metadata';
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ClientRequests, Prompt, PromptArg, Resource, Tool, ToolService, Toolkit, type ElicitationSchema } from '../../../src';
import { serveMcpHttp, type McpHttpOptions, type McpHttpServer } from '../../../src/mcp';
import { Closer, eventually } from '../../support/mcp';
import { rawRequest, type RawAnswer } from '../../support/mcp-modern-raw';

/**
 * Roots requests, and prompts and resources that ask the client, on both revisions from one
 * endpoint: SDK v2 clients pinned to 2026-07-28 answer through Multi Round-Trip Requests, SDK v1
 * clients (2025-11-25) through server-to-client requests; raw POSTs do what a hostile client would.
 * Then reads, prompts and completions under `maxConcurrentCalls`.
 */

const closer = new Closer();
afterEach(() => closer.closeAll());

const SECRET_KEY = 'sk-live-prompt-preset-0123456789';
const CONTEXT_FORM: ElicitationSchema = { type: 'object', properties: { context: { type: 'string', minLength: 2 } }, required: ['context'] };

@ToolService()
class AskingCatalog {
  @Tool({ name: 'workspace', description: 'Names the client’s roots', annotations: { readOnly: true } })
  async workspace(client: ClientRequests): Promise<string> {
    const { roots } = await client.listRoots({ key: 'client_roots' });
    return `roots: ${roots.map((root) => `${root.uri}${root.name !== undefined ? ` (${root.name})` : ''}`).join(', ')}`;
  }

  @Prompt({ name: 'briefing', description: 'Asks the user for context, then renders' })
  async briefing(@PromptArg({ name: 'topic' }) topic: string, @PromptArg({ name: 'apiKey', preset: true }) apiKey: string, client: ClientRequests): Promise<string> {
    const answer = await client.elicit<{ context: string }>({ message: `Context for ${topic}? (key ${apiKey})`, requestedSchema: CONTEXT_FORM }, { key: 'user_context' });
    return `Brief on ${topic} with ${answer.action === 'accept' ? answer.content!.context : `no context (${answer.action})`}`;
  }

  @Resource({ uri: 'workspace://roots', name: 'roots', mimeType: 'text/plain' })
  async roots(client: ClientRequests): Promise<string> {
    const { roots } = await client.listRoots();
    return roots.map((root) => root.uri).join('\n');
  }
}

function askingToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registration().tool(AskingCatalog).presetParameters({ 'prompt:briefing': { apiKey: SECRET_KEY } }).apply();
  return toolkit;
}

async function serve(toolkit: Toolkit, options: Partial<McpHttpOptions> = {}): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(toolkit, { name: 'asking-catalog', version: '1', stateSecret: 'a-test-secret-of-at-least-32-bytes!!', ...options }));
}

const ROOTS = { roots: [{ uri: 'file:///home/alice/project', name: 'Project' }, { uri: 'file:///tmp' }] };

/** An SDK v2 client pinned to 2026-07-28 that answers roots and elicitation; `asked` records what it was asked. */
async function modernClient(url: URL) {
  const asked: string[] = [];
  const client = closer.add(
    new Sdk2Client({ name: 'modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { roots: {}, elicitation: {} } }),
  );
  client.setRequestHandler('roots/list', () => {
    asked.push('roots/list');
    return ROOTS as never;
  });
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { context: 'the Q3 numbers' } } as never;
  });
  await client.connect(new Sdk2Transport(url));
  expect(client.getProtocolEra()).toBe('modern');
  return { client, asked };
}

/** An SDK v1 client (2025-11-25, a protocol session) that answers roots and elicitation requests. */
async function legacyClient(url: URL) {
  const asked: string[] = [];
  const client = closer.add(new Sdk1Client({ name: 'legacy', version: '1' }, { capabilities: { roots: {}, elicitation: {} } }));
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked.push('roots/list');
    return ROOTS;
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { context: 'the Q3 numbers' } };
  });
  await client.connect(new Sdk1Transport(url));
  return { client, asked };
}

/** A raw 2026-07-28 POST declaring `capabilities` (not the tasks extension); resolves with the JSON-RPC answer. */
function raw(url: URL, method: string, params: Record<string, unknown>, capabilities: Record<string, unknown> = { roots: {}, elicitation: {} }): Promise<RawAnswer> {
  return rawRequest(url, method, params, { tasks: false, capabilities });
}

const textOf = (result: { content?: unknown }): string => {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
};

describe('roots requests', () => {
  test('2026-07-28: the tool asks roots/list as an input request; the SDK v2 client answers it and the retry completes with the roots', async () => {
    const http = await serve(askingToolkit());
    const { client, asked } = await modernClient(http.url);
    const result = await client.callTool({ name: 'workspace', arguments: {} });
    expect(textOf(result)).toBe('roots: file:///home/alice/project (Project), file:///tmp');
    expect(asked).toEqual(['roots/list']);
  });

  test('2025-11-25: the same tool sends roots/list to the SDK v1 client during the call', async () => {
    const http = await serve(askingToolkit());
    const { client, asked } = await legacyClient(http.url);
    const result = (await client.callTool({ name: 'workspace', arguments: {} })) as CallToolResult;
    expect(textOf(result)).toBe('roots: file:///home/alice/project (Project), file:///tmp');
    expect(asked).toEqual(['roots/list']);
  });

  test('hostile: a malformed roots answer is -32602 and the tool does not complete; no roots capability is -32021', async () => {
    const http = await serve(askingToolkit());
    const first = await raw(http.url, 'tools/call', { name: 'workspace', arguments: {} });
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { client_roots: { method: 'roots/list' } } });
    const state = first.result!.requestState;
    const forged = await raw(http.url, 'tools/call', { name: 'workspace', arguments: {}, requestState: state, inputResponses: { client_roots: { roots: [{ uri: 42 }] } } });
    expect(forged.error).toMatchObject({ code: -32602, message: expect.stringMatching(/client_roots.*not a valid roots result/s) });
    expect(forged.error!.message.length).toBeLessThan(2_000);
    const undeclared = await raw(http.url, 'tools/call', { name: 'workspace', arguments: {} }, { elicitation: {} });
    expect(undeclared.error).toMatchObject({ code: -32021, message: expect.stringMatching(/'roots' capability/) });
  });

  test('hostile: a roots answer keeps only uri and name; the client’s extra fields never reach the tool', async () => {
    const http = await serve(askingToolkit());
    const first = await raw(http.url, 'resources/read', { uri: 'workspace://roots' });
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    const [key] = Object.keys(first.result!.inputRequests as object);
    const answer = { roots: [{ uri: 'file:///a', name: 'A', _meta: { evil: true }, secret: 'x'.repeat(10) }] };
    const done = await raw(http.url, 'resources/read', { uri: 'workspace://roots', requestState: first.result!.requestState, inputResponses: { [key]: answer } });
    expect(done.result).toMatchObject({ contents: [{ uri: 'workspace://roots', text: 'file:///a' }] });
  });
});

describe('prompts and resources that ask the client', () => {
  test('2026-07-28: prompts/get answers input_required, the SDK v2 client answers, the retry renders; the preset never reaches the client', async () => {
    const http = await serve(askingToolkit());
    const { client, asked } = await modernClient(http.url);
    const prompt = await client.getPrompt({ name: 'briefing', arguments: { topic: 'sales' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Brief on sales with the Q3 numbers' } }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^Context for sales\? \(key /);
    expect(asked[0]).not.toContain(SECRET_KEY);
    const read = await client.readResource({ uri: 'workspace://roots' });
    expect(read.contents).toEqual([expect.objectContaining({ uri: 'workspace://roots', text: 'file:///home/alice/project\nfile:///tmp' })]);
  });

  test('2025-11-25: the same prompt and resource ask the SDK v1 client with server-to-client requests', async () => {
    const http = await serve(askingToolkit());
    const { client, asked } = await legacyClient(http.url);
    const prompt = await client.getPrompt({ name: 'briefing', arguments: { topic: 'sales' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Brief on sales with the Q3 numbers' } }]);
    const read = await client.readResource({ uri: 'workspace://roots' });
    expect(read.contents).toEqual([expect.objectContaining({ text: 'file:///home/alice/project\nfile:///tmp' })]);
    expect(asked).toEqual([expect.stringMatching(/^Context for sales/), 'roots/list']);
    expect(asked.join()).not.toContain(SECRET_KEY);
  });

  test('hostile: a prompt’s state does not answer other arguments or another prompt; an answer that fails the form is -32602; no elicitation is -32021', async () => {
    const http = await serve(askingToolkit());
    const first = await raw(http.url, 'prompts/get', { name: 'briefing', arguments: { topic: 'sales' } });
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_context: { method: 'elicitation/create' } } });
    expect(JSON.stringify(first.result)).not.toContain(SECRET_KEY);
    const { requestState } = first.result!;
    const accepted = { user_context: { action: 'accept', content: { context: 'ok then' } } };
    const other = await raw(http.url, 'prompts/get', { name: 'briefing', arguments: { topic: 'salaries' }, requestState, inputResponses: accepted });
    expect(other.error).toMatchObject({ code: -32602, message: expect.stringMatching(/issued for other arguments/) });
    const foreign = await raw(http.url, 'tools/call', { name: 'workspace', arguments: { topic: 'sales' }, requestState, inputResponses: accepted });
    expect(foreign.error).toMatchObject({ code: -32602, message: expect.stringMatching(/issued for another tool/) });
    const short = await raw(http.url, 'prompts/get', { name: 'briefing', arguments: { topic: 'sales' }, requestState, inputResponses: { user_context: { action: 'accept', content: { context: 'x' } } } });
    expect(short.error).toMatchObject({ code: -32602, message: expect.stringMatching(/does not match the requested form/) });
    const undeclared = await raw(http.url, 'prompts/get', { name: 'briefing', arguments: { topic: 'sales' } }, { roots: {} });
    expect(undeclared.error).toMatchObject({ code: -32021, message: expect.stringMatching(/Prompt 'briefing'.*'elicitation' capability/) });
    expect(undeclared.error!.message).not.toContain(SECRET_KEY);
  });
});

@ToolService()
class SlowCatalog {
  static gate: Promise<void> = Promise.resolve();
  static started = 0;

  @Resource({ uri: 'slow://doc', name: 'doc' })
  async doc(): Promise<string> {
    SlowCatalog.started++;
    await SlowCatalog.gate;
    return 'the doc';
  }

  @Prompt({ name: 'quick', description: 'Renders at once' })
  quick(@PromptArg({ name: 'word', complete: (value) => ['alpha', 'beta'].filter((v) => v.startsWith(value)) }) word: string): string {
    return `word: ${word}`;
  }
}

describe('reads, prompts and completions count against maxConcurrentCalls', () => {
  function slowToolkit(): { toolkit: Toolkit; release: () => void } {
    let release!: () => void;
    SlowCatalog.gate = new Promise((resolve) => (release = resolve));
    SlowCatalog.started = 0;
    const toolkit = new Toolkit();
    toolkit.registerTool(SlowCatalog);
    toolkit.registerTool({ name: 'echo', description: 'Echo', parameters: { type: 'object', properties: {} }, execute: () => 'echo' });
    return { toolkit, release };
  }

  test('2026-07-28: a flood of slow reads holds at most the bound; the rest (and prompts, completions, calls) are refused at once; lists still answer; freed slots serve again', async () => {
    const { toolkit, release } = slowToolkit();
    const http = await serve(toolkit, { maxConcurrentCalls: 3 });
    let settled = 0;
    const flood = Array.from({ length: 20 }, () => raw(http.url, 'resources/read', { uri: 'slow://doc' }).finally(() => settled++));
    await eventually(() => SlowCatalog.started === 3 && settled === 17, 20_000);
    const busyPrompt = await raw(http.url, 'prompts/get', { name: 'quick', arguments: { word: 'a' } });
    expect(busyPrompt.error).toMatchObject({ code: -32603, message: expect.stringMatching(/Too many requests at once: 3 requests .* prompts\/get of 'quick' did not run/), data: { reason: 'busy' } });
    const busyCompletion = await raw(http.url, 'completion/complete', { ref: { type: 'ref/prompt', name: 'quick' }, argument: { name: 'word', value: 'a' } });
    expect(busyCompletion.error).toMatchObject({ code: -32603, data: { reason: 'busy' } });
    const busyCall = await raw(http.url, 'tools/call', { name: 'echo', arguments: {} });
    expect(busyCall.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Too many tool calls at once/) }] });
    const list = await raw(http.url, 'tools/list', {});
    expect(list.result).toMatchObject({ tools: [expect.objectContaining({ name: 'echo' })] });
    expect(SlowCatalog.started).toBe(3);
    release();
    const answers = await Promise.all(flood);
    const ok = answers.filter((a) => a.result !== undefined);
    const busy = answers.filter((a) => a.error?.code === -32603);
    expect(ok).toHaveLength(3);
    expect(busy).toHaveLength(17);
    expect(busy[0].error!.message).toMatch(/resources\/read of 'slow:\/\/doc' did not run/);
    expect((await raw(http.url, 'resources/read', { uri: 'slow://doc' })).result).toMatchObject({ contents: [{ text: 'the doc' }] });
    expect((await raw(http.url, 'prompts/get', { name: 'quick', arguments: { word: 'b' } })).result).toMatchObject({ messages: [{ content: { text: 'word: b' } }] });
  });

  test('2025-11-25: one session’s slow reads hold its slots; its prompt and completion are refused with the documented error; another session is served', async () => {
    const { toolkit, release } = slowToolkit();
    const http = await serve(toolkit, { maxConcurrentCalls: 2 });
    const mallory = closer.add(new Sdk1Client({ name: 'mallory', version: '1' }));
    await mallory.connect(new Sdk1Transport(http.url));
    let settled = 0;
    const flood = Array.from({ length: 6 }, () =>
      mallory.readResource({ uri: 'slow://doc' }).then(
        () => 'ok',
        (error: { code?: number; data?: unknown }) => (settled++, error),
      ),
    );
    await eventually(() => SlowCatalog.started === 2 && settled === 4, 20_000);
    await expect(mallory.getPrompt({ name: 'quick', arguments: { word: 'a' } })).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/Too many requests at once: 2 requests/), data: { reason: 'busy', maxConcurrentCalls: 2 } });
    await expect(mallory.complete({ ref: { type: 'ref/prompt', name: 'quick' }, argument: { name: 'word', value: 'a' } })).rejects.toMatchObject({ code: -32603 });
    expect(await mallory.listTools()).toMatchObject({ tools: [expect.objectContaining({ name: 'echo' })] });
    const alice = closer.add(new Sdk1Client({ name: 'alice', version: '1' }));
    await alice.connect(new Sdk1Transport(http.url));
    expect(await alice.getPrompt({ name: 'quick', arguments: { word: 'a' } })).toMatchObject({ messages: [{ content: { text: 'word: a' } }] });
    release();
    const outcomes = await Promise.all(flood);
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(2);
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(Array.from({ length: 4 }, () => expect.objectContaining({ code: -32603 })));
    expect(SlowCatalog.started).toBe(2);
    expect(await mallory.readResource({ uri: 'slow://doc' })).toMatchObject({ contents: [{ text: 'the doc' }] });
  });
});
