import type { CallToolResult as TwCallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, InputRequiredResult, JsonSchemaValidator, ListToolsResult, McpRequestContext, McpServer, ServerContext, jsonSchemaValidator } from '@modelcontextprotocol/server';
import type { ToolExecutionContext } from '../../../model/execution-context';
import { quoteInput } from '../../../utils/quote-input';
import type { Toolkit } from '../../../toolkit/toolkit';
import type { ToolView } from '../../../toolkit/tool-view';
import type { McpPrincipal } from '../../shared/mcp-principal';
import { pageOf } from '../mcp-catalog-support';
import type { McpServerOptions } from '../mcp-server';
import { errorCallResult, toCallToolResult } from '../call-result';
import { infoContext, type McpRequestInfo } from '../mcp-tool-call';
import { RequestSlots } from '../request-slots';
import { McpToolList } from '../mcp-tool-list';
import { FormValidators } from '../mcp-client-requests';
import { taskSupportOf } from '../../shared/mcp-tool-options';
import { CallerViews, conversationClaimOf, type LeasedView, type CallerViewSettings, type ViewChange } from './caller-views';
import { MCP_CONVERSATION_META_KEY, ConversationHandles, ConversationRefusal } from './conversation-handle';
import { callModernTool, type ModernCall } from './modern-call';
import { missingCapabilityOf, roundRequestOf, serveModernCatalog } from './modern-catalog';
import { callToolAsTask, serveTasksExtension, taskModeOf, TASKS_CAPABILITY } from './modern-tasks';
import { RequestStateCodec, RequestStateRefusal, type RecordedAnswer } from './request-state';
import { McpRoundTrips, replaySafeOf } from './round-trips';
import { resolveStateSecret } from './state-secret';
import { memoryMcpStateStore, type McpStateStore } from './state-store';
import { asksBeforeTask, roundBeforeTask } from './task-escalation';
import { TasksExtension, type TaskRun } from './tasks-extension';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/**
 * Accepts every value as it is: the SDK's `fromJsonSchema` wants a validator, but arguments are
 * validated by the toolkit (in linear time, with its field-by-field messages), once.
 */
const PASS_THROUGH: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** @internal What the server built for one 2026-07-28 request knows about it besides the SDK's context. */
export interface ModernRequest {
  /** Who is calling, when the handler's `authenticate` established it. */
  readonly principal: McpPrincipal | undefined;
  /** The request's parsed JSON-RPC message. */
  readonly message: unknown;
  /** Whose calls this request's count against (`maxConcurrentCalls`): its principal, or its client's address. */
  readonly owner: string;
}

/** @internal The settings of 2026-07-28 serving: the server options, and whether `authenticate` is set. */
export interface ModernSettings extends McpServerOptions, Pick<CallerViewSettings, 'conversationHandles'> {
  /** True when requests are authenticated: lists then depend on the caller. */
  readonly authenticated: boolean;
  /** How long a principal's toolkit session lives without use (the handler's `sessionIdleTimeoutMs`). */
  readonly sessionTtlMs: number;
  /** The key that signs state outliving a request: `requestState`, task entries (see `McpHttpOptions.stateSecret`). */
  readonly stateSecret?: string | Uint8Array | undefined;
  /** Where state outliving a request is kept, fleet-wide: used states, tasks (see `McpHttpOptions.stateStore`). */
  readonly stateStore?: McpStateStore | undefined;
  /** How long a `requestState` stays valid (see `McpHttpOptions.requestStateTtlMs`). */
  readonly requestStateTtlMs?: number | undefined;
}

/** The longest a conversation handle is valid (when sessions never expire). */
const MAX_HANDLE_TTL_MS = 7 * 24 * 3_600_000;

/** The method and tool name of a `tools/call` message, if it is one. */
function calledTool(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
  return method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
}

/** The headers of a web request as `McpRequestInfo.requestInfo` carries them. */
function requestInfoOf(request: Request | undefined): McpRequestInfo['requestInfo'] {
  if (request === undefined) return undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { headers, url: new URL(request.url) };
}

/**
 * @internal Builds the SDK v2 `McpServer` that answers one 2026-07-28 request, from the caller's
 * view of the toolkit ({@link CallerViews}: the toolkit, a principal's session, or a conversation
 * restored from a signed handle). Tools are listed and called through that view, so a tool that is
 * off for the caller is refused on every door; resources, prompts and completion likewise.
 */
