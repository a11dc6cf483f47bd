/**
 * `toolwright/openai-agents` for ES module applications: the same API as the CommonJS entry point
 * (`index.ts`), built for the SDK's ES module build. The runner recognises the SDK's static
 * approval policy per module instance (see `agents-tool.ts`), so the tools must come from the
 * build the application itself imports; Node picks this file for `import` and `index.js` for
 * `require`.
 */
import type { FunctionTool } from '@openai/agents';
import type { ToolView } from '../../toolkit/tool-view.js';
import agentsTool from './agents-tool.js';
import agentsTools from './agents-tools.js';
import returnDirect from './return-direct.js';
import type { OpenAIAgentsToolsOptions } from './agents-tools.js';

export type { OpenAIAgentsToolsOptions } from './agents-tools.js';
export type { FrameworkToolsOptions } from '../view-tools.js';
export type { FrameworkApprovals, FrameworkApprovalManager, HeldCall } from '../framework-approvals.js';

/** See the CommonJS entry point's `returnDirectToolUse`. */
export const returnDirectToolUse = returnDirect.returnDirectToolUse;

let sdk: agentsTool.AgentsSdk | undefined;
let failure: unknown;
try {
  sdk = (await import('@openai/agents')) as agentsTool.AgentsSdk;
} catch (error) {
  failure = error;
}

/** See the CommonJS entry point's `toOpenAIAgentsTools`. */
export function toOpenAIAgentsTools<TContext = unknown>(view: ToolView, options: OpenAIAgentsToolsOptions = {}): FunctionTool<TContext>[] {
  if (sdk === undefined) {
    // names the install command when the SDK is not installed (PEER_DEPENDENCY_MISSING)
    agentsTool.loadAgentsCjs();
    throw failure;
  }
  return agentsTools.adaptView<TContext>(view, options, sdk);
}
