import type { StreamableHTTPServerTransportOptions } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolkitError } from '../errors';
import { checkedResumability, type McpResumabilityOptions } from './mcp-http-resumability';
import type { McpAuthenticate } from './mcp-principal';
import type { McpServerOptions } from './mcp-server';
import { checkTaskOptions } from './mcp-tasks';

/** Default of {@link McpHttpOptions.maxSessions}. */
const DEFAULT_MAX_SESSIONS = 1_000;
/** Default of {@link McpHttpOptions.sessionIdleTimeoutMs}: 30 minutes. */
const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
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
   * port, `'localhost:3000'` only on that port. Others get HTTP 403. Default: any host
   * (`serveMcpHttp` on a loopback address: the loopback names on its port).
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
   * The most MCP sessions open at once (default 1,000). A new session beyond it is refused with
   * HTTP 503 (`Retry-After`) and a JSON-RPC error, after sessions idle too long were closed:
   * existing clients are never evicted to make room. `Infinity`: no cap.
   */
  maxSessions?: number | undefined;
  /**
   * Close a session (and its toolkit session) after this long without requests: no request
   * started or ended, none in flight (an open GET event stream does not count, unless it resumes a
   * call's stream with `Last-Event-ID`). Default 30 minutes; `Infinity`: never. Its client gets 404
   * next time and starts a new session.
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

/** `value` when it is a whole number >= 1 or `Infinity`; throws `INVALID_OPTIONS` otherwise. */
function checkLimit(name: string, value: number): number {
  if (value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1)) return value;
  throw new ToolkitError('INVALID_OPTIONS', `MCP HTTP option ${name} must be a whole number >= 1 (or Infinity for no limit), got ${String(value)}.`);
}

/** @internal The session limits of `options`, defaults applied; throws `INVALID_OPTIONS` for invalid ones (the `tasks` and `resumability` ones too). */
export function checkedLimits(
  options: Pick<McpHttpOptions, 'maxSessions' | 'sessionIdleTimeoutMs' | 'resumability' | 'tasks'>,
): { maxSessions: number; sessionIdleTimeoutMs: number } {
  if (options.tasks) checkTaskOptions(options.tasks);
  if (options.resumability) checkedResumability(options.resumability);
  return {
    maxSessions: checkLimit('maxSessions', options.maxSessions ?? DEFAULT_MAX_SESSIONS),
    sessionIdleTimeoutMs: checkLimit('sessionIdleTimeoutMs', options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS),
  };
}
