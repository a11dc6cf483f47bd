// The decorators that mark tools, their parameters and services, prompts and resources.
export { InjectContext, Tool, ToolParam, ToolService } from './tool';
export { Prompt, PromptArg, Resource, ResourceParam } from './catalog';
