import 'reflect-metadata';

export { ToolkitError, describeThrown } from './errors';
export type { ToolkitErrorCode, ToolkitErrorOptions } from './errors';
export {
  ToolExecutionContext,
  ToolExecutionContextBuilder,
  ToolEmitter,
  toolResult,
  silentResult,
  asyncResult,
  errorResult,
  userResult,
  isToolResult,
  isContextualTool,
  isAsyncTool,
} from './common';
export type {
  JsonSchema,
  JsonSchemaType,
  ObjectJsonSchema,
  ToolCall,
  ToolResult,
  ToolResultError,
  ToolSchema,
  ToolProgress,
  ToolAnnotations,
  ToolRisk,
  ToolConcurrency,
  RetryOptions,
  ExecutionOptions,
  ContextType,
  ContextKey,
  AgentTool,
  ContextualTool,
  AsyncTool,
  AsyncCallback,
  ToolCallContext,
  ContextResolver,
  ToolBehaviour,
  Message,
  LLMUsage,
  LLMResponse,
  LLMRequest,
  LLMProvider,
  ToolManifest,
  ManifestClass,
  ManifestMethod,
  ManifestParam,
  InjectedKind,
} from './common';
export { Tool, ToolParam, ToolService } from './decorators';
export type { ToolOptions, ToolParamOptions, ToolServiceOptions, TypeHint, EnumLike, Constructor } from './metadata/records';
export { loadManifest, parseManifest } from './schema/manifest-loader';
export { Toolkit } from './toolkit/toolkit';
export type { ToolkitOptions } from './toolkit/toolkit';
export { ToolkitSession } from './toolkit/session';
export type { SessionOptions } from './toolkit/session';
export { ToolView } from './toolkit/tool-view';
export type { ToolGroupState } from './toolkit/tool-view';
export { ToolRegistration } from './toolkit/registration';
export type { RegisterOptions, ToolTarget } from './toolkit/registration';
export { fromContainer } from './toolkit/presets';
export type { PresetValue, PresetResolver, PresetMap, ContainerPreset } from './toolkit/presets';
export { defineSkill } from './toolkit/skills';
export type { SkillDefinition, SkillContext, SkillCallOptions, SkillStep, SkillStepInput, SkillOptions } from './toolkit/skills';
export { EQUIP_TOOL_GROUPS, LIST_SKILLS, INVOKE_SKILL } from './toolkit/meta-tools';
export type { EquipToolGroupsOptions, SkillListing } from './toolkit/meta-tools';
export type { ToolAvailability } from './toolkit/activation';
export type { RenderPromptOptions } from './toolkit/render-prompt';
export type { ToolHook, HookContext, BeforeHookDecision } from './toolkit/hooks';
export type {
  ToolEvent,
  ToolEventType,
  ToolCallEventBase,
  CallStartedEvent,
  CallProgressEvent,
  AttemptFailedEvent,
  RetryScheduledEvent,
  CallSucceededEvent,
  CallFailedEvent,
  CallTimedOutEvent,
  CallAbortedEvent,
  AsyncCompletedEvent,
  ToolsChangedEvent,
  GroupsChangedEvent,
  SkillChangedEvent,
} from './toolkit/events';
export type { ToolSource } from './toolkit/registry';
export type { CallOptions, CallProgress } from './executor/call-executor';
export { AsyncCompletion } from './executor/async-completion';
export { lowerToolSchemas, restoreArguments } from './schema/lowering';
export type {
  ProviderName,
  LoweringOptions,
  LoweringChange,
  LoweringResult,
  OpenAIChatToolDefinition,
  OpenAIResponsesToolDefinition,
  AnthropicToolDefinition,
  GeminiFunctionDeclaration,
  GeminiSchema,
  McpToolDefinition,
  ProviderToolDefinition,
  ProviderToolDefinitionMap,
} from './schema/lowering';
export { runToolLoop, ScriptedProvider } from './loop';
export type { ToolLoopOptions, ToolLoopResult, LoopTurn, LoopStopReason, ScriptedTurn } from './loop';
export { ApprovalManager, createApprovalHook, isPendingApprovalResult, APPROVAL_NOT_PENDING } from './pipeline/approval-manager';
export type {
  PendingApproval,
  PendingApprovalData,
  ApprovalPolicy,
  ApprovalRequirement,
  ApprovalManagerOptions,
  ApprovalTarget,
  ApproveOptions,
  RejectOptions,
  RememberedDecision,
  ApprovalDecision,
  SerializedApprovals,
} from './pipeline/approval-manager';
export { createGuardrailHook, RESULT_WITHHELD } from './pipeline/guardrail-hook';
export type { ArgumentVerdict, ResultVerdict, ArgumentGuardrail, ResultGuardrail, GuardrailHookOptions } from './pipeline/guardrail-hook';
export { createTruncationHook } from './pipeline/truncation-hook';
export type { TruncationHookOptions, ResultCharLimit } from './pipeline/truncation-hook';
export { createRedactionHook } from './pipeline/redaction-hook';
export type { RedactionHookOptions } from './pipeline/redaction-hook';
export { createRedactor, SECRET_PATTERNS, DEFAULT_REDACTION } from './pipeline/redactor';
export type { Redactor, RedactorOptions } from './pipeline/redactor';
