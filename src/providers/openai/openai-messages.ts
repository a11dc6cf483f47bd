import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import type { Message } from '../../model/llm-types';
import { argumentsText, toolCallIdOf, unknownRoleError } from '../provider-support';
import { functionCallOutput, toolMediaMessage } from './openai-tool-media';

/** @internal The vendor name errors and lowering reports carry. */
export const VENDOR = 'OpenAI';

/**
 * Maps provider-neutral messages to Chat Completions messages: assistant tool calls with their
 * arguments as JSON text, `tool` messages with `tool_call_id`. Tool messages take text only, so the
 * images (PNG, JPEG, GIF, WebP) and PDF files of a run of tool results meant for the model follow
 * the run as one `user` message of `image_url` / `file` parts, unless `toolMedia` is `'omit'`.
 *
 * @example
 * toChatMessages([{ role: 'tool', toolCallId: 'call_1', content: '21°C' }]);
 * // [{ role: 'tool', tool_call_id: 'call_1', content: '21°C' }]
 * @throws ToolkitError `PROVIDER_FAILED` for a `tool` message without `toolCallId`.
 */
export function toChatMessages(
  messages: readonly Message[],
  options: { readonly toolMedia?: 'user-message' | 'omit' | undefined } = {},
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let run: { message: Message; callId: string }[] = [];
  const endRun = (): void => {
    const attachments = options.toolMedia === 'omit' ? undefined : toolMediaMessage(run);
    if (attachments !== undefined) out.push(attachments);
    run = [];
  };
  messages.forEach((message, index) => {
    if (message.role !== 'tool') endRun();
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          out.push({ role: 'assistant', content: message.content });
          break;
        }
        out.push({
          role: 'assistant',
          content: message.content === '' ? null : message.content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: argumentsText(call.arguments) },
          })),
        });
        break;
      }
      case 'tool': {
        const callId = toolCallIdOf(message, index, VENDOR);
        out.push({ role: 'tool', tool_call_id: callId, content: message.content });
        run.push({ message, callId });
        break;
      }
      default:
        throw unknownRoleError(VENDOR, message, index);
    }
  });
  endRun();
  return out;
}

/**
 * Maps provider-neutral messages to Responses API input items: assistant tool calls become
 * `function_call` items, `tool` messages `function_call_output` items (joined by `call_id`) whose
 * output is the text, or the text then `input_image` / `input_file` parts for the images (PNG,
 * JPEG, GIF, WebP) and PDF files of the result meant for the model.
 *
 * @example
 * toResponsesInput([{ role: 'user', content: 'Hi' }]); // [{ role: 'user', content: 'Hi' }]
 * @throws ToolkitError `PROVIDER_FAILED` for a `tool` message without `toolCallId`.
 */
export function toResponsesInput(messages: readonly Message[]): ResponseInputItem[] {
  const input: ResponseInputItem[] = [];
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'system':
      case 'user':
        input.push({ role: message.role, content: message.content });
        break;
      case 'assistant':
        if (message.content !== '' || (message.toolCalls ?? []).length === 0) {
          input.push({ role: 'assistant', content: message.content });
        }
        for (const call of message.toolCalls ?? []) {
          input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: argumentsText(call.arguments) });
        }
        break;
      case 'tool':
        input.push(functionCallOutput(message, toolCallIdOf(message, index, VENDOR)));
        break;
      default:
        throw unknownRoleError(VENDOR, message, index);
    }
  });
  return input;
}
