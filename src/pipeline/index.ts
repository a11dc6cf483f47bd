/**
 * The built-in hooks: approval (the manager, its policy, stores and decisions), guardrails on
 * arguments and results, truncation and redaction.
 */
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
export { createGuardrailHook, RESULT_WITHHELD } from './guardrail-hook';
export type { ArgumentVerdict, ResultVerdict, ArgumentGuardrail, ResultGuardrail, GuardrailHookOptions } from './guardrail-hook';
export { createTruncationHook } from './truncation-hook';
export type { TruncationHookOptions, ResultCharLimit } from './truncation-hook';
export { createRedactionHook } from './redaction-hook';
export type { RedactionHookOptions } from './redaction-hook';
export { createRedactor, SECRET_PATTERNS, DEFAULT_REDACTION } from './redactor';
export type { Redactor, RedactorOptions } from './redactor';
