/**
 * `toolwright/ai-sdk`: a toolkit's (or a session's) active tools as the Vercel AI SDK's
 * `ToolSet` for `generateText` / `streamText`. Loads `ai` (5, 6 or 7, an optional peer
 * dependency) on first use, which is why it is an entry point of its own.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * import { toAiSdkTools } from 'toolwright/ai-sdk';
 * const { text } = await generateText({ model, tools: toAiSdkTools(toolkit), stopWhen: stepCountIs(5), prompt: 'Weather in Paris?' });
 */
export { recordAiSdkDenials, toAiSdkTools } from './ai-sdk-tools';
export type { AiSdkToolsOptions, AiSdkSkippedTool, AiSdkToolSet, AiSdkTool, AiSdkToolCallOptions } from './ai-sdk-tools';
export { toAiSdkToolsContext } from './ai-sdk-context';
export { stopOnReturnDirect } from './return-direct';
export type { AiSdkStepToolResults } from './return-direct';
export { toAiSdkToolApproval } from './ai-sdk-tool-approval';
export type { AiSdkToolApproval, AiSdkToolApprovalRequest, AiSdkToolApprovalStatus } from './ai-sdk-tool-approval';
export type { AiSdkToolsContext } from './ai-sdk-context';
export type { AiSdkSchemaProvider } from './ai-sdk-tool';
export { AiSdkToolError, isAiSdkToolProgress } from './ai-sdk-output';
export type { AiSdkToolOutput, AiSdkToolProgress } from './ai-sdk-output';
export type { FrameworkToolsOptions } from '../view-tools';
export type { FrameworkApprovals, FrameworkApprovalManager, HeldCall } from '../framework-approvals';
