import { randomUUID } from 'node:crypto';
import { Server, type ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type CreateTaskResult } from '@modelcontextprotocol/sdk/types.js';
import type { Subscription } from 'rxjs';
import type { AgentTool } from '../../model/agent-tool';
import { checkedLogger, writeLog, type ToolwrightLogger } from '../../model/logger';
import type { ToolExecutionContext } from '../../model/execution-context';
import type { ToolkitSession } from '../../toolkit/sessions/toolkit-session';
import type { Toolkit } from '../../toolkit/toolkit';
import type { ToolView } from '../../toolkit/tool-view';
import { CATALOG_CAPABILITIES, CATALOG_NOTIFICATIONS, McpCatalog } from './mcp-catalog';
import type { LogLevel } from '../../model/tool-emitter';
import { McpCallChannels } from './mcp-call-channel';
import { checkLimit } from '../shared/mcp-limits';
import { serveMcpTasks, type McpTaskOptions, type McpTasks } from './mcp-tasks';
import { McpToolCalls, requestContext, type McpRequestInfo } from './mcp-tool-call';
import { McpToolList } from './mcp-tool-list';
import { RequestSlots } from './request-slots';
import type { McpToolOptions } from '../shared/mcp-tool-options';

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
  title?: string | undefined;
  /** Instructions for the model, sent at `initialize`. */
  instructions?: string | undefined;
  /**
   * Serve a `toolkit.session(id)` view per MCP session instead of the toolkit's own view, so
   * group and skill toggles made in one client's session never reach another client. The id is
   * the Streamable HTTP session id, else {@link sessionId}, else a fresh UUID per server.
   * Default `false`.
   */
  sessions?: boolean | undefined;
  /** The toolkit session id to use with `sessions` when the transport has none (stdio). */
  sessionId?: string | undefined;
  /** Called once with the toolkit session created for an MCP session (set its groups here). */
  onSession?: ((session: ToolkitSession) => void) | undefined;
  /** MCP-only details (title, output schema) by tool name; they win over the tool's own. */
  tools?: Readonly<Record<string, McpToolOptions>> | undefined;
  /** Call-level context objects for every call, or a factory that sees the request. */
  context?: ToolExecutionContext | ((request: McpRequestInfo) => ToolExecutionContext | undefined) | undefined;
  /**
   * After a call sent progress, ping the client (and await the pong, at most 1 s) before the
   * response. The SDK client handles notifications a microtask later than responses, so progress
   * that reaches it in the same stdio chunk as the response is dropped; the ping round trip puts
   * the response in a later chunk. Default: on, except on HTTP transports (their SSE client
   * reads events one by one).
   */
  progressBarrier?: boolean | undefined;
  /**
   * Register `tools/call` with `setRequestHandler(CallToolRequestSchema)`, so the SDK parses each
   * request twice and each result once with its zod schemas. Default `false`: toolwright answers
   * `tools/call` from the server's `fallbackRequestHandler` and checks what it reads itself
   * (`name` a string, `arguments` an object, `_meta.progressToken`); its results are valid by
   * construction. Those zod passes cost more than the toolkit's whole call.
   */
  sdkValidation?: boolean | undefined;
  /**
   * The least severe log message (`ToolEmitter.log`) sent to a client that has not set a level
   * with `logging/setLevel` (default `'info'`); after that, the client's level applies, per MCP
   * session.
   */
  logLevel?: LogLevel | undefined;
  /**
   * How long a tool's request to the client (`ClientRequests`: sampling, elicitation) waits for
   * its answer unless the tool says otherwise (default 10 minutes: a person may be answering). The
   * call's own timeout and the client's cancellation end it sooner.
   */
  clientRequestTimeoutMs?: number | undefined;
  /**
   * Run `tools/call` requests that ask for it as MCP tasks (`tasks/get`, `tasks/result`,
   * `tasks/list`, `tasks/cancel`), bounded per MCP session (see {@link McpTaskOptions}); `false`
   * declares no tasks capability. Default: on, with the defaults of {@link McpTaskOptions}. Tools
   * that finish in the background are served with `execution.taskSupport: 'optional'`, others as
   * their `McpToolOptions.taskSupport` says.
   */
  tasks?: McpTaskOptions | false | undefined;
  /**
   * The most requests that run application code at once on one MCP connection (a Streamable HTTP
   * session, a stdio connection; for 2026-07-28 requests over HTTP, which have no connection, per
   * principal or anonymous client address): `tools/call`, `resources/read`, `prompts/get` and
   * `completion/complete` together. One more `tools/call` gets an `isError` result saying so, and
   * its tool does not run; one more of the others gets JSON-RPC error -32603 (`data.reason:
   * 'busy'`) and its method does not run. Tasks are bounded by `tasks.maxTasks` instead. Default 32;
   * `Infinity`: no cap.
   */
  maxConcurrentCalls?: number | undefined;
  /**
   * Where the server logs (default: nowhere; `serveMcpStdio`: stderr at `info`, see
   * `stderrLogger`): connections opened and closed (`info`), requests refused (`warn`: over its
   * `maxConcurrentCalls`, and over HTTP every answer of status 400 or more). `false`: nothing.
   * Calls are logged by the toolkit's own `logger`.
   *
   * @example
   * createMcpServer(toolkit, { name: 'app', version: '1.0.0', logger: pino() });
   */
  logger?: ToolwrightLogger | false | undefined;
  /** Passed to the SDK's `Server` (capabilities and instructions are set by toolwright). */
  serverOptions?: Omit<ServerOptions, 'capabilities' | 'instructions'> | undefined;
}

