import type { FunctionTool, RunContext } from '@openai/agents';
import type { AgentTool } from '../../model/agent-tool';
import { modelImages } from '../../model/content-text';
import type { JsonSchema } from '../../model/json-schema';
import { lazyPeer } from '../../utils/peer-dependency';
import { lowerToolOrOmit, type LoweringChange } from '../../schema/lowering';
import type { ToolView } from '../../toolkit/tool-view';
import type { FrameworkApprovalBridge } from '../framework-approvals';
import { callThroughView, type FrameworkToolsOptions } from '../view-tools';
import { toolSchemaOf } from '../adapter-schema';
import { markReturnDirect, noteFailure } from './return-direct';

/**
 * @internal The part of `@openai/agents` the adapter uses at run time: its `tool()`, only to
 * obtain the SDK's own "never needs approval" policy (see {@link staticNoApproval}).
 */
export interface AgentsSdk {
  tool: typeof import('@openai/agents').tool;
}

/**
 * @internal `@openai/agents` as CommonJS, loaded on first use: `require('toolwright/openai-agents')`
 * loads nothing of it, and a missing SDK is a `PEER_DEPENDENCY_MISSING` naming the install command.
 * (The ES module entry point imports the SDK's ES module build instead: see `index.mts`.)
 */
export const loadAgentsCjs = lazyPeer(() => require('@openai/agents') as AgentsSdk, {
  feature: 'toolwright/openai-agents',
  modules: ['@openai/agents'],
  install: 'npm i @openai/agents',
  optional: true,
});

/** The function-tool approval policy of one SDK module instance. */
type ApprovalPolicy = FunctionTool['needsApproval'];

const NO_APPROVAL = new WeakMap<AgentsSdk, ApprovalPolicy>();

/**
 * The SDK's own static `needsApproval: false` policy, taken from a tool its `tool()` makes. The
 * runner treats any other function as a dynamic policy, and for a dynamic policy it turns
 * arguments that are not a JSON object — malformed JSON, `[1]`, `42` — into a forced approval
 * interruption instead of a call, so toolwright would never answer them. The static policy is
 * recognised per SDK module instance, which is why the ES module entry point passes the SDK's
 * ES module build.
 */
function staticNoApproval(sdk: AgentsSdk): ApprovalPolicy {
  let policy = NO_APPROVAL.get(sdk);
  if (policy === undefined) {
    const parameters = { type: 'object' as const, properties: {}, required: [], additionalProperties: false as const };
    policy = sdk.tool({ name: 'toolwright_policy', description: '', parameters, strict: true, execute: () => '' }).needsApproval as unknown as ApprovalPolicy;
    NO_APPROVAL.set(sdk, policy);
  }
  return policy;
}

/** @internal The options of one adapted tool, defaults resolved. */
export interface AdaptOptions {
  readonly call: FrameworkToolsOptions;
  readonly strict: boolean;
  readonly onLoweringReport: ((report: readonly LoweringChange[]) => void) | undefined;
  readonly sdk: AgentsSdk;
  /** With the `approvals` option: the bridge that maps the SDK's approvals onto toolwright's. */
  readonly bridge: FrameworkApprovalBridge | undefined;
}

/**
 * @internal Records in toolwright the calls the run's state rejected (`state.reject(item)`): the
 * SDK answers a rejected call without calling the tool, so each tool looks at the run context
 * when the SDK next consults it (every turn, through `isEnabled`).
 */
export function settleRejections(bridge: FrameworkApprovalBridge, runContext: RunContext | undefined): Promise<void> {
  if (runContext === undefined) return Promise.resolve();
  return bridge.settle((held) => {
    const decision = runContext.isToolApproved({ toolName: held.toolName, callId: held.call.id });
    return decision === false ? (runContext.getRejectionMessage(held.toolName, held.call.id) ?? false) : undefined;
  }, runContext.context);
}

/**
 * The tool's parameters lowered for the Responses API: strict when asked and the schema allows
 * it, else the plain form (the fallback is reported). A fresh, unfrozen copy: the lowering's
 * result is deeply frozen, and the SDK or a model provider may add to the schema it is handed.
 * No parameters (and the lowering's error) when even the plain form is not possible. The
 * description has the tool's examples rendered in (the SDK's tools have no examples field).
 */
