/**
 * ToolkitError, the one error class every part of toolwright throws, and its codes. `describeThrown`
 * is for toolwright's own folders: the root index does not export it.
 */
export { ToolkitError, describeThrown } from './toolkit-error';
export type { ToolkitErrorOptions } from './toolkit-error';
export type { ToolkitErrorCode, ToolkitErrorCodes } from './error-codes';
