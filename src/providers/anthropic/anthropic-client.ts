import type { Anthropic } from '@anthropic-ai/sdk';

/** What `AnthropicProvider` passes with each request. */
export interface AnthropicRequestOptions {
  readonly signal?: AbortSignal | undefined;
}

/**
 * The part of an `@anthropic-ai/sdk` client that `AnthropicProvider` uses. Any build of the SDK
 * fits — the CommonJS and the ES module `Anthropic` classes alike, a client made for another
 * `baseURL` — as does any object with this method.
 *
 * @example
 * import Anthropic from '@anthropic-ai/sdk';
 * const client: AnthropicClient = new Anthropic();
 */
export interface AnthropicClient {
  readonly messages: {
    create(body: Anthropic.MessageCreateParamsNonStreaming, options?: AnthropicRequestOptions): PromiseLike<Anthropic.Message>;
    create(body: Anthropic.MessageCreateParamsStreaming, options?: AnthropicRequestOptions): PromiseLike<AsyncIterable<Anthropic.RawMessageStreamEvent>>;
  };
}
