import { checkedLogger } from '../../model/logger';
import type { StreamableHTTPServerTransportOptions } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { McpStateStore } from '../server/modern/state-store';
import { checkedResumability, type McpResumabilityOptions } from './mcp-http-resumability';
import { checkLimit } from '../shared/mcp-limits';
import { checkModernOptions } from '../server/modern/state-secret';
import type { McpAuthenticate } from '../shared/mcp-principal';
import type { McpServerOptions } from '../server/mcp-server';
import { checkTaskOptions } from '../server/mcp-tasks';

/** Default of {@link McpHttpOptions.maxSessions}. */
const DEFAULT_MAX_SESSIONS = 1_000;
/** Default of {@link McpHttpOptions.sessionIdleTimeoutMs}: 30 minutes. */
const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
/** Default of {@link McpHttpOptions.maxSessionsPerPrincipal}: this share of `maxSessions`. */
const DEFAULT_PRINCIPAL_SHARE = 10;
/** Default of {@link McpHttpOptions.bodyTimeoutMs}. */
const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** The largest request body read when `transportOptions.maxRequestBodySize` is not set (the SDK's default, 4 MiB). */
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/**
 * Options of `createMcpHttpHandler`: the server options plus Streamable HTTP settings.
 * `sessions` defaults to `true` here: every HTTP client gets its own toolkit session.
 *
 * @example
 * createMcpHttpHandler(toolkit, { name: 'app', version: '1.0.0', allowedHosts: ['localhost'],
 *   authenticate: bearerAuth((token) => tokens.get(token)), maxSessions: 200, sessionIdleTimeoutMs: 10 * 60_000 });
 */
export interface McpHttpOptions extends McpServerOptions {
  /** Answer POSTs with plain JSON instead of an SSE stream (default `false`). */
  enableJsonResponse?: boolean | undefined;
  /**
   * Accepted `Host` headers (DNS-rebinding protection): `'localhost'` accepts that host on any
   * port, `'localhost:3000'` only on that port. Others get HTTP 403. Default: a request that
   * arrived on a loopback interface must name `localhost`, `127.0.0.1`, `[::1]` (or the address
   * it arrived on) with the port it arrived on, wherever the handler is mounted; on other
   * interfaces any host. Behind a reverse proxy that forwards the public `Host`, list it here.
   */
  allowedHosts?: readonly string[] | undefined;
  /**
   * Origins that browsers may call the server from, e.g. `'https://app.example.com'`. A request
   * without an `Origin` header (not a browser) is accepted; one from the server's own origin
   * (the host and port its `Host` header names) too; any other `Origin` gets HTTP 403.
   * Default: none but the server's own.
   */
  allowedOrigins?: readonly string[] | undefined;
  /**
   * Authenticates every request: a principal, or a refusal (`undefined`/`null`, a throw or a
   * rejection) answered with HTTP 401 and `WWW-Authenticate: Bearer`. A session is bound to the
   * principal that created it: a request for it with another principal's credentials gets 404,
   * as an unknown session does. The principal reaches tools as call context
   * (`McpPrincipal`). Use `bearerAuth` for `Authorization: Bearer` tokens.
   * Default: none (anyone who can reach the endpoint may call the tools).
   */
  authenticate?: McpAuthenticate | undefined;
  /**
   * The most MCP sessions open at once (default 1,000). A session is counted once its complete,
   * valid `initialize` request has been read. At the cap, sessions idle too long are closed first;
   * then the new session replaces its own principal's least recently used session that has nothing
   * in flight and no GET stream open, if it has one (a client that lost its sessions without
   * ending them gets back in); otherwise it is refused with HTTP 503 (`Retry-After`) and a
   * JSON-RPC error. Other principals' sessions are never evicted. `Infinity`: no cap. The same cap
   * bounds the 2026-07-28 `subscriptions/listen` streams open at once (beyond it: HTTP 503).
   */
  maxSessions?: number | undefined;
  /**
   * The most MCP sessions one principal holds at once (with `authenticate`, per principal id;
   * without it, per client address: an IPv4 address or an IPv6 /64 network, so clients behind
   * one proxy or NAT share a quota). Beyond it, the principal's least recently used session with
   * nothing in flight and no GET stream open is closed to make room; without one, the new
   * session is refused with HTTP 429 (`Retry-After`). Default: a tenth of `maxSessions` (100 at
   * the default 1,000), at least 1; `Infinity`: no per-principal cap. The same cap bounds the
   * 2026-07-28 `subscriptions/listen` streams one principal (or address) holds open (beyond it: HTTP 429).
   */
  maxSessionsPerPrincipal?: number | undefined;
  /**
   * How long a POST's body may take to arrive, from when the handler gets the request (default
   * 10 seconds). A slower body gets HTTP 408 and its connection is closed; no session is counted
   * for it. The body's size is bounded by `transportOptions.maxRequestBodySize` (default 4 MiB,
   * HTTP 413). A body parsed before the handler (`req.body`, e.g. `express.json()`) is the app's
   * to bound. `Infinity`: no deadline.
   */
  bodyTimeoutMs?: number | undefined;
  /**
   * Close a session (and its toolkit session) after this long without activity: no request
   * started or ended, none in flight and no tool call or task running (an open GET event stream,
   * with or without `Last-Event-ID`, is not activity; a call that let its stream go with
   * `closeStream()` is). Default 30 minutes; `Infinity`: never. Its client gets 404 next time and
   * starts a new session.
   */
  sessionIdleTimeoutMs?: number | undefined;
  /**
   * Resumable SSE streams (SEP-1699): `true` keeps sent messages in a bounded in-memory event store
   * so a client can reconnect with `Last-Event-ID` and get what it missed, and lets a tool close
   * its stream mid-call (`ToolEmitter.closeStream()`) for the client to poll; an object sets the
   * store's bounds, the `retry` delay or your own store ({@link McpResumabilityOptions}).
   * Default: off (nothing is kept; a broken stream loses what was in flight).
   */
  resumability?: boolean | McpResumabilityOptions | undefined;
  /**
   * The key that signs state a 2026-07-28 client carries from one request to the next (at least
   * 32 bytes; a string counts its UTF-8 bytes). Every process serving one endpoint needs the same
   * key. Default: the environment variable `TOOLWRIGHT_MCP_STATE_SECRET`, else a random key per
   * process (enough for one process). Never sent to clients.
   */
  stateSecret?: string | Uint8Array | undefined;
  /**
   * Where 2026-07-28 serving keeps what outlives one HTTP request; processes of one fleet share
   * one store. Default: `memoryMcpStateStore()` (this process only).
   */
  stateStore?: McpStateStore | undefined;
  /**
   * How long the `requestState` of a 2026-07-28 round trip stays valid, in ms: the time a client
   * (and its user) has to answer a tool's questions. Default: 10 minutes.
   */
  requestStateTtlMs?: number | undefined;
  /**
   * The event bus `subscriptions/listen` streams of 2026-07-28 clients follow (the SDK's
   * `ServerEventBus`); toolkit toggles are published on it as list-changed events. A fleet passes
   * one shared over its pub/sub. Default: an in-process bus per handler.
   */
  bus?: ServerEventBus | undefined;
  /**
   * Further options of the SDK's `StreamableHTTPServerTransport` (its deprecated Host/Origin
   * options are replaced by the ones above, `eventStore`/`retryInterval` by `resumability`).
   */
  transportOptions?: Omit<
    StreamableHTTPServerTransportOptions,
    | 'sessionIdGenerator'
    | 'onsessioninitialized'
    | 'onsessionclosed'
    | 'allowedHosts'
    | 'allowedOrigins'
    | 'enableDnsRebindingProtection'
    | 'eventStore'
    | 'retryInterval'
  > | undefined;
}

/** @internal The limits of `options`, defaults applied; throws `INVALID_OPTIONS` for invalid ones (the `tasks`, `resumability`, `stateSecret`, `stateStore` and `bus` ones too). */
export function checkedLimits(
  options: Pick<
    McpHttpOptions,
    'maxSessions' | 'maxSessionsPerPrincipal' | 'sessionIdleTimeoutMs' | 'bodyTimeoutMs' | 'resumability' | 'tasks' | 'maxConcurrentCalls' | 'transportOptions' | 'stateSecret' | 'stateStore' | 'bus' | 'logger'
  >,
): { maxSessions: number; maxSessionsPerPrincipal: number; sessionIdleTimeoutMs: number; bodyTimeoutMs: number; maxBodyBytes: number } {
  if (options.tasks) checkTaskOptions(options.tasks);
  checkedLogger(options.logger, 'createMcpHttpHandler({ logger })');
  if (options.resumability) checkedResumability(options.resumability);
  checkModernOptions(options);
  if (options.maxConcurrentCalls !== undefined) checkLimit('maxConcurrentCalls', options.maxConcurrentCalls);
  const maxSessions = checkLimit('maxSessions', options.maxSessions ?? DEFAULT_MAX_SESSIONS);
  return {
    maxSessions,
    maxSessionsPerPrincipal: checkLimit('maxSessionsPerPrincipal', options.maxSessionsPerPrincipal ?? Math.ceil(maxSessions / DEFAULT_PRINCIPAL_SHARE)),
    sessionIdleTimeoutMs: checkLimit('sessionIdleTimeoutMs', options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS),
    bodyTimeoutMs: checkLimit('bodyTimeoutMs', options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS),
    maxBodyBytes: checkLimit('transportOptions.maxRequestBodySize', options.transportOptions?.maxRequestBodySize ?? DEFAULT_MAX_BODY_BYTES),
  };
}
