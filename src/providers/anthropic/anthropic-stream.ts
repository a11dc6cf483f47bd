import type { Anthropic } from '@anthropic-ai/sdk';
import type { LLMUsage, ProviderStreamEvent } from '../../model/llm-types';

/** @internal Input tokens include cache reads and writes, which Anthropic counts apart from `input_tokens`. */
export function usageOf(usage: {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}): LLMUsage {
  const inputTokens =
    (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  const outputTokens = usage.output_tokens ?? 0;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

interface OpenToolUse {
  readonly id: string;
  readonly name: string;
  json: string;
}

/**
 * @internal Messages API stream events as provider stream events: a `tool_use` block starts a
 * call, its `input_json_delta`s follow, `content_block_stop` completes it (the JSON text goes to
 * the toolkit, which parses and validates it). Usage: `message_start`'s, updated by `message_delta`.
 */
export async function* anthropicEvents(events: AsyncIterable<Anthropic.RawMessageStreamEvent>): AsyncGenerator<ProviderStreamEvent> {
  const open = new Map<number, OpenToolUse>();
  let usage: Anthropic.MessageDeltaUsage | undefined;
  let stopReason: string | undefined;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        usage = { ...event.message.usage, server_tool_use: null };
        break;
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          const call = { id: event.content_block.id, name: event.content_block.name, json: '' };
          open.set(event.index, call);
          yield { type: 'tool_call_started', id: call.id, name: call.name };
        }
        break;
      case 'content_block_delta': {
        const { delta } = event;
        if (delta.type === 'text_delta') yield { type: 'text_delta', text: delta.text };
        else if (delta.type === 'input_json_delta') {
          const call = open.get(event.index);
          if (call !== undefined && delta.partial_json !== '') {
            call.json += delta.partial_json;
            yield { type: 'tool_call_delta', id: call.id, delta: delta.partial_json };
          }
        }
        break;
      }
      case 'content_block_stop': {
        const call = open.get(event.index);
        if (call !== undefined) {
          open.delete(event.index);
          yield { type: 'tool_call_complete', id: call.id, name: call.name, arguments: call.json === '' ? {} : call.json };
        }
        break;
      }
      case 'message_delta': {
        stopReason = event.delta.stop_reason ?? stopReason;
        const delta = event.usage;
        usage = {
          ...usage,
          ...Object.fromEntries(Object.entries(delta).filter(([, value]) => value !== null && value !== undefined)),
        } as Anthropic.MessageDeltaUsage;
        break;
      }
      case 'message_stop':
        yield { type: 'finish', stopReason, usage: usage ? usageOf(usage) : undefined };
        return;
    }
  }
}
