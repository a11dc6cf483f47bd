import { modelParts } from '../model/content-text';
import type { LLMResponse, LLMUsage, Message } from '../model/llm-types';
import type { ToolCall, ToolResult } from '../model/tool-types';
import type { CallOptions } from '../executor/executor-parts';
import { ToolkitError, describeThrown } from '../errors/toolkit-error';
import { CallGuard, DEFAULT_MAX_ARGUMENT_CHARS, TurnAssembler, abortReason, addUsage, directAnswer, modelTurnEvents } from './loop-parts';
import type { LoopEvent, LoopStopReason, ToolLoopOptions, ToolLoopResult } from './loop-types';

export type { LoopEvent, LoopStopReason, LoopTurn, ToolLoopOptions, ToolLoopResult } from './loop-types';

const DEFAULT_SUMMARY_PROMPT = 'A limit was reached: do not call tools any more; answer now with what you have.';

/** The calls of one turn as they run, and the events they post for the consumer. */
class TurnCalls {
  readonly calls: ToolCall[] = [];
  readonly results: ToolResult[] = [];
  readonly pending: LoopEvent[] = [];
  private readonly running: Promise<unknown>[] = [];
  private readonly batch: { call: ToolCall; index: number }[] = [];
  private wake: (() => void) | undefined;
  private unsettled = 0;
  budgetHit = false;

  constructor(
    private readonly options: ToolLoopOptions,
    private readonly guard: CallGuard,
    private readonly callOptions: CallOptions,
    private readonly iteration: number,
    /** Start each call as soon as it is complete (streaming), or run the turn's calls as one batch at the end. */
    private readonly early: boolean,
  ) {}

