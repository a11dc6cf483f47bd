import { modelParts } from '../common/content-text';
import type { ToolExecutionContext } from '../common/execution-context';
import type { LLMProvider, LLMResponse, LLMUsage, Message } from '../common/llm-types';
import type { ToolCall, ToolResult } from '../common/tool-types';
import { quoteInput } from '../common/quote-input';
import { MalformedArguments, parseCallArguments } from '../common/call-arguments';
import type { CallOptions, CallProgress } from '../executor/call-executor';
import { ToolkitError, describeThrown, type ToolkitErrorCode } from '../errors';
import type { ToolView } from '../toolkit/tool-view';

/** Why a loop stopped. */
export type LoopStopReason =
  | 'completed'
  | 'max_iterations'
  | 'max_tool_calls'
  | 'time_budget'
  | 'return_direct';

/** One model turn of the loop, as reported to `onTurn`. */
export interface LoopTurn {
  /** 1 for the first model call. */
  iteration: number;
  /** What the model answered. */
  response: LLMResponse;
  /** The results of the turn's tool calls, in call order (empty when it called none). */
  results: ToolResult[];
}

/** Options of {@link runToolLoop}. */
export interface ToolLoopOptions {
  /** The model. */
  provider: LLMProvider;
  /** The model name passed to the provider. */
  model: string;
  /** The toolkit, or one session of it. */
  toolkit: ToolView;
  /** Most model calls (default 10). Reaching it is not an error and makes no extra call. */
  maxIterations?: number | undefined;
  /** Agent-level context objects (between call-level and toolkit-level in the chain); its `Principal` decides which tools the model is offered and may call. */
  context?: ToolExecutionContext | undefined;
  /** Cancels the loop: the model request and running tools are aborted and the loop rejects. */
  signal?: AbortSignal | undefined;
  /** Provider options passed on every turn (temperature, max tokens…). */
  options?: Record<string, unknown> | undefined;
  /**
   * Most tool calls in the whole loop; calls beyond it get a `TOOL_BUDGET_EXCEEDED` error result
   * and the loop asks the model to finish.
   */
  maxToolCalls?: number | undefined;
  /** Most calls per tool (one number for all, or per tool name); calls beyond it get a `TOOL_BUDGET_EXCEEDED` error result. */
  maxCallsPerTool?: number | Record<string, number> | undefined;
  /**
   * How often the same call (same tool, same arguments) may run; repeats beyond it are answered
   * with a `REPEATED_CALL` error result (default 3).
   */
  maxRepeatedCalls?: number | undefined;
  /** A wall-clock budget in ms for the whole loop. */
  timeBudgetMs?: number | undefined;
  /** When a limit stops the loop, make one last model call without tools asking for a final answer (the text, or `true` for a default prompt). */
  finalSummary?: boolean | string | undefined;
  /** Called as soon as the model answers, before its tool calls run. */
  onResponse?: ((response: LLMResponse, iteration: number) => void) | undefined;
  /** Called after each model turn and its tool calls. */
  onTurn?: ((turn: LoopTurn) => void) | undefined;
  /** Called for each tool result. */
  onToolResult?: ((result: ToolResult, call: ToolCall) => void) | undefined;
  /** Receives tool progress. */
  onProgress?: ((progress: CallProgress) => void) | undefined;
}

/** What {@link runToolLoop} resolves to. */
export interface ToolLoopResult {
  /** The last text the model produced. */
  content: string;
  /** The number of model calls made. */
  iterations: number;
  /** The whole conversation: the input messages, then every assistant and tool message. */
  messages: Message[];
  /** Why the loop stopped (`'return_direct'`: a `returnDirect` tool's result is the answer). */
  stopReason: LoopStopReason;
  /**
   * Set when a `returnDirect` tool ended the loop: the tool, its call and its result (`content` is
   * the result's text). The first such call of the batch, in call order, that did not fail.
   */
  returnedDirect?: { readonly tool: string; readonly callId: string; readonly result: ToolResult };
  /** Tool calls made, all turns together. */
  toolCalls: number;
  /** Token usage summed over the turns, when the provider reports it. */
  usage?: LLMUsage;
}

