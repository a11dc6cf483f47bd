import type { AgentTool, ContextResolver } from '../model/agent-tool';
import type { ClientRequests } from '../model/client-requests';
import type { ToolExecutionContext } from '../model/execution-context';
import type { RepairChange } from '../model/repair-types';
import type { ToolCall, ToolProgress, ToolResult } from '../model/tool-types';

/** @internal The key of a hook context's {@link CallOrigin}. */
export const CALL_ORIGIN: unique symbol = Symbol('toolwright.callOrigin');

/**
 * @internal How to run a call again later exactly as it was requested: in the same view, with the
 * same availability (a skill run's scope included), session, call-level and agent-level context;
 * and what of its session's life state kept for the call must follow. Set by the dispatcher on the
 * hook context of every call that passes hooks; the approval manager keeps it in memory (never
 * serialised) to run an approved call as its requester, and ends what it keeps for a session with it.
 */
export interface CallOrigin {
  readonly sessionId: string | undefined;
  /**
   * The lifetime of the call's session, as an identity: the same object for every call made from
   * the session's opening to its close (or expiry), another once its id is opened again; absent
   * outside sessions. State kept for a session (remembered approvals) is keyed on it.
   */
  readonly lifetime: object | undefined;
  /** True once the call's session closed (never outside sessions). */
  readonly sessionClosed: boolean;
  /** Calls `listener` once when the call's session closes (at once when it has; never outside sessions). Listeners must not throw. */
  onSessionClose(listener: () => void): void;
  /** Runs `call` as requested; `context` is added on top of the original call-level context. */
  resume(
    call: ToolCall,
    extra: { readonly context: ToolExecutionContext; readonly signal?: AbortSignal; readonly onProgress?: (progress: ToolProgress & { callId: string; tool: string }) => void },
  ): Promise<ToolResult>;
}

/** @internal Set on the hook context of a call the toolkit's `authorize` rule sent to approval. */
export const AUTHORIZED_APPROVAL: unique symbol = Symbol('toolwright.authorizedApproval');

/** What a hook sees of a call. */
export interface HookContext {
  /** The call as the model made it. */
  readonly call: ToolCall;
  /** The tool that will run. */
  readonly tool: AgentTool;
  /** The validated arguments (never preset values); repaired ones when a repair applied. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** What a safe repair changed in the model's arguments (`repair: 'safe'`); absent when nothing was. */
  readonly repairs?: readonly RepairChange[] | undefined;
  /** Context objects along the call > agent > toolkit chain. */
  readonly context: ContextResolver;
  /** The session of the call, if any. */
  readonly sessionId?: string | undefined;
  /**
   * Requests to the client that made the call (over MCP: its MCP client), e.g. to ask its user to
   * confirm; cancelled when the call times out or is aborted. Always set by the toolkit (optional
   * so that a unit test can build a hook context without it).
   */
  readonly client?: ClientRequests | undefined;
  /** @internal */
  readonly [CALL_ORIGIN]?: CallOrigin;
  /** @internal */
  readonly [AUTHORIZED_APPROVAL]?: true;
}

/**
 * What `before` may decide: nothing (go on), deny the call, rewrite its arguments, or answer it
 * with a result of its own without running the tool (used by approval: "awaiting approval").
 */
export type BeforeHookDecision =
  | void
  | undefined
  | { action: 'deny'; reason: string }
  | { action: 'rewrite'; arguments: Record<string, unknown> }
  | { action: 'respond'; result: ToolResult };

/**
 * A step of the pipeline around every call. Hooks run in the order added; a hook that throws
 * turns the call into an error result (`HOOK_FAILED`).
 *
 * @example
 * toolkit.use({ name: 'no-deletes', before: (ctx) =>
 *   ctx.tool.behaviour?.annotations?.destructive ? { action: 'deny', reason: 'read-only session' } : undefined });
 */
export interface ToolHook {
  /** Names the hook in errors. */
  name: string;
  /** Runs before the tool; may deny the call or rewrite its arguments (which are validated again). */
  before?: ((ctx: HookContext) => BeforeHookDecision | Promise<BeforeHookDecision>) | undefined;
  /** Runs after the tool; may return a replacement result. */
  after?: ((ctx: HookContext, result: ToolResult) => ToolResult | void | undefined | Promise<ToolResult | void | undefined>) | undefined;
}
