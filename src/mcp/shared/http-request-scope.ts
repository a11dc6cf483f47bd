import { AsyncLocalStorage } from 'node:async_hooks';
import type { ServerResponse } from 'node:http';
import type { McpPrincipal } from './mcp-principal';

/** @internal What the HTTP handler knows about the request whose JSON-RPC messages are being handled. */
export interface HttpRequestScope {
  /** The response that carries this request's SSE stream (progress notifications go there). */
  readonly response: ServerResponse;
  /** The principal `authenticate` returned for this request, if authentication is on. */
  readonly principal?: McpPrincipal;
}

/**
 * @internal The scope of the HTTP request being handled: the SDK transport gives handlers only
 * headers and `authInfo`, so the handler runs the transport inside this scope and the server's
 * `tools/call` reads the response (for backpressure) and the principal (for context) from it.
 */
export const httpRequestScope = new AsyncLocalStorage<HttpRequestScope>();
