// Tool descriptors to JSON Schema: loading a build-time manifest, and lowering canonical schemas to
// each provider's dialect (with the reverse mapping of the arguments models send back).
export { loadManifest, parseManifest } from './manifest-loader';
export { lowerToolSchemas, restoreArguments } from './lowering';
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
} from './lowering/provider-definitions';
