import { modelImages } from '../../model/content-text';
import { isPlainObject } from '../../utils/plain-object';
import type { Anthropic } from '@anthropic-ai/sdk';
import type { LLMProvider, LLMRequest, LLMResponse, Message, ProviderStreamEvent, ProviderStreamOptions } from '../../model/llm-types';
import type { ToolCall, ToolSchema } from '../../model/tool-types';
import { type AnthropicToolDefinition, type LoweringChange, lowerToolOrOmit } from '../../schema/lowering';
import { argumentsObject, cachedLowering, mergedOptions, sdkCall, toolCallIdOf, unknownRoleError } from '../provider-support';
import { sdkStream } from '../stream-support';
import type { AnthropicClient } from './anthropic-client';
import { anthropicEvents, usageOf } from './anthropic-stream';

type MessageParam = Anthropic.MessageParam;
type ContentBlockParam = Anthropic.ContentBlockParam;
type ToolResultBlockParam = Anthropic.ToolResultBlockParam;

/** The image media types the Messages API takes in a `tool_result`. */
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A tool message's content: its text, then the images of its parts the API takes, as base64 image blocks. */
function toolResultContent(message: Message): ToolResultBlockParam['content'] {
  const images = modelImages(message.parts, IMAGE_TYPES);
  if (images.length === 0) return message.content;
  return [
    { type: 'text', text: message.content },
    ...images.map((image) => ({
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: image.mimeType.toLowerCase() as Anthropic.Base64ImageSource['media_type'], data: image.data },
    })),
  ];
}

/**
 * Options of {@link AnthropicProvider}.
 *
 * @example
 * const options: AnthropicProviderOptions = { maxTokens: 1024, disableParallelToolUse: true };
 */
export interface AnthropicProviderOptions {
  /** `max_tokens` of every request (the Messages API requires it). Default 4096. */
  maxTokens?: number | undefined;
  /** Sends `tool_choice: { type: 'auto', disable_parallel_tool_use: true }` when the request has tools. */
  disableParallelToolUse?: boolean | undefined;
  /** Body fields sent with every request (e.g. `{ temperature: 0 }`); `request.options` win over them. */
  defaultOptions?: Record<string, unknown> | undefined;
  /**
   * Receives the lowering report of each tool the first time it is lowered, a tool left out
   * included (an entry with `omitted: true`). Unset: a tool left out gets a
   * `TOOLWRIGHT_TOOL_SKIPPED` process warning.
   */
  onLoweringReport?: ((report: readonly LoweringChange[]) => void) | undefined;
}

const VENDOR = 'Anthropic';

/**
 * An {@link LLMProvider} over the official `@anthropic-ai/sdk` client (a peer dependency you
 * construct yourself; this module only imports its types), speaking the Messages API:
 * system messages go to the top-level `system`, assistant turns are replayed as `text` +
 * `tool_use` blocks, consecutive tool results travel as `tool_result` blocks in one user message.
 *
 * Errors: an HTTP or network failure rejects with `ToolkitError('PROVIDER_FAILED')` (status and
 * API message in the text, the SDK error as `cause`); an aborted `signal` rejects with
 * `ToolkitError('ABORTED')`. A tool whose name the API cannot take is left out of the request
 * and reported (`onLoweringReport`); the others are sent.
 *
 * @example
 * import Anthropic from '@anthropic-ai/sdk';
 * import { AnthropicProvider } from 'toolwright/anthropic';
 * const provider = new AnthropicProvider(new Anthropic(), { maxTokens: 2048 });
 * const result = await runToolLoop({ provider, model: 'claude-sonnet-4-5', toolkit }, messages);
 */
export class AnthropicProvider implements LLMProvider {
  private readonly maxTokens: number;
  private readonly disableParallelToolUse: boolean;
  private readonly defaultOptions: Record<string, unknown> | undefined;
  private readonly lower: (tool: ToolSchema) => AnthropicToolDefinition | undefined;

  constructor(
    private readonly client: AnthropicClient,
    options: AnthropicProviderOptions = {},
  ) {
    this.maxTokens = options.maxTokens ?? 4096;
    this.disableParallelToolUse = options.disableParallelToolUse === true;
    this.defaultOptions = options.defaultOptions;
    this.lower = cachedLowering(VENDOR, (tool) => {
      const { definition, report } = lowerToolOrOmit(tool, 'anthropic');
      return { lowered: definition, report };
    }, options.onLoweringReport);
  }

