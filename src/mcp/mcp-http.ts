import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport, StreamableHTTPServerTransportOptions } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Toolkit } from '../toolkit/toolkit';
import { bindMcpSession, createMcpServer, type McpServerHandle, type McpServerOptions } from './mcp-server';

type StreamableHttpModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');

/** Loaded on first use: stdio-only users never load the HTTP transport. */
let streamableHttp: StreamableHttpModule | undefined;
function loadStreamableHttp(): StreamableHttpModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (streamableHttp ??= require('@modelcontextprotocol/sdk/server/streamableHttp.js') as StreamableHttpModule);
}

/**
 * Options of {@link createMcpHttpHandler}: the server options plus Streamable HTTP settings.
 * `sessions` defaults to `true` here: every HTTP client gets its own toolkit session.
 *
 * @example
 * createMcpHttpHandler(toolkit, { name: 'app', version: '1.0.0', allowedHosts: ['localhost:3000'] });
 */
export interface McpHttpOptions extends McpServerOptions {
  /** Answer POSTs with plain JSON instead of an SSE stream (default `false`). */
  enableJsonResponse?: boolean;
  /** Accepted `Host` headers; when set, DNS-rebinding protection is on. */
  allowedHosts?: string[];
  /** Accepted `Origin` headers; when set, DNS-rebinding protection is on. */
  allowedOrigins?: string[];
  /** Further options of the SDK's `StreamableHTTPServerTransport`. */
  transportOptions?: Omit<StreamableHTTPServerTransportOptions, 'sessionIdGenerator' | 'onsessioninitialized' | 'onsessionclosed'>;
}

/**
 * A `(req, res)` request handler serving MCP over Streamable HTTP, one SDK `Server` per MCP
 * session. Mount it on any node:http-compatible app; a body already parsed (`req.body`, e.g.
 * by `express.json()`) is used as is.
 *
 * @example
 * const mcp = createMcpHttpHandler(toolkit, { name: 'app', version: '1.0.0' });
 * http.createServer((req, res) => (req.url === '/mcp' ? mcp(req, res) : res.end())).listen(3000);
 */
export interface McpHttpHandler {
  (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): void;
  /** The number of open MCP sessions. */
  readonly sessionCount: number;
  /** Closes every session (their SSE streams included). */
  close(): Promise<void>;
}

interface SessionEntry {
  readonly transport: StreamableHTTPServerTransport;
  readonly mcp: McpServerHandle;
}

function replyError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * Creates a Streamable HTTP request handler for a toolkit, to mount on an existing app.
 * A POST without `Mcp-Session-Id` starts a session (it must be `initialize`); later requests
 * carry the id; `DELETE` ends the session.
 *
 * @example
 * // Express (express.json() is optional)
 * const mcp = createMcpHttpHandler(toolkit, { name: 'app', version: '1.0.0' });
 * app.all('/mcp', (req, res) => mcp(req, res, req.body));
 * // Fastify
 * fastify.all('/mcp', (request, reply) => { reply.hijack(); mcp(request.raw, reply.raw, request.body); });
 * // on shutdown
 * await mcp.close();
 */
