/**
 * `toolwright/langchain`: a view's tools as `@langchain/core` structured tools. Loads
 * `@langchain/core` (an optional peer dependency) on first use, which is why it is an entry point
 * of its own.
 *
 * @example
 * import { toLangChainTools } from 'toolwright/langchain';
 * const ai = await model.bindTools(toLangChainTools(toolkit.session(chatId))).invoke(messages);
 */
export { toLangChainTools, followLangChainTools, TOOLWRIGHT_CONTEXT_KEY } from './langchain-tools';
export type { ToolwrightLangChainTool } from './langchain-tools';
export type { FrameworkToolsOptions } from '../view-tools';
export type { LangChainToolsOptions } from './langchain-tools';
export { langChainInterruptOn } from './langchain-approvals';
export type { LangChainDecisionType, LangChainInterruptOn, LangChainInterruptRequest } from './langchain-approvals';
export type { FrameworkApprovals, FrameworkApprovalManager, HeldCall } from '../framework-approvals';
