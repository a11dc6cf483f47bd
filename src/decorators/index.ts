export { InjectContext, Tool, ToolParam, ToolService } from './tool';