export function createMcpHttpHandler(toolkit: Toolkit, options: McpHttpOptions): McpHttpHandler {
  const { enableJsonResponse, allowedHosts, allowedOrigins, transportOptions, ...serverOptions } = options;
  const sessions = new Map<string, SessionEntry>();
  const pending = new Set<SessionEntry>();
  const protect = (allowedHosts?.length ?? 0) > 0 || (allowedOrigins?.length ?? 0) > 0;

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const { StreamableHTTPServerTransport } = loadStreamableHttp();
    const mcp = createMcpServer(toolkit, { ...serverOptions, sessions: serverOptions.sessions ?? true });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...(transportOptions ?? {}),
      ...(enableJsonResponse !== undefined ? { enableJsonResponse } : {}),
      ...(allowedHosts ? { allowedHosts } : {}),
      ...(allowedOrigins ? { allowedOrigins } : {}),
      ...(protect ? { enableDnsRebindingProtection: true } : {}),
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, entry);
        pending.delete(entry);
        bindMcpSession(mcp, sessionId);
      },
    });
    const entry: SessionEntry = { transport, mcp };
    pending.add(entry);
    transport.onclose = () => {
      pending.delete(entry);
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
    // not an initialize request: the transport answered with an error; drop what was made for it
    if (transport.sessionId === undefined) await mcp.close();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const entry = sessions.get(sessionId);
      if (!entry) return replyError(res, 404, -32001, `Session not found: '${sessionId}'. Start a new session with an initialize request.`);
      return entry.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST') return replyError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required.');
    return startSession(req, res, body);
  };

  const handler = ((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    const body = parsedBody ?? (req as IncomingMessage & { body?: unknown }).body;
    handle(req, res, body).catch((error: unknown) => {
      replyError(res, 500, -32603, `Internal server error: ${error instanceof Error ? error.message : String(error)}`);
    });
  }) as McpHttpHandler;
  Object.defineProperty(handler, 'sessionCount', { get: () => sessions.size });
  handler.close = async () => {
    const entries = [...sessions.values(), ...pending];
    sessions.clear();
    pending.clear();
    await Promise.all(entries.map((e) => e.mcp.close().catch(() => undefined)));
  };
  return handler;
}

/**
 * Options of {@link serveMcpHttp}.
 *
 * @example
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', port: 3333 });
 */
export interface McpHttpServeOptions extends McpHttpOptions {
  /** The port (default `0`: any free port; read it from `url`). */
  port?: number;
  /** The interface to listen on (default `'127.0.0.1'`). */
  host?: string;
  /** The endpoint path (default `'/mcp'`); other paths answer 404. */
  path?: string;
}

/**
 * A running Streamable HTTP MCP server.
 *
 * @example
 * const server = await serveMcpHttp(toolkit, { name: 'app', version: '1.0.0' });
 * console.error(`MCP endpoint: ${server.url.href} (${server.handler.sessionCount} sessions)`);
 * await server.close();
 */
export interface McpHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  /** The MCP request handler (its `sessionCount` says how many clients are connected). */
  readonly handler: McpHttpHandler;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Serves a toolkit over Streamable HTTP on `node:http`: one MCP session (and, by default, one
 * toolkit session) per client. On a loopback host, DNS-rebinding protection accepts only
 * loopback `Host` headers.
 *
 * @example
 * const http = await serveMcpHttp(toolkit, { name: 'app', version: '1.0.0' });
 * const client = new Client({ name: 'c', version: '1' });
 * await client.connect(new StreamableHTTPClientTransport(http.url));
 * // …
 * await http.close();
 */
export async function serveMcpHttp(toolkit: Toolkit, options: McpHttpServeOptions): Promise<McpHttpServer> {
  const { port = 0, host = '127.0.0.1', path = '/mcp', ...handlerOptions } = options;
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = new URL(`http://${urlHost}:${actualPort}${path}`);
  const allowedHosts =
    handlerOptions.allowedHosts ?? (LOOPBACK.has(host) ? [`127.0.0.1:${actualPort}`, `localhost:${actualPort}`, `[::1]:${actualPort}`] : undefined);
  const handler = createMcpHttpHandler(toolkit, { ...handlerOptions, ...(allowedHosts ? { allowedHosts } : {}) });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const pathname = (req.url ?? '/').split('?', 1)[0];
    if (pathname !== path) return replyError(res, 404, -32601, `Not found: the MCP endpoint is ${path}.`);
    handler(req, res);
  });
  let closing: Promise<void> | undefined;
  return {
    url,
    handler,
    close: () =>
      (closing ??= (async () => {
        await handler.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })()),
  };
}
