import type { ToolCall, ToolResult } from '../../model/tool-types';
import type { ToolkitErrorCode } from '../../errors';
import type { AvailabilityGate, CallOptions, ExecutorParts, RoutedEntry, UnknownName } from '../executor-parts';
import type { CallOrigin } from '../hook-types';
import type { WorkerAttempt } from '../remote/remote-types';
import { CallRun } from './call-run';

/** A refusal runs nothing of the call: it suggests no name either. */
const NOT_RESOLVED: UnknownName = Object.freeze({ entry: undefined, enabledNames: Object.freeze([]) });

/**
 * @internal Runs `call` under `availability` (the gate of its view): `routed` is what the dispatcher
 * resolved its name to (an {@link UnknownName} when no tool has it; the run looks nothing up), `origin` how to run it again as
 * requested (set when hooks exist), `handoff` the attempt a worker runs for a queued job. The one
 * way a call runs, for the dispatcher and the worker alike. Never rejects.
 */
export function runCall(parts: ExecutorParts, availability: AvailabilityGate, call: ToolCall, options: CallOptions, routed: RoutedEntry | UnknownName, origin?: CallOrigin, handoff?: WorkerAttempt): Promise<ToolResult> {
  return new CallRun(parts, availability, call, options, routed, origin, handoff).run();
}

/**
 * @internal Answers `call` with an error without running any of it (a refusal made before the
 * call would start: a closed session, a skill run's cap, the tool loop's budget): the call still
 * gets its one `call_started` (what the model sent, redacted, as for any rejected call) and its
 * one terminal event, on the same `events$`. Resolves with the error result.
 */
export function refuseCall(parts: ExecutorParts, availability: AvailabilityGate, call: ToolCall, options: CallOptions, routed: RoutedEntry | undefined, code: ToolkitErrorCode, message: string): Promise<ToolResult> {
  return new CallRun(parts, availability, call, options, routed ?? NOT_RESOLVED, undefined, undefined).refuse(code, message);
}
