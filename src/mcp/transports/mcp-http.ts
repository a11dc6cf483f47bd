import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { boundInput, quoteInput } from '../../utils/quote-input';
import type { Toolkit } from '../../toolkit/toolkit';
import { httpRequestScope } from '../shared/http-request-scope';
import { isInitializeRequest, requestBody, type BodyOutcome, type BodyRefusal } from './mcp-http-body';
import { isLoopback, McpHttpGuard } from './mcp-http-guard';
import { refusalWatcher, warnExposed } from './mcp-http-logging';
import { checkedLimits, type McpHttpOptions } from './mcp-http-options';
import { ModernHttp } from './mcp-http-modern';
import { McpHttpResumability } from './mcp-http-resumability';
import { McpHttpSessions, ownerOf, type McpHttpSession } from './mcp-http-sessions';
import { ambiguousPrincipal, ambiguousPrincipalWarning, McpAuthRefusal, type McpAuthenticate, type McpPrincipal } from '../shared/mcp-principal';
import { bindMcpSession, createMcpServer } from '../server/mcp-server';

type StreamableHttpModule = typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');

/** Loaded on first use: stdio-only users never load the HTTP transport. */
let streamableHttp: StreamableHttpModule | undefined;
function loadStreamableHttp(): StreamableHttpModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (streamableHttp ??= require('@modelcontextprotocol/sdk/server/streamableHttp.js') as StreamableHttpModule);
}

/** The `Retry-After` (seconds) sent with a 503 when the session cap is reached. */
const RETRY_AFTER_S = 30;
/** The longest internal error text a 500 answer quotes (it may hold a piece of the request). */
const MAX_ERROR_CHARS = 200;

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
  /** The events the built-in event store keeps for reconnects (`resumability`), and their size in bytes; zeros without it. */
  readonly storedEvents: { readonly events: number; readonly bytes: number };
  /** Closes every session (their SSE streams included) and stops the idle sweep. */
  close(): Promise<void>;
}

function replyError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Answers a POST whose body could not be read; a body not read to its end closes the connection. */
function replyBodyRefusal(res: ServerResponse, refusal: BodyRefusal): void {
  replyError(res, refusal.status, refusal.code, refusal.message, refusal.status === 400 && (refusal.code === -32700 || refusal.code === -32602) ? {} : { connection: 'close' });
}

/** What `authenticate` made of a request: its principal (none when authentication is off), or why it is refused. */
type Authentication = { readonly principal: McpPrincipal | undefined } | { readonly refusal: McpAuthRefusal | undefined };

/**
 * Authenticates `req`. A principal without a non-empty string id is refused like a failed
 * authentication (and reported once through `warn`): it would make every caller one principal.
 */
async function authenticateRequest(authenticate: McpAuthenticate | undefined, req: IncomingMessage, warn: (why: string) => void): Promise<Authentication> {
  if (!authenticate) return { principal: undefined };
  let principal: McpPrincipal | null | undefined;
  try {
    principal = await authenticate(req);
  } catch (error) {
    return { refusal: error instanceof McpAuthRefusal ? error : undefined };
  }
  if (principal === null || principal === undefined) return { refusal: undefined };
  const id: unknown = (principal as { id?: unknown }).id;
  if (typeof id === 'string' && id !== '') return { principal };
  warn('authenticate returned a principal without an id (return an McpPrincipal whose id names the user)');
  return { refusal: ambiguousPrincipal() };
}

function replyUnauthorized(req: IncomingMessage, res: ServerResponse, refusal: McpAuthRefusal | undefined): void {
  const description = refusal?.challenge ?? 'The credentials are missing, malformed, expired or not accepted';
  const challenge = req.headers.authorization === undefined && refusal === undefined ? 'Bearer' : `Bearer error="invalid_token", error_description="${description}"`;
  const message = refusal?.clientMessage ?? 'Unauthorized: send valid credentials (e.g. an Authorization: Bearer token) with every request.';
  replyError(res, 401, -32001, message, { 'www-authenticate': challenge });
}

