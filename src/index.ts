import 'reflect-metadata';

// The root entry point is a list of folder faces, one section per folder from the lowest layer up;
// each folder's index.ts names what the folder publishes (test/architecture/root-faces.test.ts keeps
// it so). The subpath entry points (toolwright/mcp, toolwright/openai, …) are faces of their folders.

// errors: ToolkitError and its codes
export * from './errors';

// common: the vocabulary (calls, results, content, context, principals, JSON Schema, manifests,
// client requests, logging), named file by file until the folder has a face
export type { Frozen, JsonSchema, JsonSchemaDefinition, JsonSchemaType, ObjectJsonSchema, ReadonlyJsonSchema, ReadonlyObjectJsonSchema } from './model/json-schema';
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
} from './model/tool-types';
export { ToolExecutionContext, ToolExecutionContextBuilder } from './model/execution-context';
export type { ContextType, ContextKey } from './model/execution-context';
export { Principal } from './model/principal';
export type { PrincipalOptions } from './model/principal';
export type { RepairChange, RepairKind, RepairMode } from './model/repair-types';
export { isContextualTool, isAsyncTool } from './model/agent-tool';
export type { AgentTool, ContextualTool, AsyncTool, AsyncCallback, ToolCallContext, ContextResolver, ToolBehaviour, StandardAgentTool } from './model/agent-tool';
export type { Message, LLMUsage, LLMResponse, LLMRequest, LLMProvider, ProviderStreamEvent, ProviderStreamOptions } from './model/llm-types';
export type { ToolManifest, ManifestClass, ManifestMethod, ManifestParam, InjectedKind } from './model/manifest';
export { toolResult, silentResult, asyncResult, errorResult, userResult, isToolResult } from './model/results';
export { textContent, imageContent, audioContent, embeddedResource, resourceLink, contentResult } from './model/content-results';
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
} from './model/tool-content';
export { LOG_LEVELS, ToolEmitter } from './model/tool-emitter';
export type { LogLevel, ToolLogEntry } from './model/tool-emitter';
export type { ToolwrightLogger, ToolwrightLogFields, ToolwrightLogLevel } from './model/logger';
export { ClientRequests } from './model/client-requests';
export type { ClientCapability, ClientCallOptions, ClientRequestHandler, ClientRequestOptions, ClientRequestPhase, ClientRequestScope } from './model/client-requests';
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
} from './model/client-request-types';
export type { StandardSchemaIssue, StandardSchemaLike, StandardSchemaResult } from './model/standard-schema';
export type { TravellingContexts } from './model/travelling-contexts';

// metadata: the options the decorators take and the types they name
export type * from './metadata';

// di: the container a toolkit resolves services from, presets read from it
export * from './di';

// decorators: tools, parameters, services, prompts and resources
export * from './decorators';

// schema: build-time manifests loaded, canonical schemas lowered per provider
export * from './schema';

// executor: authorization, hooks, events, presets, call options, asynchronous completion
export * from './executor';

// resources: the catalog of prompts and resources beside the tools
export type * from './resources';

// toolkit: registration, views, sessions, groups, skills and their meta tools, the DI module
export * from './toolkit';

// pipeline: approval and the built-in hooks (guardrails, truncation, redaction), named file by
// file until the folder has faces
export { ApprovalManager, createApprovalHook, isPendingApprovalResult, APPROVAL_NOT_PENDING } from './approval/approval-manager';
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
} from './approval/approval-types';
export { InMemoryApprovalDecisions } from './approval/approval-decisions';
export type { ApprovalDecisionStore, DecisionClaim, DecidedRecord } from './approval/approval-decisions';
export type { ApprovalStore, ApprovalStoreVerdict, ApprovalAuditRecord, StoredApproval, ApprovalStoreChange, ApprovalOutcome, ApprovalRetention } from './approval/approval-store';
export { createGuardrailHook, RESULT_WITHHELD } from './hooks/guardrail-hook';
export type { ArgumentVerdict, ResultVerdict, ArgumentGuardrail, ResultGuardrail, GuardrailHookOptions } from './hooks/guardrail-hook';
export { createTruncationHook } from './hooks/truncation-hook';
export type { TruncationHookOptions, ResultCharLimit } from './hooks/truncation-hook';
export { createRedactionHook } from './hooks/redaction-hook';
export type { RedactionHookOptions } from './hooks/redaction-hook';
export { createRedactor, SECRET_PATTERNS, DEFAULT_REDACTION } from './hooks/redactor';
export type { Redactor, RedactorOptions } from './hooks/redactor';

// loop: the tool loop over any model provider, and a scripted provider
export * from './loop';
