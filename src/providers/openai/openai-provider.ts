import type { OpenAI } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import type { LLMProvider, LLMRequest, LLMResponse, LLMUsage, Message } from '../../common/llm-types';
import type { ToolCall, ToolSchema } from '../../common/tool-types';
import { ToolkitError } from '../../errors';
import {
  type ArgumentRestorer,
  compileArgumentRestorer,
  type LoweringChange,
  lowerToolOrOmit,
  type OpenAIChatToolDefinition,
  type OpenAIResponsesToolDefinition,
} from '../../schema/lowering';
import {
  argumentsObject,
  argumentsText,
  cachedLowering,
  mergedOptions,
  sdkCall,
  toolCallIdOf,
  unknownRoleError,
} from '../provider-support';
import { functionCallOutput, toolMediaMessage } from './openai-tool-media';

/**
 * Options of {@link OpenAIProvider}.
 *
 * @example
 * const options: OpenAIProviderOptions = { api: 'responses', strict: true, parallelToolCalls: false };
 */
export interface OpenAIProviderOptions {
  /** `'chat'` (Chat Completions, the default) or `'responses'` (Responses API). */
  api?: 'chat' | 'responses' | undefined;
  /**
   * Send tools in OpenAI's strict (Structured Outputs) form. Optional parameters then become
   * required-and-nullable on the wire; the `null`s the model sends for them are removed again
   * before the arguments reach the toolkit. Default `false`.
   */
  strict?: boolean | undefined;
  /** Body fields sent with every request (e.g. `{ temperature: 0 }`); `request.options` win over them. */
  defaultOptions?: Record<string, unknown> | undefined;
  /**
   * Chat Completions only (its tool messages take text only): `'user-message'` (the default) sends
   * the images and PDF files of tool results after them as one user message; `'omit'` sends the
   * text only, for models that take no images. The Responses API always sends them in the
   * `function_call_output`.
   */
  chatToolMedia?: 'user-message' | 'omit' | undefined;
  /** Sent as `parallel_tool_calls` when the request has tools. Unset: the API's default (on). */
  parallelToolCalls?: boolean | undefined;
  /**
   * Receives the lowering report of each tool the first time it is lowered (what strict mode
   * changed), a tool left out included (an entry with `omitted: true`: a map or a schema too
   * large for strict mode…). Unset: a tool left out gets a `TOOLWRIGHT_TOOL_SKIPPED` process warning.
   */
  onLoweringReport?: ((report: readonly LoweringChange[]) => void) | undefined;
}

interface LoweredTool {
  /** The Chat Completions or the Responses form, after the provider's `api`. */
  readonly definition: OpenAIChatToolDefinition | OpenAIResponsesToolDefinition;
  readonly restore: ArgumentRestorer;
}

const VENDOR = 'OpenAI';

/**
 * An {@link LLMProvider} over the official `openai` client (a peer dependency you construct
 * yourself; this module only imports its types). Speaks Chat Completions by default, or the
 * Responses API with `{ api: 'responses' }`. Tools are lowered with
 * `lowerToolSchemas(tools, 'openai' | 'openai-responses', { strict })`.
 *
 * Errors: an HTTP or network failure rejects with `ToolkitError('PROVIDER_FAILED')` whose message
 * carries the status and the API's message, the SDK error as `cause`; an aborted `signal`
 * rejects with `ToolkitError('ABORTED')`. A tool whose name or schema the API cannot take is left
 * out of the request and reported (`onLoweringReport`); the others are sent.
 *
 * @example
 * import OpenAI from 'openai';
 * import { OpenAIProvider } from 'toolwright/openai';
 * const provider = new OpenAIProvider(new OpenAI(), { strict: true });
 * const result = await runToolLoop({ provider, model: 'gpt-4.1-mini', toolkit }, messages);
 */
export class OpenAIProvider implements LLMProvider {
  private readonly api: 'chat' | 'responses';
  private readonly strict: boolean;
  private readonly defaultOptions: Record<string, unknown> | undefined;
  private readonly parallelToolCalls: boolean | undefined;
  private readonly chatToolMedia: 'user-message' | 'omit' | undefined;
  private readonly lower: (tool: ToolSchema) => LoweredTool | undefined;

  constructor(
    private readonly client: OpenAI,
    options: OpenAIProviderOptions = {},
  ) {
    this.api = options.api ?? 'chat';
    this.strict = options.strict === true;
    this.defaultOptions = options.defaultOptions;
    this.parallelToolCalls = options.parallelToolCalls;
    this.chatToolMedia = options.chatToolMedia;
    this.lower = cachedLowering(VENDOR, (tool) => this.lowerTool(tool), options.onLoweringReport);
  }

