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
import type { LLMProvider, LLMRequest, LLMResponse, LLMUsage, ProviderStreamEvent, ProviderStreamOptions } from '../../model/llm-types';
import type { ToolCall, ToolSchema } from '../../model/tool-types';
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
  cachedLowering,
  mergedOptions,
  sdkCall,
} from '../provider-support';
import type { OpenAIClient } from './openai-client';
import { openAIStream } from './openai-stream';
import { toChatMessages, toResponsesInput, VENDOR } from './openai-messages';

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
    private readonly client: OpenAIClient,
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
    const { shared, definitions, restorers } = this.requestParts(request);
    const body = { ...shared, ...this.conversation(request), ...definitions };
    return this.api === 'responses'
      ? this.viaResponses(body as ResponseCreateParamsNonStreaming, request.signal, restorers)
      : this.viaChatCompletions(body as ChatCompletionCreateParamsNonStreaming, request.signal, restorers);
  }

  /**
   * Runs one model turn as a stream: Chat Completions with `stream: true` (usage included), or
   * the Responses API's streaming events. Each tool call is complete as soon as the API moves on
   * to the next one, so the loop can start it while the model writes the rest.
   *
   * @example
   * for await (const event of provider.stream({ model: 'gpt-4.1-mini', messages, tools })) console.log(event.type);
   * @throws ToolkitError `PROVIDER_FAILED` (also when the stream breaks off), `ABORTED`.
   */
  stream(request: LLMRequest, options: ProviderStreamOptions = {}): AsyncIterable<ProviderStreamEvent> {
    const { shared, definitions, restorers } = this.requestParts(request);
    const callArguments = (name: string, raw: string) => this.callArguments(name, raw, restorers);
    return openAIStream(this.client, this.api, { ...shared, ...this.conversation(request), ...definitions }, options.signal ?? request.signal, callArguments);
  }

  /** The conversation as the API takes it: Responses `input` items, or Chat Completions `messages` (tool media as set). */
  private conversation(request: LLMRequest): { input: ResponseInputItem[] } | { messages: ChatCompletionMessageParam[] } {
    return this.api === 'responses' ? { input: toResponsesInput(request.messages) } : { messages: toChatMessages(request.messages, { toolMedia: this.chatToolMedia }) };
  }

  /** The body fields both APIs take alike, the lowered tools and their argument restorers. */
  private requestParts(request: LLMRequest): {
    shared: Record<string, unknown>;
    definitions: { tools?: (OpenAIChatToolDefinition | OpenAIResponsesToolDefinition)[] };
    restorers: ReadonlyMap<string, ArgumentRestorer>;
  } {
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
    return { shared, definitions, restorers };
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
