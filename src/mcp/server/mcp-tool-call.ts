import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type CreateTaskResult,
  type JSONRPCRequest,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutionContext } from '../../model/execution-context';
import { boundInput, quoteInput } from '../../utils/quote-input';
import { errorResult } from '../../model/results';
import type { ToolResult } from '../../model/tool-types';
import type { CallOptions } from '../../executor/executor-parts';
import type { Toolkit } from '../../toolkit/toolkit';
import type { ToolView } from '../../toolkit/tool-view';
import { errorCallResult, failedCallResult, toCallToolResult } from './call-result';
import { httpRequestScope } from '../shared/http-request-scope';
import type { RequestSlots } from './request-slots';
import type { McpCallChannel, McpCallChannels } from './mcp-call-channel';
import { principalContext, type McpPrincipal } from '../shared/mcp-principal';
import type { McpTaskHandle, McpTasks } from './mcp-tasks';
import type { McpToolList } from './mcp-tool-list';
import { MCP_TOOL_OPTIONS, taskSupportOf, type McpAgentTool, type McpToolOptions } from '../shared/mcp-tool-options';

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

/** The longest status message a task gets from an async result's text. */
const MAX_STATUS_CHARS = 500;


/** Resolves when `signal` fires (a task cancelled while its async tool had not completed). */
function whenAborted(signal: AbortSignal): Promise<ToolResult> {
  return new Promise((resolve) => {
    const stop = () => resolve(errorResult('The task was cancelled before the tool completed in the background.'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/** @internal What {@link McpToolCalls} reads of the server's options. */
export interface McpCallSettings {
  /** The most plain `tools/call` (and `resources/read`, `prompts/get`, `completion/complete`) requests running at once on this connection (default 32). */
  readonly maxConcurrentCalls?: number | undefined;
  /** MCP-only details by tool name (their `taskSupport`). */
  readonly tools?: Readonly<Record<string, McpToolOptions>> | undefined;
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
  return infoContext(settings, () => ({
    ...(extra.sessionId !== undefined ? { sessionId: extra.sessionId } : {}),
    ...(extra.authInfo !== undefined ? { authInfo: extra.authInfo } : {}),
    ...(extra.requestInfo !== undefined ? { requestInfo: extra.requestInfo } : {}),
    ...(extra._meta !== undefined ? { meta: extra._meta } : {}),
    ...(principal !== undefined ? { principal } : {}),
  }), principal);
}

/**
 * @internal The context of an MCP request of any revision: the `context` option's objects (its
 * factory called with what `info` gives), with the principal's context over them.
 */
export function infoContext(settings: McpCallSettings, info: () => McpRequestInfo, principal: McpPrincipal | undefined): ToolExecutionContext | undefined {
  const { context } = settings;
  const own = typeof context !== 'function' ? context : context(info());
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
  /** Tasks running now, and when the last one ended (`Date.now()`, 0 before any); plain calls hold {@link slots}. */
  private taskCalls = 0;
  private lastEnded = 0;

  constructor(
    private readonly toolkit: Toolkit,
    private readonly settings: McpCallSettings,
    private readonly list: McpToolList,
    private readonly viewFor: (sessionId: string | undefined) => ToolView,
    private readonly channels: McpCallChannels,
    private readonly tasks: McpTasks | undefined,
    /** The connection's slots, shared with its reads, prompts and completions. */
    private readonly slots: RequestSlots,
  ) {}

  /** tools/call without the SDK's zod passes: toolwright checks what it reads itself. */
  fast(request: JSONRPCRequest, extra: Extra): Promise<CallToolResult | CreateTaskResult> {
    const params = request.params as Record<string, unknown> | undefined;
    const name = params?.name;
    if (typeof name !== 'string') return Promise.reject(new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string.'));
    const args = params!.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return Promise.reject(new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.arguments must be an object.'));
    }
    const meta = params!._meta;
    const raw = typeof meta === 'object' && meta !== null ? (meta as { progressToken?: unknown }).progressToken : undefined;
    const token = typeof raw === 'string' || typeof raw === 'number' ? raw : undefined;
    const input = (args as Record<string, unknown> | undefined) ?? {};
    if (params!.task !== undefined) {
      try {
        return Promise.resolve(this.startTask(name, input, token, params!.task, extra));
      } catch (e) {
        return Promise.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    return this.call(name, input, token, extra);
  }

  /** What runs on this connection: calls and tasks, and when the last one ended (`Date.now()`, 0 before any). */
  get activity(): { readonly running: number; readonly lastEnded: number } {
    return { running: this.slots.count() + this.taskCalls, lastEnded: Math.max(this.lastEnded, this.slots.lastEnded) };
  }

  /**
   * Runs one call of tool `name`; `token` is the client's progress token, if it wants progress.
   * Beyond `maxConcurrentCalls` requests running on this connection, it is an error result at once.
   */
  call(name: string, args: Record<string, unknown>, token: string | number | undefined, extra: Extra): Promise<CallToolResult> {
    if (!this.slots.take()) {
      const max = this.slots.max;
      return Promise.resolve(
        errorCallResult(
          `Too many tool calls at once: ${max} requests of this MCP session are still running (the server's maxConcurrentCalls), so ${quoteInput(name)} did not run. ` +
            'Wait for one of them to finish, then call it again.',
        ),
      );
    }
    return this.run(name, args, token, extra).finally(() => this.slots.free());
  }

  /** One plain call, counted by {@link call}. */
  private run(name: string, args: Record<string, unknown>, token: string | number | undefined, extra: Extra): Promise<CallToolResult> {
    try {
      const scope = httpRequestScope.getStore();
      this.refuseTaskOnly(name);
      const { call, channel } = this.start(`${this.callPrefix}${String(extra.requestId)}`, name, args, token, extra, scope?.principal, scope?.response);
      // progress and log messages must reach the client before the response, which drops late progress
      return call.then(
        (result) => (channel.idle ? this.toResult(name, result) : channel.flush(this.barrier).then(() => this.toResult(name, result))),
        (e: unknown) => failedCallResult(name, e),
      );
    } catch (e) {
      if (e instanceof McpError) return Promise.reject(e);
      return Promise.resolve(failedCallResult(name, e));
    }
  }

  /**
   * Answers a task-augmented `tools/call` at once with the task it created; the call runs as a
   * normal one would (same view, context, principal, hooks), its requests to the client and
   * notifications marked as related to the task. An async result keeps the task working until
   * the tool's completion arrives, which becomes the task's result.
   */
  startTask(name: string, args: Record<string, unknown>, token: string | number | undefined, params: unknown, extra: Extra): CreateTaskResult {
    const tasks = this.tasks;
    if (tasks === undefined) throw new McpError(ErrorCode.MethodNotFound, 'This server runs no MCP tasks (its tasks option is false): call the tool without params.task.');
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.task must be an object ({ ttl?: number }).');
    }
    const tool = this.toolkit.getTool(name);
    if (tool !== undefined && taskSupportOf(tool, this.settings.tools?.[name]) === 'forbidden') {
      throw new McpError(ErrorCode.MethodNotFound, `Tool ${quoteInput(name)} cannot be called as an MCP task (its execution.taskSupport is 'forbidden'): call it without params.task.`);
    }
    const principal = httpRequestScope.getStore()?.principal;
    return tasks.start(params, principal?.id, (handle) => this.runTask(name, args, token, extra, principal, handle));
  }

  /** The call of one task: its result, or (for an async result) the tool's completion. */
  private async runTask(
    name: string,
    args: Record<string, unknown>,
    token: string | number | undefined,
    extra: Extra,
    principal: McpPrincipal | undefined,
    handle: McpTaskHandle,
  ): Promise<CallToolResult> {
    let completed!: (result: ToolResult) => void;
    const completion = new Promise<ToolResult>((resolve) => (completed = resolve));
    this.taskCalls++;
    try {
      const taskExtra = this.tasks!.extraFor(extra, handle);
      const { call, channel } = this.start(`${this.callPrefix}task_${handle.taskId}`, name, args, token, taskExtra, principal, undefined, completed);
      let result = await call;
      if (result.async && !result.isError) {
        handle.update('working', boundInput(result.forLLM, MAX_STATUS_CHARS));
        result = await Promise.race([completion, whenAborted(handle.signal)]);
      }
      await channel.flush(false);
      return this.toResult(name, result);
    } catch (e) {
      return failedCallResult(name, e);
    } finally {
      this.taskCalls--;
      this.lastEnded = Date.now();
    }
  }

  /** Starts the toolkit call and opens its channels to the client. */
  private start(
    id: string,
    name: string,
    args: Record<string, unknown>,
    token: string | number | undefined,
    extra: Extra,
    principal: McpPrincipal | undefined,
    response: ServerResponse | undefined,
    onAsyncComplete?: (result: ToolResult) => void,
  ): { call: Promise<ToolResult>; channel: McpCallChannel } {
    const view = this.viewFor(extra.sessionId);
    const options: CallOptions = { signal: extra.signal };
    if (onAsyncComplete !== undefined) options.onAsyncComplete = onAsyncComplete;
    if (this.settings.context !== undefined || principal) {
      const context = requestContext(this.settings, extra, principal);
      if (context) options.context = context;
    }
    const channel = this.channels.open(options, extra, token, response);
    return { call: view.callTool({ id, name, arguments: args }, options), channel };
  }

  /** A plain `tools/call` of a tool that must be called as a task is refused, as MCP says (-32601). */
  private refuseTaskOnly(name: string): void {
    if (this.tasks === undefined) return;
    const explicit = this.settings.tools?.[name]?.taskSupport ?? (this.toolkit.getTool(name) as McpAgentTool | undefined)?.[MCP_TOOL_OPTIONS]?.taskSupport;
    if (explicit === 'required') {
      throw new McpError(ErrorCode.MethodNotFound, `Tool ${quoteInput(name)} must be called as an MCP task (its execution.taskSupport is 'required'): send params.task.`);
    }
  }

  private toResult(name: string, result: ToolResult): CallToolResult {
    if (result.isError) return toCallToolResult(result, undefined, name);
    const tool = this.toolkit.getTool(name);
    return toCallToolResult(result, tool ? this.list.shapeOf(tool) : undefined, name);
  }
}
