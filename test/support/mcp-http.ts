import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Closer, TestClient } from './mcp';

/**
 * Starts `server` on a free port of `host` (loopback unless given), closed with its open
 * connections by `closer`; the MCP endpoint's URL on loopback.
 */
export async function listen(server: Server, closer: Closer, host = '127.0.0.1'): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  closer.add({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
}

/** The headers a Streamable HTTP client sends with a POST. */
export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

/** An `initialize` request body. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } },
});

/** What {@link post} read. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly sessionId: string | undefined;
}

/**
 * Sends `body` with node:http (no MCP client; any header, `Host` included) and reads the whole
 * answer: a POST unless `method` says otherwise, from `localAddress` when given (another loopback
 * address is another client).
 */
export function post(url: URL, body: string, headers: Record<string, string> = {}, { method = 'POST', localAddress }: { method?: string; localAddress?: string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, localAddress, headers: { ...POST_HEADERS, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const id = res.headers['mcp-session-id'];
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, sessionId: Array.isArray(id) ? id[0] : id });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Starts a session with raw fetch (initialize + initialized) and returns its id. */
export async function rawSession(url: URL, headers: Record<string, string> = {}): Promise<string> {
  const init = await post(url, INITIALIZE, headers);
  if (init.status !== 200 || !init.sessionId) throw new Error(`initialize failed: ${init.status} ${init.text}`);
  const all = { ...headers, 'mcp-session-id': init.sessionId, 'mcp-protocol-version': '2025-06-18' };
  await post(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), all);
  return init.sessionId;
}

/** A `tools/call` request body. */
export function toolsCall(id: number, name: string, args: Record<string, unknown> = {}, progressToken?: string): string {
  const params = { name, arguments: args, ...(progressToken !== undefined ? { _meta: { progressToken } } : {}) };
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
}

/** The JSON-RPC messages of an SSE (or plain JSON) answer. */
export function messagesOf(text: string): { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string } }[] {
  if (text.startsWith('{')) return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)));
}

/** An official SDK client connected over Streamable HTTP, with extra request headers (e.g. Authorization). */
export async function sdkClient(closer: Closer, url: URL, headers: Record<string, string> = {}): Promise<{ client: TestClient; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = closer.add(new TestClient());
  await client.connect(transport);
  return { client, transport };
}
