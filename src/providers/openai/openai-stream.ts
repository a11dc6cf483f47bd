import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsStreaming, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { OpenAIClient } from './openai-client';
import type { LLMUsage, ProviderStreamEvent } from '../../model/llm-types';
import type { ToolCall } from '../../model/tool-types';
import { boundInput } from '../../utils/quote-input';
import { ToolkitError } from '../../errors';
import { sdkStream } from '../stream-support';

const MAX_MESSAGE_CHARS = 500;

/** @internal Turns the raw arguments text of a complete call into what the toolkit gets (strict-mode `null`s removed). */
export type CallArguments = (name: string, raw: string) => ToolCall['arguments'];

/**
 * @internal Opens one streamed turn: Chat Completions with `stream: true` (usage included), or the
 * Responses API's events, as provider stream events. `body`: the request without `stream`.
 */
export function openAIStream(
  client: OpenAIClient,
  api: 'chat' | 'responses',
  body: Record<string, unknown>,
  signal: AbortSignal | undefined,
  callArguments: CallArguments,
): AsyncIterable<ProviderStreamEvent> {
  if (api === 'responses') {
    const params = { ...body, stream: true } as ResponseCreateParamsStreaming;
    return responsesEvents(sdkStream('OpenAI', 'responses.create', signal, () => client.responses.create(params, { signal })), callArguments);
  }
  const params = { ...body, stream: true, stream_options: { include_usage: true } } as ChatCompletionCreateParamsStreaming;
  return chatCompletionEvents(sdkStream('OpenAI', 'chat.completions.create', signal, () => client.chat.completions.create(params, { signal })), callArguments);
}

interface OpenCall {
  readonly id: string;
  readonly name: string;
  args: string;
}

/**
 * @internal Chat Completions chunks as provider stream events. A call is complete when the next
 * call starts or the choice finishes (the API sends calls one after another, by `index`); a
 * stream that ends without a `finish_reason` leaves its last call open, and the loop refuses it.
 */
export async function* chatCompletionEvents(chunks: AsyncIterable<ChatCompletionChunk>, callArguments: CallArguments): AsyncGenerator<ProviderStreamEvent> {
  const open = new Map<number, OpenCall>();
  let stopReason: string | undefined;
  let usage: LLMUsage | undefined;
  function* complete(): Generator<ProviderStreamEvent> {
    for (const call of open.values()) yield { type: 'tool_call_complete', id: call.id, name: call.name, arguments: callArguments(call.name, call.args) };
    open.clear();
  }
  for await (const chunk of chunks) {
    if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens, totalTokens: chunk.usage.total_tokens };
    const choice = chunk.choices?.[0];
    if (choice === undefined) continue;
    const text = choice.delta?.content ?? choice.delta?.refusal;
    if (text) yield { type: 'text_delta', text };
    for (const part of choice.delta?.tool_calls ?? []) {
      let call = open.get(part.index);
      if (call === undefined) {
        yield* complete();
        call = { id: part.id ?? `call_${part.index}`, name: part.function?.name ?? '', args: '' };
        open.set(part.index, call);
        yield { type: 'tool_call_started', id: call.id, name: call.name };
      }
      const delta = part.function?.arguments;
      if (delta) {
        call.args += delta;
        yield { type: 'tool_call_delta', id: call.id, delta };
      }
    }
    if (choice.finish_reason) {
      stopReason = choice.finish_reason;
      yield* complete();
    }
  }
  yield { type: 'finish', stopReason, usage };
}

/**
 * @internal Responses API events as provider stream events: a `function_call` item starts a call,
 * its `function_call_arguments.delta`s follow, `output_item.done` completes it; `response.failed`
 * and `error` events fail the turn.
 */
export async function* responsesEvents(events: AsyncIterable<ResponseStreamEvent>, callArguments: CallArguments): AsyncGenerator<ProviderStreamEvent> {
  const callIds = new Map<string, string>();
  for await (const event of events) {
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        yield { type: 'text_delta', text: event.delta };
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call') {
          callIds.set(event.item.id ?? event.item.call_id, event.item.call_id);
          yield { type: 'tool_call_started', id: event.item.call_id, name: event.item.name };
        }
        break;
      case 'response.function_call_arguments.delta': {
        const id = callIds.get(event.item_id);
        if (id !== undefined) yield { type: 'tool_call_delta', id, delta: event.delta };
        break;
      }
      case 'response.output_item.done':
        if (event.item.type === 'function_call') {
          yield { type: 'tool_call_complete', id: event.item.call_id, name: event.item.name, arguments: callArguments(event.item.name, event.item.arguments) };
        }
        break;
      case 'response.completed':
      case 'response.incomplete': {
        const { response } = event;
        const usage = response.usage ? { inputTokens: response.usage.input_tokens, outputTokens: response.usage.output_tokens, totalTokens: response.usage.total_tokens } : undefined;
        const stopReason = response.status === 'incomplete' ? (response.incomplete_details?.reason ?? 'incomplete') : callIds.size > 0 ? 'tool_calls' : 'stop';
        yield { type: 'finish', stopReason, usage };
        return;
      }
      case 'response.failed':
        throw new ToolkitError('PROVIDER_FAILED', `OpenAI responses.create failed: ${boundInput(String(event.response.error?.code ?? 'error'), MAX_MESSAGE_CHARS)}: ${boundInput(event.response.error?.message ?? 'the response failed', MAX_MESSAGE_CHARS)}`);
      case 'error':
        throw new ToolkitError('PROVIDER_FAILED', `OpenAI responses.create stream failed: ${boundInput(String(event.code ?? 'error'), MAX_MESSAGE_CHARS)}: ${boundInput(String(event.message), MAX_MESSAGE_CHARS)}`);
      default:
        break;
    }
  }
}