export class ModernMcpServers {
  private readonly list: McpToolList;
  /** The callers' views; `views.handles` signs conversation handles. */
  readonly views: CallerViews;
  /** The tasks extension's tasks (absent with `tasks: false`). */
  private readonly tasks: TasksExtension | undefined;
  private readonly forms = new FormValidators();
  private readonly trips: McpRoundTrips;
  /** The requests running application code now, per owner (`maxConcurrentCalls`). */
  private readonly slots: RequestSlots;

  constructor(
    private readonly sdk: ServerSdk,
    private readonly toolkit: Toolkit,
    private readonly settings: ModernSettings,
    /** Tells the listen streams of one audience about a list change (the HTTP side; stdio follows its sessions itself). */
    publish: (audience: string, change: ViewChange) => void = () => undefined,
  ) {
    this.list = new McpToolList({ tools: settings.tools, tasks: false });
    const handles = new ConversationHandles(resolveStateSecret(settings.stateSecret), Math.min(settings.sessionTtlMs, MAX_HANDLE_TTL_MS));
    this.views = new CallerViews(toolkit, settings, handles, publish);
    this.slots = new RequestSlots(settings.maxConcurrentCalls);
    const store = settings.stateStore ?? memoryMcpStateStore();
    this.trips = new McpRoundTrips(new RequestStateCodec({ secret: settings.stateSecret, store, ttlMs: settings.requestStateTtlMs }));
    const tasks = settings.tasks;
    if (tasks !== false) {
      const options = { ttlMs: tasks?.ttlMs, pollIntervalMs: tasks?.pollIntervalMs, maxTasksPerPrincipal: tasks?.maxTasksPerPrincipal };
      this.tasks = new TasksExtension(sdk.ProtocolError, store, resolveStateSecret(settings.stateSecret), options);
    }
  }

  /** Ends the tasks running on this process (they end `failed`) and refuses new ones. */
  async close(): Promise<void> {
    this.views.close();
    await this.tasks?.close();
  }

