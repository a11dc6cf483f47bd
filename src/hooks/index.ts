// The built-in hooks: guardrails on arguments and results, truncation of long results, redaction.
export { createGuardrailHook, RESULT_WITHHELD } from './guardrail-hook';
export type { ArgumentVerdict, ResultVerdict, ArgumentGuardrail, ResultGuardrail, GuardrailHookOptions } from './guardrail-hook';
export { createTruncationHook } from './truncation-hook';
export type { TruncationHookOptions, ResultCharLimit } from './truncation-hook';
export { createRedactionHook } from './redaction-hook';
export type { RedactionHookOptions } from './redaction-hook';
export { createRedactor, SECRET_PATTERNS, DEFAULT_REDACTION } from './redactor';
export type { Redactor, RedactorOptions } from './redactor';
