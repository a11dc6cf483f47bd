import type { ChatCompletionContentPart, ChatCompletionUserMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFunctionCallOutputItem, ResponseInputItem } from 'openai/resources/responses/responses';
import { type ModelMedia, modelMedia } from '../../model/content-text';
import type { Message } from '../../model/llm-types';

/**
 * The media types OpenAI takes as images (`input_image`, `image_url`) and as files (`input_file`,
 * `file`: PDF) in its inputs.
 */
const OPENAI_MEDIA_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);

/** The images and PDF files of a successful tool message's parts meant for the model. */
function toolMedia(message: Message): ModelMedia[] {
  return message.isError === true ? [] : modelMedia(message.parts, (type) => OPENAI_MEDIA_TYPES.has(type));
}

function dataUrl(item: ModelMedia): string {
  return `data:${item.mimeType};base64,${item.data}`;
}

/**
 * A `function_call_output` item of the Responses API: the text alone, or, when the result carries
 * images or PDF files for the model, the text then `input_image` / `input_file` parts as data URLs.
 */
export function functionCallOutput(message: Message, callId: string): ResponseInputItem {
  const media = toolMedia(message);
  if (media.length === 0) return { type: 'function_call_output', call_id: callId, output: message.content };
  const output: ResponseFunctionCallOutputItem[] = [
    { type: 'input_text', text: message.content },
    ...media.map(
      (item): ResponseFunctionCallOutputItem =>
        item.kind === 'image'
          ? { type: 'input_image', image_url: dataUrl(item) }
          : { type: 'input_file', filename: item.filename, file_data: dataUrl(item) },
    ),
  ];
  return { type: 'function_call_output', call_id: callId, output };
}

/**
 * Chat Completions takes text only in `tool` messages, and images and files only in `user`
 * messages. The images and PDF files of a run of tool results therefore follow the run as ONE user
 * message: per call, a text part naming it, then `image_url` / `file` parts as data URLs.
 * `undefined` when no tool message of the run has any.
 */
export function toolMediaMessage(run: readonly { readonly message: Message; readonly callId: string }[]): ChatCompletionUserMessageParam | undefined {
  const content: ChatCompletionContentPart[] = [];
  for (const { message, callId } of run) {
    const media = toolMedia(message);
    if (media.length === 0) continue;
    content.push({ type: 'text', text: `Attachments of the tool result ${callId}${message.name ? ` (${message.name})` : ''}:` });
    for (const item of media) {
      content.push(
        item.kind === 'image'
          ? { type: 'image_url', image_url: { url: dataUrl(item) } }
          : { type: 'file', file: { filename: item.filename, file_data: dataUrl(item) } },
      );
    }
  }
  return content.length > 0 ? { role: 'user', content } : undefined;
}