  /** The server for one request (`request`: what the HTTP handler knows of it). */
  async build(context: McpRequestContext, request: ModernRequest): Promise<McpServer> {
    const { settings } = this;
    const mcp = new this.sdk.McpServer(
      { name: settings.name, version: settings.version, ...(settings.title !== undefined ? { title: settings.title } : {}) },
      {
        capabilities: {
          tools: { listChanged: true },
          resources: { subscribe: true, listChanged: true },
          prompts: { listChanged: true },
          completions: {},
          logging: {},
          ...(this.tasks !== undefined ? TASKS_CAPABILITY : {}),
        },
        ...(settings.instructions !== undefined ? { instructions: settings.instructions } : {}),
      },
    );
    const { principal } = request;
    const base: McpRequestInfo = {
      ...(principal?.authInfo !== undefined ? { authInfo: principal.authInfo } : {}),
      ...(context.requestInfo !== undefined ? { requestInfo: requestInfoOf(context.requestInfo) } : {}),
      ...(principal !== undefined ? { principal } : {}),
    };
    const contextOf = (ctx?: ServerContext): ToolExecutionContext | undefined =>
      infoContext(settings, () => (ctx?.mcpReq._meta !== undefined ? { ...base, meta: ctx.mcpReq._meta } : base), principal);
    const claim = conversationClaimOf(request.message);
    const owner = this.views.ownerOf(principal, claim);
    let caller: LeasedView | undefined;
    const callerOf = (): LeasedView => (caller ??= this.openView(principal, claim));
    const viewOf = (): ToolView => callerOf().view;
    const server = mcp.server;
    const end = (): void => caller?.release?.();
    // an exchange ends with the transport's close; a request refused before it was connected
    // (e.g. an Mcp-Param header mismatch) only closes the server, which has no transport to close
    server.onclose = end;
    const closeServer = mcp.close.bind(mcp);
    mcp.close = () => {
      end();
      return closeServer();
    };
    const name = calledTool(request.message);
    if (name !== undefined) await this.registerForHeaders(mcp, () => viewOf(), name, contextOf());
    const scope = () => ({ ttlMs: 0, cacheScope: claim !== undefined ? ('private' as const) : this.cacheScope(viewOf()) });
    server.setRequestHandler('tools/list', async (_request, ctx) => ({ ...((await this.list.list(viewOf(), contextOf(ctx))) as ListToolsResult), ...scope() }));
    const tasks = this.tasks;
    server.setRequestHandler('tools/call', async (call, ctx) => {
      const modernCall: ModernCall = { toolkit: this.toolkit, view: viewOf(), list: this.list, context: contextOf(ctx) };
      const { name: tool, arguments: args = {} } = call.params;
      if (tasks !== undefined && (await this.taskModeOf(modernCall, tool, ctx)) === 'task') {
        let answers: readonly RecordedAnswer[] = [];
        if (asksBeforeTask(this.toolkit.getTool(tool), this.settings.tools?.[tool])) {
          const before = await this.roundBeforeTask(modernCall, tool, args, ctx, owner);
          if (!Array.isArray(before)) return before as CallToolResult;
          answers = before;
        }
        const run = async (task: TaskRun) => {
          // the task outlives this request: the caller's view (its conversation's state) is held anew for it
          const { view: taskView, release: end } = this.views.hold(callerOf());
          try {
            return await callToolAsTask({ ...modernCall, view: taskView }, tool, args, ctx, this.forms, answers)(task);
          } finally {
            end?.();
          }
        };
        return (await tasks.create(owner, run)) as unknown as CallToolResult;
      }
      const result = await this.counted(request.owner, tool, () => this.callTool(modernCall, tool, args, ctx, owner) as Promise<TwCallToolResult>);
      const handle = this.views.handleAfter(principal, callerOf());
      return (handle === undefined ? result : { ...result, _meta: { ...result._meta, [MCP_CONVERSATION_META_KEY]: handle } }) as CallToolResult;
    });
    if (tasks !== undefined) serveTasksExtension(this.sdk, server, tasks, owner);
    server.setRequestHandler('resources/list', (list) => ({ ...pageOf('resources', viewOf().resources.list(), list.params?.cursor), ...scope() }));
    server.setRequestHandler('resources/templates/list', (list) => ({ ...pageOf('resourceTemplates', viewOf().resources.templates(), list.params?.cursor), ...scope() }));
    server.setRequestHandler('prompts/list', (list) => ({
      ...pageOf('prompts', viewOf().prompts.list().map((p) => ({ ...p, arguments: [...p.arguments] })), list.params?.cursor),
      ...scope(),
    }));
    serveModernCatalog(server, { sdk: this.sdk, trips: this.trips, slots: this.slots, owner: request.owner, stateOwner: owner, viewOf, contextOf, scope });
    return mcp;
  }

  /**
   * How the call of `name` runs: as a task when the caller may call the tool, the tool supports
   * tasks and the request declared the extension (see {@link taskModeOf}); otherwise as usual (a
   * tool the caller may not call is refused the usual way: its task support is not revealed).
   */
  private async taskModeOf(call: ModernCall, name: string, ctx: ServerContext): Promise<'task' | 'sync'> {
    // most tools never run as tasks: no walk over the caller's visible tools for them
    const registered = this.toolkit.getTool(name);
    if (registered === undefined || taskSupportOf(registered, this.settings.tools?.[name]) === 'forbidden') return 'sync';
    const tool = (await call.view.getVisibleTools({ context: call.context })).find((t) => t.name === name);
    if (tool === undefined) return 'sync';
    return taskModeOf(this.sdk, taskSupportOf(tool, this.settings.tools?.[name]), ctx);
  }