  /**
   * Runs one model turn.
   *
   * @example
   * const turn = await provider.chat({ model: 'claude-sonnet-4-5', messages, tools: toolkit.getToolSchemas() });
   * @throws ToolkitError `PROVIDER_FAILED`, `ABORTED`.
   */
  async chat(request: LLMRequest): Promise<LLMResponse> {
    const body = this.body(request);
    const message: Anthropic.Message = await sdkCall(VENDOR, 'messages.create', request.signal, () =>
      this.client.messages.create(body, { signal: request.signal }),
    );
    const texts: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const block of message.content ?? []) {
      if (block.type === 'text') texts.push(block.text);
      else if (block.type === 'tool_use') {
        const input: unknown = block.input;
        toolCalls.push({
          id: block.id,
          name: block.name,
          // input that is no object goes on as JSON text: the toolkit answers MALFORMED_ARGUMENTS and shows what was sent
          arguments: input === undefined ? {} : isPlainObject(input) ? input : JSON.stringify(input),
        });
      }
    }
    const response: LLMResponse = { content: texts.join(''), toolCalls };
    if (message.stop_reason) response.finishReason = message.stop_reason;
    if (message.usage) response.usage = usageOf(message.usage);
    return response;
  }

  /**
   * Runs one model turn as a stream (`stream: true`): text deltas, each `tool_use` block as a call
   * that is complete at its `content_block_stop`, then the stop reason and usage.
   *
   * @example
   * for await (const event of provider.stream({ model: 'claude-sonnet-4-5', messages, tools })) console.log(event.type);
   * @throws ToolkitError `PROVIDER_FAILED` (also when the stream breaks off), `ABORTED`.
   */
  stream(request: LLMRequest, options: ProviderStreamOptions = {}): AsyncIterable<ProviderStreamEvent> {
    const signal = options.signal ?? request.signal;
    const body: Anthropic.MessageCreateParamsStreaming = { ...this.body(request), stream: true };
    return anthropicEvents(sdkStream(VENDOR, 'messages.create', signal, () => this.client.messages.create(body, { signal })));
  }

  /** The request body, without `stream`. */
  private body(request: LLMRequest): Anthropic.MessageCreateParamsNonStreaming {
    const tools = request.tools.map((tool) => this.lower(tool)).filter((tool) => tool !== undefined);
    const { system, messages } = toAnthropicMessages(request.messages);
    return {
      max_tokens: this.maxTokens,
      ...(tools.length > 0 && this.disableParallelToolUse
        ? { tool_choice: { type: 'auto', disable_parallel_tool_use: true } }
        : {}),
      ...mergedOptions(this.defaultOptions, request.options),
      model: request.model,
      ...(system !== undefined ? { system } : {}),
      messages,
      ...(tools.length > 0 ? { tools } : {}),
    } as Anthropic.MessageCreateParamsNonStreaming;
  }
}

/**
 * Maps provider-neutral messages to the Messages API: system messages joined into the top-level
 * `system` text; assistant turns with tool calls as `text` + `tool_use` blocks; each run of
 * consecutive `tool` messages as ONE user message of `tool_result` blocks (`is_error` set for
 * failed calls; the PNG, JPEG, GIF and WebP images among a message's `parts` as image blocks after
 * its text). Empty assistant turns without tool calls are skipped (the API rejects empty text).
 *
 * @example
 * toAnthropicMessages([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]);
 * // { system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] }
 * @throws ToolkitError `PROVIDER_FAILED` for a `tool` message without `toolCallId`.
 */
export function toAnthropicMessages(messages: readonly Message[]): { system?: string; messages: Anthropic.MessageParam[] } {
  const system: string[] = [];
  const out: MessageParam[] = [];
  let results: ToolResultBlockParam[] | undefined;
  messages.forEach((message, index) => {
    if (message.role !== 'tool') results = undefined;
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          if (message.content !== '') out.push({ role: 'assistant', content: message.content });
          break;
        }
        const blocks: ContentBlockParam[] = [];
        if (message.content !== '') blocks.push({ type: 'text', text: message.content });
        for (const call of calls) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: argumentsObject(call.arguments) ?? {} });
        }
        out.push({ role: 'assistant', content: blocks });
        break;
      }
      case 'tool': {
        const block: ToolResultBlockParam = {
          type: 'tool_result',
          tool_use_id: toolCallIdOf(message, index, VENDOR),
          content: toolResultContent(message),
        };
        if (message.isError === true) block.is_error = true;
        if (results === undefined) {
          results = [];
          out.push({ role: 'user', content: results });
        }
        results.push(block);
        break;
      }
      default:
        throw unknownRoleError(VENDOR, message, index);
    }
  });
  return system.length > 0 ? { system: system.join('\n\n'), messages: out } : { messages: out };
}
