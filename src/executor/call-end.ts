import { quoteInput } from '../common/quote-input';
import type { ToolResult } from '../common/tool-types';
import type { ToolkitErrorCode } from '../errors';
import { settleAsync } from './async-calls';
import { emitTerminal, emitUnstarted } from './call-events';
import { errorAnswer } from './call-shape';
import { End, describe, quotedName, type CallState } from './call-state';
import { closeNames } from './close-names';
import type { ToolEntry } from './tool-entry';

/**
 * @internal The one place a call ends: records the answer, emits the terminal event (after the
 * call's `call_started`, emitted now for a call that ends before its first attempt), arms async
 * completion. Every later answer is the first one.
 */
export function conclude(run: CallState, result: ToolResult): ToolResult {
  if (run.done) return run.final!;
  run.done = true;
  run.final = result;
  run.current = undefined;
  if (run.core.events.observed) {
    if (!run.started) emitUnstarted(run);
    emitTerminal(run, result);
  }
  if (run.asyncTrack !== undefined) settleAsync(run, run.asyncTrack, result);
  return result;
}

/** @internal Ends the call with an error answer (`cause`: what was thrown, for the `call_failed` event). */
export function fail(run: CallState, code: ToolkitErrorCode, message: string, cause?: unknown): ToolResult {
  if (run.done) return run.final!;
  if (cause !== undefined) run.failure = { abortText: '', cause };
  return conclude(run, errorAnswer(run, code, message));
}

/** @internal Ends the call as aborted by its caller (`reason`: the signal's reason as text). */
export function abortCall(run: CallState, reason: string): ToolResult {
  if (run.done) return run.final!;
  run.endKind = End.Aborted;
  run.failure = { abortText: reason };
  return conclude(run, errorAnswer(run, 'ABORTED', `Tool ${quotedName(run)} was aborted: ${reason}`));
}

/** @internal Ends the call on a fault of the pipeline itself (or a callback that threw into it). */
export function internalFailure(run: CallState, error: unknown): ToolResult {
  return fail(run, 'EXECUTION_FAILED', `Tool ${quotedName(run)} failed: ${describe(run, error)}`, error);
}

/** @internal {@link conclude} where a throw (a caller's callback) must not turn into a rejection. */
export function concludeSafely(run: CallState, result: ToolResult): ToolResult {
  try {
    return conclude(run, result);
  } catch (error) {
    return internalFailure(run, error);
  }
}

/**
 * @internal The availability gate: ends the call with `TOOL_DISABLED` when its view does not
 * enable `gate` (the entry a meta tool was routed from, else the tool's own); `undefined` when it does.
 */
export function gateRefusal(run: CallState, gate: ToolEntry): ToolResult | undefined {
  const view = run.view;
  return view.isEnabled(gate) ? undefined : fail(run, 'TOOL_DISABLED', view.whyDisabled(gate));
}

/** @internal Ends a call of a name no tool has, suggesting the enabled tools with close names. */
export function unknownTool(run: CallState): ToolResult {
  const name = String(run.call.name);
  const enabled = run.view.enabledNames();
  const close = closeNames(name, enabled);
  return fail(
    run,
    'UNKNOWN_TOOL',
    `Unknown tool ${quoteInput(name)}.${close.length ? ` Did you mean ${close.map((c) => `'${c}'`).join(', ')}?` : ''}` +
      ` Available tools: ${enabled.slice(0, 20).join(', ') || '(none)'}.`,
  );
}
