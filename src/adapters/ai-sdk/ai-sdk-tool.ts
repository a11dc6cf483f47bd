import type { AgentTool } from '../../model/agent-tool';
import type { JsonSchema } from '../../model/json-schema';
import type { ToolResult } from '../../model/tool-types';
import { lazyPeer } from '../../utils/peer-dependency';
import type { CallOptions } from '../../executor/executor-parts';
import { compileArgumentRestorer, lowerToolOrOmit, type ArgumentRestorer, type LoweringChange } from '../../schema/lowering';
import type { ToolView } from '../../toolkit/tool-view';
import type { FrameworkApprovalBridge } from '../framework-approvals';
import { callThroughView, type FrameworkCall, type FrameworkToolsOptions } from '../view-tools';
import { settleDenials } from './ai-sdk-approvals';
import { withSdk7ContextHint } from './ai-sdk-context';
import { finalOutput, modelOutputOf, progressOutput, type AiMajor, type AiSdkToolOutput } from './ai-sdk-output';

/** The lowerings an AI SDK tool's `inputSchema` can take: the rules of the provider behind the model. */
export type AiSdkSchemaProvider = 'openai' | 'anthropic' | 'gemini';

/** @internal The options of one adapted tool, defaults resolved. */
export interface AdaptOptions {
  readonly major: AiMajor;
  readonly call: FrameworkToolsOptions;
  readonly provider: AiSdkSchemaProvider;
  readonly strict: boolean;
  readonly preliminaryResults: boolean;
  readonly onLoweringReport: ((report: readonly LoweringChange[]) => void) | undefined;
  /** With the `approvals` option: the bridge that maps the SDK's tool approvals onto toolwright's. */
  readonly bridge: FrameworkApprovalBridge | undefined;
}

/**
 * @internal What `execute` reads of the SDK's second argument (`ToolExecutionOptions` in `ai` 6 and 7,
 * `ToolCallOptions` in 5): the run's context is `context` in 7 (this tool's entry of
 * `toolsContext`), `experimental_context` in 5 and 6.
 */
export interface SdkCallOptions {
  readonly toolCallId?: string | undefined;
  readonly abortSignal?: AbortSignal | undefined;
  readonly context?: unknown;
  readonly experimental_context?: unknown;
  /** The conversation so far (read for its tool approval responses). */
  readonly messages?: unknown;
}

/**
 * @internal An AI SDK tool as toolwright builds it: the fields every major reads (`strict` is read
 * by `ai` 6 and 7). `needsApproval` only with the `approvals` option; without it, toolwright's
 * approval holds a call inside `view.callTool` and the model is told it is pending.
 */
export interface SdkTool {
  readonly type?: undefined;
  readonly description: string;
  readonly inputSchema: unknown;
  readonly strict?: boolean;
  /** The tool's examples (`ai` 6 and 7 send them natively where the provider has a field, e.g. Anthropic's `input_examples`). */
  readonly inputExamples?: readonly { readonly input: Readonly<Record<string, unknown>> }[];
  readonly execute: (input: unknown, options: SdkCallOptions) => Promise<AiSdkToolOutput> | AsyncIterable<AiSdkToolOutput>;
  readonly toModelOutput: ReturnType<typeof modelOutputOf>;
  readonly needsApproval?: (input: unknown, options: SdkCallOptions) => Promise<boolean>;
}

/** @internal An `ai` 7 `ToolApprovalStatus` as toolwright answers it. */
export type SdkApprovalStatus = { readonly type: 'not-applicable' | 'user-approval' } | { readonly type: 'denied'; readonly reason: string };

/**
 * @internal What toolwright answers `ai` 7's `toolApproval` with for a call of an adapted tool
 * (tools made with the `approvals` option only).
 */
export const APPROVAL_STATUS = new WeakMap<SdkTool, (input: unknown, options: SdkCallOptions) => Promise<SdkApprovalStatus>>();

/**
 * The part of the `ai` package the adapter uses: `jsonSchema()` of the user's own installed major,
 * and two exports that tell the majors apart.
 */
interface AiModule {
  jsonSchema(schema: object): unknown;
  /** `ai` 7's name for `stepCountIs`. */
  readonly isStepCount?: unknown;
  /** New in `ai` 6. */
  readonly ToolLoopAgent?: unknown;
}

/**
 * @internal The user's `ai` (5, 6 or 7), loaded on first use: `require('toolwright/ai-sdk')` loads
 * nothing of it, and a missing `ai` is a `PEER_DEPENDENCY_MISSING` naming the install command.
 * `ai` 7 is ESM-only and loads through Node's `require()` of ES modules (Node 22 and later).
 */
export const loadAi = lazyPeer(() => require('ai') as AiModule, {
  feature: 'toolwright/ai-sdk',
  modules: ['ai'],
  install: 'npm i ai',
  optional: true,
});

/** @internal The major of a loaded `ai`, told by what it exports. */
export function aiMajor(ai: AiModule): AiMajor {
  if (typeof ai.isStepCount === 'function') return 7;
  return typeof ai.ToolLoopAgent === 'function' ? 6 : 5;
}

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The tool's lowered parameters, as a fresh, unfrozen copy: the lowering's result is deeply
 * frozen, and an SDK or provider that adds a keyword to the schema it is handed must not fail.
 * Or, for a tool the provider cannot take, the lowering's error.
 */
