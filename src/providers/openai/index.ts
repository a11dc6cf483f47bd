/**
 * `toolwright/openai`: the {@link OpenAIProvider} adapter over the official `openai` client
 * (an optional peer dependency; only its types are imported here).
 *
 * @example
 * import OpenAI from 'openai';
 * import { OpenAIProvider } from 'toolwright/openai';
 * const provider = new OpenAIProvider(new OpenAI(), { api: 'responses' });
 */
export { OpenAIProvider } from './openai-provider';
export { toChatMessages, toResponsesInput } from './openai-messages';
export type { OpenAIProviderOptions } from './openai-provider';
export type { OpenAIClient, OpenAIRequestOptions } from './openai-client';
