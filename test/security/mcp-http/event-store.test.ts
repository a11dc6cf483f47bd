import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolEmitter, Toolkit, ToolkitError, ToolParam, ToolService } from '../../../src';
import { createMcpHttpHandler, serveMcpHttp, type McpHttpOptions } from '../../../src/mcp';
import { McpEventStores } from '../../../src/mcp/transports/mcp-event-store';
import { Closer, eventually } from '../../support/mcp';
import { post, sdkClient, toolsCall } from '../../support/mcp-http';
import { messageOf, readSse, sessionHeaders, type SseEvent } from '../../support/mcp-sse';

/**
 * The event store of resumable streams is reachable by every client: a `Last-Event-ID` of another
 * session (or forged) replays nothing and gets a clear 400; a flood of events stays under the
 * per-session and overall bounds (the oldest go; a reconnect after an evicted id is refused, never
 * given a replay with a gap); a closed session's events are released; preset values never reach it.
 */
const closer = new Closer();
afterEach(() => {
  // a test that failed before its results were stored leaves its watch on the store
  jest.restoreAllMocks();
  return closer.closeAll();
});

const SECRET = 'sk-live-9f8e7d6c5b4a';

/** Released by a test once its client read the last of `chatty`'s paced messages. */
let allRead: { promise: Promise<void>; release(): void } | undefined;
function expectAllRead(): void {
  let release!: () => void;
  allRead = { promise: new Promise<void>((resolve) => (release = resolve)), release: () => release() };
}

/**
 * `chatty` logs `count` messages of `size` characters on its live stream, then lets it go and
 * answers; `paced`: 1 ms apart, and it lets the stream go once the test read them all ({@link allRead}).
 */