function loweredSchema(tool: AgentTool, options: AdaptOptions): { schema?: JsonSchema; error?: unknown; report: readonly LoweringChange[] } {
  switch (options.provider) {
    case 'openai': {
      const { definition, report, error } = lowerToolOrOmit(tool, 'openai', { strict: options.strict });
      return definition === undefined ? { error, report } : { schema: structuredClone(definition.function.parameters) as JsonSchema, report };
    }
    case 'anthropic': {
      const { definition, report, error } = lowerToolOrOmit(tool, 'anthropic');
      return definition === undefined ? { error, report } : { schema: structuredClone(definition.input_schema) as JsonSchema, report };
    }
    case 'gemini': {
      const { definition, report, error } = lowerToolOrOmit(tool, 'gemini');
      if (definition === undefined) return { error, report };
      const parameters = definition.parameters === undefined ? { type: 'object', properties: {} } : structuredClone(definition.parameters);
      return { schema: parameters as JsonSchema, report };
    }
  }
}

/**
 * Runs one call as the SDK hands it over, with progress reports as preliminary outputs: an async
 * iterable yielding each report as it comes, then the final `ToolResult` (the SDK takes the last
 * output as the final one), or throwing the error result.
 */
async function* withProgress(run: (onProgress: CallOptions['onProgress']) => Promise<ToolResult>): AsyncGenerator<AiSdkToolOutput> {
  const queue: AiSdkToolOutput[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  const result = run((progress) => {
    queue.push(progressOutput(progress));
    wake?.();
  }).finally(() => {
    settled = true;
    wake?.();
  });
  for (;;) {
    while (queue.length > 0) yield queue.shift() as AiSdkToolOutput;
    if (settled) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  yield finalOutput(await result);
}

/**
 * @internal Adapts one tool of `view` to an AI SDK tool, or returns the lowering's error (the
 * tool then stays out of the set; the omission is in the lowering report). `execute` runs every
 * call through `view.callTool` with the SDK's `toolCallId`, `abortSignal` and (when it is a
 * `ToolExecutionContext`) the run's context: `context` in `ai` 7, `experimental_context` in 5 and 6.
 */
export function adaptTool(view: ToolView, tool: AgentTool, options: AdaptOptions): SdkTool | { readonly error: unknown } {
  const lowered = loweredSchema(tool, options);
  if (lowered.report.length > 0) options.onLoweringReport?.(lowered.report);
  if (lowered.schema === undefined) return { error: lowered.error };
  const name = tool.name;
  // OpenAI's strict form makes optionals required-and-nullable: a `null` there means "absent"
  const restore: ArgumentRestorer | undefined =
    options.provider === 'openai' && options.strict ? compileArgumentRestorer(tool.parameters, 'openai', { strict: true }) : undefined;
  const sdk7 = options.major === 7;
  const bridge = options.bridge;
  const callOf = (input: unknown, sdk: SdkCallOptions, onProgress?: CallOptions['onProgress']): FrameworkCall => ({
    name,
    id: sdk.toolCallId,
    arguments: restore !== undefined && isPlainRecord(input) ? restore(input) : input,
    signal: sdk.abortSignal,
    runContext: sdk7 ? sdk.context : sdk.experimental_context,
    onProgress,
  });
  const run = async (input: unknown, sdk: SdkCallOptions, onProgress?: CallOptions['onProgress']): Promise<ToolResult> => {
    const call = callOf(input, sdk, onProgress);
    let result: ToolResult;
    if (bridge !== undefined && call.id !== undefined) {
      const decisions = await settleDenials(bridge, sdk.messages, call.runContext);
      result = await bridge.execute({ ...call, id: call.id }, decisions.has(call.id));
    } else {
      result = await callThroughView(view, call, options.call);
    }
    return sdk7 ? withSdk7ContextHint(result, call.runContext) : result;
  };
  const needsApproval = async (input: unknown, sdk: SdkCallOptions = {}): Promise<boolean> => {
    const call = callOf(input, sdk);
    if (bridge === undefined || call.id === undefined) return false;
    const decisions = await settleDenials(bridge, sdk.messages, call.runContext);
    return bridge.needsApproval({ ...call, id: call.id }, decisions.has(call.id));
  };
  const approvalStatus = async (input: unknown, sdk: SdkCallOptions): Promise<SdkApprovalStatus> => {
    const call = callOf(input, sdk);
    if (bridge === undefined || call.id === undefined) return { type: 'not-applicable' };
    const keyed = { ...call, id: call.id };
    const decisions = await settleDenials(bridge, sdk.messages, call.runContext);
    // an approval toolwright holds nothing for is the SDK's denial: nothing runs, the model is told why
    const refusal = decisions.get(call.id)?.approved === true ? await bridge.approvalRefusal(keyed) : undefined;
    if (refusal !== undefined) return { type: 'denied', reason: refusal };
    return (await bridge.needsApproval(keyed, decisions.has(call.id))) ? { type: 'user-approval' } : { type: 'not-applicable' };
  };
  const execute: SdkTool['execute'] = options.preliminaryResults
    ? (input, sdk) => withProgress((onProgress) => run(input, sdk ?? {}, onProgress))
    : (input, sdk) => run(input, sdk ?? {}).then(finalOutput);
  const adapted: SdkTool = {
    description: tool.description,
    // no `validate`: the SDK passes the model's arguments as they are, and toolwright validates them
    inputSchema: loadAi().jsonSchema(lowered.schema),
    ...(tool.behaviour?.examples?.length ? { inputExamples: tool.behaviour.examples.map((input) => ({ input })) } : {}),
    ...(options.strict && options.provider === 'openai' ? { strict: true } : {}),
    execute,
    toModelOutput: modelOutputOf(options.major),
    ...(bridge !== undefined ? { needsApproval } : {}),
  };
  if (bridge !== undefined) APPROVAL_STATUS.set(adapted, approvalStatus);
  return adapted;
}
