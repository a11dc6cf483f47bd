import type { ToolApprovalConfiguration, ToolSet } from 'ai-v7';
import { toAiSdkToolApproval, type AiSdkToolSet } from '../../../src/adapters/ai-sdk';
import { describeAiSdkApprovals } from './ai-sdk-approvals-suite';
import { describeAiSdk, type SdkUnderTest } from './ai-sdk-suite';
import { describeAiSdk7 } from './ai-sdk-v7-only';

// `ai` 7 under the alias `ai-v7`: toolwright's `require('ai')` gets it here, as it would in a
// project that has `ai` 7 installed. It is ESM-only and needs Node 22 or later.
jest.mock('ai', () => jest.requireActual('ai-v7'));

/**
 * `ai` 7 requires Node >= 22 (its engines field; it loads through require() of ES modules): on an
 * older Node the suites are skipped, with the reason in their titles.
 */
const onNode22: jest.Describe =
  Number(process.versions.node.split('.')[0]) >= 22
    ? describe
    : (((name: string, fn: () => void) => describe.skip(`${name} (skipped: AI SDK 7 needs Node >= 22, this is ${process.versions.node})`, fn)) as jest.Describe);

/** `ai` 7 and its MockLanguageModelV4, loaded only when the suite runs. */
function loadSdk7(): SdkUnderTest {
  const ai = jest.requireActual<typeof import('ai-v7')>('ai-v7');
  const test = jest.requireActual<typeof import('ai-v7/test')>('ai-v7/test');
  return {
    major: 7,
    generateText: ai.generateText as unknown as SdkUnderTest['generateText'],
    streamText: ai.streamText as unknown as SdkUnderTest['streamText'],
    stepCountIs: ai.isStepCount,
    mockModel: (doGenerate, doStream) => new test.MockLanguageModelV4({ doGenerate: doGenerate as never, doStream: doStream as never }),
    readableStream: (parts) => test.convertArrayToReadableStream(parts),
  };
}

describeAiSdk('ai 7 (MockLanguageModelV4)', loadSdk7, onNode22);
describeAiSdk7(loadSdk7, onNode22);
describeAiSdkApprovals('ai 7', 7, loadSdk7, onNode22);

onNode22('toolwright/ai-sdk loads ai 7 here', () => {
  it('require("ai") is ai 7', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect((require('ai') as { isStepCount: unknown }).isStepCount).toBe(jest.requireActual<typeof import('ai-v7')>('ai-v7').isStepCount);
  });
});

/** Type-checked only: `toAiSdkToolApproval(tools)` is a `toolApproval` that ai 7's own types accept. */
export function typedToolApproval(tools: AiSdkToolSet): ToolApprovalConfiguration<ToolSet, unknown> {
  return toAiSdkToolApproval(tools);
}
