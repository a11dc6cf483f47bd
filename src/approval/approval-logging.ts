import type { Observable } from 'rxjs';
import { checkedLogger, loggedText, writeLog, type ToolwrightLogger } from '../model/logger';
import type { ApprovalDecision, PendingApproval } from './approval-types';

/** The fields naming an approval and its requester (never its arguments, nor the policy's reason, which may quote them). */
function approvalFields(approval: PendingApproval): Record<string, unknown> {
  return {
    approvalId: approval.id,
    tool: approval.toolName,
    callId: loggedText(approval.call.id),
    ...(approval.sessionId !== undefined ? { sessionId: loggedText(approval.sessionId) } : {}),
    ...(approval.principal !== undefined ? { principal: approval.principal } : {}),
  };
}

/**
 * @internal Logs an {@link ApprovalManager}'s approvals at `info`: each approval when it first
 * appears in the pending list (held here, or, with a store, by another process), and each
 * decision with who took it (`decidedBy`, when the application said).
 *
 * @throws ToolkitError `INVALID_OPTIONS` when `logger` lacks one of its four methods.
 */
export function logApprovals(given: ToolwrightLogger, pending$: Observable<readonly PendingApproval[]>, decisions$: Observable<ApprovalDecision>): void {
  const logger = checkedLogger(given, 'new ApprovalManager({ logger })')!;
  let seen = new Set<string>();
  pending$.subscribe((list) => {
    for (const approval of list) {
      if (!seen.has(approval.id)) writeLog(logger, 'info', { event: 'approval_requested', ...approvalFields(approval) }, `approval requested for ${approval.toolName}`);
    }
    seen = new Set(list.map((approval) => approval.id));
  });
  decisions$.subscribe(({ approval, decision, decidedBy }) => {
    const by = decidedBy !== undefined ? { decidedBy } : {};
    writeLog(logger, 'info', { event: decision === 'approved' ? 'approval_approved' : 'approval_rejected', ...approvalFields(approval), ...by }, `call ${approval.toolName} ${decision}${decidedBy !== undefined ? ` by ${decidedBy}` : ''}`);
  });
}
