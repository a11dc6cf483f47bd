import type { GenerateContentResponse } from '@google/genai';
import { isPlainObject } from '../../utils/plain-object';
import type { LLMUsage, ProviderStreamEvent } from '../../model/llm-types';
import type { ToolCall } from '../../model/tool-types';
import { ToolkitError } from '../../errors';

const VENDOR = 'Gemini';

/** @internal Turns a `functionCall` part into a call (an id made up when absent, its thought signature kept). */
export type CallOf = (call: unknown, thoughtSignature: unknown) => ToolCall;

/** @internal A `PROVIDER_FAILED` for a reply of the wrong shape. */
export function malformed(operation: string, what: string): ToolkitError {
  return new ToolkitError('PROVIDER_FAILED', `${VENDOR} ${operation} returned a malformed response: ${what}.`);
}

/** A token count as reported, 0 when absent or not a count (a hostile reply cannot make `usage` a string). */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** @internal Output tokens include the thinking tokens, which Gemini counts apart from `candidatesTokenCount`. */
export function usageOf(usage: NonNullable<GenerateContentResponse['usageMetadata']>): LLMUsage {
  const inputTokens = count(usage.promptTokenCount) + count(usage.toolUsePromptTokenCount);
  const outputTokens = count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount);
  return { inputTokens, outputTokens, totalTokens: usage.totalTokenCount === undefined ? inputTokens + outputTokens : count(usage.totalTokenCount) };
}

/** @internal The first candidate of a reply and its parts, checked; `undefined` when there is no candidate. */
export function candidateOf(reply: GenerateContentResponse, operation: string): { candidate: Record<string, unknown>; parts: readonly unknown[] } | undefined {
  const candidates: unknown = reply?.candidates;
  if (!Array.isArray(candidates) || candidates.length === 0) {
    const blocked = reply?.promptFeedback?.blockReason;
    if (blocked !== undefined) throw new ToolkitError('PROVIDER_FAILED', `${VENDOR} ${operation} blocked the prompt: ${String(blocked)}.`);
    return undefined;
  }
  const candidate: unknown = candidates[0];
  if (!isPlainObject(candidate)) throw malformed(operation, 'candidates[0] is not an object');
  const content = candidate.content;
  const parts: unknown = content === undefined ? [] : isPlainObject(content) ? (content.parts ?? []) : undefined;
  if (!Array.isArray(parts)) throw malformed(operation, 'candidates[0].content.parts is not an array');
  for (const part of parts) if (!isPlainObject(part)) throw malformed(operation, 'a part is not an object');
  return { candidate, parts };
}

/**
 * @internal `generateContentStream` chunks as provider stream events: each text part a text delta,
 * each `functionCall` part (Gemini sends whole calls) a call started, its arguments as one JSON
 * delta, and complete; the finish reason and the last usage end the turn. A stream that ends
 * without a finish reason fails with `PROVIDER_FAILED`.
 */
export async function* geminiEvents(chunks: AsyncIterable<GenerateContentResponse>, callOf: CallOf): AsyncGenerator<ProviderStreamEvent> {
  const operation = 'models.generateContentStream';
  let stopReason: string | undefined;
  let usage: LLMUsage | undefined;
  for await (const chunk of chunks) {
    if (isPlainObject(chunk?.usageMetadata)) usage = usageOf(chunk.usageMetadata);
    const found = candidateOf(chunk, operation);
    if (found === undefined) continue;
    for (const part of found.parts as readonly Record<string, unknown>[]) {
      if (typeof part.text === 'string' && part.text !== '' && part.thought !== true) yield { type: 'text_delta', text: part.text };
      if (part.functionCall !== undefined) {
        const call = callOf(part.functionCall, part.thoughtSignature);
        const json = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
        yield { type: 'tool_call_started', id: call.id, name: call.name };
        yield { type: 'tool_call_delta', id: call.id, delta: json };
        yield { type: 'tool_call_complete', id: call.id, name: call.name, arguments: call.arguments };
      }
    }
    if (typeof found.candidate.finishReason === 'string') stopReason = found.candidate.finishReason;
  }
  if (stopReason === undefined) throw new ToolkitError('PROVIDER_FAILED', `${VENDOR} ${operation} stream ended without a finish reason.`);
  yield { type: 'finish', stopReason, usage };
}