/**
 * Creates a Streamable HTTP request handler for a toolkit, to mount on an existing app.
 * MCP 2025-11-25: a POST without `Mcp-Session-Id` starts a session (it must be `initialize`); later
 * requests carry the id; `DELETE` ends the session. MCP 2026-07-28 (with `@modelcontextprotocol/server`
 * installed): a request whose `_meta` claims it is answered on its own, without a session, from the
 * caller's view (see the README's "Two revisions from one endpoint"). Every request passes the `Host`/`Origin` checks and
 * `authenticate` first (without `allowedHosts`, a request that arrived on a loopback interface
 * must name a loopback host on its port: behind a reverse proxy, set `allowedHosts`); POST bodies
 * are read within `bodyTimeoutMs`; sessions are capped (`maxSessions`, `maxSessionsPerPrincipal`)
 * and expire when idle (`sessionIdleTimeoutMs`). Serving a request that arrived on a non-loopback
 * interface without `authenticate` emits one process warning (code
 * `TOOLWRIGHT_MCP_HTTP_UNAUTHENTICATED`). Throws `INVALID_OPTIONS` for a limit that is not a whole
 * number >= 1 (or `Infinity`), a `stateSecret` (or `TOOLWRIGHT_MCP_STATE_SECRET`) shorter than 32
 * bytes, or a `stateStore` / `bus` without its methods.
 *
 * @example
 * // Express (express.json() is optional)
 * const mcp = createMcpHttpHandler(toolkit, { name: 'app', version: '1.0.0', allowedHosts: ['mcp.example.com'],
 *   authenticate: bearerAuth((token) => tokens.get(token)) });
 * app.all('/mcp', (req, res) => mcp(req, res, req.body));
 * // Fastify
 * fastify.all('/mcp', (request, reply) => { reply.hijack(); mcp(request.raw, reply.raw, request.body); });
 * // on shutdown
 * await mcp.close();
 */
export function createMcpHttpHandler(toolkit: Toolkit, options: McpHttpOptions): McpHttpHandler {
  return buildHandler(toolkit, options, false);
}

/**
 * {@link createMcpHttpHandler}; `listenerKnown`: `serveMcpHttp` knows the address it listens on
 * and gives the exposure warning itself, the handler does not look at each request's.
 */
