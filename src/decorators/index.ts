export { InjectContext, Tool, ToolParam, ToolService } from './tool';
export { Prompt, PromptArg, Resource, ResourceParam } from './catalog';
