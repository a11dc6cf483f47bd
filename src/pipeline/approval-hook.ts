import type { ToolHook } from '../executor/hooks';
import { ApprovalManager } from './approval-manager';
import type { ApprovalManagerOptions } from './approval-types';

/**
 * Creates an {@link ApprovalManager} and returns its hook, with the manager at `.approvals`.
 *
 * @example
 * const approval = createApprovalHook({ tools: ['delete_file'], minRisk: 'high' });
 * toolkit.use(approval);
 * const [first] = approval.approvals.pending();
 * await approval.approvals.approve(first.id, { toolkit });
 */
export function createApprovalHook(options: ApprovalManagerOptions = {}): ToolHook & { readonly approvals: ApprovalManager } {
  const approvals = new ApprovalManager(options);
  return Object.freeze({ ...approvals.hook, approvals });
}
