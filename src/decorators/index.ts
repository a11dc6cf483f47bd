export { Tool, ToolParam, ToolService } from './tool';
