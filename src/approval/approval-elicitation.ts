import { previewInput } from '../utils/quote-input';
import type { ToolCall, ToolResult } from '../model/tool-types';
import { ToolkitError } from '../errors';
import type { HookContext } from '../executor/hook-types';
import { approvalOf } from './approval-pending';
import { rejectedResult } from './approval-results';
import type { ApprovalDecision, ApprovalElicitationOptions, PendingApproval } from './approval-types';

/** The longest preview of the arguments the default question shows. */
const MAX_ARGUMENT_PREVIEW_CHARS = 1_000;

/** @internal What {@link ApprovalElicitation} needs of its manager. */
export interface ApprovalElicitationHost {
  /** A fresh approval id. */
  newId(): string;
  /** The clock. */
  now(): number;
  /** Records the decision in the store; false when the call (or the id) was decided already. */
  record(approval: PendingApproval, decision: 'approved' | 'rejected'): Promise<boolean>;
  /** Publishes a decision on `decisions$`. */
  publish(decision: ApprovalDecision): void;
}

/**
 * @internal The `elicitation` option of an `ApprovalManager`: a call that needs approval and came
 * from a client that can be asked (over MCP: an elicitation-capable MCP client) is put to that
 * client's user at once, through an `elicitation/create` form with no fields: accept approves
 * (the call runs now, in its own request, as its requester), decline or cancel reject it. The
 * question goes to the requester's own client only — the client of the very call —, the decision
 * is recorded like any other (a decided call never runs again) and never remembered. When the
 * client cannot be asked, or its answer fails (an error, a timeout, an invalid answer), the call
 * is held for approval as usual.
 */
export class ApprovalElicitation {
  /** Calls approved by their client, until their run ends (then `decisions$` emits with the result). */
  private readonly running = new WeakMap<ToolCall, PendingApproval>();

  constructor(
    private readonly options: ApprovalElicitationOptions,
    private readonly host: ApprovalElicitationHost,
  ) {}

  /** True when `ctx`'s call can be put to its client's user. */
  canAsk(ctx: HookContext): boolean {
    return ctx.client?.supports('elicitation') === true;
  }

  /**
   * Asks the client's user: `'approved'` (the call goes on), a rejection to answer the call with,
   * or `undefined` when there was no usable answer (hold the call instead). A call that ended while
   * the question was open (timeout, abort) rejects with its reason.
   */
  async ask(ctx: HookContext, reason: string, principal: string | undefined): Promise<'approved' | ToolResult | undefined> {
    const host = this.host;
    const approval = approvalOf(ctx, host.newId(), reason, principal, host.now());
    const message = this.options.message?.(approval) ?? defaultQuestion(approval);
    let action: 'accept' | 'decline' | 'cancel';
    try {
      const timeout = this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {};
      ({ action } = await ctx.client!.elicit({ message, requestedSchema: { type: 'object', properties: {} } }, timeout));
    } catch (error) {
      if (ToolkitError.is(error, 'CLIENT_REQUEST_FAILED')) return undefined;
      throw error;
    }
    const decision = action === 'accept' ? 'approved' : 'rejected';
    if (!(await host.record(approval, decision))) {
      return rejectedResult(approval, 'this call was decided before, and a decided call does not run again');
    }
    if (decision === 'approved') {
      this.running.set(ctx.call, approval);
      return 'approved';
    }
    const result = rejectedResult(approval, action === 'decline' ? 'the user declined it' : 'the user dismissed the question');
    host.publish({ approval, decision, result, decidedAt: host.now() });
    return result;
  }

  /** The `after` step: an approved call's run ended; `decisions$` gets its result. */
  finished(ctx: HookContext, result: ToolResult): void {
    const approval = this.running.get(ctx.call);
    if (approval === undefined) return;
    this.running.delete(ctx.call);
    this.host.publish({ approval, decision: 'approved', result, decidedAt: this.host.now() });
  }
}

/** "Allow send_payment {"to":"…"}? tool 'send_payment' always needs approval." */
function defaultQuestion(approval: PendingApproval): string {
  return `Allow the assistant to run ${approval.toolName} with ${previewInput(approval.arguments, MAX_ARGUMENT_PREVIEW_CHARS)}? (${approval.reason})`;
}
