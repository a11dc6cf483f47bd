import type { LLMProvider, LLMRequest, LLMResponse, ProviderStreamEvent } from '../common/llm-types';
import type { ToolCall } from '../common/tool-types';
import { ToolkitError } from '../errors';
import { quoteInput } from '../common/quote-input';

/** The default most characters of arguments one streamed call may send. */
export const DEFAULT_MAX_ARGUMENT_CHARS = 1_000_000;

/** @internal One model turn as events: the provider's own stream, or its `chat` answer told as events. */
export async function* modelTurnEvents(provider: LLMProvider, request: LLMRequest, streaming: boolean): AsyncGenerator<ProviderStreamEvent> {
  if (streaming && provider.stream !== undefined) {
    yield* provider.stream(request, { signal: request.signal });
    return;
  }
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
