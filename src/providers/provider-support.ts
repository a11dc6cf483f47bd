import type { Message, ToolCall } from '../common';
import { describeThrown, ToolkitError } from '../errors';

/**
 * Shared pieces of the provider adapters. Nothing here loads a vendor SDK.
 * @internal
 */

/** The arguments of a call as an object, or `undefined` when the text is not a JSON object. */
export function argumentsObject(args: ToolCall['arguments']): Record<string, unknown> | undefined {
  if (typeof args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The arguments of a call as the JSON text the wire formats want. */
export function argumentsText(args: ToolCall['arguments']): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/** The `toolCallId` of a `tool` message; a message without one is a caller bug. */
export function toolCallIdOf(message: Message, index: number, vendor: string): string {
  if (typeof message.toolCallId === 'string' && message.toolCallId !== '') return message.toolCallId;
  throw new ToolkitError(
    'PROVIDER_FAILED',
    `${vendor}: messages[${index}] is a "tool" message without toolCallId; every tool result must name ` +
      'the call it answers (ToolResult.toolCallId).',
  );
}

/** Options merged into the request body: adapter defaults, then the request's own options. */
export function mergedOptions(
  defaults: Record<string, unknown> | undefined,
  options: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...defaults, ...options };
  // these adapters speak the non-streaming form only
  delete merged.stream;
  return merged;
}

/**
 * Wraps what an SDK call threw: `ABORTED` when the caller's signal fired, otherwise
 * `PROVIDER_FAILED` with the SDK's message (status and body). The SDK error stays the `cause`.
 */
export function providerError(vendor: string, operation: string, error: unknown, signal?: AbortSignal): ToolkitError {
  if (ToolkitError.is(error)) return error;
  if (signal?.aborted) {
    return new ToolkitError('ABORTED', `${vendor} ${operation} was aborted: ${describeThrown(signal.reason)}`, { cause: error });
  }
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  const prefix = typeof status === 'number' ? `HTTP ${status}: ` : '';
  const message = describeThrown(error);
  return new ToolkitError(
    'PROVIDER_FAILED',
    `${vendor} ${operation} failed: ${prefix && !message.startsWith(String(status)) ? prefix : ''}${message}`,
    { cause: error },
  );
}
