/**
 * `toolwright/gemini`: the {@link GeminiProvider} adapter over the official `@google/genai`
 * client (an optional peer dependency; only its types are imported here).
 *
 * @example
 * import { GoogleGenAI } from '@google/genai';
 * import { GeminiProvider } from 'toolwright/gemini';
 * const provider = new GeminiProvider(new GoogleGenAI({}));
 */
export { GeminiProvider } from './gemini-provider';
export type { GeminiProviderOptions } from './gemini-provider';
export { toGeminiContents } from './gemini-contents';
export type { GeminiContentsOptions, SignatureLookup } from './gemini-contents';
