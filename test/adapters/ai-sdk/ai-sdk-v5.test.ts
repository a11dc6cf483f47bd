import { describeAiSdkApprovals } from './ai-sdk-approvals-suite';
import { describeAiSdk, type SdkUnderTest } from './ai-sdk-suite';

// `ai` 5 under the alias `ai-v5`: toolwright's `require('ai')` gets it here, as it would in a
// project that has `ai` 5 installed.
jest.mock('ai', () => jest.requireActual('ai-v5'));

/** `ai` 5 and its MockLanguageModelV2. */
function loadSdk5(): SdkUnderTest {
  const ai = jest.requireActual<typeof import('ai-v5')>('ai-v5');
  const test = jest.requireActual<typeof import('ai-v5/test')>('ai-v5/test');
  return {
    major: 5,
    generateText: ai.generateText as unknown as SdkUnderTest['generateText'],
    streamText: ai.streamText as unknown as SdkUnderTest['streamText'],
    stepCountIs: ai.stepCountIs,
    mockModel: (doGenerate, doStream) => new test.MockLanguageModelV2({ doGenerate: doGenerate as never, doStream: doStream as never }),
    readableStream: (parts) => test.convertArrayToReadableStream(parts),
  };
}

/** The suite against `ai` 5, with its MockLanguageModelV2. */
describeAiSdk('ai 5 (MockLanguageModelV2)', loadSdk5);
describeAiSdkApprovals('ai 5', 5, loadSdk5);

it('the adapter loads ai 5 here', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  expect((require('ai') as { stepCountIs: unknown }).stepCountIs).toBe(jest.requireActual<typeof import('ai-v5')>('ai-v5').stepCountIs);
});
