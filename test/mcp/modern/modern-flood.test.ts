import { Toolkit } from '../../../src';
import { McpPrincipal, bearerAuth, serveMcpHttp, type McpHttpOptions, type McpHttpServer } from '../../../src/mcp';
import { createTestToolkit } from '../fixtures/test-toolkit';
import { Closer } from '../../support/mcp';

/**
 * What a hostile 2026-07-28 client grows on the server without a protocol session to bound it:
 * `subscriptions/listen` streams held open; and protocol objects of many keys (`_meta`,
 * `inputResponses`) that cost the SDK's validation seconds of the event loop per request.
 */

const closer = new Closer();
const aborts: AbortController[] = [];
const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.cancel().catch(() => undefined)));
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
  const reader = response.body.getReader();
  readers.push(reader);
  const { value } = await reader.read();
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

/** A raw 2026-07-28 `tools/call` POST of `echo` with `params` added; resolves with the status and the JSON-RPC answer. */
async function rawCall(url: URL, params: Record<string, unknown>): Promise<{ status: number; body: { result?: unknown; error?: { code: number; message: string } } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer t-mallory', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: META, ...params } }),
  });
  return { status: response.status, body: JSON.parse(await response.text()) as { error?: { code: number; message: string } } };
}

describe('protocol objects of many keys', () => {
  const manyKeys = (n: number): Record<string, unknown> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, {}]));

  test('a _meta or inputResponses of 100,000 keys is refused (400, -32602) before the SDK validates it; the tool does not run; a normal call still works', async () => {
    const toolkit = new Toolkit();
    let runs = 0;
    toolkit.registerTool({ name: 'echo', description: 'Echo', parameters: { type: 'object', properties: {} }, execute: () => `ran ${++runs}` });
    const http = await serve(toolkit);
    const meta = await rawCall(http.url, { _meta: { ...META, ...manyKeys(100_000) } });
    expect(meta.status).toBe(400);
    expect(meta.body.error).toEqual({ code: -32602, message: expect.stringMatching(/_meta has 100003 keys; at most 256/) });
    const answers = await rawCall(http.url, { requestState: 'tw1.x.y', inputResponses: manyKeys(100_000) });
    expect(answers.status).toBe(400);
    expect(answers.body.error?.message).toMatch(/inputResponses has 100000 keys; at most 256/);
    expect(runs).toBe(0);
    expect((await rawCall(http.url, {})).body.result).toMatchObject({ content: [{ type: 'text', text: 'ran 1' }] });
  });
});
