import { randomUUID } from 'node:crypto';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type CallToolResult, type JSONRPCRequest, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutionContext } from '../common/execution-context';
import type { ToolResult } from '../common/tool-types';
import type { CallOptions } from '../executor/call-executor';
import type { Toolkit } from '../toolkit/toolkit';
import type { ToolView } from '../toolkit/tool-view';
import { errorCallResult, toCallToolResult } from './call-result';
import { httpRequestScope } from './http-request-scope';
import type { McpCallChannels } from './mcp-call-channel';
import { principalContext, type McpPrincipal } from './mcp-principal';
import type { McpToolList } from './mcp-tool-list';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * What a `context` factory of `McpServerOptions` learns about the request.
 *
 * @example
 * createMcpServer(toolkit, { name: 'app', version: '1.0.0',
 *   context: ({ authInfo }) => ToolExecutionContext.of(new UserContext(authInfo?.clientId ?? 'anonymous')) });
 */
export interface McpRequestInfo {
  /** The MCP session (Streamable HTTP), if any. */
  readonly sessionId?: string | undefined;
  /** Who is calling, when the HTTP transport was given auth info (`req.auth`). */
  readonly authInfo?: RequestHandlerExtra<ServerRequest, ServerNotification>['authInfo'] | undefined;
  /** The HTTP request's headers and URL, when served over HTTP. */
  readonly requestInfo?: RequestHandlerExtra<ServerRequest, ServerNotification>['requestInfo'] | undefined;
  /** The request's `_meta`. */
  readonly meta?: Record<string, unknown> | undefined;
  /** Who is calling, when the HTTP handler's `authenticate` option established it. */
  readonly principal?: McpPrincipal | undefined;
}

/** @internal What {@link McpToolCalls} reads of the server's options. */
export interface McpCallSettings {
  /** Call-level context objects for every call, or a factory that sees the request. */
  readonly context?: ToolExecutionContext | ((request: McpRequestInfo) => ToolExecutionContext | undefined) | undefined;
}

/**
 * @internal The context of an MCP request: the server's `context` option's (or what its factory
 * gives for the request), with the authenticated HTTP principal (`principal`, by default the one
 * of the request being served) over it.
 */
export function requestContext(
  settings: McpCallSettings,
  extra: Extra,
  principal: McpPrincipal | undefined = httpRequestScope.getStore()?.principal,
): ToolExecutionContext | undefined {
  const { context } = settings;
  const own =
    typeof context !== 'function'
      ? context
      : context({
          ...(extra.sessionId !== undefined ? { sessionId: extra.sessionId } : {}),
          ...(extra.authInfo !== undefined ? { authInfo: extra.authInfo } : {}),
          ...(extra.requestInfo !== undefined ? { requestInfo: extra.requestInfo } : {}),
          ...(extra._meta !== undefined ? { meta: extra._meta } : {}),
          ...(principal !== undefined ? { principal } : {}),
        });
  return principal ? ToolExecutionContext.merge(own, principalContext(principal)) : own;
}

/**
 * @internal The `tools/call` side of one MCP connection: runs each call through the view the
 * connection serves (with the `context` option's objects and the HTTP principal, the client's
 * cancellation, progress, log messages and requests to the client), under a call id no other connection uses, and answers with an MCP
 * result — every fault an `isError` result, never a JSON-RPC error.
 *
 * @example
 * const calls = new McpToolCalls(toolkit, options, list, (sessionId) => view);
 * server.fallbackRequestHandler = (request, extra) => calls.fast(request, extra);
 */
export class McpToolCalls {
  /** After a call sent progress, ping the client before the response (see `progressBarrier`). */
  barrier = true;
  /**
   * Prefixes the call ids of this connection: JSON-RPC request ids count from 0 in every client,
   * and a call id names its call toolkit-wide (an `AsyncTool` completion, an approval).
   */
  private readonly callPrefix = `mcp_${randomUUID().slice(0, 8)}_`;

  constructor(
    private readonly toolkit: Toolkit,
    private readonly settings: McpCallSettings,
    private readonly list: McpToolList,
    private readonly viewFor: (sessionId: string | undefined) => ToolView,
    private readonly channels: McpCallChannels,
  ) {}

  /** tools/call without the SDK's zod passes: toolwright checks what it reads itself. */
  fast(request: JSONRPCRequest, extra: Extra): Promise<CallToolResult> {
    const params = request.params as Record<string, unknown> | undefined;
    const name = params?.name;
    if (typeof name !== 'string') return Promise.reject(new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string.'));
    const args = params!.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return Promise.reject(new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.arguments must be an object.'));
    }
    const meta = params!._meta;
    const token = typeof meta === 'object' && meta !== null ? (meta as { progressToken?: unknown }).progressToken : undefined;
    return this.call(name, (args as Record<string, unknown> | undefined) ?? {}, typeof token === 'string' || typeof token === 'number' ? token : undefined, extra);
  }

  /** Runs one call of tool `name`; `token` is the client's progress token, if it wants progress. */
  call(name: string, args: Record<string, unknown>, token: string | number | undefined, extra: Extra): Promise<CallToolResult> {
    const failed = (e: unknown) => errorCallResult(`Tool '${name}' failed: ${e instanceof Error ? e.message : String(e)}`);
    try {
      const view = this.viewFor(extra.sessionId);
      const options: CallOptions = { signal: extra.signal };
      const scope = httpRequestScope.getStore();
      if (this.settings.context !== undefined || scope?.principal) {
        const context = this.contextFor(extra, scope?.principal);
        if (context) options.context = context;
      }
      const channel = this.channels.open(options, extra, token, scope?.response);
      const call = view.callTool({ id: `${this.callPrefix}${String(extra.requestId)}`, name, arguments: args }, options);
      // progress and log messages must reach the client before the response, which drops late progress
      return call.then(
        (result) => (channel.idle ? this.toResult(name, result) : channel.flush(this.barrier).then(() => this.toResult(name, result))),
        failed,
      );
    } catch (e) {
      return Promise.resolve(failed(e));
    }
  }

  /** The call context: the `context` option's, with the authenticated principal over it. */
  private contextFor(extra: Extra, principal: McpPrincipal | undefined): ToolExecutionContext | undefined {
    return requestContext(this.settings, extra, principal);
  }

  private toResult(name: string, result: ToolResult): CallToolResult {
    if (result.isError) return toCallToolResult(result, undefined, name);
    const tool = this.toolkit.getTool(name);
    return toCallToolResult(result, tool ? this.list.shapeOf(tool) : undefined, name);
  }
}
