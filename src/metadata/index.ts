// The plain records decorators write: the options of tools, parameters, services, prompts and
// resources, and the types they name.
export type { ToolOptions, ToolParamOptions, ToolServiceOptions, TypeHint, EnumLike, Constructor } from './records';
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
} from './records';
