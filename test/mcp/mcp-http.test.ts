import { createServer, request as httpRequest } from 'node:http';
import express from 'express';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHttpHandler, serveMcpHttp, type McpHttpServer } from '../../src/mcp';
import { describeConformance } from './conformance';
import { createTestToolkit } from './fixtures/test-toolkit';
import { Closer, TestClient, eventually, textOf } from '../support/mcp';
import { listen } from '../support/mcp-http';

const closer = new Closer();
afterEach(() => closer.closeAll());

async function connectHttp(url: URL): Promise<TestClient> {
  const client = closer.add(new TestClient());
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

async function serve(): Promise<{ http: McpHttpServer; toolkit: ReturnType<typeof createTestToolkit>['toolkit'] }> {
  const { toolkit } = createTestToolkit();
  const http = closer.add(await serveMcpHttp(toolkit, { name: 'toolwright-test', version: '0.0.0' }));
  return { http, toolkit };
}

/** A raw HTTP request (no MCP client), for the error paths. */
function raw(url: URL, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers: init.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('serveMcpHttp: Streamable HTTP on 127.0.0.1, port 0', () => {
  // one server for the suite: each test's client gets its own MCP session and toolkit session
  let shared: McpHttpServer;
  beforeAll(async () => {
    shared = await serveMcpHttp(createTestToolkit().toolkit, { name: 'toolwright-test', version: '0.0.0' });
  });
  afterAll(() => shared.close());
  describeConformance(() => connectHttp(shared.url));
});

describe('serveMcpHttp', () => {
  test('per-session isolation: one client toggles a group, the other does not see it', async () => {
    const { http, toolkit } = await serve();
    expect(http.url.hostname).toBe('127.0.0.1');
    expect(http.url.pathname).toBe('/mcp');
    const a = await connectHttp(http.url);
    const b = await connectHttp(http.url);
    expect(http.handler.sessionCount).toBe(2);
    expect(toolkit.getSessionIds()).toHaveLength(2);

    const changed = a.nextListChanged();
    expect(textOf(await a.call('set_group', { group: 'admin', active: true }))).toBe('group admin is on');
    await changed;
    expect(await a.toolNames()).toContain('reset_all');
    expect(textOf(await a.call('reset_all'))).toBe('reset done');

    expect(await b.toolNames()).not.toContain('reset_all');
    const denied = await b.call('reset_all');
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/disabled/);
    await b.client.ping();
    expect(b.listChanged).toBe(0);
    expect(toolkit.getActiveGroups()).not.toContain('admin');
  });

  test('ending a session (DELETE) closes its toolkit session; unknown sessions get 404; other paths 404', async () => {
    const { http, toolkit } = await serve();
    const transport = new StreamableHTTPClientTransport(http.url);
    const client = closer.add(new TestClient());
    await client.connect(transport);
    expect(toolkit.getSessionIds()).toHaveLength(1);
    await transport.terminateSession();
    await eventually(() => http.handler.sessionCount === 0 && toolkit.getSessionIds().length === 0);

    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const unknown = await raw(http.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': 'nope' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    const noSession = await raw(http.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(noSession.status).toBe(400);
    expect(http.handler.sessionCount).toBe(0);
    const elsewhere = await raw(new URL('/other', http.url), { method: 'GET' });
    expect(elsewhere.status).toBe(404);
    const badHost = await raw(http.url, {
      method: 'POST',
      headers: { ...headers, host: 'evil.example:80' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(badHost.status).toBe(403);
  });
});

describe('createMcpHttpHandler', () => {
  test('mounts on an Express app (with express.json() parsing the body)', async () => {
    const { toolkit } = createTestToolkit();
    const handler = closer.add(createMcpHttpHandler(toolkit, { name: 'toolwright-test', version: '0.0.0' }));
    const app = express();
    app.use(express.json());
    app.all('/mcp', (req, res) => handler(req, res, req.body));
    const url = await listen(createServer(app), closer);
    const client = await connectHttp(url);
    expect(textOf(await client.call('echo', { text: 'from express' }))).toBe('echo: from express');
    expect(handler.sessionCount).toBe(1);
  });

  test('mounts on a plain node:http server, sharing the toolkit view when sessions are off', async () => {
    const { toolkit } = createTestToolkit();
    const handler = closer.add(createMcpHttpHandler(toolkit, { name: 'toolwright-test', version: '0.0.0', sessions: false }));
    const url = await listen(createServer((req, res) => handler(req, res)), closer);
    const a = await connectHttp(url);
    const b = await connectHttp(url);
    await b.toolNames();
    const changed = b.nextListChanged();
    await a.call('set_group', { group: 'admin', active: true });
    await changed; // b hears about a's toggle: both serve the toolkit itself
    expect(await b.toolNames()).toContain('reset_all');
    expect(toolkit.getSessionIds()).toEqual([]);
  });
});
