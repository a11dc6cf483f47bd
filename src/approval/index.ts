// Human approval of calls: the manager and its hook, policies, pending approvals and decisions, and
// the contract of the stores that share them across processes.
export { ApprovalManager, createApprovalHook, isPendingApprovalResult, APPROVAL_NOT_PENDING } from './approval-manager';
export type {
  PendingApproval,
  PendingApprovalData,
  ApprovalPolicy,
  ApprovalRequirement,
  ApprovalManagerOptions,
  ApprovalElicitationOptions,
  ApproveOptions,
  PendingFilter,
  RememberScope,
  RejectOptions,
  RememberedDecision,
  ApprovalDecision,
  SerializedApprovals,
} from './approval-types';
export { InMemoryApprovalDecisions } from './approval-decisions';
export type { ApprovalDecisionStore, DecisionClaim, DecidedRecord } from './approval-decisions';
export type { ApprovalStore, ApprovalStoreVerdict, ApprovalAuditRecord, StoredApproval, ApprovalStoreChange, ApprovalOutcome, ApprovalRetention } from './approval-store';
