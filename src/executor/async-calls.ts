import { quoteInput } from '../common/quote-input';
import { errorResult } from '../common/results';
import type { ToolResult } from '../common/tool-types';
import { toToolResult, truncateText } from './convert';
import type { ExecutorCore } from './executor-core';
import { presetSecretsOf } from './preset-secrets';
import { redactedToolResult } from './redact';
import type { ToolEntry } from './tool-entry';

/** The key of a waiting `AsyncTool` call in {@link ExecutorCore.asyncListeners}. */
export function asyncKey(tool: string, callId: string): string {
  return `${tool}\u0000${callId}`;
}

/**
 * Routes an `AsyncTool`'s completion callback to the call it names (`toolCallId`): the
 * call emits `async_completed` and tells its caller's `onAsyncComplete`. A completion for a call
 * the toolkit is not waiting for (a repeat, a wrong id, one made before a restart) reaches
 * `events$` only, as an `async_completed` event redacted with every preset value the tool is known
 * to use: its fixed presets and the last 64 values its call-time presets resolved to. When the
 * tool has call-time presets that never resolved in this process, nothing is known to redact
 * with: the completion is withheld, and the event carries a `RESULT_WITHHELD` error result.
 */
export function completeAsyncToolCall(core: ExecutorCore, entry: ToolEntry, produced: ToolResult): void {
  const callId = typeof produced.toolCallId === 'string' ? produced.toolCallId : '';
  const waiting = core.asyncListeners.get(asyncKey(entry.name, callId));
  if (waiting !== undefined) {
    waiting.deliverAsync(produced, false);
    return;
  }
  if (!core.events.observed) return;
  const book = entry.presets === undefined ? undefined : presetSecretsOf(entry);
  const scrub = book?.scrub();
  const id = scrub ? scrub(callId) : callId;
  const result = book?.unresolved
    ? errorResult(
        `A background completion of tool '${entry.name}' for call ${quoteInput(id)} was withheld: no call is waiting for it, and the ` +
          "tool's presets were never resolved in this process, so it cannot be checked for their values.",
        'RESULT_WITHHELD',
      )
    : scrub
      ? redactedToolResult(produced, scrub)
      : toToolResult(produced);
  const answer = answerFor(result, entry, core, id);
  answer.async = false;
  core.events.next({ type: 'async_completed', callId: id, tool: entry.name, timestamp: Date.now(), result: answer });
}

/** A copy of a (redacted) result answering call `callId` of `entry`, cut to `maxResultChars`. */
export function answerFor(produced: ToolResult, entry: ToolEntry, core: ExecutorCore, callId: string): ToolResult {
  const result: ToolResult = { ...produced, toolCallId: callId, name: entry.name };
  const max = entry.behaviour.maxResultChars ?? core.maxResultChars;
  if (max !== undefined && result.forLLM.length > max) result.forLLM = truncateText(result.forLLM, max);
  return result;
}
