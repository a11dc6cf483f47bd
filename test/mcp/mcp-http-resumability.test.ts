import { createServer } from 'node:http';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolEmitter, Toolkit, ToolService, type AgentTool } from '../../src';
import { createMcpHttpHandler, serveMcpHttp, type McpHttpOptions } from '../../src/mcp';
import { checkResumableSdk } from '../../src/mcp/transports/mcp-http-resumability';
import { Closer, TestClient, textOf } from '../support/mcp';
import { listen, toolsCall } from '../support/mcp-http';
import { messageOf, readSse, sessionHeaders, type SseEvent } from '../support/mcp-sse';

/**
 * Resumable Streamable HTTP streams (SEP-1699): with `resumability`, a tool lets its SSE stream go
 * mid-call (`ToolEmitter.closeStream()`), the client reconnects with `Last-Event-ID` and gets
 * exactly what it missed; without it (the default) or for a pre-2025-11-25 client nothing changes.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

/** False in the `mcp-sdk-1.29` Jest project: SDK 1.29 drops what is sent while a stream is closed. */
const sdkResumes = (() => {
  try {
    createMcpHttpHandler(new Toolkit(), { name: 'probe', version: '0', resumability: true });
    return true;
  } catch {
    return false;
  }
})();
const withResumableSdk = sdkResumes ? describe : describe.skip;

function deferred(): { promise: Promise<void>; release(): void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

/** A toolkit whose `poll` tool logs, waits, lets its stream go, waits, logs twice more and answers. */
function pollingToolkit(): { toolkit: Toolkit; logged: ReturnType<typeof deferred>; resume: ReturnType<typeof deferred>; closed: boolean[] } {
  const logged = deferred();
  const resume = deferred();
  const closed: boolean[] = [];
  @ToolService()
  class Poller {
    @Tool({ name: 'poll', description: 'Logs, lets its stream go, logs more, answers' })
    async poll(emitter: ToolEmitter): Promise<string> {
      emitter.log('info', 'step 1');
      await logged.promise;
      closed.push(emitter.closeStream());
      await resume.promise;
      emitter.log('info', 'step 2');
      emitter.log('info', 'step 3');
      return 'all done';
    }
  }
  const toolkit = new Toolkit();
  toolkit.registerTool(Poller);
  return { toolkit, logged, resume, closed };
}

const isResult = (event: SseEvent) => messageOf(event)?.result !== undefined;
const dataOf = (event: SseEvent) => messageOf(event)?.params?.data;
const OPTIONS: McpHttpOptions = { name: 'resume', version: '0', resumability: { retryIntervalMs: 100 } };

test('resumability needs SDK 1.30 or later: an older one is refused with the fix, not left to lose messages', () => {
  expect(() => checkResumableSdk('1.29.0')).toThrow(/resumability needs @modelcontextprotocol\/sdk 1\.30 or later, but 1\.29\.0 is installed.*npm install @modelcontextprotocol\/sdk@\^1\.30/);
  expect(() => checkResumableSdk('1.30.0')).not.toThrow();
  expect(() => checkResumableSdk('1.32.2')).not.toThrow();
  expect(() => checkResumableSdk(undefined)).not.toThrow();
  const make = () => createMcpHttpHandler(new Toolkit(), { name: 'x', version: '0', resumability: true });
  if (sdkResumes) expect(make).not.toThrow();
  else expect(make).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
});

withResumableSdk('resumable streams: a reconnect gets exactly what it missed', () => {
  test('priming event (id + retry), closeStream() mid-call, replay after any kept Last-Event-ID', async () => {
    const { toolkit, logged, resume, closed } = pollingToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, OPTIONS));
    const headers = await sessionHeaders(http.url);

    // the POST stream: priming, 'step 1', then the tool lets it go
    const post = await readSse(http.url, { method: 'POST', headers, body: toolsCall(2, 'poll') }, (event) => {
      if (dataOf(event) === 'step 1') logged.release();
      return false;
    });
    expect(post.ended).toBe(true);
    const [priming, step1] = post.events;
    expect(priming).toEqual({ id: expect.any(String), retry: 100, data: '' });
    expect(dataOf(step1)).toBe('step 1');
    expect(post.events).toHaveLength(2);
    expect(closed).toEqual([true]);
    resume.release();

    // the reconnect replays the rest, result last
    const replay = await readSse(http.url, { method: 'GET', headers: { ...headers, 'last-event-id': step1.id! } }, isResult);
    expect(replay.status).toBe(200);
    const replayed = replay.events.map((e) => messageOf(e));
    expect(replayed.map((m) => m?.params?.data ?? m?.method ?? m?.result)).toEqual(['step 2', 'step 3', expect.objectContaining({ content: [{ type: 'text', text: 'all done' }] })]);
    expect(replayed.at(-1)?.id).toBe(2);
    expect(replay.events.every((e) => e.id !== undefined)).toBe(true);

    // from further on: exactly the events after that one (the first replay stream must be gone first)
    const fromStep2 = async () => readSse(http.url, { method: 'GET', headers: { ...headers, 'last-event-id': replay.events[0].id! } }, isResult);
    let again = await fromStep2();
    for (let i = 0; again.status === 409 && i < 50; i++) again = await fromStep2();
    expect(again.events.map((e) => e.id)).toEqual(replay.events.slice(1).map((e) => e.id));
  });

  test('the SDK client reconnects by itself after the retry delay and gets every log message once, and the result', async () => {
    const { toolkit, logged, resume, closed } = pollingToolkit();
    const requests: { method: string; lastEventId: string | undefined }[] = [];
    const mcp = closer.add(createMcpHttpHandler(toolkit, OPTIONS));
    const url = await listen(
      createServer((req, res) => {
        const header = req.headers['last-event-id'];
        requests.push({ method: req.method ?? '', lastEventId: Array.isArray(header) ? header[0] : header });
        mcp(req, res);
      }),
      closer,
    );
    const client = closer.add(new TestClient());
    const logs: unknown[] = [];
    client.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params.data);
      if (n.params.data === 'step 1') logged.release();
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = client.call('poll');
    resume.release();
    expect(textOf(await result)).toBe('all done');
    expect(closed).toEqual([true]);
    expect(logs).toEqual(['step 1', 'step 2', 'step 3']);
    expect(requests.filter((r) => r.method === 'GET' && r.lastEventId !== undefined)).toHaveLength(1);
    expect(mcp.storedEvents.events).toBeGreaterThan(0);
  });

  test('a plain AgentTool closes its stream through ctx.client.closeStream()', async () => {
    const closed: boolean[] = [];
    const tool: AgentTool = {
      name: 'plain_poll',
      description: 'Lets its stream go, then answers',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => {
        closed.push(ctx.client?.closeStream() ?? false);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return 'plain done';
      },
    };
    const toolkit = new Toolkit();
    toolkit.registerTool(tool);
    const http = closer.add(await serveMcpHttp(toolkit, OPTIONS));
    const client = closer.add(new TestClient());
    await client.connect(new StreamableHTTPClientTransport(http.url));
    expect(textOf(await client.call('plain_poll'))).toBe('plain done');
    expect(closed).toEqual([true]);
  });
});

