import { createServer } from 'node:http';
import { Toolkit, ToolkitError } from '../../../src';
import { bearerAuth, createMcpHttpHandler, McpPrincipal, serveMcpHttp } from '../../../src/mcp';
import { createTestToolkit } from '../../mcp/fixtures/test-toolkit';
import { Closer, eventually, textOf } from '../../support/mcp';
import { INITIALIZE, listen, messagesOf, post, rawSession, sdkClient } from '../../support/mcp-http';

/**
 * Security item 7: MCP HTTP sessions are bounded. A flood of initialize requests stops at
 * `maxSessions` (HTTP 503, Retry-After, a JSON-RPC error); idle sessions expire after
 * `sessionIdleTimeoutMs` with their toolkit sessions; one sweep timer, gone after close().
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

describe('MCP HTTP session cap', () => {
  test('a session flood of many principals stops at maxSessions: 503 with Retry-After and a JSON-RPC error, none of them opens a session', async () => {
    const { toolkit } = createTestToolkit();
    const authenticate = bearerAuth((token) => new McpPrincipal(token));
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'cap', version: '0', maxSessions: 5, authenticate }));
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => post(http.url, INITIALIZE, { authorization: `Bearer user${i}` })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused).toHaveLength(20);
    expect(refused[0].headers['retry-after']).toMatch(/^\d+$/);
    expect(refused[0].sessionId).toBeUndefined();
    const [error] = messagesOf(refused[0].text);
    expect(error.error?.message).toMatch(/limit of 5 MCP sessions/);
    expect(refused[0].text.length).toBeLessThan(400);
    expect(http.handler.sessionCount).toBe(5);
    expect(toolkit.getSessionIds().length).toBeLessThanOrEqual(5);
  });

  test('ending a session (DELETE) makes room for a new one; clients with a stream open are never evicted', async () => {
    const handler = closer.add(createMcpHttpHandler(new Toolkit(), { name: 'cap', version: '0', maxSessions: 2, maxSessionsPerPrincipal: Infinity }));
    let streams = 0;
    const url = await listen(createServer((req, res) => (req.method === 'GET' && streams++, handler(req, res))), closer);
    const first = await sdkClient(closer, url);
    await sdkClient(closer, url);
    await eventually(() => streams === 2); // both SDK clients opened their GET stream
    expect((await post(url, INITIALIZE)).status).toBe(503);
    await first.client.client.ping(); // still served
    await first.transport.terminateSession();
    await eventually(() => handler.sessionCount === 1);
    expect((await post(url, INITIALIZE)).status).toBe(200);
  });

  test('requests that start no session (not initialize) do not count against the cap', async () => {
    const http = closer.add(await serveMcpHttp(new Toolkit(), { name: 'cap', version: '0', maxSessions: 2, maxSessionsPerPrincipal: 2 }));
    const notInitialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(http.url, notInitialize)));
    expect(answers.every((a) => a.status === 400)).toBe(true);
    expect(http.handler.sessionCount).toBe(0);
    expect((await post(http.url, INITIALIZE)).status).toBe(200);
    expect((await post(http.url, INITIALIZE)).status).toBe(200);
    expect(http.handler.sessionCount).toBe(2);
  });

  test('limits must be whole numbers >= 1 or Infinity', () => {
    const toolkit = new Toolkit();
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', maxSessions: 0 })).toThrow(ToolkitError);
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', maxSessions: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', maxSessions: 1.5 })).toThrow(/maxSessions must be a whole number >= 1/);
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', sessionIdleTimeoutMs: -1 })).toThrow(/sessionIdleTimeoutMs/);
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', maxSessionsPerPrincipal: 0 })).toThrow(/maxSessionsPerPrincipal must be a whole number >= 1/);
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', bodyTimeoutMs: 2.5 })).toThrow(/bodyTimeoutMs/);
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', maxConcurrentCalls: -1 })).toThrow(/maxConcurrentCalls/);
    expect(() => createMcpHttpHandler(toolkit, { name: 'x', version: '0', maxSessions: Infinity, sessionIdleTimeoutMs: Infinity })).not.toThrow();
  });

  test('serveMcpHttp refuses invalid limits without leaving a listening server behind', async () => {
    const listening = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = listening();
    await expect(serveMcpHttp(new Toolkit(), { name: 'x', version: '0', maxSessions: -3 })).rejects.toThrow(/maxSessions/);
    expect(listening()).toBe(before);
  });
});

describe('MCP HTTP idle sessions', () => {
  /**
   * Idleness on a virtual clock: only `Date` and `setInterval` (the sweep) are fake, so real
   * requests and the clients' own timers run as usual, and a loaded machine's slow requests never
   * count as idle time. Time passes only by `jest.advanceTimersByTime`.
   */
  const sweepClock = (): void => {
    jest.useFakeTimers({ now: 1_000_000, doNotFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask', 'hrtime', 'performance'] });
  };
  afterEach(async () => {
    await closer.closeAll(); // while the sweep's interval is still the fake one
    jest.useRealTimers();
  });

  test('an idle session is closed with its toolkit session; its client then gets 404', async () => {
    sweepClock();
    const { toolkit } = createTestToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'idle', version: '0', sessionIdleTimeoutMs: 300 }));
    const sessionId = await rawSession(http.url);
    await sdkClient(closer, http.url);
    expect(http.handler.sessionCount).toBe(2);
    jest.advanceTimersByTime(299);
    expect(http.handler.sessionCount).toBe(2); // not idle for long enough yet
    jest.advanceTimersByTime(300);
    await eventually(() => http.handler.sessionCount === 0 && toolkit.getSessionIds().length === 0);
    const late = await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), {
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    });
    expect(late.status).toBe(404);
  });

  test('a session with a call in flight is not idle, however long the call takes', async () => {
    sweepClock();
    const toolkit = new Toolkit();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    toolkit.registerTool({
      name: 'slow',
      description: 'Waits until the test releases it',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        started = true;
        await released;
        return 'finished';
      },
    });
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'idle', version: '0', sessionIdleTimeoutMs: 300 }));
    const { client } = await sdkClient(closer, http.url);
    const idle = await rawSession(http.url); // the control: same clock, nothing in flight
    const call = client.call('slow');
    await eventually(() => started);
    jest.advanceTimersByTime(1_500); // five idle timeouts, twenty sweeps
    await eventually(() => http.handler.sessionCount === 1);
    const gone = await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': idle, 'mcp-protocol-version': '2025-06-18' });
    expect(gone.status).toBe(404); // the idle one was closed, the busy one stays
    release();
    expect(textOf(await call)).toBe('finished');
  });

  test('one sweep timer for all sessions, unref’d, cleared by close()', async () => {
    const timers: NodeJS.Timeout[] = [];
    const real = global.setInterval;
    const spy = jest.spyOn(global, 'setInterval').mockImplementation(((handler: () => void, ms?: number) => {
      const timer = real(handler, ms);
      if (new Error().stack?.includes('mcp-http-sessions')) timers.push(timer);
      return timer;
    }) as typeof setInterval);
    try {
      const http = await serveMcpHttp(new Toolkit(), { name: 'idle', version: '0' });
      for (let i = 0; i < 5; i++) await rawSession(http.url);
      expect(http.handler.sessionCount).toBe(5);
      expect(timers).toHaveLength(1);
      expect(timers[0].hasRef()).toBe(false);
      await http.close();
      expect((timers[0] as NodeJS.Timeout & { _destroyed: boolean })._destroyed).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });
});
