/**
 * `toolwright/openai-agents`: a view's tools as OpenAI Agents SDK (`@openai/agents`, an optional
 * peer dependency) `FunctionTool`s. Loads nothing of the SDK until `toOpenAIAgentsTools` runs.
 *
 * @example
 * import { Agent, run } from '@openai/agents';
 * import { toOpenAIAgentsTools } from 'toolwright/openai-agents';
 * const agent = new Agent({ name: 'support', tools: toOpenAIAgentsTools(toolkit.session(chatId)) });
 */
export { toOpenAIAgentsTools } from './agents-tools';
export { returnDirectToolUse } from './return-direct';
export type { OpenAIAgentsToolsOptions } from './agents-tools';
export type { FrameworkToolsOptions } from '../view-tools';
export type { FrameworkApprovals, FrameworkApprovalManager, HeldCall } from '../framework-approvals';
