/**
 * `toolwright/anthropic`: the {@link AnthropicProvider} adapter over the official
 * `@anthropic-ai/sdk` client (an optional peer dependency; only its types are imported here).
 *
 * @example
 * import Anthropic from '@anthropic-ai/sdk';
 * import { AnthropicProvider } from 'toolwright/anthropic';
 * const provider = new AnthropicProvider(new Anthropic(), { disableParallelToolUse: true });
 */
export { AnthropicProvider, toAnthropicMessages } from './anthropic-provider';
export type { AnthropicProviderOptions } from './anthropic-provider';
export type { AnthropicClient, AnthropicRequestOptions } from './anthropic-client';
