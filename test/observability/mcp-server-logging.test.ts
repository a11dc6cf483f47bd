import { Container } from 'inversify';
import { Toolkit, type ToolwrightLogger } from '../../src';
import { serveMcpHttp } from '../../src/mcp';
import { PINO_LEVEL, pinoLogger, throwingLogger } from '../support/loggers';
import { Closer, connectInMemory, eventually, textOf } from '../support/mcp';
import { INITIALIZE, post, sdkClient } from '../support/mcp-http';

const closer = new Closer();
afterEach(() => closer.closeAll());

/** A toolkit whose `hold` tool runs until `release()`; `running()` counts the calls holding. */
function holdingToolkit(): { toolkit: Toolkit; release(): void; running(): number } {
  const waiting: (() => void)[] = [];
  const toolkit = new Toolkit({ container: new Container() });
  toolkit.registerTool({
    name: 'hold',
    description: 'Runs until released',
    parameters: { type: 'object', properties: {} },
    execute: () => new Promise<string>((resolve) => waiting.push(() => resolve('released'))),
  });
  return { toolkit, release: () => waiting.splice(0).forEach((go) => go()), running: () => waiting.length };
}

describe('createMcpServer({ logger })', () => {
  it('logs the connection opening and closing at info, and a request refused as busy at warn', async () => {
    const { logger, lines } = pinoLogger('debug');
    const { toolkit, release, running } = holdingToolkit();
    const { client, mcp } = await connectInMemory(toolkit, closer, { logger, maxConcurrentCalls: 1, sessions: true, sessionId: 'conversation-1234567' });
    expect(lines()).toEqual([expect.objectContaining({ level: PINO_LEVEL.info, event: 'mcp_connection_opened', server: 'toolwright-test', transport: 'InMemoryTransport' })]);
    const first = client.call('hold', {});
    await eventually(() => running() === 1);
    const second = await client.call('hold', {});
    expect(second.isError).toBe(true);
    release();
    expect(textOf(await first)).toBe('released');
    expect(lines()).toContainEqual(expect.objectContaining({ level: PINO_LEVEL.warn, event: 'mcp_request_refused', reason: 'busy', maxConcurrentCalls: 1 }));
    await mcp.close();
    expect(lines()).toContainEqual(expect.objectContaining({ level: PINO_LEVEL.info, event: 'mcp_connection_closed', session: 'conversa…' }));
  });

  it('a logger that throws does not break the connection or its calls', async () => {
    const broken = throwingLogger();
    const toolkit = new Toolkit({ container: new Container(), logger: broken });
    toolkit.registerTool({ name: 'ping', description: 'Ping', parameters: { type: 'object', properties: {} }, execute: () => 'pong' });
    const { client, mcp } = await connectInMemory(toolkit, closer, { logger: broken });
    expect(textOf(await client.call('ping', {}))).toBe('pong');
    await mcp.close();
  });
});

describe('serveMcpHttp({ logger })', () => {
  it('logs each refused HTTP request at warn (status, method, address; no headers), and sessions at info', async () => {
    const { logger, lines, text } = pinoLogger('info');
    const toolkit = new Toolkit({ container: new Container() });
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'http-logging', version: '0', logger }));
    const refused = await post(http.url, INITIALIZE, { origin: 'https://evil.example', authorization: 'Bearer secret-token-123' });
    expect(refused.status).toBe(403);
    const unknown = await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { 'mcp-session-id': 'no-such-session', 'mcp-protocol-version': '2025-06-18' });
    expect(unknown.status).toBe(404);
    await eventually(() => lines().filter((line) => line.event === 'mcp_request_refused').length === 2);
    expect(lines()).toEqual([
      expect.objectContaining({ level: PINO_LEVEL.warn, event: 'mcp_request_refused', server: 'http-logging', method: 'POST', status: 403, remoteAddress: '127.0.0.1' }),
      expect.objectContaining({ level: PINO_LEVEL.warn, event: 'mcp_request_refused', status: 404 }),
    ]);
    expect(text()).not.toMatch(/secret-token|no-such-session|evil/);
    const { client } = await sdkClient(closer, http.url);
    await client.toolNames();
    await eventually(() => lines().some((line) => line.event === 'mcp_connection_opened'));
    expect(lines()).toContainEqual(expect.objectContaining({ level: PINO_LEVEL.info, event: 'mcp_connection_opened', transport: 'StreamableHTTPServerTransport' }));
  });

  it('refuses a logger without the four methods when the handler is made', async () => {
    await expect(serveMcpHttp(new Toolkit(), { name: 'x', version: '0', logger: { info: () => undefined } as unknown as ToolwrightLogger })).rejects.toThrow(/createMcpHttpHandler\(\{ logger \}\): logger must have/);
  });
});
