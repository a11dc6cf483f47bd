import { MalformedArguments, parseCallArguments } from '../model/call-arguments';
import type { Message } from '../model/llm-types';
import type { ToolCall, ToolSchema } from '../model/tool-types';
import { boundInput } from '../utils/quote-input';
import { describeThrown, ToolkitError } from '../errors/toolkit-error';
import { deliverLoweringReport, type LoweringChange } from '../schema/lowering';

/**
 * Shared pieces of the provider adapters. Nothing here loads a vendor SDK.
 * @internal
 */

/** The arguments of a call as an object, or `undefined` when the text is not a JSON object. */
export function argumentsObject(args: ToolCall['arguments']): Record<string, unknown> | undefined {
  if (typeof args !== 'string') return args;
  const parsed = parseCallArguments(args);
  return parsed instanceof MalformedArguments ? undefined : parsed;
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

/**
 * Lowers each canonical tool schema once per adapter (the toolkit hands out cached schema
 * objects, so a WeakMap keyed by them lasts as long as the tool) and hands the lowering report
 * to `onReport` the first time, when it is not empty. A tool the provider cannot take is left out
 * (`undefined`): its report says why, or, without `onReport`, a `TOOLWRIGHT_TOOL_SKIPPED` warning.
 */
export function cachedLowering<T extends object>(
  vendor: string,
  lower: (tool: ToolSchema) => { readonly lowered?: T | undefined; readonly report: readonly LoweringChange[] },
  onReport: ((report: readonly LoweringChange[]) => void) | undefined,
): (tool: ToolSchema) => T | undefined {
  const cache = new WeakMap<ToolSchema, T | null>();
  return (tool) => {
    let lowered = cache.get(tool);
    if (lowered === undefined) {
      const result = lower(tool);
      lowered = result.lowered ?? null;
      cache.set(tool, lowered);
      deliverLoweringReport(`${vendor}Provider`, result.report, onReport);
    }
    return lowered ?? undefined;
  };
}

/** A `PROVIDER_FAILED` error for a message whose role no adapter knows. */
export function unknownRoleError(vendor: string, message: Message, index: number): ToolkitError {
  return new ToolkitError('PROVIDER_FAILED', `${vendor}: messages[${index}] has an unknown role "${String(message.role)}".`);
}

/** Options merged into the request body: adapter defaults, then the request's own options. */
export function mergedOptions(
  defaults: Record<string, unknown> | undefined,
  options: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...defaults, ...options };
  // the adapter decides `stream`: `chat` asks without it, `stream` with it
  delete merged.stream;
  return merged;
}

/** The longest API error message quoted in a `PROVIDER_FAILED` error. */
const MAX_API_MESSAGE = 1000;

/** The API's own error type and message from an SDK error body (OpenAI, Anthropic and Google shapes). */
function apiErrorDetail(body: unknown): { type?: string; message?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const outer = body as { type?: unknown; message?: unknown; error?: unknown };
  // Anthropic: { type: 'error', error: { type, message } }; OpenAI: { message, type, param, code };
  // Google: { error: { code, message, status } }
  const inner =
    typeof outer.error === 'object' && outer.error !== null ? (outer.error as { type?: unknown; status?: unknown; message?: unknown }) : outer;
  const type = typeof inner.type === 'string' ? inner.type : 'status' in inner && typeof inner.status === 'string' ? inner.status : undefined;
  return { type, message: typeof inner.message === 'string' ? boundInput(inner.message, MAX_API_MESSAGE) : undefined };
}

/** `@google/genai` prefixes the JSON of an error chunk met mid-stream with this. */
const GOOGLE_STREAM_ERROR_PREFIX = /^got status: [^.]*\. (?=\{)/;

/**
 * The error body of an SDK error: its `error` field, or its message when that is a JSON object
 * (`@google/genai`'s `ApiError`, also after the prefix of an error met mid-stream).
 */
function errorBody(error: { error?: unknown; message?: unknown }): unknown {
  if (error.error !== undefined || typeof error.message !== 'string') return error.error;
  const json = error.message.replace(GOOGLE_STREAM_ERROR_PREFIX, '');
  if (!json.startsWith('{')) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Wraps what an SDK call threw: `ABORTED` when the caller's signal fired, otherwise
 * `PROVIDER_FAILED` naming the HTTP status, the API's error type and message (or the network
 * failure). The SDK error stays the `cause` (its `status`, `headers`, `error` body).
 */
export function providerError(vendor: string, operation: string, error: unknown, signal?: AbortSignal): ToolkitError {
  if (ToolkitError.is(error)) return error;
  if (signal?.aborted) {
    return new ToolkitError('ABORTED', `${vendor} ${operation} was aborted because ${describeThrown(signal.reason)}`, { cause: error });
  }
  const sdkError = typeof error === 'object' && error !== null ? (error as { status?: unknown; error?: unknown; message?: unknown }) : {};
  let detail = describeThrown(error);
  if (typeof sdkError.status === 'number') {
    const { type, message } = apiErrorDetail(errorBody(sdkError));
    detail = `HTTP ${sdkError.status}${type ? ` ${type}` : ''}: ${message ?? boundInput(detail, MAX_API_MESSAGE)}`;
  }
  return new ToolkitError('PROVIDER_FAILED', `${vendor} ${operation} failed because ${detail}`, { cause: error });
}

/** Runs one SDK request, its failure wrapped by {@link providerError}. */
export async function sdkCall<T>(vendor: string, operation: string, signal: AbortSignal | undefined, send: () => PromiseLike<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw providerError(vendor, operation, error, signal);
  }
}
