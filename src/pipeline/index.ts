/**
 * Built-in steps of the hook pipeline (`toolkit.use(...)`): human approval, guardrails,
 * truncation and redaction. OpenTelemetry tracing lives in `./otel-index` (`toolwright/otel`) so
 * that this barrel never loads `@opentelemetry/api`.
 */
export { ApprovalManager, createApprovalHook, isPendingApprovalResult, APPROVAL_NOT_PENDING } from './approval-manager';
export type {
  PendingApproval,
  PendingApprovalData,
  ApprovalPolicy,
  ApprovalRequirement,
  ApprovalManagerOptions,
  ApproveOptions,
  PendingFilter,
  RememberScope,
  RejectOptions,
  RememberedDecision,
  ApprovalDecision,
  SerializedApprovals,
} from './approval-manager';
export { InMemoryApprovalDecisions } from './approval-decisions';
export type { ApprovalDecisionStore, DecisionClaim, DecidedRecord } from './approval-decisions';
export { createGuardrailHook, RESULT_WITHHELD } from './guardrail-hook';
export type { ArgumentVerdict, ResultVerdict, ArgumentGuardrail, ResultGuardrail, GuardrailHookOptions } from './guardrail-hook';
export { createTruncationHook } from './truncation-hook';
export type { TruncationHookOptions, ResultCharLimit } from './truncation-hook';
export { createRedactionHook } from './redaction-hook';
export type { RedactionHookOptions } from './redaction-hook';
export { createRedactor, SECRET_PATTERNS, DEFAULT_REDACTION } from './redactor';
export type { Redactor, RedactorOptions } from './redactor';
