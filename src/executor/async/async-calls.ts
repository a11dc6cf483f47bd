import { callSafely } from '../../utils/guarded-observable';
import { quoteInput } from '../../utils/quote-input';
import { errorResult } from '../../model/results';
import type { ToolResult } from '../../model/tool-types';
import { AsyncCompletion } from './async-completion';
import { eventBase } from '../call/emit-events';
import { answerFor } from '../call/call-shape';
import { describe, redaction, toolName, type CallState } from '../call/call-state';
import { toToolResult } from '../call/convert';
import type { ExecutorParts } from '../executor-parts';
import { presetSecretsOf } from '../presets/preset-secrets';
import { redactedToolResult } from '../presets/redact';
import type { ToolEntry } from '../tool-entry';

/** The key of a waiting `AsyncTool` call in {@link ExecutorParts.asyncListeners}. */
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
export function completeAsyncToolCall(parts: ExecutorParts, entry: ToolEntry, produced: ToolResult): void {
  const callId = typeof produced.toolCallId === 'string' ? produced.toolCallId : '';
  const waiting = parts.asyncListeners.get(asyncKey(entry.name, callId));
  if (waiting !== undefined) {
    waiting.deliverAsync(produced, false);
    return;
  }
  if (!parts.events.observed) return;
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
  const answer = answerFor(result, entry, parts, id);
  answer.async = false;
  parts.events.next({ type: 'async_completed', callId: id, tool: entry.name, timestamp: Date.now(), result: answer });
}

/**
 * @internal The key under which a call of an `AsyncTool` waits for its completion callback;
 * `undefined` when another live call with the same id waits (the completion names only the call
 * id: the two would get each other's).
 */
export function asyncToolKey(run: CallState, entry: ToolEntry): string | undefined {
  const key = asyncKey(entry.name, run.call.id);
  const waiting = run.parts.asyncListeners.get(key);
  return waiting !== undefined && waiting !== run ? undefined : key;
}

/** Where a call that may complete in the background stands. */
const enum AsyncPhase {
  /** It may: waiting for the call's own answer. */
  Pending = 1,
  /** The call answered with an async result: waiting for the completion. */
  Armed = 2,
  /** Completed, or the answer was not async. */
  Closed = 3,
}

/**
 * @internal The background completion of a call that may complete asynchronously: a completion
 * that arrives before the call answered is held, one that arrives after an async answer is
 * delivered (`async_completed`, the caller's `onAsyncComplete`), any other is refused.
 */
export class AsyncTrack {
  private phase = AsyncPhase.Pending;
  /** A completion that arrived before the call answered. */
  private early: { value: unknown; failed: boolean } | undefined = undefined;
  private handle: AsyncCompletion | undefined = undefined;
  /** The call's key in `asyncListeners` (AsyncTool calls). */
  private toolKey: string | undefined = undefined;

  /** Makes `run` the call an `AsyncTool`'s completion callback reaches under `key` (see {@link asyncToolKey}). */
  listen(run: CallState, key: string): void {
    this.toolKey = key;
    run.parts.asyncListeners.set(key, run);
  }

  /** The call's {@link AsyncCompletion} (made once). */
  completion(run: CallState): AsyncCompletion {
    return (this.handle ??= new AsyncCompletion((value, failed) => this.deliver(run, value, failed), run.call.id, toolName(run)));
  }

  /** A background completion: delivered at once when the call answered with an async result, held when it has not answered yet; false when it cannot be taken. */
  deliver(run: CallState, value: unknown, failed: boolean): boolean {
    if (this.phase === AsyncPhase.Armed) {
      this.deliverNow(run, value, failed);
      return true;
    }
    if (this.phase !== AsyncPhase.Pending || this.early !== undefined) return false;
    this.early = { value, failed };
    return true;
  }

  /** The call answered `result`: an async result arms the track (and delivers a held completion), anything else closes it. */
  settle(run: CallState, result: ToolResult): void {
    const early = this.early;
    this.early = undefined;
    if (result.async && !result.isError) {
      this.phase = AsyncPhase.Armed;
      if (early !== undefined) this.deliverNow(run, early.value, early.failed);
      return;
    }
    this.phase = AsyncPhase.Closed;
    this.untrack(run);
  }

  private deliverNow(run: CallState, value: unknown, failed: boolean): void {
    this.phase = AsyncPhase.Closed;
    this.untrack(run);
    const entry = run.entry!;
    const scrub = redaction(run);
    const produced = failed
      ? errorResult(`Tool '${entry.name}' failed in the background: ${describe(run, value)}`)
      : scrub
        ? redactedToolResult(value, scrub)
        : toToolResult(value);
    const result = answerFor(produced, entry, run.parts, run.call.id);
    result.async = false;
    if (run.parts.events.observed) run.parts.events.next({ type: 'async_completed', ...eventBase(run), result });
    const onAsyncComplete = run.options.onAsyncComplete;
    if (onAsyncComplete !== undefined) callSafely(onAsyncComplete, result, run.parts.report, 'onAsyncComplete', eventBase(run));
  }

  private untrack(run: CallState): void {
    const key = this.toolKey;
    if (key === undefined) return;
    this.toolKey = undefined;
    if (run.parts.asyncListeners.get(key) === run) run.parts.asyncListeners.delete(key);
  }
}
