import type { Message } from '../common/llm-types';
import { ToolkitError } from '../errors';
import { loopEvents } from './loop-engine';
import type { LoopEvent, ToolLoopOptions, ToolLoopResult } from './loop-types';

export type { LoopEvent, LoopStopReason, LoopTurn, ToolLoopOptions, ToolLoopResult } from './loop-types';

/**
 * Drives a model through tool calls: model → tool calls → results → model, until a reply without
 * tool calls or a limit. Bad tool calls (unknown, malformed, invalid, thrown) go back to the
 * model as error results, never up the stack, and so do calls the loop refuses
 * (`TOOL_BUDGET_EXCEEDED`, `REPEATED_CALL`); a provider failure rejects.
 *
 * @example
 * const { content, iterations } = await runToolLoop(
 *   { provider, model: 'gpt-4o-mini', toolkit, maxIterations: 5, context },
 *   [{ role: 'user', content: 'Weather in Paris?' }]);
 * @throws ToolkitError `PROVIDER_FAILED` when the provider rejects; the signal's reason when aborted
 *   (`ABORTED` when the signal has none).
 */
export async function runToolLoop(options: ToolLoopOptions, messages: readonly Message[]): Promise<ToolLoopResult> {
  for await (const event of loopEvents(options, messages, false)) {
    if (event.type === 'final') return event.result;
  }
  throw new ToolkitError('PROVIDER_FAILED', 'The tool loop ended without a result.');
}

/**
 * The tool loop as a stream of events, for chat UIs: `text_delta`s as the model writes,
 * `tool_call_started` / `tool_call_delta` as a call forms, `tool_progress` and `tool_result` as
 * tools run, `step_finished` after each turn, and `final` with what {@link runToolLoop} resolves to.
 * Same options, limits and errors as `runToolLoop`. Uses the provider's `stream` (a provider
 * without one is asked with `chat` and its answer told as events). Each tool call starts as soon
 * as its arguments are complete, while the model still writes the next. Breaking out of the
 * `for await`, or aborting `signal`, stops the model stream and aborts running tools; a stream
 * that ends inside a call's arguments, or sends more than `maxArgumentChars` of them, fails with
 * `PROVIDER_FAILED` and that call never runs.
 *
 * @example
 * for await (const event of streamToolLoop({ provider, model: 'gpt-4.1-mini', toolkit }, messages)) {
 *   if (event.type === 'text_delta') process.stdout.write(event.text);
 *   if (event.type === 'final') console.log(event.result.stopReason);
 * }
 * @throws ToolkitError (from the iteration) `PROVIDER_FAILED` when the provider fails or its stream
 *   is cut; the signal's reason when aborted (`ABORTED` when the signal has none).
 */
export function streamToolLoop(options: ToolLoopOptions, messages: readonly Message[]): AsyncIterable<LoopEvent> {
  return { [Symbol.asyncIterator]: () => loopEvents(options, messages, true) };
}
