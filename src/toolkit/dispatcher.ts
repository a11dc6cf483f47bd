import { ToolExecutionContext } from '../common/execution-context';
import { errorResult } from '../common/results';
import type { ToolCall, ToolResult } from '../common/tool-types';
import { CallRun, type CallOptions } from '../executor/call-executor';
import type { CallOrigin } from '../executor/hooks';
import { closedError, type ActivationState } from './activation';
import type { MetaTools } from './meta-tools';
import type { SkillFrame, ToolkitCore, ToolView } from './tool-view';

/**
 * @internal The one way into the call run: every call of a toolkit (a view's `callTool`, a step
 * of a skill run, an approved call resumed later) comes here. In this order it
 *
 * 1. answers `SESSION_CLOSED` for a closed or expired session (which then runs nothing more: no
 *    approval resumed later, no step of a skill run);
 * 2. chooses the availability gate: the view's groups and skill, or the scope of the skill run
 *    that makes the call (its `frame`);
 * 3. gives hooks the call's {@link CallOrigin}, so that an approved call runs again as requested;
 * 4. resolves the entry: a registered tool as registered, a meta tool bound to the calling view;
 * 5. runs the {@link CallRun}, which checks the gate before anything else of the tool runs.
 */
export class Dispatcher {
  constructor(
    private readonly core: ToolkitCore,
    private readonly meta: MetaTools,
  ) {}

  /** Runs `call` made in `view` (by a skill run when `frame` is set). Never rejects. */
  dispatch(view: ToolView, state: ActivationState, call: ToolCall, options: CallOptions, frame?: SkillFrame): Promise<ToolResult> {
    if (state.closed || state.expired()) return this.closed(view, state, call);
    const core = this.core;
    const sessionId = state.sessionId;
    const callOptions = sessionId !== undefined && options.sessionId === undefined ? { ...options, sessionId } : options;
    const gate = frame !== undefined ? frame.gate : state;
    const origin = core.hooks.length > 0 ? this.originOf(view, state, callOptions, frame) : undefined;
    let resolved = core.registry.resolve(call.name);
    if (resolved !== undefined && resolved.entry.source === 'global') {
      resolved = this.meta.route(resolved.entry, call, { view, state, options: callOptions, frame }) ?? resolved;
    }
    return new CallRun(core, gate, call, callOptions, resolved, origin).run();
  }

  private closed(view: ToolView, state: ActivationState, call: ToolCall): Promise<ToolResult> {
    if (!state.closed) this.core.closeSession(view, state);
    const error = closedError(state.sessionId);
    return Promise.resolve({ ...errorResult(error.message, error.code), toolCallId: call.id, name: String(call.name) });
  }

  /** How a call of this dispatch runs again later as requested: same view, gate, session and contexts. */
  private originOf(view: ToolView, state: ActivationState, options: CallOptions, frame: SkillFrame | undefined): CallOrigin {
    return {
      sessionId: options.sessionId,
      resume: (call, extra) => {
        const resumed: CallOptions = { context: ToolExecutionContext.merge(options.context, extra.context) };
        if (options.agentContext !== undefined) resumed.agentContext = options.agentContext;
        if (options.sessionId !== undefined) resumed.sessionId = options.sessionId;
        if (extra.signal !== undefined) resumed.signal = extra.signal;
        if (extra.onProgress !== undefined) resumed.onProgress = extra.onProgress;
        return this.dispatch(view, state, call, resumed, frame);
      },
    };
  }
}
