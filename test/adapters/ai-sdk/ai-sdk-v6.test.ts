import { describeAiSdk } from './ai-sdk-suite';
import { AI_SDK_6 } from './sdk-v6';

/** The suite against `ai` 6 (the devDependency `ai`), with its MockLanguageModelV3. */
describeAiSdk('ai 6 (MockLanguageModelV3)', () => AI_SDK_6);