  post(event: LoopEvent): void {
    this.pending.push(event);
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Calls are running. */
  get busy(): boolean {
    return this.unsettled > 0;
  }

  /** Resolves `true` at the next posted event. */
  posted(): Promise<true> {
    return new Promise((resolve) => (this.wake = () => resolve(true)));
  }

  /** Admits a complete call and starts it (or queues it for the batch). */
  add(call: ToolCall): void {
    const index = this.calls.push(call) - 1;
    const admission = this.guard.admit(call);
    if (!admission.run) {
      if (admission.budgetHit) this.budgetHit = true;
      // refused through the toolkit: the call still gets its start and end events
      this.track(this.options.toolkit.refuseCall(call, admission.code, admission.message, this.callOptions).then((r) => this.settle(index, r)));
    } else if (this.early) {
      this.track(this.options.toolkit.callTools([call], this.callOptions).then(([r]) => this.settle(index, r)));
    } else {
      this.batch.push({ call, index });
    }
  }

  /** Yields the posted events until every call of the turn has its result. */
  async *drain(): AsyncGenerator<LoopEvent> {
    if (this.batch.length > 0) {
      const batch = this.batch.splice(0);
      this.track(this.options.toolkit.callTools(batch.map((b) => b.call), this.callOptions).then((done) => batch.forEach((b, i) => this.settle(b.index, done[i]))));
    }
    let settled = false;
    const all = Promise.all(this.running).then(() => (settled = true));
    for (;;) {
      while (this.pending.length > 0) yield this.pending.shift()!;
      if (settled) return;
      await Promise.race([all, new Promise<void>((resolve) => (this.wake = resolve))]);
    }
  }

  private track(promise: Promise<unknown>): void {
    this.unsettled++;
    this.running.push(promise.finally(() => this.unsettled--));
  }

  private settle(index: number, result: ToolResult): void {
    this.results[index] = result;
    this.post({ type: 'tool_result', iteration: this.iteration, call: this.calls[index], result });
  }
}

/**
 * The tool loop as events, shared by `runToolLoop` (which drains it) and
 * `streamToolLoop`: model → tool calls → results → model, with the caps, budgets, repeat check,
 * time budget, summary turn and `returnDirect`. `streaming`: ask the provider's `stream` and start
 * each call as soon as its arguments are complete.
 */
async function* loopEvents(options: ToolLoopOptions, messages: readonly Message[], streaming: boolean): AsyncGenerator<LoopEvent, void> {
  const maxIterations = Math.max(1, options.maxIterations ?? 10);
  const conversation: Message[] = [...messages];
  const guard = new CallGuard(options);
  const controller = new AbortController();
  const outer = options.signal;
  if (outer?.aborted) throw abortReason(outer);
  const onOuterAbort = () => controller.abort(outer!.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let outOfTime = false;
  const budgetTimer =
    options.timeBudgetMs === undefined
      ? undefined
      : setTimeout(() => {
          outOfTime = true;
          controller.abort(new ToolkitError('TIMEOUT', `The tool loop ran out of its ${options.timeBudgetMs} ms budget.`));
        }, options.timeBudgetMs);

  let iterations = 0;
  let content = '';
  let usage: LLMUsage | undefined;
  let stopReason: LoopStopReason = 'max_iterations';
  let returnedDirect: ToolLoopResult['returnedDirect'];
  let finished = false;
  const callOptions: CallOptions = {
    signal: controller.signal,
    ...(options.context ? { agentContext: options.context } : {}),
  };

  /** One model turn: its events, then its response (`undefined` when the time budget ran out). */
  async function* ask(tools: boolean, calls?: TurnCalls, extra?: Message): AsyncGenerator<LoopEvent, LLMResponse | undefined> {
    iterations++;
    const iteration = iterations;
    const assembler = new TurnAssembler(options.maxArgumentChars ?? DEFAULT_MAX_ARGUMENT_CHARS);
    const request = {
      model: options.model,
      messages: extra ? [...conversation, extra] : conversation,
      // the provider's own array (the view's is frozen and shared)
      tools: tools ? [...options.toolkit.getToolSchemas({ context: options.context })] : [],
      ...(options.options ? { options: options.options } : {}),
      signal: controller.signal,
    };
    const events = modelTurnEvents(options.provider, request, streaming)[Symbol.asyncIterator]();
    let ended = false;
    try {
      for (;;) {
        const next = events.next();
        // while early calls run, their progress and results go out even when the model is silent
        while (calls?.busy && (await Promise.race([next.then(() => false), calls.posted()]))) {
          while (calls.pending.length > 0) yield calls.pending.shift()!;
        }
        const step = await next;
        if (step.done === true) break;
        const event = step.value;
        // a provider that keeps sending after the abort is not listened to
        controller.signal.throwIfAborted();
        const call = assembler.take(event);
        if (event.type === 'text_delta') yield { type: 'text_delta', iteration, text: event.text };
        else if (event.type === 'tool_call_started') yield { type: 'tool_call_started', iteration, callId: event.id, name: event.name };
        else if (event.type === 'tool_call_delta') yield { type: 'tool_call_delta', iteration, callId: event.id, delta: event.delta };
        if (call !== undefined) calls?.add(call);
        if (calls !== undefined) while (calls.pending.length > 0) yield calls.pending.shift()!;
      }
      ended = true;
      return assembler.response();
    } catch (error) {
      if (controller.signal.aborted && !outOfTime) throw outer?.reason ?? error;
      if (outOfTime) return undefined;
      throw ToolkitError.is(error) ? error : new ToolkitError('PROVIDER_FAILED', `The model provider failed because ${describeThrown(error)}`, { cause: error });
    } finally {
      if (!ended) {
        // stopped early (a failure, the consumer left): end the request first, so that a read in flight settles
        controller.abort(new ToolkitError('ABORTED', 'The tool loop was stopped.'));
        await Promise.resolve(events.return?.()).catch(() => undefined);
      }
    }
  }

  try {
    while (iterations < maxIterations) {
      if (outOfTime) {
        stopReason = 'time_budget';
        break;
      }
      const iteration = iterations + 1;
      const turn = new TurnCalls(options, guard, {
        ...callOptions,
        onProgress: (progress) => {
          options.onProgress?.(progress);
          turn.post({ type: 'tool_progress', iteration, progress });
        },
      }, iteration, streaming);
      const response = yield* ask(true, turn);
      if (!response) {
        stopReason = 'time_budget';
        break;
      }
      usage = addUsage(usage, response.usage);
      content = response.content;
      options.onResponse?.(response, iterations);
      const calls = response.toolCalls;
      conversation.push({ role: 'assistant', content: response.content, ...(calls.length ? { toolCalls: calls } : {}) });
      if (calls.length === 0) {
        stopReason = 'completed';
        options.onTurn?.({ iteration, response, results: [] });
        yield { type: 'step_finished', iteration, response, results: [] };
        break;
      }
      yield* turn.drain();
      if (outer?.aborted) throw abortReason(outer);
      const results = turn.results;
      calls.forEach((call, index) => {
        const result = results[index];
        options.onToolResult?.(result, call);
        const parts = result.isError ? undefined : modelParts(result.content);
        conversation.push({
          role: 'tool',
          content: result.forLLM,
          toolCallId: call.id,
          name: call.name,
          ...(result.isError ? { isError: true } : {}),
          ...(parts !== undefined ? { parts } : {}),
        });
      });
      options.onTurn?.({ iteration, response, results });
      yield { type: 'step_finished', iteration, response, results };
      returnedDirect = directAnswer(options, calls, results);
      if (returnedDirect !== undefined) {
        content = returnedDirect.result.forLLM;
        stopReason = 'return_direct';
        break;
      }
      if (turn.budgetHit) {
        stopReason = 'max_tool_calls';
        break;
      }
    }

    if (stopReason !== 'completed' && stopReason !== 'return_direct' && options.finalSummary && !outOfTime) {
      const prompt = typeof options.finalSummary === 'string' ? options.finalSummary : DEFAULT_SUMMARY_PROMPT;
      const response = yield* ask(false, undefined, { role: 'user', content: prompt });
      if (response) {
        usage = addUsage(usage, response.usage);
        content = response.content;
        conversation.push({ role: 'user', content: prompt }, { role: 'assistant', content: response.content });
        yield { type: 'step_finished', iteration: iterations, response, results: [] };
      }
    }
    finished = true;
  } finally {
    if (budgetTimer !== undefined) clearTimeout(budgetTimer);
    outer?.removeEventListener('abort', onOuterAbort);
    // the consumer stopped early or the loop failed: stop the model request and running tools
    if (!finished) controller.abort(new ToolkitError('ABORTED', 'The tool loop was stopped.'));
  }
  const result: ToolLoopResult = {
    content,
    iterations,
    messages: conversation,
    stopReason,
    toolCalls: guard.admitted,
    ...(usage ? { usage } : {}),
    ...(returnedDirect ? { returnedDirect } : {}),
  };
  yield { type: 'final', result };
}

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