const DEFAULT_SUMMARY_PROMPT = 'A limit was reached: do not call tools any more; answer now with what you have.';

function stableKey(call: ToolCall): string {
  const args = parseCallArguments(call.arguments);
  if (args instanceof MalformedArguments) return `${call.name}\u0000${String(call.arguments)}`;
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]))
        : v;
  return `${call.name}\u0000${JSON.stringify(sort(args))}`;
}

function addUsage(total: LLMUsage | undefined, usage: LLMUsage | undefined): LLMUsage | undefined {
  if (!usage) return total;
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  const next: LLMUsage = {};
  const input = sum(total?.inputTokens, usage.inputTokens);
  const output = sum(total?.outputTokens, usage.outputTokens);
  const all = sum(total?.totalTokens, usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));
  if (input !== undefined) next.inputTokens = input;
  if (output !== undefined) next.outputTokens = output;
  if (all !== undefined) next.totalTokens = all;
  return next;
}

/** What an aborted loop rejects with: the signal's reason, or an `ABORTED` error when it has none. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new ToolkitError('ABORTED', 'The tool loop was aborted.');
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
  const maxIterations = Math.max(1, options.maxIterations ?? 10);
  const maxRepeats = options.maxRepeatedCalls ?? 3;
  const conversation: Message[] = [...messages];
  const perTool = new Map<string, number>();
  const repeats = new Map<string, number>();
  const controller = new AbortController();
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(outer!.reason);
  if (outer?.aborted) throw abortReason(outer);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let budgetTimer: ReturnType<typeof setTimeout> | undefined;
  let outOfTime = false;
  if (options.timeBudgetMs !== undefined) {
    budgetTimer = setTimeout(() => {
      outOfTime = true;
      controller.abort(new ToolkitError('TIMEOUT', `The tool loop ran out of its ${options.timeBudgetMs} ms budget.`));
    }, options.timeBudgetMs);
  }

  let iterations = 0;
  let toolCalls = 0;
  let content = '';
  let usage: LLMUsage | undefined;
  let stopReason: LoopStopReason = 'max_iterations';
  let returnedDirect: ToolLoopResult['returnedDirect'];

  const ask = async (tools: boolean, extra?: Message): Promise<LLMResponse | undefined> => {
    iterations++;
    try {
      return await options.provider.chat({
        model: options.model,
        messages: extra ? [...conversation, extra] : conversation,
        // the provider's own array (the view's is frozen and shared)
        tools: tools ? [...options.toolkit.getToolSchemas({ context: options.context })] : [],
        ...(options.options ? { options: options.options } : {}),
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted && !outOfTime) throw outer?.reason ?? error;
      if (outOfTime) return undefined;
      throw ToolkitError.is(error) ? error : new ToolkitError('PROVIDER_FAILED', `The model provider failed because ${describeThrown(error)}`, { cause: error });
    }
  };

  const limitFor = (name: string): number | undefined =>
    typeof options.maxCallsPerTool === 'number' ? options.maxCallsPerTool : options.maxCallsPerTool?.[name];

  try {
    while (iterations < maxIterations) {
      if (outOfTime) {
        stopReason = 'time_budget';
        break;
      }
      const response = await ask(true);
      if (!response) {
        stopReason = 'time_budget';
        break;
      }
      usage = addUsage(usage, response.usage);
      content = response.content;
      options.onResponse?.(response, iterations);
      const calls = response.toolCalls ?? [];
      conversation.push({ role: 'assistant', content: response.content, ...(calls.length ? { toolCalls: calls } : {}) });
      if (calls.length === 0) {
        stopReason = 'completed';
        options.onTurn?.({ iteration: iterations, response, results: [] });
        break;
      }

      const results: ToolResult[] = new Array<ToolResult>(calls.length);
      const runnable: { call: ToolCall; index: number }[] = [];
      const refused: Promise<unknown>[] = [];
      const callOptions: CallOptions = {
        signal: controller.signal,
        ...(options.context ? { agentContext: options.context } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      };
      let budgetHit = false;
      calls.forEach((call, index) => {
        const key = stableKey(call);
        const seen = (repeats.get(key) ?? 0) + 1;
        repeats.set(key, seen);
        const used = (perTool.get(call.name) ?? 0) + 1;
        const limit = limitFor(call.name);
        let code: ToolkitErrorCode | undefined;
        let message = '';
        if (options.maxToolCalls !== undefined && toolCalls >= options.maxToolCalls) {
          code = 'TOOL_BUDGET_EXCEEDED';
          message = `The tool-call budget of this conversation (${options.maxToolCalls}) is used up; answer with what you have.`;
          budgetHit = true;
        } else if (limit !== undefined && used > limit) {
          code = 'TOOL_BUDGET_EXCEEDED';
          message = `Tool ${quoteInput(call.name)} may be called at most ${limit} time(s) in this conversation; use what you have.`;
        } else if (seen > maxRepeats) {
          code = 'REPEATED_CALL';
          message = `You already called ${quoteInput(call.name)} with exactly these arguments ${seen - 1} time(s); the answer will not change. Use the earlier result or try something else.`;
        }
        if (code !== undefined) {
          // refused through the toolkit: the call still gets its start and end events
          refused.push(options.toolkit.refuseCall(call, code, message, callOptions).then((result) => (results[index] = result)));
          return;
        }
        perTool.set(call.name, used);
        toolCalls++;
        runnable.push({ call, index });
      });
      const done = await options.toolkit.callTools(
        runnable.map((r) => r.call),
        callOptions,
      );
      await Promise.all(refused);
      runnable.forEach((r, i) => (results[r.index] = done[i]));
      if (outer?.aborted) throw abortReason(outer);
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
      options.onTurn?.({ iteration: iterations, response, results });
      returnedDirect = directAnswer(options, calls, results);
      if (returnedDirect !== undefined) {
        content = returnedDirect.result.forLLM;
        stopReason = 'return_direct';
        break;
      }
      if (budgetHit) {
        stopReason = 'max_tool_calls';
        break;
      }
    }

    if (stopReason !== 'completed' && stopReason !== 'return_direct' && options.finalSummary && !outOfTime) {
      const prompt = typeof options.finalSummary === 'string' ? options.finalSummary : DEFAULT_SUMMARY_PROMPT;
      const response = await ask(false, { role: 'user', content: prompt });
      if (response) {
        usage = addUsage(usage, response.usage);
        content = response.content;
        conversation.push({ role: 'user', content: prompt }, { role: 'assistant', content: response.content });
      }
    }
  } finally {
    if (budgetTimer !== undefined) clearTimeout(budgetTimer);
    outer?.removeEventListener('abort', onOuterAbort);
  }

  return { content, iterations, messages: conversation, stopReason, toolCalls, ...(usage ? { usage } : {}), ...(returnedDirect ? { returnedDirect } : {}) };
}

/**
 * The first call of a finished batch, in call order, whose tool says `returnDirect` and whose
 * result is the answer: not an error (the model then tries again), not a pending async answer.
 */
function directAnswer(options: ToolLoopOptions, calls: readonly ToolCall[], results: readonly ToolResult[]): ToolLoopResult['returnedDirect'] {
  const direct = new Set(
    options.toolkit
      .getActiveTools({ context: options.context })
      .filter((tool) => tool.behaviour?.returnDirect === true)
      .map((tool) => tool.name),
  );
  if (direct.size === 0) return undefined;
  const index = calls.findIndex((call, i) => direct.has(call.name) && !results[i].isError && !results[i].async);
  return index < 0 ? undefined : { tool: calls[index].name, callId: calls[index].id, result: results[index] };
}
