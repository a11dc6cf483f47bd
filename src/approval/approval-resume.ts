import { ToolExecutionContext } from '../model/execution-context';
import type { ToolCall, ToolResult } from '../model/tool-types';
import type { CallOptions } from '../executor/executor-parts';
import type { CallOrigin, HookContext } from '../executor/hook-types';
import { ToolkitError } from '../errors';
import type { ToolView } from '../toolkit/tool-view';
import type { ApproveOptions, PendingApproval } from './approval-types';

/** Marks the approved run of one approval in the call's context; only the grants that made it honour it. */
const GRANT = Symbol('toolwright.approvalGrant');

interface Grant {
  readonly owner: ApprovalGrants;
  readonly id: string;
  readonly callId: string;
  readonly toolName: string;
  used: boolean;
}

/**
 * @internal Runs an approved call as its requester; `marked` is the context that lets it past the
 * manager's own check once.
 */
export type ApprovedRun = (call: ToolCall, marked: ToolExecutionContext) => Promise<ToolResult>;

function describeSession(sessionId: string | undefined): string {
  return sessionId !== undefined ? `session '${sessionId}'` : 'no session';
}

function conflict(approval: PendingApproval, what: string): ToolkitError {
  return new ToolkitError(
    'APPROVAL_CONTEXT_CONFLICT',
    `Approval '${approval.id}' runs exactly as it was requested (${describeSession(approval.sessionId)}, with the requester's context), but ${what}. ` +
      'Call approve(id) without context or view; they are only for approvals restored from a snapshot. The call did not run and stays pending.',
  );
}

/** Where a restored call (no origin in this process) runs; the application must re-supply its context. */
function restoredView(approval: PendingApproval, options: ApproveOptions): ToolView {
  const session = approval.sessionId;
  if (options.context === undefined || (options.view === undefined && options.toolkit === undefined)) {
    throw new ToolkitError(
      'APPROVAL_CONTEXT_REQUIRED',
      `Approval '${approval.id}' was restored from a snapshot: the requester's context is not known here. ` +
        `Re-supply it: approve(id, { ${options.toolkit === undefined && options.view === undefined ? 'toolkit, ' : ''}context }) with the context of ` +
        `${approval.principal !== undefined ? `principal '${approval.principal}'` : 'the requester'}${session !== undefined ? ` in session '${session}'` : ''} ` +
        '(ToolExecutionContext.EMPTY to say there is none). The call did not run and stays pending.',
    );
  }
  if (options.view !== undefined) {
    if (options.view.sessionId !== session) throw conflict(approval, `the view belongs to ${describeSession(options.view.sessionId)}`);
    return options.view;
  }
  return session !== undefined ? options.toolkit!.session(session) : options.toolkit!;
}

/**
 * @internal How an approved call runs as its requester: a call held in this process through its
 * `origin` (options that would change its requester are refused), a restored one in the view and
 * with the context the options re-supply. Checked before anything is decided.
 *
 * @throws ToolkitError `APPROVAL_CONTEXT_REQUIRED` for a restored call without `context` and a
 *   `toolkit` or `view`; `APPROVAL_CONTEXT_CONFLICT` when the options name another context or
 *   session than the requester's.
 *
 * @example
 * const run = requesterRun(approval, pending.originOf(approval.id), options);
 */
export function requesterRun(approval: PendingApproval, origin: CallOrigin | undefined, options: ApproveOptions): ApprovedRun {
  if (origin === undefined) {
    const view = restoredView(approval, options);
    return (call, marked) => {
      const callOptions: CallOptions = { context: ToolExecutionContext.merge(options.context, marked) };
      if (options.agentContext) callOptions.agentContext = options.agentContext;
      if (options.signal) callOptions.signal = options.signal;
      if (options.onProgress) callOptions.onProgress = options.onProgress;
      return view.callTool(call, callOptions);
    };
  }
  if (options.context !== undefined || options.agentContext !== undefined) throw conflict(approval, 'a context was given');
  if (options.view !== undefined && options.view.sessionId !== approval.sessionId) throw conflict(approval, `the view belongs to ${describeSession(options.view.sessionId)}`);
  return (call, marked) =>
    origin.resume(call, { context: marked, ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
}

/**
 * @internal The grants of one `ApprovalManager`: an approved call runs with a grant in its
 * context, and the manager's hook lets exactly that one run of that call through.
 *
 * @example
 * if (grants.admits(ctx)) return undefined; // the approved run
 * const result = await grants.run(approval, requesterRun(approval, origin, options));
 */
export class ApprovalGrants {
  private readonly live = new Map<string, Grant>();

  /** True, once, when `ctx` is the approved run of one of these grants' approvals. */
  admits(ctx: HookContext): boolean {
    const grant = ctx.context.get<Grant>(GRANT);
    if (grant && grant.owner === this && !grant.used && this.live.get(grant.id) === grant && grant.callId === ctx.call.id && grant.toolName === ctx.tool.name) {
      grant.used = true; // exactly one run per approval, even if the grant leaked into another call
      return true;
    }
    return false;
  }

  /** Runs the approved call of `approval` through `run`, with its arguments as the person saw them; the grant ends with the run. */
  async run(approval: PendingApproval, run: ApprovedRun): Promise<ToolResult> {
    const grant: Grant = { owner: this, id: approval.id, callId: approval.call.id, toolName: approval.toolName, used: false };
    this.live.set(approval.id, grant);
    const marked = ToolExecutionContext.of().toBuilder().register(GRANT, grant).build();
    const call: ToolCall = { id: approval.call.id, name: approval.toolName, arguments: { ...approval.arguments } };
    try {
      return await run(call, marked);
    } finally {
      this.live.delete(approval.id);
    }
  }
}
