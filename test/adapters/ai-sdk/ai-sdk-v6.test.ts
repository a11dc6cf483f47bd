import { generateText, stepCountIs, streamText } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describeAiSdk, type SdkUnderTest } from './ai-sdk-suite';

/** The suite against `ai` 6 (the devDependency `ai`), with its MockLanguageModelV3. */
describeAiSdk('ai 6 (MockLanguageModelV3)', (): SdkUnderTest => ({
  major: 6,
  generateText: generateText as unknown as SdkUnderTest['generateText'],
  streamText: streamText as unknown as SdkUnderTest['streamText'],
  stepCountIs,
  mockModel: (doGenerate, doStream) =>
    new MockLanguageModelV3({ doGenerate: doGenerate as never, doStream: doStream as never }),
  readableStream: (parts) => convertArrayToReadableStream(parts),
}));