/**
 * A toolkit served over MCP: the SDK `Server` plus `connect`/`close`.
 *
 * @example
 * const mcp = createMcpServer(toolkit, { name: 'app', version: '1.0.0' });
 * await mcp.connect(new StdioServerTransport());
 */
export interface McpServerHandle {
  /**
   * The SDK's low-level server (it serves the toolkit's tools, resources and prompts). toolwright
   * loads the SDK's CommonJS build, so in an ES module this is that build's `Server`: its methods
   * take the ES module build's schemas and handlers, but a parameter typed with the ES module's
   * `Server` class does not accept it (and `instanceof` that class is false).
   */
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
  private readonly list: McpToolList;
  private readonly calls: McpToolCalls;
  private readonly catalog: McpCatalog;
  private readonly tasks: McpTasks | undefined;
  private closed = false;
  private readonly logger: ToolwrightLogger | undefined;

  constructor(
    private readonly toolkit: Toolkit,
    private readonly options: McpServerOptions,
  ) {
    if (options.maxConcurrentCalls !== undefined) checkLimit('maxConcurrentCalls', options.maxConcurrentCalls);
    const logger = (this.logger = checkedLogger(options.logger, 'createMcpServer({ logger })'));
    this.list = new McpToolList(options);
    this.server = new Server(
      { name: options.name, version: options.version, ...(options.title !== undefined ? { title: options.title } : {}) },
      {
        ...(options.serverOptions ?? {}),
        capabilities: {
          tools: { listChanged: true },
          logging: {},
          ...CATALOG_CAPABILITIES,
          ...(options.tasks !== false ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
        },
        ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
        // a burst of toggles in one tick becomes one notification
        debouncedNotificationMethods: ['notifications/tools/list_changed', ...CATALOG_NOTIFICATIONS, ...(options.serverOptions?.debouncedNotificationMethods ?? [])],
      },
    );
    const busy = logger && ((): void => writeLog(logger, 'warn', { event: 'mcp_request_refused', server: options.name, reason: 'busy', maxConcurrentCalls: slots.max }, 'MCP request refused: too many requests running on this connection'));
    const slots = new RequestSlots(options.maxConcurrentCalls, busy);
    this.catalog = new McpCatalog(this.server, options, (sessionId) => this.current ?? this.resolveView(sessionId), slots);
    this.tasks = options.tasks !== false ? serveMcpTasks(this.server, options.tasks ?? {}) : undefined;
    const channels = new McpCallChannels(this.server, options);
    this.calls = new McpToolCalls(toolkit, options, this.list, (sessionId) => this.current ?? this.resolveView(sessionId), channels, this.tasks, slots);
    this.calls.barrier = options.progressBarrier ?? true;
    this.server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => this.list.list(this.current ?? this.resolveView(extra.sessionId), requestContext(options, extra)));
    if (options.sdkValidation) {
      this.server.setRequestHandler(CallToolRequestSchema, (request, extra): Promise<CallToolResult | CreateTaskResult> => {
        const token = request.params._meta?.progressToken;
        const { name, arguments: args = {}, task } = request.params;
        if (task !== undefined) return Promise.resolve().then(() => this.calls.startTask(name, args, token, task, extra));
        return this.calls.call(name, args, token, extra);
      });
    } else {
      const fallback = this.server.fallbackRequestHandler;
      this.server.fallbackRequestHandler = (request, extra) => {
        if (request.method === 'tools/call') return this.calls.fast(request, extra);
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
    if (this.options.progressBarrier === undefined) this.calls.barrier = typeof (transport as { handleRequest?: unknown }).handleRequest !== 'function';
    await this.server.connect(transport);
    if (!this.options.sessions) this.resolveView(undefined);
    this.log('mcp_connection_opened', 'MCP connection opened', transport);
  }

  async close(): Promise<void> {
    this.release();
    await this.server.close();
  }

  /** @internal The calls running on this connection, and when the last one ended. */
  get activity(): { readonly running: number; readonly lastEnded: number } {
    return this.calls.activity;
  }

  /** @internal Binds this server to a toolkit session id as soon as the transport knows it (HTTP). */
  bindSession(sessionId: string): void {
    if (this.options.sessions && !this.current) this.resolveView(sessionId);
  }

  private release(): void {
    if (this.closed) return;
    this.closed = true;
    this.log('mcp_connection_closed', 'MCP connection closed', this.server.transport);
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.catalog.release();
    this.tasks?.release();
    this.ownSession?.close();
  }

  private log(event: string, message: string, transport: Transport | undefined): void {
    if (!this.logger) return;
    const sessionId = this.ownSession?.id ?? transport?.sessionId;
    // a prefix names the session in the logs without handing its whole id to whoever reads them
    const session = sessionId !== undefined ? { session: `${sessionId.slice(0, 8)}…` } : {};
    writeLog(this.logger, 'info', { event, server: this.options.name, transport: transport?.constructor.name ?? 'none', ...session }, message);
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
      this.list.invalidate();
      if (this.server.transport) this.server.sendToolListChanged().catch(() => undefined);
    });
    this.catalog.watch(view);
  }

}

/**
 * Serves a toolkit over MCP with the official SDK's low-level `Server`: `tools/list` from the
 * active tools (raw JSON Schemas, annotations, output schemas), `tools/call` through the toolkit
 * (every fault an `isError` result, never a JSON-RPC error), `notifications/tools/list_changed`
 * when the active set changes, progress from `ToolEmitter` (strictly increasing), and
 * cancellation reaching the tool's `AbortSignal`; the view's `@Resource`s and `@Prompt`s
 * (`resources/*` with subscriptions, `prompts/*`, `completion/complete`, their list_changed).
 * Throws `INVALID_OPTIONS` for a `maxConcurrentCalls` that is not a whole number >= 1 (or `Infinity`).
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

/** @internal The calls running on a server made by {@link createMcpServer}, and when the last one ended (0: never). */
export function mcpActivity(handle: McpServerHandle): { readonly running: number; readonly lastEnded: number } {
  return handle instanceof ToolkitMcpServer ? handle.activity : { running: 0, lastEnded: 0 };
}

/** @internal Binds a server made by {@link createMcpServer} to an HTTP session id. */
export function bindMcpSession(handle: McpServerHandle, sessionId: string): void {
  if (handle instanceof ToolkitMcpServer) handle.bindSession(sessionId);
}
