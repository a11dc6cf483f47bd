import { randomUUID } from 'node:crypto';
import { Server, type ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCRequest,
  type ListToolsResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
  type ToolAnnotations as McpToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import type { Subscription } from 'rxjs';
import type { AgentTool } from '../common/agent-tool';
import { ToolExecutionContext } from '../common/execution-context';
import type { ToolResult } from '../common/tool-types';
import type { CallOptions } from '../executor/call-executor';
import type { McpToolDefinition } from '../schema/lowering';
import type { ToolkitSession } from '../toolkit/session';
import type { Toolkit } from '../toolkit/toolkit';
import type { ToolView } from '../toolkit/tool-view';
import { errorCallResult, toCallToolResult } from './call-result';
import { httpRequestScope } from './http-request-scope';
import { principalContext, type McpPrincipal } from './mcp-principal';
import { metaOf, outputShapeOf, titleOf, type McpToolOptions, type OutputShape } from './mcp-tool-options';
import { ProgressRelay } from './progress-relay';

/**
 * What a `context` factory of {@link McpServerOptions} learns about the request.
 *
 * @example
 * createMcpServer(toolkit, { name: 'app', version: '1.0.0',
 *   context: ({ authInfo }) => ToolExecutionContext.of(new UserContext(authInfo?.clientId ?? 'anonymous')) });
 */
export interface McpRequestInfo {
  /** The MCP session (Streamable HTTP), if any. */
  readonly sessionId?: string;
  /** Who is calling, when the HTTP transport was given auth info (`req.auth`). */
  readonly authInfo?: RequestHandlerExtra<ServerRequest, ServerNotification>['authInfo'];
  /** The HTTP request's headers and URL, when served over HTTP. */
  readonly requestInfo?: RequestHandlerExtra<ServerRequest, ServerNotification>['requestInfo'];
  /** The request's `_meta`. */
  readonly meta?: Record<string, unknown>;
  /** Who is calling, when the HTTP handler's `authenticate` option established it. */
  readonly principal?: McpPrincipal;
}

/**
 * Options of {@link createMcpServer}.
 *
 * @example
 * createMcpServer(toolkit, { name: 'weather', version: '1.0.0', sessions: true,
 *   instructions: 'Weather tools; call get_weather first.' });
 */
export interface McpServerOptions {
  /** The server's name, sent to clients at `initialize`. */
  name: string;
  /** The server's version. */
  version: string;
  /** A human-readable title of the server. */
  title?: string;
  /** Instructions for the model, sent at `initialize`. */
  instructions?: string;
  /**
   * Serve a `toolkit.session(id)` view per MCP session instead of the toolkit's own view, so
   * group and skill toggles made in one client's session never reach another client. The id is
   * the Streamable HTTP session id, else {@link sessionId}, else a fresh UUID per server.
   * Default `false`.
   */
  sessions?: boolean;
  /** The toolkit session id to use with `sessions` when the transport has none (stdio). */
  sessionId?: string;
  /** Called once with the toolkit session created for an MCP session (set its groups here). */
  onSession?: (session: ToolkitSession) => void;
  /** MCP-only details (title, output schema) by tool name; they win over the tool's own. */
  tools?: Readonly<Record<string, McpToolOptions>>;
  /** Call-level context objects for every call, or a factory that sees the request. */
  context?: ToolExecutionContext | ((request: McpRequestInfo) => ToolExecutionContext | undefined);
  /**
   * After a call sent progress, ping the client (and await the pong, at most 1 s) before the
   * response. The SDK client handles notifications a microtask later than responses, so progress
   * that reaches it in the same stdio chunk as the response is dropped; the ping round trip puts
   * the response in a later chunk. Default: on, except on HTTP transports (their SSE client
   * reads events one by one).
   */
  progressBarrier?: boolean;
  /**
   * Register `tools/call` with `setRequestHandler(CallToolRequestSchema)`, so the SDK parses each
   * request twice and each result once with its zod schemas. Default `false`: toolwright answers
   * `tools/call` from the server's `fallbackRequestHandler` and checks what it reads itself
   * (`name` a string, `arguments` an object, `_meta.progressToken`); its results are valid by
   * construction. Those zod passes cost more than the toolkit's whole call.
   */
  sdkValidation?: boolean;
  /** Passed to the SDK's `Server` (capabilities and instructions are set by toolwright). */
  serverOptions?: Omit<ServerOptions, 'capabilities' | 'instructions'>;
}

/**
 * A toolkit served over MCP: the SDK `Server` plus `connect`/`close`.
 *
 * @example
 * const mcp = createMcpServer(toolkit, { name: 'app', version: '1.0.0' });
 * await mcp.connect(new StdioServerTransport());
 */
export interface McpServerHandle {
  /** The SDK's low-level server (add prompts/resources handlers to it if you like). */
  readonly server: Server;
  /**
   * The toolkit view served: the toolkit itself, or (with `sessions`) this MCP session's
   * `ToolkitSession`, created on first use.
   */
  readonly view: ToolView;
  /** Connects the server to a transport (one transport per server; stdio, HTTP, in-memory…). */
  connect(transport: Transport): Promise<void>;
  /** Closes the transport, stops watching the toolkit and closes the toolkit session, if any. */
  close(): Promise<void>;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

interface ListCache {
  readonly definitions: readonly McpToolDefinition[];
  readonly result: ListToolsResult;
}

const ANNOTATION_KEYS = [
  ['readOnly', 'readOnlyHint'],
  ['destructive', 'destructiveHint'],
  ['idempotent', 'idempotentHint'],
  ['openWorld', 'openWorldHint'],
] as const;

function sameTools(a: readonly AgentTool[] | undefined, b: readonly AgentTool[]): boolean {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The per-connection glue between one SDK `Server` and one toolkit view. */
class ToolkitMcpServer implements McpServerHandle {
  readonly server: Server;
  private current?: ToolView;
  private ownSession?: ToolkitSession;
  private subscription?: Subscription;
  private lastTools?: readonly AgentTool[];
  private listCache?: ListCache;
  private readonly shapes = new WeakMap<AgentTool, OutputShape | null>();
  /**
   * Prefixes the call ids of this connection: JSON-RPC request ids count from 0 in every client,
   * and a call id names its call toolkit-wide (an `AsyncTool` completion, an approval).
   */
  private readonly callPrefix = `mcp_${randomUUID().slice(0, 8)}_`;
  private closed = false;
  private barrier: boolean;

  constructor(
    private readonly toolkit: Toolkit,
    private readonly options: McpServerOptions,
  ) {
    this.barrier = options.progressBarrier ?? true;
    this.server = new Server(
      { name: options.name, version: options.version, ...(options.title !== undefined ? { title: options.title } : {}) },
      {
        ...(options.serverOptions ?? {}),
        capabilities: { tools: { listChanged: true } },
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        // a burst of toggles in one tick becomes one notification
        debouncedNotificationMethods: ['notifications/tools/list_changed', ...(options.serverOptions?.debouncedNotificationMethods ?? [])],
      },
    );
    this.server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => this.listTools(extra));
    if (options.sdkValidation) {
      this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
        const token = request.params._meta?.progressToken;
        return this.callTool(request.params.name, request.params.arguments ?? {}, token, extra);
      });
    } else {
      const fallback = this.server.fallbackRequestHandler;
      this.server.fallbackRequestHandler = (request, extra) => {
        if (request.method === 'tools/call') return this.fastCall(request, extra);
        return fallback ? fallback(request, extra) : Promise.reject(new McpError(ErrorCode.MethodNotFound, 'Method not found'));
      };
    }
    const previousOnClose = this.server.onclose;
    this.server.onclose = () => {
      previousOnClose?.();
      this.release();
    };
  }

  get view(): ToolView {
    return this.current ?? this.resolveView(this.server.transport?.sessionId);
  }

  async connect(transport: Transport): Promise<void> {
    if (this.options.progressBarrier === undefined) this.barrier = typeof (transport as { handleRequest?: unknown }).handleRequest !== 'function';
    await this.server.connect(transport);
    if (!this.options.sessions) this.resolveView(undefined);
  }

  async close(): Promise<void> {
    this.release();
    await this.server.close();
  }

  /** @internal Binds this server to a toolkit session id as soon as the transport knows it (HTTP). */
  bindSession(sessionId: string): void {
    if (this.options.sessions && !this.current) this.resolveView(sessionId);
  }

  private release(): void {
    if (this.closed) return;
    this.closed = true;
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.ownSession?.close();
  }

  private resolveView(sessionId: string | undefined): ToolView {
    if (this.current) return this.current;
    let view: ToolView;
    if (this.options.sessions) {
      const session = this.toolkit.session(sessionId ?? this.options.sessionId ?? randomUUID());
      this.ownSession = session;
      this.options.onSession?.(session);
      view = session;
    } else view = this.toolkit;
    this.current = view;
    if (!this.closed) this.watch(view);
    return view;
  }

  private watch(view: ToolView): void {
    this.lastTools = view.getActiveTools();
    this.subscription = view.activeTools$.subscribe((tools) => {
      // the first emission is the current list (BehaviorSubject semantics): nothing changed yet
      if (sameTools(this.lastTools, tools)) return;
      this.lastTools = tools;
      this.listCache = undefined;
      if (this.server.transport) this.server.sendToolListChanged().catch(() => undefined);
    });
  }

  private override(name: string): McpToolOptions | undefined {
    return this.options.tools?.[name];
  }

  private listTools(extra: Extra): ListToolsResult {
    const view = this.current ?? this.resolveView(extra.sessionId);
    const definitions = view.toProviderDefs('mcp');
    const cache = this.listCache;
    if (cache && cache.definitions === definitions) return cache.result;
    const active = view.getActiveTools();
    const byName = new Map(active.map((t) => [t.name, t]));
    const tools: Tool[] = definitions.map((definition) => this.describe(definition, byName.get(definition.name)));
    const result: ListToolsResult = { tools };
    this.listCache = { definitions, result };
    return result;
  }

  private describe(definition: McpToolDefinition, tool: AgentTool | undefined): Tool {
    const described: Tool = { name: definition.name, description: definition.description, inputSchema: definition.inputSchema };
    if (!tool) return described;
    const override = this.override(tool.name);
    const title = titleOf(tool, override);
    if (title !== undefined) described.title = title;
    const hints = tool.behaviour?.annotations;
    if (hints || title !== undefined) {
      const annotations: McpToolAnnotations = {};
      if (title !== undefined) annotations.title = title;
      if (hints) for (const [from, to] of ANNOTATION_KEYS) if (hints[from] !== undefined) annotations[to] = hints[from];
      described.annotations = annotations;
    }
    const shape = this.shapeOf(tool);
    if (shape) described.outputSchema = shape.schema as Tool['outputSchema'];
    const meta = metaOf(tool, override);
    if (meta) described._meta = meta;
    return described;
  }

  private shapeOf(tool: AgentTool): OutputShape | undefined {
    let shape = this.shapes.get(tool);
    if (shape === undefined) this.shapes.set(tool, (shape = outputShapeOf(tool, this.override(tool.name)) ?? null));
    return shape ?? undefined;
  }

  /** The call context: the `context` option's, with the authenticated principal over it. */
  private contextFor(extra: Extra, principal: McpPrincipal | undefined): ToolExecutionContext | undefined {
    const { context } = this.options;
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

  /** tools/call without the SDK's zod passes: toolwright checks what it reads itself. */
  private fastCall(request: JSONRPCRequest, extra: Extra): Promise<CallToolResult> {
    const params = request.params as Record<string, unknown> | undefined;
    const name = params?.name;
    if (typeof name !== 'string') return Promise.reject(new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be a string.'));
    const args = params!.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return Promise.reject(new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.arguments must be an object.'));
    }
    const meta = params!._meta;
    const token = typeof meta === 'object' && meta !== null ? (meta as { progressToken?: unknown }).progressToken : undefined;
    return this.callTool(name, (args as Record<string, unknown> | undefined) ?? {}, typeof token === 'string' || typeof token === 'number' ? token : undefined, extra);
  }

  private callTool(name: string, args: Record<string, unknown>, token: string | number | undefined, extra: Extra): Promise<CallToolResult> {
    const failed = (e: unknown) => errorCallResult(`Tool '${name}' failed: ${e instanceof Error ? e.message : String(e)}`);
    try {
      const view = this.current ?? this.resolveView(extra.sessionId);
      const options: CallOptions = { signal: extra.signal };
      const scope = httpRequestScope.getStore();
      if (this.options.context !== undefined || scope?.principal) {
        const context = this.contextFor(extra, scope?.principal);
        if (context) options.context = context;
      }
      const relay = token !== undefined ? new ProgressRelay(token, extra, scope?.response) : undefined;
      if (relay) options.onProgress = relay.report;
      const call = view.callTool({ id: `${this.callPrefix}${String(extra.requestId)}`, name, arguments: args }, options);
      if (!relay) return call.then((result) => this.toResult(name, result), failed);
      // progress must reach the client before the response, which drops late progress
      return call.then(async (result) => {
        await relay.flush(this.barrier);
        return this.toResult(name, result);
      }, failed);
    } catch (e) {
      return Promise.resolve(failed(e));
    }
  }

  private toResult(name: string, result: ToolResult): CallToolResult {
    if (result.isError) return toCallToolResult(result, undefined, name);
    const tool = this.toolkit.getTool(name);
    return toCallToolResult(result, tool ? this.shapeOf(tool) : undefined, name);
  }
}

/**
 * Serves a toolkit over MCP with the official SDK's low-level `Server`: `tools/list` from the
 * active tools (raw JSON Schemas, annotations, output schemas), `tools/call` through the toolkit
 * (every fault an `isError` result, never a JSON-RPC error), `notifications/tools/list_changed`
 * when the active set changes, progress from `ToolEmitter` (strictly increasing), and
 * cancellation reaching the tool's `AbortSignal`.
 *
 * @example
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * const mcp = createMcpServer(toolkit, { name: 'weather', version: '1.0.0' });
 * await mcp.connect(new StdioServerTransport());
 * // later: await mcp.close();
 */
export function createMcpServer(toolkit: Toolkit, options: McpServerOptions): McpServerHandle {
  return new ToolkitMcpServer(toolkit, options);
}

/** @internal Binds a server made by {@link createMcpServer} to an HTTP session id. */
export function bindMcpSession(handle: McpServerHandle, sessionId: string): void {
  if (handle instanceof ToolkitMcpServer) handle.bindSession(sessionId);
}
