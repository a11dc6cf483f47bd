import type { LLMProvider, LLMRequest, LLMResponse, LLMUsage, ProviderStreamEvent } from '../model/llm-types';
import type { ToolCall, ToolResult } from '../model/tool-types';
import { quoteInput } from '../utils/quote-input';
import { MalformedArguments, parseCallArguments } from '../model/call-arguments';
import { ToolkitError, type ToolkitErrorCode } from '../errors';
import type { ToolLoopOptions, ToolLoopResult } from './loop-types';

/** @internal What the guard says about one call: run it, or answer it with an error. */
export type CallAdmission =
  | { readonly run: true }
  | { readonly run: false; readonly code: ToolkitErrorCode; readonly message: string; readonly budgetHit: boolean };

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

/**
 * @internal The loop's per-conversation limits: the whole-loop tool-call budget, the per-tool
 * budgets and the repeated-call check, applied to each call in the order the model made them.
 */
export class CallGuard {
  private readonly perTool = new Map<string, number>();
  private readonly repeats = new Map<string, number>();
  private readonly maxRepeats: number;
  /** Tool calls admitted, all turns together. */
  admitted = 0;

  constructor(private readonly options: ToolLoopOptions) {
    this.maxRepeats = options.maxRepeatedCalls ?? 3;
  }

  /** Counts `call` and says whether it may run. */
  admit(call: ToolCall): CallAdmission {
    const key = stableKey(call);
    const seen = (this.repeats.get(key) ?? 0) + 1;
    this.repeats.set(key, seen);
    const used = (this.perTool.get(call.name) ?? 0) + 1;
    const perTool = this.options.maxCallsPerTool;
    const limit = typeof perTool === 'number' ? perTool : perTool?.[call.name];
    const max = this.options.maxToolCalls;
    if (max !== undefined && this.admitted >= max) {
      const message = `The tool-call budget of this conversation (${max}) is used up; answer with what you have.`;
      return { run: false, code: 'TOOL_BUDGET_EXCEEDED', message, budgetHit: true };
    }
    if (limit !== undefined && used > limit) {
      const message = `Tool ${quoteInput(call.name)} may be called at most ${limit} time(s) in this conversation; use what you have.`;
      return { run: false, code: 'TOOL_BUDGET_EXCEEDED', message, budgetHit: false };
    }
    if (seen > this.maxRepeats) {
      const message = `You already called ${quoteInput(call.name)} with exactly these arguments ${seen - 1} time(s); the answer will not change. Use the earlier result or try something else.`;
      return { run: false, code: 'REPEATED_CALL', message, budgetHit: false };
    }
    this.perTool.set(call.name, used);
    this.admitted++;
    return { run: true };
  }
}

/** @internal Token usage summed over turns. */
export function addUsage(total: LLMUsage | undefined, usage: LLMUsage | undefined): LLMUsage | undefined {
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

/** @internal What an aborted loop rejects with: the signal's reason, or an `ABORTED` error when it has none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new ToolkitError('ABORTED', 'The tool loop was aborted.');
}

/**
 * @internal The first call of a finished batch, in call order, whose tool says `returnDirect` and
 * whose result is the answer: not an error (the model then tries again), not a pending async answer.
 */
export function directAnswer(options: ToolLoopOptions, calls: readonly ToolCall[], results: readonly ToolResult[]): ToolLoopResult['returnedDirect'] {
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

/** The default most characters of arguments one streamed call may send. */
export const DEFAULT_MAX_ARGUMENT_CHARS = 1_000_000;

/** @internal One model turn as events: the provider's own stream, or its `chat` answer told as events. */
export function modelTurnEvents(provider: LLMProvider, request: LLMRequest, streaming: boolean): AsyncIterable<ProviderStreamEvent> {
  if (streaming && provider.stream !== undefined) return provider.stream(request, { signal: request.signal });
  return chatEvents(provider, request);
}

async function* chatEvents(provider: LLMProvider, request: LLMRequest): AsyncGenerator<ProviderStreamEvent> {
  yield* responseEvents(await provider.chat(request));
}

/** @internal A whole response told as stream events (text, each call started, its arguments, complete, finish). */
export function* responseEvents(response: LLMResponse): Generator<ProviderStreamEvent> {
  if (response.content !== '') yield { type: 'text_delta', text: response.content };
  for (const call of response.toolCalls ?? []) {
    yield { type: 'tool_call_started', id: call.id, name: call.name };
    yield { type: 'tool_call_delta', id: call.id, delta: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) };
    yield { type: 'tool_call_complete', id: call.id, name: call.name, arguments: call.arguments };
  }
  yield { type: 'finish', stopReason: response.finishReason, usage: response.usage };
}

/**
 * @internal Builds a turn's response from its events and checks them: arguments within the cap,
 * no call completed that never started, no call left half-formed when the stream ends.
 */
export class TurnAssembler {
  private readonly texts: string[] = [];
  private readonly open = new Map<string, { name: string; chars: number }>();
  readonly calls: ToolCall[] = [];
  private finish: Extract<ProviderStreamEvent, { type: 'finish' }> | undefined;

  constructor(private readonly maxArgumentChars: number) {}

  /** Takes one event; returns the completed call on `tool_call_complete`. */
  take(event: ProviderStreamEvent): ToolCall | undefined {
    switch (event.type) {
      case 'text_delta':
        this.texts.push(event.text);
        return undefined;
      case 'tool_call_started':
        this.open.set(event.id, { name: event.name, chars: 0 });
        return undefined;
      case 'tool_call_delta': {
        const call = this.open.get(event.id);
        if (call === undefined) throw this.protocolError(`sent arguments for the unknown tool call ${quoteInput(event.id)}`);
        call.chars += event.delta.length;
        this.checkSize(event.id, call.name, call.chars);
        return undefined;
      }
      case 'tool_call_complete': {
        if (!this.open.delete(event.id)) throw this.protocolError(`completed the unknown tool call ${quoteInput(event.id)}`);
        if (typeof event.arguments === 'string') this.checkSize(event.id, event.name, event.arguments.length);
        const call: ToolCall = { id: event.id, name: event.name, arguments: event.arguments };
        this.calls.push(call);
        return call;
      }
      case 'finish':
        this.finish = event;
        return undefined;
    }
  }

  /** The turn's response, once the stream has ended. */
  response(): LLMResponse {
    const [half] = this.open;
    if (half !== undefined) {
      throw this.protocolError(`ended inside the arguments of tool call ${quoteInput(half[0])} (tool ${quoteInput(half[1].name)}); that call was not run`);
    }
    const response: LLMResponse = { content: this.texts.join(''), toolCalls: this.calls };
    const reason = this.finish?.stopReason ?? (this.calls.length > 0 ? 'tool_calls' : 'stop');
    response.finishReason = reason;
    if (this.finish?.usage !== undefined) response.usage = this.finish.usage;
    return response;
  }

  private checkSize(id: string, name: string, chars: number): void {
    if (chars <= this.maxArgumentChars) return;
    throw this.protocolError(
      `sent more than ${this.maxArgumentChars} characters of arguments for tool call ${quoteInput(id)} (tool ${quoteInput(name)}); the stream was stopped and the call not run`,
    );
  }

  private protocolError(what: string): ToolkitError {
    return new ToolkitError('PROVIDER_FAILED', `The model stream ${what}.`);
  }
}
