export { ToolkitError, describeThrown } from './toolkit-error';
export type { ToolkitErrorCode, ToolkitErrorOptions } from './toolkit-error';
