import { generateText, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import type { SdkUnderTest } from './ai-sdk-suite';

/** `ai` 6 (the devDependency `ai`) as the suites drive it, with its MockLanguageModelV3. */
export const AI_SDK_6: SdkUnderTest = {
  major: 6,
  generateText: generateText as unknown as SdkUnderTest['generateText'],
  streamText: streamText as unknown as SdkUnderTest['streamText'],
  stepCountIs,
  mockModel: (doGenerate, doStream) => new MockLanguageModelV3({ doGenerate: doGenerate as never, doStream: doStream as never }),
  readableStream: (parts) => convertArrayToReadableStream(parts),
};