@ToolService()
class Chatty {
  @Tool({ name: 'chatty', description: 'Logs a lot, then lets its stream go' })
  async chatty(
    @ToolParam({ name: 'count' }) count: number,
    @ToolParam({ name: 'size' }) size: number,
    @ToolParam({ name: 'paced', required: false, type: () => Boolean }) paced: boolean | undefined,
    emitter: ToolEmitter,
  ): Promise<string> {
    for (let i = 0; i < count; i++) {
      emitter.log('info', `${i}:${'x'.repeat(size)}`);
      if (paced) await new Promise((resolve) => setTimeout(resolve, 1));
      else if (i % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
    }
    await (paced ? allRead?.promise : new Promise((resolve) => setTimeout(resolve, 20)));
    emitter.closeStream();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return `logged ${count}`;
  }

  @Tool({ name: 'big', description: 'Lets its stream go, then answers with `size` characters' })
  async big(@ToolParam({ name: 'size' }) size: number, emitter: ToolEmitter): Promise<string> {
    emitter.closeStream();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return 'y'.repeat(size);
  }

  @Tool({ name: 'leaky', description: 'Logs and returns its API key (which redaction removes)' })
  async leaky(@ToolParam({ name: 'apiKey' }) apiKey: string, emitter: ToolEmitter): Promise<string> {
    emitter.log('info', `using ${apiKey}`);
    emitter.emit({ progress: 1, total: 2, message: `key ${apiKey}` });
    emitter.closeStream();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return `done with ${apiKey}`;
  }
}

function toolkit(): Toolkit {
  const kit = new Toolkit();
  kit.registration().tool(Chatty).presetParameters({ leaky: { apiKey: SECRET } }).apply();
  return kit;
}

/**
 * Resolves once the built-in store has been handed the result of each request id in `ids` (kept
 * or refused as too large: either way the store's state is final for it). It watches the real
 * store's `add`, which still stores every event.
 */
function resultsStored(...ids: number[]): Promise<void> {
  const pending = new Set(ids);
  const add = McpEventStores.prototype.add;
  let done!: () => void;
  const stored = new Promise<void>((resolve) => (done = resolve));
  const spy = jest.spyOn(McpEventStores.prototype, 'add').mockImplementation(function (this: McpEventStores, session, streamId, message) {
    const id = add.call(this, session, streamId, message);
    if ('result' in message && pending.delete(message.id as number) && pending.size === 0) done();
    return id;
  });
  return stored.finally(() => spy.mockRestore());
}

const isResult = (event: SseEvent) => messageOf(event)?.result !== undefined;
const getFrom = (url: URL, headers: Record<string, string>, lastEventId: string) =>
  readSse(url, { method: 'GET', headers: { ...headers, 'last-event-id': lastEventId } }, isResult);

async function serve(options: Partial<McpHttpOptions> = {}) {
  return closer.add(await serveMcpHttp(toolkit(), { name: 'store', version: '0', resumability: { retryIntervalMs: 50 }, ...options }));
}

describe('Last-Event-ID is scoped to its session', () => {
  test("another session's event id replays nothing of that session and gets a 400 that says why", async () => {
    const http = await serve();
    const a = await sessionHeaders(http.url);
    const b = await sessionHeaders(http.url);
    const aStream = await readSse(http.url, { method: 'POST', headers: a, body: toolsCall(1, 'chatty', { count: 3, size: 10 }) });
    const aIds = aStream.events.map((e) => e.id!);
    expect(aIds.length).toBeGreaterThan(1);
    for (const id of aIds) {
      const stolen = await getFrom(http.url, b, id);
      expect(stolen.status).toBe(400);
      expect(stolen.events).toEqual([]);
      expect(stolen.text).toMatch(/Cannot resume after Last-Event-ID .*this session has no such event.*ids of other sessions are unknown here/);
      expect(stolen.text).not.toMatch(/\d+:x{10}/);
    }
    // the owner still can
    const own = await getFrom(http.url, a, aIds[1]);
    expect(own.status).toBe(200);
    expect(own.events.filter(isResult)).toHaveLength(1);
  });

  test('forged and oversized ids get a size-bounded 400; the session stays usable', async () => {
    const http = await serve();
    const headers = await sessionHeaders(http.url);
    for (const forged of ['0', 'abc-1', '../../etc/passwd', '_GET_stream', 'x'.repeat(6_000), '"><script>']) {
      const answer = await getFrom(http.url, headers, forged);
      expect(answer.status).toBe(400);
      expect(answer.text.length).toBeLessThan(700);
      expect(answer.text).toMatch(/open the stream again without Last-Event-ID/);
    }
    const ok = await readSse(http.url, { method: 'POST', headers, body: toolsCall(1, 'chatty', { count: 1, size: 1 }) });
    expect(ok.status).toBe(200);
  });
});

describe('the built-in store is bounded', () => {
  test('a flood keeps at most maxEventsPerSession / maxBytesPerSession; an evicted id is refused, a kept one replays exactly what followed', async () => {
    const http = await serve({ resumability: { retryIntervalMs: 50, maxEventsPerSession: 40, maxBytesPerSession: 64 * 1024 } });
    const headers = await sessionHeaders(http.url);
    // paced: the messages go out live (none wait in the log queue when the stream ends)
    expectAllRead();
    const resultStored = resultsStored(7);
    const live = await readSse(http.url, { method: 'POST', headers, body: toolsCall(7, 'chatty', { count: 300, size: 200, paced: true }) }, (event) => {
      // the last message, or the notice of those the log queue dropped (sent once it drained)
      const data = String(messageOf(event)?.params?.data ?? '');
      if (data.startsWith('299:') || data.includes('were dropped')) allRead?.release();
      return false;
    });
    expect(live.ended).toBe(true);
    await eventually(() => http.handler.storedEvents.events > 0);
    // once the result is stored, check the bound
    const received = live.events.filter((e) => e.data !== '');
    expect(received.length).toBeGreaterThan(40);
    const priming = live.events[0];
    await resultStored;
    expect(http.handler.storedEvents.events).toBeLessThanOrEqual(40);
    expect(http.handler.storedEvents.bytes).toBeLessThanOrEqual(64 * 1024);

    const late = await getFrom(http.url, headers, priming.id!);
    expect(late.status).toBe(400);
    expect(late.text).toMatch(/older ones are dropped first/);

    const from = received.at(-5)!;
    const replay = await getFrom(http.url, headers, from.id!);
    expect(replay.status).toBe(200);
    // what the client had not received, in order, nothing it had: the live tail, what came after the end, the result
    expect(replay.events.slice(0, 4).map((e) => e.id)).toEqual(received.slice(-4).map((e) => e.id));
    const seen = new Set(live.events.map((e) => e.id));
    expect(replay.events.slice(4).some((e) => seen.has(e.id))).toBe(false);
    expect(new Set(replay.events.map((e) => e.id)).size).toBe(replay.events.length);
    expect(messageOf(replay.events.at(-1)!)).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'logged 300' }] } });
  });

  test('sessions together stay under maxEvents and maxBytes; an event too large to keep drops its stream (no replay with a gap)', async () => {
    const http = await serve({ resumability: { retryIntervalMs: 50, maxEventsPerSession: 100, maxEvents: 60, maxBytes: 48 * 1024 } });
    const sessions = await Promise.all([sessionHeaders(http.url), sessionHeaders(http.url), sessionHeaders(http.url)]);
    const floodStored = resultsStored(0, 1, 2);
    await Promise.all(sessions.map((headers, i) => readSse(http.url, { method: 'POST', headers, body: toolsCall(i, 'chatty', { count: 300, size: 300 }) })));
    await floodStored;
    expect(http.handler.storedEvents.events).toBeLessThanOrEqual(60);
    expect(http.handler.storedEvents.bytes).toBeLessThanOrEqual(48 * 1024);

    // a result larger than maxBytes: not kept, and the events before it on its stream go too
    const headers = sessions[0];
    const bigStored = resultsStored(9);
    const big = await readSse(http.url, { method: 'POST', headers, body: toolsCall(9, 'big', { size: 60 * 1024 }) });
    const [primingOfBig] = big.events;
    expect(primingOfBig.data).toBe('');
    await bigStored;
    expect((await getFrom(http.url, headers, primingOfBig.id!)).status).toBe(400);
  });

  test('limits must be whole numbers >= 1 (or Infinity), retryIntervalMs >= 0, eventStore a per-session factory', () => {
    const kit = new Toolkit();
    const make = (resumability: McpHttpOptions['resumability']) => () => createMcpHttpHandler(kit, { name: 'x', version: '0', resumability });
    expect(make({ maxEvents: 0 })).toThrow(ToolkitError);
    expect(make({ maxEventsPerSession: 1.5 })).toThrow(/maxEventsPerSession must be a whole number >= 1/);
    expect(make({ eventTtlMs: -1 })).toThrow(/eventTtlMs/);
    expect(make({ retryIntervalMs: -5 })).toThrow(/retryIntervalMs must be a whole number >= 0/);
    expect(make({ eventStore: {} as unknown as () => EventStore })).toThrow(/eventStore must be a function/);
    expect(make({ maxBytes: Infinity, retryIntervalMs: 0 })).not.toThrow();
    expect(make(true)).not.toThrow();
  });
});

