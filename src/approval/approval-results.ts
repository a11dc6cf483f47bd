import { errorResult } from '../model/results';
import type { ToolResult } from '../model/tool-types';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import type { ToolkitErrorCode } from '../errors';
import type { PendingApproval, PendingApprovalData, RememberedDecision } from './approval-types';

/**
 * The code of the `ToolkitError` thrown by `approve` / `reject` for an id that is unknown or
 * already decided.
 *
 * @example
 * try { await approvals.approve(id, { toolkit }); }
 * catch (e) { if (ToolkitError.is(e) && e.code === APPROVAL_NOT_PENDING) ui.say('Someone already decided.'); }
 */
export const APPROVAL_NOT_PENDING = 'APPROVAL_NOT_PENDING' satisfies ToolkitErrorCode;

/** @internal An `APPROVAL_NOT_PENDING` error. */
export function notPending(message: string): ToolkitError {
  return new ToolkitError(APPROVAL_NOT_PENDING, message);
}

/** @internal The `APPROVAL_NOT_PENDING` error of an id that is not pending: unknown, or decided (`earlier`). */
export function unknownOrDecided(id: string, earlier: 'approved' | 'rejected' | undefined): ToolkitError {
  return notPending(earlier ? `Approval '${id}' was already ${earlier}; a decision is taken once and the call does not run again.` : `No pending approval '${id}'.`);
}

/**
 * @internal The `APPROVAL_STORE_FAILED` error of `what` (what did not happen), with the store's
 * error (bounded) and, when an approval was being decided, that nothing ran.
 */
export function storeFailed(what: string, error: unknown, deciding = false): ToolkitError {
  const after = deciding ? ' Nothing ran; the call stays pending.' : '';
  return new ToolkitError('APPROVAL_STORE_FAILED', `${what} because the store failed: ${describeThrown(error).slice(0, 300).replace(/\.+$/, '')}.${after}`, { cause: error });
}

/**
 * True when `result` is the answer of a call held for approval (then `result.data.approvalId`
 * names it).
 *
 * @example
 * const results = await toolkit.callTools(calls);
 * const held = results.filter(isPendingApprovalResult).map((r) => r.data.approvalId);
 */
export function isPendingApprovalResult(result: ToolResult): result is ToolResult & { data: PendingApprovalData } {
  const data = result.data as Partial<PendingApprovalData> | undefined;
  return !result.isError && result.async && typeof data === 'object' && data !== null && typeof data.approvalId === 'string';
}

/**
 * @internal The answer of a call held for approval: not an error, `async` (the real result comes
 * later), `data: { approvalId }`, and a text telling the model to wait.
 *
 * @example
 * heldResult('send_payment', "tool 'send_payment' always needs approval", 'appr_1');
 */
export function heldResult(toolName: string, reason: string, id: string): ToolResult {
  const data: PendingApprovalData = { approvalId: id };
  return {
    forLLM:
      `Tool '${toolName}' needs a person's approval before it runs (${reason}). ` +
      `The call is waiting for approval under id '${id}'; its result will be sent once a person approves or rejects it. ` +
      'Do not call the tool again for this request.',
    silent: false,
    isError: false,
    async: true,
    data,
  };
}

/**
 * @internal The `APPROVAL_REJECTED` answer of a call a person rejected, addressed to the original call.
 *
 * @example
 * rejectedResult(approval, 'no deletions today');
 */
export function rejectedResult(approval: PendingApproval, reason: string): ToolResult {
  return {
    ...errorResult(
      `A person rejected the call to tool '${approval.toolName}' (approval ${approval.id}): ${reason}. ` +
        'The tool did not run. Do not call it again unless the user asks for it.',
      'APPROVAL_REJECTED',
    ),
    toolCallId: approval.call.id,
    name: approval.toolName,
  };
}

/**
 * @internal The `APPROVAL_REJECTED` answer of a call whose tool a person rejected for its session or principal.
 *
 * @example
 * rememberedRejection('delete_file', { sessionId: 's-1', toolName: 'delete_file', decision: 'rejected' });
 */
export function rememberedRejection(toolName: string, remembered: RememberedDecision): ToolResult {
  return errorResult(
    `A person rejected calls to tool '${toolName}' for ${remembered.sessionId !== undefined ? 'this session' : 'you'}: ${remembered.reason ?? 'no reason given'}. ` +
      'The tool did not run. Do not call it again unless the user asks for it.',
    'APPROVAL_REJECTED',
  );
}

/**
 * @internal The `APPROVAL_LIMIT_EXCEEDED` answer of a call that would need approval while `full` (the limit reached) holds.
 *
 * @example
 * limitResult('pay', '100 calls of this session are already waiting for approval (the limit)');
 */
export function limitResult(toolName: string, full: string): ToolResult {
  return errorResult(`Tool '${toolName}' needs a person's approval, but ${full}. The call did not run; wait for the pending ones to be decided.`, 'APPROVAL_LIMIT_EXCEEDED');
}
