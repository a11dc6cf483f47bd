import { callSafely } from '../common/guarded-observable';
import { quoteInput } from '../common/quote-input';
import { errorResult } from '../common/results';
import type { ToolResult } from '../common/tool-types';
import { AsyncCompletion } from './async-completion';
import { eventBase } from './call-events';
import { answerFor } from './call-shape';
import { AsyncState, describe, redaction, toolName, type AsyncTrack, type CallState } from './call-state';
import { toToolResult } from './convert';
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

/**
 * @internal Registers a call of an `AsyncTool` as waiting for its completion callback; false when
 * another live call with the same id waits (the completion names only the call id: the two would
 * get each other's).
 */
export function trackAsyncTool(run: CallState, entry: ToolEntry): boolean {
  const key = asyncKey(entry.name, run.call.id);
  const waiting = run.core.asyncListeners.get(key);
  if (waiting !== undefined && waiting !== run) return false;
  const track = (run.asyncTrack ??= { state: AsyncState.Pending });
  track.toolKey = key;
  run.core.asyncListeners.set(key, run);
  return true;
}

/** @internal The call's {@link AsyncCompletion}, created on first use (the call is tracked from then on). */
export function completionOf(run: CallState): AsyncCompletion {
  let track = run.asyncTrack;
  if (track === undefined) {
    track = run.asyncTrack = { state: AsyncState.Pending };
    if (run.done) settleAsync(run, track, run.final!);
  }
  return (track.handle ??= new AsyncCompletion((value, failed) => deliverAsync(run, value, failed), run.call.id, toolName(run)));
}

/**
 * @internal A background completion of the call: delivered at once when the call answered with an
 * async result, held when it has not answered yet; false when it cannot be taken.
 */
export function deliverAsync(run: CallState, value: unknown, failed: boolean): boolean {
  const track = run.asyncTrack;
  if (track === undefined) return false;
  if (track.state === AsyncState.Armed) {
    deliverNow(run, track, value, failed);
    return true;
  }
  if (track.state !== AsyncState.Pending || track.early !== undefined) return false;
  track.early = { value, failed };
  return true;
}

/** @internal The call answered `result`: an async result arms the track (and delivers a held completion), anything else closes it. */
export function settleAsync(run: CallState, track: AsyncTrack, result: ToolResult): void {
  const early = track.early;
  track.early = undefined;
  if (result.async && !result.isError) {
    track.state = AsyncState.Armed;
    if (early !== undefined) deliverNow(run, track, early.value, early.failed);
    return;
  }
  track.state = AsyncState.Closed;
  untrackAsyncTool(run, track);
}

function deliverNow(run: CallState, track: AsyncTrack, value: unknown, failed: boolean): void {
  track.state = AsyncState.Closed;
  untrackAsyncTool(run, track);
  const entry = run.entry!;
  const scrub = redaction(run);
  const produced = failed
    ? errorResult(`Tool '${entry.name}' failed in the background: ${describe(run, value)}`)
    : scrub
      ? redactedToolResult(value, scrub)
      : toToolResult(value);
  const result = answerFor(produced, entry, run.core, run.call.id);
  result.async = false;
  if (run.core.events.observed) run.core.events.next({ type: 'async_completed', ...eventBase(run), result });
  const onAsyncComplete = run.options.onAsyncComplete;
  if (onAsyncComplete !== undefined) callSafely(onAsyncComplete, result, run.core.report, 'onAsyncComplete', eventBase(run));
}

function untrackAsyncTool(run: CallState, track: AsyncTrack): void {
  const key = track.toolKey;
  if (key === undefined) return;
  track.toolKey = undefined;
  if (run.core.asyncListeners.get(key) === run) run.core.asyncListeners.delete(key);
}