describe('stored events are released with their session', () => {
  test('DELETE, the idle timeout and close() leave no event behind', async () => {
    const http = await serve({ sessionIdleTimeoutMs: 1_000 });
    const { transport } = await sdkClient(closer, http.url);
    const headers = await sessionHeaders(http.url);
    const idle = await sessionHeaders(http.url);
    for (const h of [headers, idle]) await readSse(http.url, { method: 'POST', headers: h, body: toolsCall(1, 'chatty', { count: 5, size: 10 }) });
    await eventually(() => http.handler.storedEvents.events >= 12);
    const before = http.handler.storedEvents.events;

    await post(http.url, '', headers, { method: 'DELETE' });
    await eventually(() => http.handler.storedEvents.events < before);
    // the idle session goes after ~1 s, taking its events with it (the SDK client pings to stay)
    await eventually(() => http.handler.storedEvents.events === 0, 10_000);
    expect(http.handler.sessionCount).toBeLessThanOrEqual(1);
    await transport.terminateSession().catch(() => undefined);
    await http.close();
    expect(http.handler.storedEvents).toEqual({ events: 0, bytes: 0 });
  });
});

describe('preset values never reach the event store', () => {
  test('a custom per-session store sees only redacted messages, and gets made once per session with its id', async () => {
    const stored: { sessionId: string; json: string }[] = [];
    const made: string[] = [];
    const recording = (sessionId: string): EventStore => {
      made.push(sessionId);
      const events = new Map<string, { streamId: string; message: JSONRPCMessage }>();
      return {
        storeEvent: async (streamId, message) => {
          const id = `${sessionId}:${events.size}`;
          events.set(id, { streamId, message });
          stored.push({ sessionId, json: JSON.stringify(message) });
          return id;
        },
        getStreamIdForEventId: async (id) => events.get(id)?.streamId,
        replayEventsAfter: async (lastEventId, { send }) => {
          const streamId = events.get(lastEventId)!.streamId;
          let after = false;
          for (const [id, event] of events) {
            if (after && event.streamId === streamId) await send(id, event.message);
            if (id === lastEventId) after = true;
          }
          return streamId;
        },
      };
    };
    const http = await serve({ resumability: { retryIntervalMs: 50, eventStore: recording } });
    const headers = await sessionHeaders(http.url);
    const call = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'leaky', arguments: {}, _meta: { progressToken: 'p' } } });
    const live = await readSse(http.url, { method: 'POST', headers, body: call });
    const replay = await getFrom(http.url, headers, live.events.at(-1)!.id!);
    expect(replay.events.filter(isResult)).toHaveLength(1);
    expect(made).toEqual([headers['mcp-session-id']]);
    expect(stored.length).toBeGreaterThanOrEqual(3);
    expect(stored.some((s) => s.json.includes('done with'))).toBe(true);
    for (const { json } of stored) {
      expect(json).not.toContain(SECRET);
      expect(json).not.toContain(SECRET.slice(0, 8));
    }
    expect(replay.text + JSON.stringify(replay.events)).not.toContain(SECRET);
  });
});
