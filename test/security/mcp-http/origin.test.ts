import { createServer } from 'node:http';
import { Toolkit } from '../../../src';
import { createMcpHttpHandler, serveMcpHttp } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { INITIALIZE, listen, messagesOf, post, rawSession, sdkClient, toolsCall } from '../../support/mcp-http';

/**
 * Security item 7: a browser page on a foreign origin cannot drive the MCP endpoint. Requests
 * with a foreign `Origin` get 403 (initialize and requests of existing sessions alike); no
 * `Origin` (non-browser clients), the server's own origin and `allowedOrigins` pass; `allowedHosts`
 * still guards `Host` (DNS rebinding).
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

/** How often `touch` ran: a refused request must not run it, whatever status it gets. */
let touches = 0;

/** A toolkit with one tool, so a refused call has something it could have run. */
function touchToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registerTool({
    name: 'touch',
    description: 'Counts its runs',
    parameters: { type: 'object', properties: {} },
    execute: () => `touched ${++touches}`,
  });
  return toolkit;
}

async function serve(options: { allowedOrigins?: string[] } = {}) {
  return closer.add(await serveMcpHttp(touchToolkit(), { name: 'origin', version: '0', ...options }));
}

describe('MCP HTTP Origin checks', () => {
  test('a foreign Origin gets 403 on initialize, with a bounded JSON-RPC error; no session is made', async () => {
    const http = await serve();
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example', 'null', `http://localhost:${Number(http.url.port) + 1}`]) {
      const answer = await post(http.url, INITIALIZE, { origin });
      expect(answer.status).toBe(403);
      expect(messagesOf(answer.text)[0].error?.message).toMatch(/Origin .* is not allowed/);
    }
    const long = await post(http.url, INITIALIZE, { origin: `https://${'a'.repeat(5_000)}.example` });
    expect(long.status).toBe(403);
    expect(long.text.length).toBeLessThan(500);
    expect(http.handler.sessionCount).toBe(0);
  });

  test('a foreign Origin cannot use an existing session either: no list, no call, the tool does not run', async () => {
    const http = await serve();
    const sessionId = await rawSession(http.url);
    const inSession = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    const answer = await post(http.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), { origin: 'https://evil.example', ...inSession });
    expect(answer.status).toBe(403);
    touches = 0;
    const call = await post(http.url, toolsCall(3, 'touch'), { origin: 'https://evil.example', ...inSession });
    expect(call.status).toBe(403);
    expect(touches).toBe(0);
    // the positive control: the same call without the foreign Origin runs the tool
    const own = await post(http.url, toolsCall(4, 'touch'), inSession);
    expect(messagesOf(own.text)[0].result).toMatchObject({ content: [{ type: 'text', text: 'touched 1' }] });
    expect(touches).toBe(1);
  });

  test('no Origin (SDK client), the server’s own origin and allowedOrigins are accepted', async () => {
    const http = await serve({ allowedOrigins: ['https://app.example.com'] });
    const { client } = await sdkClient(closer, http.url);
    await client.client.ping();
    expect((await post(http.url, INITIALIZE, { origin: `http://127.0.0.1:${http.url.port}` })).status).toBe(200);
    expect((await post(http.url, INITIALIZE, { origin: 'https://APP.example.com' })).status).toBe(200);
    expect((await post(http.url, INITIALIZE, { origin: 'https://app.example.com:8443' })).status).toBe(403);
  });

  test('createMcpHttpHandler: same checks; an allowedHosts entry without a port accepts that host on any port', async () => {
    const handler = closer.add(createMcpHttpHandler(new Toolkit(), { name: 'origin', version: '0', allowedHosts: ['localhost'] }));
    const url = await listen(createServer((req, res) => handler(req, res)), closer);
    const port = url.port;
    expect((await post(url, INITIALIZE, { host: `localhost:${port}` })).status).toBe(200);
    expect((await post(url, INITIALIZE, { host: `127.0.0.1:${port}` })).status).toBe(403);
    // DNS rebinding: the attacker's name resolves to us, Host and Origin both say so
    expect((await post(url, INITIALIZE, { host: `rebind.example:${port}`, origin: `http://rebind.example:${port}` })).status).toBe(403);
    expect((await post(url, INITIALIZE, { host: `localhost:${port}`, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(url, INITIALIZE, { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
  });

  test("the server's own origin is its scheme, host and port: a Host without a port means the scheme's default", async () => {
    const handler = closer.add(createMcpHttpHandler(new Toolkit(), { name: 'origin', version: '0', allowedHosts: ['app.example'] }));
    const url = await listen(createServer((req, res) => handler(req, res)), closer);
    // a page on another port of the same host is another origin
    expect((await post(url, INITIALIZE, { host: 'app.example', origin: 'http://app.example:8080' })).status).toBe(403);
    // so is the same host over https when the request came in over plain http
    expect((await post(url, INITIALIZE, { host: 'app.example', origin: 'https://app.example' })).status).toBe(403);
    expect((await post(url, INITIALIZE, { host: 'app.example', origin: 'http://app.example' })).status).toBe(200);
    expect((await post(url, INITIALIZE, { host: 'app.example', origin: 'http://app.example:80' })).status).toBe(200);
  });
});
