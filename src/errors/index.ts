// ToolkitError, the one error class toolwright throws, and its codes.
export { ToolkitError } from './toolkit-error';
export type { ToolkitErrorOptions } from './toolkit-error';
export type { ToolkitErrorCode, ToolkitErrorCodes } from './error-codes';
