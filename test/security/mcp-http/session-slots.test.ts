import { createServer, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { Toolkit } from '../../../src';
import { bearerAuth, createMcpHttpHandler, McpPrincipal, type McpHttpHandler, type McpHttpOptions } from '../../../src/mcp';
import { countingToolkit } from '../../support/toolkit';
import { Closer, eventually, textOf } from '../../support/mcp';
import { INITIALIZE, listen, messagesOf, post, POST_HEADERS, rawSession, sdkClient, toolsCall } from '../../support/mcp-http';

/**
 * Security item 9: MCP HTTP session slots. A slot is taken only once a complete, valid
 * `initialize` has been read, and a body must arrive within `bodyTimeoutMs` and
 * `maxRequestBodySize`; one principal (or, anonymous, one client address) holds at most
 * `maxSessionsPerPrincipal` sessions, replacing its own unused ones rather than locking others
 * out; a GET stream — with or without `Last-Event-ID` — does not keep a session alive.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

/** A toolkit whose one tool `transfer` counts its runs. */
const bank = () => countingToolkit('transfer', 'Moves money', () => 'transferred');

/** Serves `handler` on loopback, counting the requests (by method) that reached it. */
async function serve(toolkit: Toolkit, options: Partial<McpHttpOptions> = {}): Promise<{ url: URL; handler: McpHttpHandler; arrived: Record<string, number> }> {
  const handler = closer.add(createMcpHttpHandler(toolkit, { name: 'slots', version: '0', ...options }));
  const arrived: Record<string, number> = {};
  const url = await listen(
    createServer((req, res) => {
      arrived[req.method ?? ''] = (arrived[req.method ?? ''] ?? 0) + 1;
      handler(req, res);
    }),
    closer,
  );
  return { url, handler, arrived };
}

/** A POST that announces `body` but sends only its first half, and keeps the connection open (status 0: no answer before it was destroyed). */
function halfPost(url: URL, body: string, headers: Record<string, string> = {}): { answer: Promise<{ status: number; text: string; closed: Promise<void> }>; req: ClientRequest } {
  const req = request(url, { method: 'POST', headers: { ...POST_HEADERS, 'content-length': String(Buffer.byteLength(body)), ...headers } });
  const answer = new Promise<{ status: number; text: string; closed: Promise<void> }>((resolve) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const closed = new Promise<void>((done) => req.socket?.once('close', () => done()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, closed }));
    });
    // destroyed by the test before any answer
    req.on('error', () => resolve({ status: 0, text: '', closed: Promise.resolve() }));
  });
  req.write(body.slice(0, body.length >> 1));
  closer.add({ close: async () => void req.destroy() });
  return { answer, req };
}

/** Opens a GET stream of a session and resolves once its headers arrived (the stream stays open). */
function openStream(url: URL, sessionId: string, extra: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', ...extra },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
    closer.add({ close: async () => void req.destroy() });
  });
}

const TOKENS = bearerAuth((token) => new McpPrincipal(token.replace(/-\d+$/, '')));

describe('MCP HTTP: a slot only for a complete initialize', () => {
  test('initialize bodies that never finish take no slot: the next client gets in and its call runs', async () => {
    const { toolkit, runs } = bank();
    const { url, handler, arrived } = await serve(toolkit, { maxSessions: 3, maxSessionsPerPrincipal: 3, bodyTimeoutMs: 60_000 });
    const stalled = Array.from({ length: 10 }, () => halfPost(url, INITIALIZE));
    await eventually(() => arrived.POST === 10);
    const { client } = await sdkClient(closer, url);
    expect(textOf(await client.call('transfer'))).toBe('transferred');
    expect(runs()).toBe(1);
    expect(handler.sessionCount).toBe(1);
    for (const { req } of stalled) req.destroy();
  });

  test('a body slower than bodyTimeoutMs gets 408 and its connection is closed; no session, no call', async () => {
    const { toolkit, runs } = bank();
    const { url, handler } = await serve(toolkit, { bodyTimeoutMs: 200 });
    const initialize = await halfPost(url, INITIALIZE).answer;
    expect(initialize.status).toBe(408);
    expect(messagesOf(initialize.text)[0].error?.message).toMatch(/did not arrive within 200 ms/);
    await initialize.closed;
    expect(handler.sessionCount).toBe(0);

    // a call of an existing session that trickles in is refused the same way, and does not run
    const sessionId = await rawSession(url);
    const call = await halfPost(url, toolsCall(2, 'transfer'), { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }).answer;
    expect(call.status).toBe(408);
    await call.closed;
    expect(runs()).toBe(0);
  });

  test('bodies over maxRequestBodySize: 413 (declared or streamed), no session; invalid JSON and non-initialize: 400', async () => {
    const { url, handler } = await serve(new Toolkit(), { transportOptions: { maxRequestBodySize: 64 * 1024 } });
    const padded = JSON.stringify({ ...JSON.parse(INITIALIZE), pad: 'x'.repeat(100 * 1024) });
    const streamed = await post(url, padded, { 'transfer-encoding': 'chunked' });
    expect(streamed.status).toBe(413);
    expect(streamed.text.length).toBeLessThan(300);
    const declared = halfPost(url, 'x'.repeat(1024), { 'content-length': String(10 * 1024 ** 3) });
    expect((await declared.answer).status).toBe(413);
    expect((await post(url, '{"jsonrpc":')).status).toBe(400);
    expect(messagesOf((await post(url, '[]')).text)[0].error?.message).toMatch(/must be an initialize request/);
    expect(handler.sessionCount).toBe(0);
  });
});

