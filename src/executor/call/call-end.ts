import { quoteInput } from '../../utils/quote-input';
import type { ToolkitErrorCode } from '../../errors';
import { End, describe, quotedName, type CallFailure, type CallState } from './call-state';
import { closeNames } from '../close-names';
import type { ToolEntry } from '../tool-entry';

/**
 * @internal How a step ends a call: the error it answers, which terminal event the answer gets
 * and how the call failed. The steps return one; only the call run ends the call with it (the
 * first answer stays: a step's `Stop` made after the call ended is dropped).
 */
export class Stop {
  constructor(
    readonly code: ToolkitErrorCode,
    readonly message: string,
    readonly kind: End = End.Normal,
    readonly failure: CallFailure | undefined = undefined,
  ) {}
}

/** @internal An error answer (`cause`: what was thrown, for the `call_failed` event). */
export function failed(code: ToolkitErrorCode, message: string, cause?: unknown): Stop {
  return new Stop(code, message, End.Normal, cause !== undefined ? { abortText: '', cause } : undefined);
}

/** @internal The call aborted by its caller (`reason`: the signal's reason as text). */
export function aborted(run: CallState, reason: string): Stop {
  return new Stop('ABORTED', `Tool ${quotedName(run)} was aborted: ${reason}`, End.Aborted, { abortText: reason });
}

/** @internal A fault of the pipeline itself (or of a callback that threw into it). */
export function internalFault(run: CallState, error: unknown): Stop {
  return failed('EXECUTION_FAILED', `Tool ${quotedName(run)} failed: ${describe(run, error)}`, error);
}

/**
 * @internal The availability gate: `TOOL_DISABLED` when the call's view does not enable `checked`
 * (the entry a meta tool was routed from, else the tool's own), and after the `before` hooks
 * (`afterHooks`) `SESSION_CLOSED` when the view closed meanwhile; `undefined` when it may run.
 */
export function gateRefusal(run: CallState, checked: ToolEntry, afterHooks: boolean): Stop | undefined {
  const refusal = run.availability(checked, afterHooks);
  return refusal === undefined ? undefined : failed(refusal.code, refusal.message);
}

/** @internal A call of a name no tool has, suggesting the enabled tools with close names. */
export function unknownTool(run: CallState, enabled: readonly string[]): Stop {
  const name = String(run.call.name);
  const close = closeNames(name, enabled);
  return failed(
    'UNKNOWN_TOOL',
    `Unknown tool ${quoteInput(name)}.${close.length ? ` Did you mean ${close.map((c) => `'${c}'`).join(', ')}?` : ''}` +
      ` Available tools: ${enabled.slice(0, 20).join(', ') || '(none)'}.`,
  );
}
