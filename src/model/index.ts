// The vocabulary the library speaks: tool calls and results, content parts, the execution context
// and principals, JSON Schema, manifests, model messages and providers, client requests and logging.
export type { Frozen, JsonSchema, JsonSchemaDefinition, JsonSchemaType, ObjectJsonSchema, ReadonlyJsonSchema, ReadonlyObjectJsonSchema } from './json-schema';
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
} from './tool-types';
export { ToolExecutionContext, ToolExecutionContextBuilder } from './execution-context';
export type { ContextType, ContextKey } from './execution-context';
export { Principal } from './principal';
export type { PrincipalOptions } from './principal';
export type { RepairChange, RepairKind, RepairMode } from './repair-types';
export { isContextualTool, isAsyncTool } from './agent-tool';
export type { AgentTool, ContextualTool, AsyncTool, AsyncCallback, ToolCallContext, ContextResolver, ToolBehaviour, StandardAgentTool } from './agent-tool';
export type { Message, LLMUsage, LLMResponse, LLMRequest, LLMProvider, ProviderStreamEvent, ProviderStreamOptions } from './llm-types';
export type { ToolManifest, ManifestClass, ManifestMethod, ManifestParam, InjectedKind } from './manifest';
export { toolResult, silentResult, asyncResult, errorResult, userResult, isToolResult } from './results';
export { textContent, imageContent, audioContent, embeddedResource, resourceLink, contentResult } from './content-results';
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
} from './tool-content';
export { LOG_LEVELS, ToolEmitter } from './tool-emitter';
export type { LogLevel, ToolLogEntry } from './tool-emitter';
export type { ToolwrightLogger, ToolwrightLogFields, ToolwrightLogLevel } from './logger';
export { ClientRequests } from './client-requests';
export type { ClientCapability, ClientCallOptions, ClientRequestHandler, ClientRequestOptions, ClientRequestPhase, ClientRequestScope } from './client-requests';
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
} from './client-request-types';
export type { StandardSchemaIssue, StandardSchemaLike, StandardSchemaResult } from './standard-schema';
export type { TravellingContexts } from './travelling-contexts';
