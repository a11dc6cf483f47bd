export type { JsonSchema, JsonSchemaType, ObjectJsonSchema } from './json-schema';
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
export { isContextualTool, isAsyncTool } from './agent-tool';
export type {
  AgentTool,
  ContextualTool,
  AsyncTool,
  AsyncCallback,
  ToolCallContext,
  ContextResolver,
  ToolBehaviour,
} from './agent-tool';
export type { Message, LLMUsage, LLMResponse, LLMRequest, LLMProvider } from './llm-types';
export type { ToolManifest, ManifestClass, ManifestMethod, ManifestParam, InjectedKind } from './manifest';
export { toolResult, silentResult, asyncResult, errorResult, userResult, isToolResult } from './results';
export { ToolEmitter } from './tool-emitter';
