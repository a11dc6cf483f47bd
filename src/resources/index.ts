// The catalog of prompts and resources beside the tools: what a view lists, what a prompt or a
// resource returns, and argument completion.
export type { CatalogView, PromptView, ResourceView } from './catalog-views';
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
} from './catalog-types';
