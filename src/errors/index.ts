export { ToolkitError, describeThrown } from './toolkit-error';
export type { ToolkitErrorOptions } from './toolkit-error';
export type { ToolkitErrorCode, ToolkitErrorCodes } from './error-codes';
