import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Toolkit } from '../../../src';
import { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from '../../../src/mcp';
import { countingToolkit } from '../../support/toolkit';
import { Closer, textOf } from '../../support/mcp';
import { INITIALIZE, listen, messagesOf, post, rawSession, sdkClient, toolsCall } from '../../support/mcp-http';

/**
 * Security item 6: DNS rebinding against `createMcpHttpHandler` mounted on a loopback listener.
 * The attacker's page resolves its own name to 127.0.0.1, so the browser sends `Host` and `Origin`
 * naming the attacker's host: the Origin matches the Host, and without a host allow-list the
 * handler used to accept it. Requests that arrive on a loopback interface now need a loopback
 * `Host` on the port they arrived on unless `allowedHosts` says otherwise — on node:http, Express,
 * an all-interfaces listener and IPv6 loopback alike.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

/** A toolkit whose one tool `read_mail` counts its runs. */
const mailbox = () => countingToolkit('read_mail', 'Reads the mailbox', () => 'inbox: 3 messages');

function mount(toolkit: Toolkit, options: Partial<McpHttpOptions> = {}): McpHttpHandler {
  return closer.add(createMcpHttpHandler(toolkit, { name: 'rebind', version: '0', ...options }));
}

const rebinding = (port: string) => ({ host: `rebind.attacker.example:${port}`, origin: `http://rebind.attacker.example:${port}` });
const SESSION_HEADERS = { 'mcp-protocol-version': '2025-06-18' };

describe('MCP HTTP handler on loopback: DNS rebinding', () => {
  test('Host and Origin both naming the attacker: 403, no session, the tool never runs', async () => {
    const { toolkit, runs } = mailbox();
    const handler = mount(toolkit);
    const url = await listen(createServer((req, res) => handler(req, res)), closer);
    const answer = await post(url, INITIALIZE, rebinding(url.port));
    expect(answer.status).toBe(403);
    expect(answer.sessionId).toBeUndefined();
    expect(messagesOf(answer.text)[0].error?.message).toMatch(/Host .* is not allowed.*allowedHosts/);
    expect(answer.text.length).toBeLessThan(600);
    expect(handler.sessionCount).toBe(0);
    expect(toolkit.getSessionIds()).toEqual([]);

    // a session opened legitimately cannot be driven from the rebound page either
    const sessionId = await rawSession(url);
    const call = await post(url, toolsCall(2, 'read_mail'), { ...rebinding(url.port), ...SESSION_HEADERS, 'mcp-session-id': sessionId });
    expect(call.status).toBe(403);
    expect(runs()).toBe(0);
  });

  test('loopback names on the listening port pass: the SDK client by 127.0.0.1 and by localhost', async () => {
    const { toolkit, runs } = mailbox();
    const handler = mount(toolkit);
    const url = await listen(createServer((req, res) => handler(req, res)), closer);
    const byIp = await sdkClient(closer, url);
    expect(textOf(await byIp.client.call('read_mail'))).toBe('inbox: 3 messages');
    const byName = await sdkClient(closer, new URL(`http://localhost:${url.port}/mcp`));
    expect(textOf(await byName.client.call('read_mail'))).toBe('inbox: 3 messages');
    expect(runs()).toBe(2);
    for (const host of [`[::1]:${url.port}`, `LOCALHOST:${url.port}`]) expect((await post(url, INITIALIZE, { host })).status).toBe(200);
  });

  test('another port, a look-alike name, an attacker name without a port: all 403', async () => {
    const handler = mount(new Toolkit());
    const url = await listen(createServer((req, res) => handler(req, res)), closer);
    const other = String(Number(url.port) === 65535 ? 1 : Number(url.port) + 1);
    for (const host of [`localhost:${other}`, `127.0.0.1:${other}`, 'localhost', `localhost.attacker.example:${url.port}`, `127.0.0.1.nip.io:${url.port}`, 'rebind.attacker.example']) {
      expect([host, (await post(url, INITIALIZE, { host })).status]).toEqual([host, 403]);
    }
    expect(handler.sessionCount).toBe(0);
  });

  test('mounted on Express (express.json() before it): the same protection', async () => {
    const { toolkit, runs } = mailbox();
    const handler = mount(toolkit);
    const app = express();
    app.use(express.json());
    app.all('/mcp', (req, res) => handler(req, res, req.body));
    const url = await listen(createServer(app), closer);
    expect((await post(url, INITIALIZE, rebinding(url.port))).status).toBe(403);
    const { client } = await sdkClient(closer, url);
    expect(textOf(await client.call('read_mail'))).toBe('inbox: 3 messages');
    expect(runs()).toBe(1);
    expect(handler.sessionCount).toBe(1);
  });

  test('an all-interfaces listener reached over loopback, and an IPv6 loopback listener, are protected', async () => {
    const handler = mount(new Toolkit());
    const any = await listen(createServer((req, res) => handler(req, res)), closer, '0.0.0.0');
    expect((await post(any, INITIALIZE, rebinding(any.port))).status).toBe(403);
    expect((await post(any, INITIALIZE)).status).toBe(200);
    const v6 = createServer((req, res) => handler(req, res));
    await listen(v6, closer, '::1');
    const port = String((v6.address() as AddressInfo).port);
    const url = new URL(`http://[::1]:${port}/mcp`);
    expect((await post(url, INITIALIZE, rebinding(port))).status).toBe(403);
    expect((await post(url, INITIALIZE)).status).toBe(200);
  });

  test('behind a reverse proxy on the same host: the public name needs allowedHosts', async () => {
    const refusing = mount(new Toolkit());
    const refusingUrl = await listen(createServer((req, res) => refusing(req, res)), closer);
    const viaProxy = await proxyTo(refusingUrl, 'mcp.example.com');
    expect((await post(viaProxy, INITIALIZE)).status).toBe(403);
    const answer = await post(viaProxy, INITIALIZE);
    expect(messagesOf(answer.text)[0].error?.message).toMatch(/reverse proxy.*allowedHosts/);

    const configured = mount(new Toolkit(), { allowedHosts: ['mcp.example.com'] });
    const configuredUrl = await listen(createServer((req, res) => configured(req, res)), closer);
    const viaConfigured = await proxyTo(configuredUrl, 'mcp.example.com');
    expect((await post(viaConfigured, INITIALIZE)).status).toBe(200);
    // allowedHosts replaces the loopback default: the attacker's name is still refused
    expect((await post(configuredUrl, INITIALIZE, rebinding(configuredUrl.port))).status).toBe(403);
  });
});

/** A reverse proxy on loopback that forwards every request to `target` with `Host: publicHost`, as nginx's `proxy_set_header Host $host` does. */
async function proxyTo(target: URL, publicHost: string): Promise<URL> {
  const proxy = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = request(target, { method: req.method, headers: { ...req.headers, host: publicHost } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return listen(proxy, closer);
}
