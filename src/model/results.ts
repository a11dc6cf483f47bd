import type { ToolkitErrorCode } from '../errors';
import type { ToolResult } from './tool-types';

/**
 * A plain result: the model gets `forLLM`, the user sees nothing extra.
 *
 * @example return toolResult('Sunny, 21 °C');
 */
export function toolResult(forLLM: string, data?: unknown): ToolResult {
  const result: ToolResult = { forLLM, silent: false, isError: false, async: false };
  if (data !== undefined) result.data = data;
  return result;
}

/** A result for the model only: nothing is shown to the user. */
export function silentResult(forLLM: string): ToolResult {
  return { forLLM, silent: true, isError: false, async: false };
}

/**
 * The tool goes on in the background; the real result comes later through the async callback
 * (see `AsyncTool`) and surfaces as an `async_completed` event.
 */
export function asyncResult(forLLM: string): ToolResult {
  return { forLLM, silent: false, isError: false, async: true };
}

/**
 * A failed call: `isError: true`, the message goes to the model. `code` defaults to
 * `EXECUTION_FAILED`; a tool may pass one of toolwright's codes or its own.
 *
 * @example
 * return errorResult('The city is unknown; try a nearby larger city.', 'CITY_UNKNOWN');
 */
export function errorResult(message: string, code: ToolkitErrorCode | (string & {}) = 'EXECUTION_FAILED'): ToolResult {
  return { forLLM: message, silent: false, isError: true, async: false, error: { code, message } };
}

/** The same content for the model and the user. */
export function userResult(content: string): ToolResult {
  return { forLLM: content, forUser: content, silent: false, isError: false, async: false };
}

/** True when `value` has the shape of a {@link ToolResult}. */
export function isToolResult(value: unknown): value is ToolResult {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<ToolResult>;
  return typeof v.forLLM === 'string' && typeof v.isError === 'boolean' && typeof v.silent === 'boolean';
}
