import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { Response, ResponseCreateParamsNonStreaming, ResponseCreateParamsStreaming, ResponseStreamEvent } from 'openai/resources/responses/responses';

/** What `OpenAIProvider` passes with each request. */
export interface OpenAIRequestOptions {
  readonly signal?: AbortSignal | undefined;
}

/**
 * The part of an `openai` client that `OpenAIProvider` uses. Any build of the SDK fits — the
 * CommonJS and the ES module `OpenAI` classes alike, `AzureOpenAI`, a client made with another
 * `baseURL` — as does any object with these methods.
 *
 * @example
 * import OpenAI from 'openai';
 * const client: OpenAIClient = new OpenAI();
 */
export interface OpenAIClient {
  readonly chat: {
    readonly completions: {
      create(body: ChatCompletionCreateParamsNonStreaming, options?: OpenAIRequestOptions): PromiseLike<ChatCompletion>;
      create(body: ChatCompletionCreateParamsStreaming, options?: OpenAIRequestOptions): PromiseLike<AsyncIterable<ChatCompletionChunk>>;
    };
  };
  readonly responses: {
    create(body: ResponseCreateParamsNonStreaming, options?: OpenAIRequestOptions): PromiseLike<Response>;
    create(body: ResponseCreateParamsStreaming, options?: OpenAIRequestOptions): PromiseLike<AsyncIterable<ResponseStreamEvent>>;
  };
}
