import { ToolExecutionContext } from '../model/execution-context';
import type { ToolCall, ToolResult } from '../model/tool-types';
import type { CallOptions, ExecutorParts } from '../executor/executor-parts';
import { refuseCall, runCall } from '../executor/call/start-call';
import type { CallOrigin } from '../executor/hook-types';
import type { ToolkitErrorCode } from '../errors';
import { closedError, type ActivationState } from './activation';
import type { MetaTools } from './meta-tools';
import type { Registry } from './registry';
import type { SkillFrame, ToolView } from './tool-view';
import type { ListingParts } from './visible-tools';

/** @internal What the dispatcher needs of its toolkit: what the executor takes ({@link ExecutorParts}), the registered tools to resolve names in, and the ambient context source. */
export type DispatcherParts = ExecutorParts & Pick<ListingParts, 'ambient'> & { readonly registry: Pick<Registry, 'resolve'> };

/**
 * @internal The one way into the call run: every call of a toolkit (a view's `callTool`, a step
 * of a skill run, an approved call resumed later) comes here, and so does every call refused
 * before it would start ({@link Dispatcher.refuse}). In this order it
 *
 * 1. takes the call's options as the view has them: a session's own id wins, and the context of
 *    the work in progress (the toolkit's `ambient` source, e.g. the Nest module's request) sits
 *    under the agent-level context — except for a call resumed later, which keeps its own;
 * 2. refuses the call with `SESSION_CLOSED` for a closed or expired session (which then runs
 *    nothing more: no approval resumed later, no step of a skill run);
 * 3. chooses the availability gate: the view's groups and skill, or the scope of the skill run
 *    that makes the call (its `frame`);
 * 4. gives hooks the call's {@link CallOrigin}, so that an approved call runs again as requested;
 * 5. resolves the entry: a registered tool as registered, a meta tool bound to the calling view;
 * 6. runs the call ({@link runCall}), which checks the gate before anything else of the tool runs.
 */
export class Dispatcher {
  private readonly route: Route;

  constructor(parts: DispatcherParts, meta: MetaTools, closeSession: (view: ToolView, state: ActivationState) => void) {
    this.route = { parts, meta, closeSession };
  }

  /** Runs `call` made in `view` (by a skill run when `frame` is set). Never rejects. */
  dispatch(view: ToolView, state: ActivationState, call: ToolCall, options: CallOptions, frame?: SkillFrame): Promise<ToolResult> {
    return runInView(this.route, view, state, call, withAmbient(this.route.parts, options), frame);
  }

  /**
   * Answers `call`, made in the view of `state`, with an error and runs nothing of it: the one
   * way a call ends before it would start. It gets its `call_started` (what the model sent,
   * redacted) and its terminal event on `events$`, like every other call. Never rejects.
   */
  refuse(state: ActivationState, call: ToolCall, options: CallOptions, code: ToolkitErrorCode, message: string, frame?: SkillFrame): Promise<ToolResult> {
    return refuseInView(this.route.parts, state, call, state.callOptions(withAmbient(this.route.parts, options)), code, message, frame);
  }
}

/** What the dispatcher runs calls with: shared by the calls it gives a {@link RequestedCall}, so that only they resume one. */
interface Route {
  readonly parts: DispatcherParts;
  readonly meta: MetaTools;
  /** Closes the session of a view found expired (idempotent). */
  readonly closeSession: (view: ToolView, state: ActivationState) => void;
}

/**
 * Runs `call` made in `view` with `options` as they stand (the dispatcher added the ambient context;
 * a call resumed later keeps its requester's contexts). Never rejects.
 */
function runInView(route: Route, view: ToolView, state: ActivationState, call: ToolCall, options: CallOptions, frame: SkillFrame | undefined): Promise<ToolResult> {
  const parts = route.parts;
  const callOptions = state.callOptions(options);
  if (state.closed || state.expired()) {
    if (!state.closed) route.closeSession(view, state);
    return refuseInView(parts, state, call, callOptions, 'SESSION_CLOSED', closedError(state.sessionId).message, frame);
  }
  const scope = frame !== undefined ? frame.scope : state;
  const origin = parts.hooks.length > 0 ? new RequestedCall(route, view, state, callOptions, frame) : undefined;
  let resolved = parts.registry.resolve(call.name);
  if (resolved !== undefined && resolved.entry.source === 'global') {
    resolved = route.meta.route(resolved.entry, call, { view, state, options: callOptions, frame });
  }
  return runCall(parts, scope.refusalOf, call, callOptions, resolved ?? { entry: undefined, enabledNames: scope.enabledNames() }, origin);
}

/** Answers `call` with an error under the gate of its view or skill run, running nothing of it. */
function refuseInView(parts: DispatcherParts, state: ActivationState, call: ToolCall, callOptions: CallOptions, code: ToolkitErrorCode, message: string, frame: SkillFrame | undefined): Promise<ToolResult> {
  const scope = frame !== undefined ? frame.scope : state;
  return refuseCall(parts, scope.refusalOf, call, callOptions, parts.registry.resolve(call.name), code, message);
}

/**
 * The {@link CallOrigin} of a call dispatched in a view: it runs again later as requested (same
 * view, gate, session and contexts, copied when the call was made), and its session's life is the
 * life of the view's state.
 */
class RequestedCall implements CallOrigin {
  readonly sessionId: string | undefined;
  private readonly context: ToolExecutionContext | undefined;
  private readonly agentContext: ToolExecutionContext | undefined;

  constructor(
    private readonly route: Route,
    private readonly view: ToolView,
    private readonly state: ActivationState,
    options: CallOptions,
    private readonly frame: SkillFrame | undefined,
  ) {
    // copied now: a caller that reuses or changes its options object cannot change how the call runs again
    this.sessionId = options.sessionId;
    this.context = options.context;
    this.agentContext = options.agentContext;
  }

  /** The view's state, for a session's view: a session id opened again gets a new one. */
  get lifetime(): object | undefined {
    return this.state.sessionId !== undefined ? this.state : undefined;
  }

  get sessionClosed(): boolean {
    return this.state.sessionId !== undefined && this.state.closed;
  }

  onSessionClose(listener: () => void): void {
    if (this.state.sessionId !== undefined) this.state.onClose(listener);
  }

  resume(call: ToolCall, extra: Parameters<CallOrigin['resume']>[1]): Promise<ToolResult> {
    const resumed: CallOptions = { context: ToolExecutionContext.merge(this.context, extra.context) };
    if (this.agentContext !== undefined) resumed.agentContext = this.agentContext;
    if (this.sessionId !== undefined) resumed.sessionId = this.sessionId;
    if (extra.signal !== undefined) resumed.signal = extra.signal;
    if (extra.onProgress !== undefined) resumed.onProgress = extra.onProgress;
    // as requested: not as whoever resumes it (the ambient caller is the decider's)
    return runInView(this.route, this.view, this.state, call, resumed, this.frame);
  }
}

/** @internal `options` with the ambient context (when the toolkit has a source and it answers) under the agent-level context. */
function withAmbient(parts: Pick<ListingParts, 'ambient'>, options: CallOptions): CallOptions {
  const ambient = parts.ambient?.();
  if (ambient === undefined || ambient.size === 0) return options;
  return { ...options, agentContext: ToolExecutionContext.merge(ambient, options.agentContext) };
}