  /**
   * A `tools/call` as Multi Round-Trip Requests: the call runs with the answers the client sent
   * back (checked against the signed `requestState`) and ends with its result, or with the next
   * questions (`input_required`). A refused state or answer is JSON-RPC -32602.
   */
  private async callTool(
    call: ModernCall,
    name: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
    owner: string | undefined,
  ): Promise<CallToolResult | InputRequiredResult> {
    let missing: string | undefined;
    try {
      const outcome = await this.trips.run<TwCallToolResult>(
        roundRequestOf(ctx, { principal: owner, tool: name, arguments: args }, replaySafeOf(this.toolkit.getTool(name), this.settings.tools?.[name])),
        (client, signal) => callModernTool(call, name, args, ctx, { client, signal, onResult: (result) => (missing = missingCapabilityOf(result.error)) }),
        (message) => errorCallResult(message),
      );
      if (missing !== undefined) {
        const message = `Tool ${quoteInput(name)} needs the client's '${missing}' capability, which this request's _meta did not declare.`;
        throw new this.sdk.MissingRequiredClientCapabilityError({ requiredCapabilities: { [missing]: {} } }, message);
      }
      if (outcome.kind === 'complete') return outcome.result as CallToolResult;
      return { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: outcome.requestState } as InputRequiredResult;
    } catch (error) {
      if (error instanceof RequestStateRefusal) throw new this.sdk.ProtocolError(this.sdk.ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  }

  /**
   * The Multi Round-Trip round before a task (see {@link roundBeforeTask}): the answers the task
   * replays, or what the client gets now — the next questions, or the result of a call a hook ended.
   */
  private async roundBeforeTask(
    call: ModernCall,
    name: string,
    args: Record<string, unknown>,
    ctx: ServerContext,
    owner: string | undefined,
  ): Promise<readonly RecordedAnswer[] | CallToolResult | InputRequiredResult> {
    try {
      const outcome = await roundBeforeTask(this.trips, call, { principal: owner, tool: name, arguments: args }, ctx);
      if (outcome.kind === 'task') return outcome.answers;
      if (outcome.kind === 'input_required') return { resultType: 'input_required', inputRequests: outcome.inputRequests, requestState: outcome.requestState } as InputRequiredResult;
      const missing = missingCapabilityOf(outcome.result.error);
      if (missing !== undefined) throw new this.sdk.MissingRequiredClientCapabilityError({ requiredCapabilities: { [missing]: {} } }, outcome.result.error!.message);
      return toCallToolResult(outcome.result, undefined, name) as CallToolResult;
    } catch (error) {
      if (error instanceof RequestStateRefusal) throw new this.sdk.ProtocolError(this.sdk.ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  }

  /**
   * Runs `call` unless `owner` already has `maxConcurrentCalls` requests running (a protocol session
   * no longer bounds them): then an `isError` result at once, and the tool does not run.
   */
  private async counted(owner: string, name: string, call: () => Promise<TwCallToolResult>): Promise<TwCallToolResult> {
    const { slots } = this;
    if (!slots.take(owner)) {
      return errorCallResult(
        `Too many tool calls at once: ${slots.max} requests of this client are still running (the server's maxConcurrentCalls), so ${quoteInput(name)} did not run. ` +
          'Wait for one of them to finish, then call it again.',
      );
    }
    try {
      return await call();
    } finally {
      slots.free(owner);
    }
  }

  /**
   * `public` when every caller gets the same lists (no `authenticate`, no `context` factory, no
   * `authorize` rule or scoped tool); otherwise `private`.
   */
  private cacheScope(view: ToolView): 'public' | 'private' {
    const dependent = this.settings.authenticated || typeof this.settings.context === 'function' || view.listsDependOnCaller();
    return dependent ? 'private' : 'public';
  }

  /**
   * Registers the called tool with the SDK when the caller may see it, so the SDK checks its
   * `x-mcp-header` parameters against the request's `Mcp-Param-*` headers before the call.
   */
  private async registerForHeaders(mcp: McpServer, viewOf: () => ToolView, name: string, context: ToolExecutionContext | undefined): Promise<void> {
    let view: ToolView;
    try {
      view = viewOf();
    } catch {
      return; // a refused conversation handle: the call itself answers -32602
    }
    const visible = await view.getVisibleTools({ context });
    if (!visible.some((tool) => tool.name === name)) return;
    const definition = view.toProviderDefs('mcp', { context }).find((d) => d.name === name);
    if (definition === undefined) return;
    const inputSchema = this.sdk.fromJsonSchema(definition.inputSchema as Parameters<ServerSdk['fromJsonSchema']>[0], PASS_THROUGH);
    mcp.registerTool(name, { description: definition.description, inputSchema }, () => ({ content: [] }));
  }

  /** The caller's view (see {@link CallerViews}); a refused conversation handle is JSON-RPC -32602. */
  private openView(principal: McpPrincipal | undefined, claim: unknown): LeasedView {
    try {
      return this.views.open(principal, claim);
    } catch (error) {
      if (error instanceof ConversationRefusal) throw new this.sdk.ProtocolError(this.sdk.ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  }
}
