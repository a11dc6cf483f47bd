import 'reflect-metadata';

export { ToolkitError } from './errors';
export type { ToolkitErrorCode, ToolkitErrorCodes, ToolkitErrorOptions } from './errors';
export type { Frozen, JsonSchema, JsonSchemaDefinition, JsonSchemaType, ObjectJsonSchema, ReadonlyJsonSchema, ReadonlyObjectJsonSchema } from './common/json-schema';
export type {
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
} from './common/tool-types';
export { ToolExecutionContext, ToolExecutionContextBuilder } from './common/execution-context';
export type { ContextType, ContextKey } from './common/execution-context';
export { Principal } from './common/principal';
export type { PrincipalOptions } from './common/principal';
export type { Authorize, AuthorizeRequest, AuthorizeVerdict } from './executor/authorization';
export type { RepairChange, RepairKind, RepairMode } from './common/repair-types';
export { isContextualTool, isAsyncTool } from './common/agent-tool';
export type { AgentTool, ContextualTool, AsyncTool, AsyncCallback, ToolCallContext, ContextResolver, ToolBehaviour, StandardAgentTool } from './common/agent-tool';
export type { Message, LLMUsage, LLMResponse, LLMRequest, LLMProvider, ProviderStreamEvent, ProviderStreamOptions } from './common/llm-types';
export type { ToolManifest, ManifestClass, ManifestMethod, ManifestParam, InjectedKind } from './common/manifest';
export { toolResult, silentResult, asyncResult, errorResult, userResult, isToolResult } from './common/results';
export { textContent, imageContent, audioContent, embeddedResource, resourceLink, contentResult } from './common/content-results';
export type {
  ToolContent,
  TextContent,
  ImageContent,
  AudioContent,
  EmbeddedResource,
  ResourceLink,
  TextResourceContents,
  BlobResourceContents,
  AnnotatedContent,
  ContentAnnotations,
  ContentAudience,
} from './common/tool-content';
export { LOG_LEVELS, ToolEmitter } from './common/tool-emitter';
export type { LogLevel, ToolLogEntry } from './common/tool-emitter';
export type { ToolwrightLogger, ToolwrightLogFields, ToolwrightLogLevel } from './common/logger';
export { ClientRequests } from './common/client-requests';
export type { ClientCapability, ClientCallOptions, ClientRequestHandler, ClientRequestOptions, ClientRequestPhase, ClientRequestScope } from './common/client-requests';
export type {
  SamplingRequest,
  SamplingResult,
  SamplingMessage,
  SamplingContent,
  SamplingTextContent,
  SamplingImageContent,
  SamplingAudioContent,
  ModelPreferences,
  ElicitationRequest,
  ElicitationResult,
  ElicitationSchema,
  ElicitationField,
  ElicitationFieldBase,
  ElicitationStringField,
  ElicitationNumberField,
  ElicitationBooleanField,
  ElicitationMultiSelectField,
  ElicitationValue,
  ClientRoot,
  RootsResult,
} from './common/client-request-types';
export { InjectContext, Tool, ToolParam, ToolService, Prompt, PromptArg, Resource, ResourceParam } from './decorators';
export type { ToolOptions, ToolParamOptions, ToolServiceOptions, TypeHint, EnumLike, Constructor } from './metadata/records';
export type {
  CatalogMemberOptions,
  CompleteCallback,
  CompletionContext,
  PromptArgOptions,
  PromptOptions,
  ResourceAnnotations,
  ResourceDetails,
  ResourceOptions,
  ResourceParamOptions,
} from './metadata/records';
export type { CatalogView, PromptView, ResourceView } from './resources/catalog-views';
export type {
  BlobResourceContent,
  CatalogCallOptions,
  CompleteOptions,
  CompletionResult,
  PromptArgumentInfo,
  PromptContent,
  PromptContentInput,
  PromptGetResult,
  PromptInfo,
  PromptMessage,
  PromptMessageInput,
  PromptReturn,
  ResourceContent,
  ResourceContentInput,
  ResourceInfo,
  ResourceReadResult,
  ResourceTemplateInfo,
  TextResourceContent,
} from './resources/catalog-types';
export { loadManifest, parseManifest } from './schema/manifest-loader';
export { Toolkit } from './toolkit/toolkit';
export type { ToolkitOptions } from './toolkit/toolkit';
export { ToolkitSession } from './toolkit/session';
export type { SessionOptions } from './toolkit/session';
export { ToolView } from './toolkit/tool-view';
export type { ToolGroupState, ToolListOptions } from './toolkit/view-options';
export { ToolRegistration } from './toolkit/registration';
export { toolwrightModule } from './toolkit/toolwright-module';
export type { ToolwrightModuleOptions, ToolGroupDefinition } from './toolkit/toolwright-module';
export type { ToolkitContainer } from './di/services';
export type { RegisterOptions, ToolTarget } from './toolkit/registration';
export type { StandardSchemaIssue, StandardSchemaLike, StandardSchemaResult } from './common/standard-schema';
export { fromContainer, type ContainerPreset } from './di/container-preset';
export type { PresetValue, PresetResolver, PresetMap } from './executor/presets';
export { defineSkill } from './toolkit/skill-definition';
export type { SkillDefinition, SkillContext, SkillCallOptions, SkillStep, SkillStepInput, SkillOptions } from './toolkit/skill-definition';
export { EQUIP_TOOL_GROUPS, LIST_SKILLS, INVOKE_SKILL } from './toolkit/meta-tool-names';
export type { EquipToolGroupsOptions, SkillListing } from './toolkit/meta-tools';
export type { ToolAvailability } from './toolkit/availability';
export type { RenderPromptOptions } from './toolkit/view-options';
export type { ToolHook, HookContext, BeforeHookDecision } from './executor/hooks';
export type {
  ToolEvent,
  ToolEventType,
  ToolCallEventBase,
  CallStartedEvent,
  CallRepairedEvent,
  CallProgressEvent,
  CallLogEvent,
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
  CallbackFailedEvent,
} from './executor/events';
export type { ToolSource } from './toolkit/registry';
export type { CallOptions, CallProgress } from './executor/call-executor';
export type { CallLog } from './executor/executor-core';
export { AsyncCompletion } from './executor/async-completion';
export { lowerToolSchemas, restoreArguments } from './schema/lowering';
export type {
  ProviderName,
  LoweringOptions,
  LoweringChange,
  LoweringOmission,
  LoweringResult,
  OpenAIChatToolDefinition,
  OpenAIResponsesToolDefinition,
  AnthropicToolDefinition,
  GeminiSchema,
  GeminiFunctionDeclaration,
  McpToolDefinition,
  ProviderToolDefinition,
  ProviderToolDefinitionMap,
} from './schema/lowering/provider-definitions';
export { runToolLoop, streamToolLoop, ScriptedProvider } from './loop';
export type { ToolLoopOptions, ToolLoopResult, LoopTurn, LoopStopReason, LoopEvent, ScriptedTurn, ScriptedStreamTurn } from './loop';
export { ApprovalManager, createApprovalHook, isPendingApprovalResult, APPROVAL_NOT_PENDING } from './pipeline/approval-manager';
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
} from './pipeline/approval-types';
export { InMemoryApprovalDecisions } from './pipeline/approval-decisions';
export type { ApprovalDecisionStore, DecisionClaim, DecidedRecord } from './pipeline/approval-decisions';
export type { ApprovalStore, ApprovalStoreVerdict, ApprovalAuditRecord, StoredApproval, ApprovalStoreChange, ApprovalOutcome, ApprovalRetention } from './pipeline/approval-store';
export type { TravellingContexts } from './common/travelling-contexts';
export { createGuardrailHook, RESULT_WITHHELD } from './pipeline/guardrail-hook';
export type { ArgumentVerdict, ResultVerdict, ArgumentGuardrail, ResultGuardrail, GuardrailHookOptions } from './pipeline/guardrail-hook';
export { createTruncationHook } from './pipeline/truncation-hook';
export type { TruncationHookOptions, ResultCharLimit } from './pipeline/truncation-hook';
export { createRedactionHook } from './pipeline/redaction-hook';
export type { RedactionHookOptions } from './pipeline/redaction-hook';
export { createRedactor, SECRET_PATTERNS, DEFAULT_REDACTION } from './pipeline/redactor';
export type { Redactor, RedactorOptions } from './pipeline/redactor';
