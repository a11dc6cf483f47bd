import { describeAiSdkApprovals } from './ai-sdk-approvals-suite';
import { AI_SDK_6 } from './sdk-v6';

/** The approvals suite against `ai` 6 (the devDependency `ai`), with its MockLanguageModelV3. */
describeAiSdkApprovals('ai 6', 6, () => AI_SDK_6);