function lowered(tool: AgentTool, strict: boolean): { parameters?: JsonSchema; description: string; strict: boolean; report: LoweringChange[]; error?: unknown } {
  const before: LoweringChange[] = [];
  const schema = toolSchemaOf(tool);
  if (strict) {
    const strictForm = lowerToolOrOmit(schema, 'openai-responses', { strict: true });
    if (strictForm.definition !== undefined) {
      const { parameters, description } = strictForm.definition;
      return { parameters: structuredClone(parameters) as JsonSchema, description, strict: true, report: [...strictForm.report] };
    }
    if (strictForm.error.code === 'INVALID_DEFINITION') {
      before.push({ tool: tool.name, path: '', change: `sent with strict: false (the strict form is not possible: ${strictForm.error.message})` });
    }
  }
  const { definition, report, error } = lowerToolOrOmit(schema, 'openai-responses', { strict: false });
  if (definition === undefined) return { description: tool.description, strict: false, report: [...report], error };
  return { parameters: structuredClone(definition.parameters) as JsonSchema, description: definition.description, strict: false, report: [...before, ...report] };
}

/** The SDK's structured function-call output items (`ToolOutputText`, `ToolOutputImage`) that `invoke` answers a rich result with. */
type StructuredOutput = { type: 'text'; text: string } | { type: 'image'; image: { data: string; mediaType: string } };

/** The SDK's tool-call details as `invoke` reads them (`ToolCallDetails`, which the SDK does not export). */
type CallDetails = Parameters<FunctionTool['invoke']>[2];

/**
 * @internal Adapts one tool of `view` to an Agents SDK `FunctionTool`, or returns the lowering's
 * error (the tool is then left out). `invoke` hands the model's raw JSON text to `view.callTool`
 * with the call's `callId`, the SDK's abort signal and the run context, and answers with the
 * result's `forLLM` — an error result's text included: the SDK's function-call output has no
 * error marker, so that text is what the model gets. A rich result whose parts hold images meant
 * for the model answers with structured output: the `forLLM` text, then those images. `isEnabled` asks `enabled()` on every turn.
 */
export function adaptTool(
  view: ToolView,
  tool: AgentTool,
  options: AdaptOptions,
  enabled: (self: FunctionTool) => boolean,
): FunctionTool | { readonly error: unknown } {
  const schema = lowered(tool, options.strict);
  if (schema.report.length > 0) options.onLoweringReport?.(schema.report);
  if (schema.parameters === undefined) return { error: schema.error };
  const name = tool.name;
  const bridge = options.bridge;
  const invoke = async (runContext: RunContext, input: string, details?: CallDetails): Promise<string | StructuredOutput[]> => {
    const call = { name, id: details?.toolCall?.callId, arguments: input, signal: details?.signal, runContext: runContext?.context };
    let result;
    if (bridge !== undefined && call.id !== undefined) {
      await settleRejections(bridge, runContext);
      result = await bridge.execute({ ...call, id: call.id });
    } else {
      result = await callThroughView(view, call, options.call);
    }
    const images = result.isError ? [] : modelImages(result.content);
    if (result.isError) noteFailure(self, details?.toolCall?.callId);
    if (images.length === 0) return result.forLLM;
    return [{ type: 'text', text: result.forLLM }, ...images.map((image) => ({ type: 'image' as const, image: { data: image.data, mediaType: image.mimeType } }))];
  };
  const needsApproval = async (runContext: RunContext, input: unknown, callId?: string): Promise<boolean> => {
    if (bridge === undefined || callId === undefined) return false;
    await settleRejections(bridge, runContext);
    const decided = runContext?.isToolApproved({ toolName: name, callId }) !== undefined;
    return bridge.needsApproval({ name, id: callId, arguments: input, runContext: runContext?.context }, decided);
  };
  const self: FunctionTool = {
    type: 'function',
    name,
    description: schema.description,
    parameters: schema.parameters as FunctionTool['parameters'],
    strict: schema.strict,
    invoke,
    needsApproval: bridge === undefined ? staticNoApproval(options.sdk) : (needsApproval as ApprovalPolicy),
    isEnabled:
      bridge === undefined
        ? () => Promise.resolve(enabled(self))
        : (runContext: RunContext) => settleRejections(bridge, runContext).then(() => enabled(self)),
  };
  if (tool.behaviour?.returnDirect === true) markReturnDirect(self);
  return self;
}