  /**
   * Runs one model turn.
   *
   * @example
   * const turn = await provider.chat({ model: 'gpt-4.1-mini', messages, tools: toolkit.getToolSchemas() });
   * @throws ToolkitError `PROVIDER_FAILED`, `ABORTED`.
   */
  async chat(request: LLMRequest): Promise<LLMResponse> {
    const tools: LoweredTool[] = [];
    const restorers = new Map<string, ArgumentRestorer>();
    for (const tool of request.tools) {
      const lowered = this.lower(tool);
      if (lowered === undefined) continue;
      tools.push(lowered);
      restorers.set(tool.name, lowered.restore);
    }
    // the fields both APIs take alike; each path adds its own form of the messages
    const shared = {
      ...(tools.length > 0 && this.parallelToolCalls !== undefined ? { parallel_tool_calls: this.parallelToolCalls } : {}),
      ...mergedOptions(this.defaultOptions, request.options),
      model: request.model,
    };
    const definitions = tools.length > 0 ? { tools: tools.map((t) => t.definition) } : {};
    return this.api === 'responses'
      ? this.viaResponses(
          { ...shared, input: toResponsesInput(request.messages), ...definitions } as ResponseCreateParamsNonStreaming,
          request.signal,
          restorers,
        )
      : this.viaChatCompletions(
          { ...shared, messages: toChatMessages(request.messages, { toolMedia: this.chatToolMedia }), ...definitions } as ChatCompletionCreateParamsNonStreaming,
          request.signal,
          restorers,
        );
  }

  private lowerTool(tool: ToolSchema): { lowered?: LoweredTool; report: readonly LoweringChange[] } {
    const options = { strict: this.strict };
    const result = this.api === 'responses' ? lowerToolOrOmit(tool, 'openai-responses', options) : lowerToolOrOmit(tool, 'openai', options);
    if (result.definition === undefined) return { report: result.report };
    const lowered: LoweredTool = {
      definition: result.definition,
      restore: compileArgumentRestorer(tool.parameters, 'openai', options),
    };
    return { lowered, report: result.report };
  }

  /** Arguments as the toolkit wants them: strict-mode `null`s for optionals removed. */
  private callArguments(name: string, raw: string, restorers: ReadonlyMap<string, ArgumentRestorer>): ToolCall['arguments'] {
    if (!this.strict) return raw;
    const restore = restorers.get(name);
    const parsed = restore === undefined ? undefined : argumentsObject(raw);
    return parsed === undefined || restore === undefined ? raw : restore(parsed);
  }

  private async viaChatCompletions(
    body: ChatCompletionCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
    restorers: ReadonlyMap<string, ArgumentRestorer>,
  ): Promise<LLMResponse> {
    const completion: ChatCompletion = await sdkCall(VENDOR, 'chat.completions.create', signal, () =>
      this.client.chat.completions.create(body, { signal }),
    );
    const choice = completion.choices?.[0];
    if (choice === undefined) {
      throw new ToolkitError('PROVIDER_FAILED', `${VENDOR} chat.completions.create returned no choices.`);
    }
    const message = choice.message;
    const toolCalls: ToolCall[] = [];
    for (const call of message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      toolCalls.push({
        id: call.id,
        name: call.function.name,
        arguments: this.callArguments(call.function.name, call.function.arguments, restorers),
      });
    }
    const response: LLMResponse = {
      content: message.content ?? message.refusal ?? '',
      toolCalls,
      finishReason: choice.finish_reason,
    };
    if (completion.usage) {
      response.usage = {
        inputTokens: completion.usage.prompt_tokens,
        outputTokens: completion.usage.completion_tokens,
        totalTokens: completion.usage.total_tokens,
      };
    }
    return response;
  }

  private async viaResponses(
    body: ResponseCreateParamsNonStreaming,
    signal: AbortSignal | undefined,
    restorers: ReadonlyMap<string, ArgumentRestorer>,
  ): Promise<LLMResponse> {
    const result: Response = await sdkCall(VENDOR, 'responses.create', signal, () => this.client.responses.create(body, { signal }));
    if (result.status === 'failed' || result.error) {
      throw new ToolkitError(
        'PROVIDER_FAILED',
        `${VENDOR} responses.create failed: ${result.error?.code ?? 'error'}: ${result.error?.message ?? 'the response failed'}`,
      );
    }
    const texts: string[] = [];
    const toolCalls: ToolCall[] = [];
    for (const item of result.output ?? []) {
      if (item.type === 'function_call') {
        toolCalls.push({ id: item.call_id, name: item.name, arguments: this.callArguments(item.name, item.arguments, restorers) });
      } else if (item.type === 'message') {
        for (const part of item.content) texts.push(part.type === 'output_text' ? part.text : part.refusal);
      }
    }
    const response: LLMResponse = {
      content: texts.join(''),
      toolCalls,
      finishReason:
        result.status === 'incomplete'
          ? (result.incomplete_details?.reason ?? 'incomplete')
          : toolCalls.length > 0
            ? 'tool_calls'
            : 'stop',
    };
    if (result.usage) response.usage = responsesUsage(result.usage);
    return response;
  }
}

function responsesUsage(usage: NonNullable<Response['usage']>): LLMUsage {
  return { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens, totalTokens: usage.total_tokens };
}

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