describe('MCP HTTP: sessions per principal', () => {
  test('one principal floods initializes: it keeps at most its quota, and another principal still gets in', async () => {
    const { toolkit, runs } = bank();
    const { url, handler } = await serve(toolkit, { maxSessions: 50, authenticate: TOKENS });
    const flood = await Promise.all(Array.from({ length: 50 }, (_, i) => post(url, INITIALIZE, { authorization: `Bearer alice-${i}` })));
    expect(flood.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    expect(handler.sessionCount).toBeLessThanOrEqual(5); // a tenth of maxSessions
    const bob = await sdkClient(closer, url, { authorization: 'Bearer bob' });
    expect(textOf(await bob.client.call('transfer'))).toBe('transferred');
    expect(runs()).toBe(1);
  });

  test('at its quota with every session in use (a stream open), a principal gets 429; its sessions stay and others are unaffected', async () => {
    const { url, handler } = await serve(new Toolkit(), { maxSessions: 30, authenticate: TOKENS });
    const alice = { authorization: 'Bearer alice' };
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const id = await rawSession(url, alice);
      expect(await openStream(url, id, alice)).toBe(200);
      ids.push(id);
    }
    const refused = await post(url, INITIALIZE, alice);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(messagesOf(refused.text)[0].error?.message).toMatch(/already has 3 MCP sessions in use.*maxSessionsPerPrincipal/);
    expect(handler.sessionCount).toBe(3);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    for (const id of ids) expect((await post(url, list, { ...alice, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' })).status).toBe(200);
    expect((await post(url, INITIALIZE, { authorization: 'Bearer carol' })).status).toBe(200);
  });

  test('anonymous clients are counted per address: a flood from one address does not lock out another', async () => {
    const { url, handler } = await serve(new Toolkit(), { maxSessions: 20, maxSessionsPerPrincipal: 2 });
    const first = await rawSession(url);
    expect(await openStream(url, first)).toBe(200);
    const second = await rawSession(url);
    expect(await openStream(url, second)).toBe(200);
    expect((await post(url, INITIALIZE)).status).toBe(429);
    expect((await post(url, INITIALIZE, {}, { localAddress: '127.0.0.2' })).status).toBe(200);
    expect(handler.sessionCount).toBe(3);
  });

  test("a principal's new session replaces its own least recently used unused session, never another's", async () => {
    const { url, handler } = await serve(new Toolkit(), { maxSessions: 4, maxSessionsPerPrincipal: 2, authenticate: TOKENS });
    const headers = (who: string) => ({ authorization: `Bearer ${who}`, 'mcp-protocol-version': '2025-06-18' });
    const bob = await rawSession(url, headers('bob'));
    const oldest = await rawSession(url, headers('alice'));
    const newer = await rawSession(url, headers('alice'));
    const list = (id: string, who: string) => post(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { ...headers(who), 'mcp-session-id': id });
    expect((await list(newer, 'alice')).status).toBe(200);
    expect((await rawSession(url, headers('alice'))).length).toBeGreaterThan(0);
    expect((await list(oldest, 'alice')).status).toBe(404);
    expect((await list(newer, 'alice')).status).toBe(200);
    expect((await list(bob, 'bob')).status).toBe(200);
    expect(handler.sessionCount).toBe(3);
  });
});

describe('MCP HTTP: a GET stream does not keep a session alive', () => {
  afterEach(async () => {
    await closer.closeAll();
    jest.useRealTimers();
  });

  test('a GET with Last-Event-ID (no resumability) held open: the session still expires when idle', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask', 'hrtime', 'performance'] });
    const { toolkit } = bank();
    const { url, handler } = await serve(toolkit, { sessionIdleTimeoutMs: 300 });
    const sessionId = await rawSession(url);
    expect(await openStream(url, sessionId, { 'last-event-id': 'forged-0' })).toBe(200);
    expect(toolkit.getSessionIds()).toHaveLength(1);
    jest.advanceTimersByTime(1_000);
    await eventually(() => handler.sessionCount === 0 && toolkit.getSessionIds().length === 0);
    const late = await post(url, toolsCall(2, 'transfer'), { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
    expect(late.status).toBe(404);
  });

  test('a call that let its stream go (closeStream) keeps its session alive while it runs; then the session can expire', async () => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask', 'hrtime', 'performance'] });
    const toolkit = new Toolkit();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let released = false;
    toolkit.registerTool({
      name: 'report',
      description: 'Lets its stream go, then answers when the test says',
      parameters: { type: 'object', properties: {} },
      execute: async (_args, ctx) => {
        released = ctx.client?.closeStream() ?? false;
        await finished;
        return 'report ready';
      },
    });
    const { url, handler } = await serve(toolkit, { sessionIdleTimeoutMs: 300, resumability: { retryIntervalMs: 50 } });
    const { client } = await sdkClient(closer, url);
    const call = client.call('report').then(textOf, (error: unknown) => `failed: ${String(error)}`);
    await eventually(() => released);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the POST's stream has ended
    jest.advanceTimersByTime(1_500); // five idle timeouts: no POST in flight, only the call runs
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(handler.sessionCount).toBe(1);
    finish();
    expect(await call).toBe('report ready');
    jest.advanceTimersByTime(1_500);
    await eventually(() => handler.sessionCount === 0);
  });
});