describe('without resumability nothing changes', () => {
  test('off by default: no event ids, closeStream() returns false, the result arrives on the POST stream', async () => {
    const { toolkit, logged, resume, closed } = pollingToolkit();
    logged.release();
    resume.release();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'plain', version: '0' }));
    const headers = await sessionHeaders(http.url);
    const answer = await readSse(http.url, { method: 'POST', headers, body: toolsCall(1, 'poll') });
    expect(answer.events.some((e) => e.id !== undefined || e.retry !== undefined)).toBe(false);
    expect(answer.events.filter(isResult)).toHaveLength(1);
    expect(closed).toEqual([false]);
    expect(http.handler.storedEvents).toEqual({ events: 0, bytes: 0 });
  });

  (sdkResumes ? test : test.skip)('a client on protocol 2025-06-18 gets no priming event and keeps its stream (it could not resume)', async () => {
    const { toolkit, logged, resume, closed } = pollingToolkit();
    logged.release();
    resume.release();
    const http = closer.add(await serveMcpHttp(toolkit, OPTIONS));
    const headers = await sessionHeaders(http.url, '2025-06-18');
    const answer = await readSse(http.url, { method: 'POST', headers, body: toolsCall(1, 'poll') });
    expect(answer.events.some((e) => e.data === '' || e.retry !== undefined)).toBe(false);
    expect(answer.events.filter(isResult)).toHaveLength(1);
    expect(closed).toEqual([false]);
  });

  test('outside MCP (a direct callTool) closeStream() is a no-op returning false', async () => {
    const { toolkit, logged, resume, closed } = pollingToolkit();
    logged.release();
    resume.release();
    const result = await toolkit.callTool({ id: 'c1', name: 'poll', arguments: {} });
    expect(result.forLLM).toBe('all done');
    expect(closed).toEqual([false]);
  });
});
