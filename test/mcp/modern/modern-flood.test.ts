import { Toolkit } from '../../../src';
import { McpPrincipal, bearerAuth, serveMcpHttp, type McpHttpOptions, type McpHttpServer } from '../../../src/mcp';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer } from '../../support/mcp';

/**
 * What a hostile 2026-07-28 client grows on the server without a protocol session to bound it:
 * `subscriptions/listen` streams held open.
 */

const closer = new Closer();
const aborts: AbortController[] = [];
afterEach(async () => {
  for (const abort of aborts.splice(0)) abort.abort();
  await closer.closeAll();
});

const TOKENS = new Map([
  ['t-mallory', new McpPrincipal('mallory')],
  ['t-alice', new McpPrincipal('alice')],
]);

async function serve(toolkit: Toolkit, options: Partial<McpHttpOptions> = {}): Promise<McpHttpServer> {
  return closer.add(await serveMcpHttp(toolkit, { name: 'flood', version: '1', authenticate: bearerAuth((token) => TOKENS.get(token)), ...options }));
}

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

/** Opens a raw `subscriptions/listen` stream and resolves with its status and first bytes (the stream stays open). */
async function listen(url: URL, token: string, id: number): Promise<{ status: number; text: string }> {
  const abort = new AbortController();
  aborts.push(abort);
  const response = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: META } }),
  });
  if (response.body === null) return { status: response.status, text: '' };
  const { value } = await response.body.getReader().read();
  return { status: response.status, text: new TextDecoder().decode(value) };
}

describe('2026-07-28 subscriptions/listen under a flood', () => {
  test('one principal holds at most maxSessionsPerPrincipal streams (429 beyond), the server maxSessions (503 beyond); another principal still listens; a closed stream frees its slot', async () => {
    const { toolkit } = createTestToolkit();
    const http = await serve(toolkit, { maxSessions: 3, maxSessionsPerPrincipal: 2 });
    expect((await listen(http.url, 't-mallory', 1)).text).toContain('notifications/subscriptions/acknowledged');
    expect((await listen(http.url, 't-mallory', 2)).status).toBe(200);
    const refused = await listen(http.url, 't-mallory', 3);
    expect(refused.status).toBe(429);
    expect(refused.text).toMatch(/maxSessionsPerPrincipal/);
    expect((await listen(http.url, 't-alice', 4)).text).toContain('notifications/subscriptions/acknowledged');
    const busy = await listen(http.url, 't-alice', 5);
    expect(busy.status).toBe(503);
    aborts[0].abort();
    let again = await listen(http.url, 't-mallory', 6);
    for (let i = 0; i < 50 && again.status !== 200; i++) again = await listen(http.url, 't-mallory', 7 + i);
    expect(again.text).toContain('notifications/subscriptions/acknowledged');
  });
});