function buildHandler(toolkit: Toolkit, options: McpHttpOptions, listenerKnown: boolean): McpHttpHandler {
  const {
    enableJsonResponse,
    allowedHosts,
    allowedOrigins,
    authenticate,
    maxSessions,
    maxSessionsPerPrincipal,
    sessionIdleTimeoutMs,
    bodyTimeoutMs,
    resumability,
    transportOptions,
    stateSecret,
    stateStore,
    requestStateTtlMs,
    bus,
    ...serverOptions
  } = options;
  const limits = checkedLimits(options);
  const modern = new ModernHttp(toolkit, { ...serverOptions, authenticated: authenticate !== undefined, sessionTtlMs: limits.sessionIdleTimeoutMs, maxStreams: limits.maxSessions, maxStreamsPerOwner: limits.maxSessionsPerPrincipal, bus, stateSecret, stateStore, requestStateTtlMs });
  const resumable = resumability ? new McpHttpResumability(resumability) : undefined;
  const sessions = new McpHttpSessions(limits.maxSessions, limits.maxSessionsPerPrincipal, limits.sessionIdleTimeoutMs);
  const guard = new McpHttpGuard(allowedHosts, allowedOrigins);
  // the handler reads every body itself (limits.maxBodyBytes); the SDK gets them parsed
  const sdkTransportOptions = { ...transportOptions };
  delete sdkTransportOptions.maxRequestBodySize;
  let exposureWarned = listenerKnown || authenticate !== undefined;
  const warnAmbiguous = ambiguousPrincipalWarning();
  const watch = refusalWatcher(serverOptions);

  /** The POST body: the one parsed before the handler, or read here within the deadline and size bound. */
  const bodyOf = (req: IncomingMessage, parsed: unknown): Promise<BodyOutcome> => requestBody(req, parsed, limits.maxBodyBytes, limits.bodyTimeoutMs);

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown, principal: McpPrincipal | undefined): Promise<void> => {
    if (!isInitializeRequest(body)) {
      return replyError(res, 400, -32600, 'Bad Request: a POST without an Mcp-Session-Id header must be an initialize request; send the Mcp-Session-Id its answer gave with every later request.');
    }
    const owner = ownerOf(principal?.id, req.socket.remoteAddress);
    const refused = sessions.admit(owner);
    if (refused === 'owner') {
      return replyError(res, 429, -32000, `Too many sessions: this client already has ${sessions.maxPerOwner} MCP sessions in use (the server's maxSessionsPerPrincipal). End sessions you no longer use (DELETE), or retry later.`, {
        'retry-after': String(RETRY_AFTER_S),
      });
    }
    if (refused === 'server') {
      return replyError(res, 503, -32000, `Server busy: the limit of ${sessions.maxSessions} MCP sessions is reached. Retry later, and end sessions you no longer use (DELETE).`, {
        'retry-after': String(RETRY_AFTER_S),
      });
    }
    const { StreamableHTTPServerTransport } = loadStreamableHttp();
    const mcp = createMcpServer(toolkit, { ...serverOptions, sessions: serverOptions.sessions ?? true });
    const id = randomUUID();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      ...sdkTransportOptions,
      ...(enableJsonResponse !== undefined ? { enableJsonResponse } : {}),
      ...(resumable ? resumable.transportOptions(id) : {}),
      sessionIdGenerator: () => id,
      onsessioninitialized: (sessionId) => {
        sessions.initialized(session, sessionId);
        bindMcpSession(mcp, sessionId);
      },
    });
    const session: McpHttpSession = { transport, mcp, principalId: principal?.id, owner, lastSeen: Date.now(), busy: 0, streams: 0 };
    sessions.add(session);
    transport.onclose = () => {
      sessions.remove(session);
      resumable?.release(id);
    };
    sessions.touch(session, res, false);
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
    // the transport refused the initialize (e.g. its Accept header): drop what was made for it
    if (transport.sessionId === undefined) await mcp.close();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, parsed: unknown): Promise<void> => {
    if (!exposureWarned && !isLoopback(req.socket.localAddress)) {
      exposureWarned = true;
      warnExposed(`(serving ${req.socket.localAddress ?? 'an unknown address'})`);
    }
    const refusal = guard.refusal(req);
    if (refusal !== undefined) return replyError(res, 403, -32000, refusal);
    const authentication = await authenticateRequest(authenticate, req, warnAmbiguous);
    if ('refusal' in authentication) return replyUnauthorized(req, res, authentication.refusal);
    const { principal } = authentication;
    if (principal?.authInfo && (req as { auth?: unknown }).auth === undefined) (req as { auth?: unknown }).auth = principal.authInfo;
    const scope = { response: res, ...(principal ? { principal } : {}) };
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId === undefined) {
      if (req.method !== 'POST') return replyError(res, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required.');
      const read = await bodyOf(req, parsed);
      if ('refusal' in read) return replyBodyRefusal(res, read.refusal);
      if (await modern.serve(req, res, read.body, principal)) return;
      return httpRequestScope.run(scope, () => startSession(req, res, read.body, principal));
    }
    const session = sessions.get(sessionId);
    // another principal's session is answered as an unknown one: ids are not probed through it
    if (!session || session.principalId !== principal?.id) {
      return replyError(res, 404, -32001, `Session not found: ${quoteInput(sessionId, 100)}. Start a new session with an initialize request.`);
    }
    const unresumable = resumable?.refusal(req, sessionId);
    if (unresumable !== undefined) return replyError(res, 400, -32000, unresumable);
    let body: unknown = parsed;
    if (req.method === 'POST') {
      const read = await bodyOf(req, parsed);
      if ('refusal' in read) return replyBodyRefusal(res, read.refusal);
      body = read.body;
    }
    // a GET stream is not activity, whether it resumes (Last-Event-ID) or not: the calls it waits for are
    sessions.touch(session, res, req.method === 'GET');
    return httpRequestScope.run(scope, () => session.transport.handleRequest(req, res, body));
  };

  const handler = ((req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => {
    const body = parsedBody ?? (req as IncomingMessage & { body?: unknown }).body;
    watch?.(req, res);
    handle(req, res, body).catch((error: unknown) => {
      replyError(res, 500, -32603, `Internal server error: ${boundInput(error instanceof Error ? error.message : String(error), MAX_ERROR_CHARS)}`);
    });
  }) as McpHttpHandler;
  Object.defineProperty(handler, 'sessionCount', { get: () => sessions.size });
  Object.defineProperty(handler, 'storedEvents', { get: () => resumable?.stats ?? { events: 0, bytes: 0 } });
  handler.close = async () => {
    await Promise.all([modern.close(), ...sessions.drain().map((s) => s.mcp.close().catch(() => undefined))]);
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
  port?: number | undefined;
  /** The interface to listen on (default `'127.0.0.1'`). */
  host?: string | undefined;
  /** The endpoint path (default `'/mcp'`); other paths answer 404. */
  path?: string | undefined;
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

/**
 * Serves a toolkit over Streamable HTTP on `node:http`: one MCP session (and, by default, one
 * toolkit session) per client. On a loopback host, DNS-rebinding protection accepts only
 * loopback `Host` headers. Listening beyond loopback (e.g. `host: '0.0.0.0'`) without
 * `authenticate` emits one process warning, code `TOOLWRIGHT_MCP_HTTP_UNAUTHENTICATED`.
 * Throws `INVALID_OPTIONS` for invalid limits (see {@link createMcpHttpHandler}).
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
  const { bodyTimeoutMs } = checkedLimits(handlerOptions); // before listening: invalid options leave no server behind
  const server = createServer();
  // a client's headers must arrive within the body's deadline too (Node's default is 60 s)
  if (Number.isFinite(bodyTimeoutMs)) server.headersTimeout = Math.min(server.headersTimeout, bodyTimeoutMs);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const actualPort = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = new URL(`http://${urlHost}:${actualPort}${path}`);
  const handler = buildHandler(toolkit, handlerOptions, true);
  if (!isLoopback(host) && !handlerOptions.authenticate) warnExposed(url.href);
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
        await stop();
      })()),
  };
}
