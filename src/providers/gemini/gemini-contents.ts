import type { Content, FunctionResponsePart, Part } from '@google/genai';
import { modelMedia } from '../../model/content-text';
import type { Message } from '../../model/llm-types';
import { ToolkitError } from '../../errors';
import { argumentsObject, toolCallIdOf, unknownRoleError } from '../provider-support';

const VENDOR = 'Gemini';

/**
 * The prefix of the call ids the adapter makes up when Gemini sends a function call without one
 * (the Gemini API often does). Such ids are never sent back: the response is matched by name and order.
 */
export const LOCAL_CALL_ID_PREFIX = 'toolwright-gemini-';

/**
 * The media types Gemini takes inline in a `functionResponse` (its multimodal function responses):
 * images and documents.
 */
const FUNCTION_RESPONSE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'application/pdf',
  'text/plain',
]);

/**
 * Thought signatures Gemini attached to its function calls, by call id; replayed with the calls
 * (Gemini 3 requires them). A `Map<string, string>` is one.
 *
 * @example
 * const signatures: SignatureLookup = new Map([['fc_1', 'c2ln']]);
 */
export interface SignatureLookup {
  /** The signature of the call `callId`, if Gemini gave one. */
  get(callId: string): string | undefined;
}

/** The call id as the wire wants it: absent when the adapter made it up. */
function wireId(id: string): { id?: string } {
  return id.startsWith(LOCAL_CALL_ID_PREFIX) ? {} : { id };
}

/** A tool message's `functionResponse` part: its text as `output` (or `error`), its images and documents as inline parts. */
function functionResponsePart(message: Message, index: number, names: ReadonlyMap<string, string>, withMedia: boolean): Part {
  const id = toolCallIdOf(message, index, VENDOR);
  const name = message.name ?? names.get(id);
  if (name === undefined || name === '') {
    throw new ToolkitError(
      'PROVIDER_FAILED',
      `${VENDOR}: messages[${index}] is a "tool" message without name, answering a call no earlier assistant message made; ` +
        'Gemini matches function responses by name, so set Message.name.',
    );
  }
  const media = message.isError === true || !withMedia ? [] : modelMedia(message.parts, (type) => FUNCTION_RESPONSE_TYPES.has(type));
  const parts: FunctionResponsePart[] = media.map((item) => ({ inlineData: { mimeType: item.mimeType, data: item.data } }));
  return {
    functionResponse: {
      ...wireId(id),
      name,
      response: message.isError === true ? { error: message.content } : { output: message.content },
      ...(parts.length > 0 ? { parts } : {}),
    },
  };
}

/**
 * Options of {@link toGeminiContents}.
 *
 * @example
 * const options: GeminiContentsOptions = { signatures: new Map([['fc_1', 'c2ln']]), toolMedia: 'omit' };
 */
export interface GeminiContentsOptions {
  /** The thought signatures to replay with the function calls they came with. */
  readonly signatures?: SignatureLookup | undefined;
  /**
   * `'inline'` (the default): the images and files of tool results as inline data of the
   * `functionResponse` (Gemini 3's multimodal function responses); `'omit'`: the text only, for
   * models before Gemini 3.
   */
  readonly toolMedia?: 'inline' | 'omit' | undefined;
}

/**
 * Maps provider-neutral messages to Gemini `contents`: system messages joined into
 * `systemInstruction`; assistant turns as `model` contents of a text part and `functionCall` parts
 * (with the thought signatures Gemini gave them); each run of consecutive `tool` messages as ONE
 * `user` content of `functionResponse` parts, matched by call id and name (a failed call's text
 * under `error`, else under `output`; the PNG, JPEG, WebP, HEIC/HEIF images and the PDF and
 * plain-text files among its parts as inline data of the response, unless `toolMedia` is `'omit'`).
 *
 * @example
 * toGeminiContents([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
 * // { systemInstruction: 'Be brief.', contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] }
 * @throws ToolkitError `PROVIDER_FAILED` for a `tool` message without `toolCallId`, or without a
 * name when no earlier call has its id.
 */
export function toGeminiContents(
  messages: readonly Message[],
  options: GeminiContentsOptions = {},
): { systemInstruction?: string; contents: Content[] } {
  const system: string[] = [];
  const contents: Content[] = [];
  const names = new Map<string, string>();
  // the functionResponse parts of the current run of tool messages, which share one content
  let results: Part[] | undefined;
  for (const [index, message] of messages.entries()) {
    if (message.role === 'tool') {
      if (results === undefined) {
        results = [];
        contents.push({ role: 'user', parts: results });
      }
      results.push(functionResponsePart(message, index, names, options.toolMedia !== 'omit'));
      continue;
    }
    results = undefined;
    if (message.role === 'system') system.push(message.content);
    else if (message.role === 'user') contents.push({ role: 'user', parts: [{ text: message.content }] });
    else if (message.role === 'assistant') {
      const parts: Part[] = message.content !== '' ? [{ text: message.content }] : [];
      for (const call of message.toolCalls ?? []) {
        names.set(call.id, call.name);
        const thoughtSignature = options.signatures?.get(call.id);
        parts.push({
          functionCall: { ...wireId(call.id), name: call.name, args: argumentsObject(call.arguments) ?? {} },
          ...(thoughtSignature !== undefined ? { thoughtSignature } : {}),
        });
      }
      if (parts.length > 0) contents.push({ role: 'model', parts });
    } else throw unknownRoleError(VENDOR, message, index);
  }
  return system.length > 0 ? { systemInstruction: system.join('\n\n'), contents } : { contents };
}
