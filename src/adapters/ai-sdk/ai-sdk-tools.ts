import type { Schema, Tool } from 'ai';
import type { AgentTool } from '../../model/agent-tool';
import type { ToolExecutionContext } from '../../model/execution-context';
import type { LoweringChange } from '../../schema/lowering';
import type { ToolView } from '../../toolkit/tool-view';
import { FrameworkApprovalBridge, type FrameworkApprovals } from '../framework-approvals';
import { followActiveTools, type FrameworkToolsOptions } from '../view-tools';
import { settleDenials } from './ai-sdk-approvals';
import type { AiSdkToolOutput } from './ai-sdk-output';
import { adaptTool, aiMajor, loadAi, type AdaptOptions, type AiSdkSchemaProvider, type SdkTool } from './ai-sdk-tool';

/**
 * Options of {@link toAiSdkTools}.
 *
 * @example
 * const tools = toAiSdkTools(session, { context: ToolExecutionContext.of(user), provider: 'openai', strict: true });
 */
export interface AiSdkToolsOptions extends FrameworkToolsOptions {
  /**
   * Whose rules shape each tool's `inputSchema` (see `lowerToolSchemas`): `'openai'` (the
   * default: the canonical schema without `$schema`, arrays always with `items` — accepted by
   * the SDK's providers alike), `'anthropic'` (the canonical schema as it is) or `'gemini'`.
   */
  provider?: AiSdkSchemaProvider | undefined;
  /**
   * With `provider: 'openai'`: OpenAI's strict (Structured Outputs) form, and the tool's
   * `strict: true` (read by `ai` 6 and 7; `ai` 5 has no per-tool flag). Optionals become
   * required-and-nullable; the `null`s the model sends for them are removed before toolwright
   * validates. Default `false`.
   */
  strict?: boolean | undefined;
  /**
   * Stream each progress report of a call (`ctx.emit(...)` in the tool) as a preliminary tool
   * result (`execute` returns an async iterable; `streamText` emits `tool-result` parts with
   * `preliminary: true`, and the final `ToolResult` once more as the last preliminary output,
   * as the SDK does for every iterable). Default `true`; `false` makes `execute` a plain Promise.
   */
  preliminaryResults?: boolean | undefined;
  /**
   * Receives the lowering report of each tool the first time it is adapted (what the lowering
   * changed), when not empty; a tool that cannot be lowered for `provider` is in it too (an entry
   * with `omitted: true`).
   */
  onLoweringReport?: ((report: readonly LoweringChange[]) => void) | undefined;
  /**
   * Receives each tool that cannot be lowered for `provider` (`INVALID_NAME`,
   * `INVALID_DEFINITION`): it stays out of the set, the other tools are offered. When neither
   * this nor `onLoweringReport` is set: a process warning (`TOOLWRIGHT_TOOL_SKIPPED`) per such tool.
   */
  onToolSkipped?: ((skipped: AiSdkSkippedTool) => void) | undefined;
  /**
   * Calls the toolkit's `ApprovalManager` holds surface through the SDK's tool approvals (`needsApproval`, `tool-approval-request` / `tool-approval-response` parts) instead of a "pending
   * approval" answer to the model; toolwright's manager still decides, binds, stores and audits
   * (see {@link FrameworkApprovals}). On `ai` 7, pass `toolApproval: toAiSdkToolApproval(tools)`
   * too (its run-level setting, which takes precedence over `needsApproval`). Default: off.
   */
  approvals?: FrameworkApprovals | undefined;
}

/**
 * A tool {@link toAiSdkTools} left out of the set because its schema cannot be lowered.
 *
 * @example
 * toAiSdkTools(toolkit, { onToolSkipped: ({ name, error }) => log.warn(`${name}: ${String(error)}`) });
 */
export interface AiSdkSkippedTool {
  /** The tool's name. */
  readonly name: string;
  /** Why (a `ToolkitError` from the lowering). */
  readonly error: unknown;
}

/**
 * What an adapted tool's `execute` reads of the SDK's options: `toolCallId`, `abortSignal` and the
 * run's context — `context` in `ai` 7 (the tool's entry of `toolsContext`, see
 * `toAiSdkToolsContext`), `experimental_context` in 5 and 6; used when it is a `ToolExecutionContext`.
 *
 * @example
 * await tools.get_weather!.execute({ city: 'Oslo' }, { toolCallId: 'call_1', messages: [], context: ToolExecutionContext.of(user) });
 */
export interface AiSdkToolCallOptions {
  /** The SDK's id of the call: the `ToolCall.id`. */
  readonly toolCallId: string;
  /** The messages of the run so far (with the `approvals` option, read for the tool approval responses in them). */
  readonly messages?: readonly unknown[] | undefined;
  /** The run's abort signal (with `ai` 7's tool timeout merged in): the call's `signal`. */
  readonly abortSignal?: AbortSignal | undefined;
  /** `ai` 7: this tool's entry of the run's `toolsContext`. */
  readonly context?: ToolExecutionContext | undefined;
  /** `ai` 5 and 6: the run's `experimental_context`. */
  readonly experimental_context?: unknown;
}

/**
 * One tool of an {@link AiSdkToolSet}: a function tool of the `ai` major installed whose input is
 * what the model sends (toolwright validates it), whose output is an {@link AiSdkToolOutput} and
 * whose context (`ai` 7) is an optional `ToolExecutionContext`, so `toolsContext` type-checks.
 *
 * @example
 * const weather: AiSdkTool | undefined = toAiSdkTools(toolkit).get_weather;
 */
export interface AiSdkTool {
  /** A function tool. */
  readonly type?: undefined;
  /** The tool's description. */
  readonly description: string;
  /** The lowered JSON Schema, wrapped by the installed `ai`'s `jsonSchema()`. */
  readonly inputSchema: Tool<unknown, AiSdkToolOutput>['inputSchema'];
  /** OpenAI's strict form (with `strict: true` and `provider: 'openai'`). */
  readonly strict?: boolean;
  /**
   * Never set (toolwright reads the context itself and ignores what is not a `ToolExecutionContext`):
   * declares the context type, so that `ai` 7 types `toolsContext` entries as `ToolExecutionContext`.
   */
  readonly contextSchema?: Schema<ToolExecutionContext | undefined>;
  /**
   * Runs the call through `view.callTool`: a Promise of the result, or with preliminary results an
   * async iterable of the progress reports, then the result.
   */
  readonly execute: (input: unknown, options: AiSdkToolCallOptions) => PromiseLike<AiSdkToolOutput> | AsyncIterable<AiSdkToolOutput>;
  /**
   * With the `approvals` option only: whether the call needs the person's approval — toolwright's
   * `ApprovalManager` decides (a call it does not hold has already run; `execute` answers with
   * its result).
   */
  readonly needsApproval?: (input: unknown, options: AiSdkToolCallOptions) => Promise<boolean>;
  /** What the model gets of a result: its `forLLM`, then the images meant for the model. */
  readonly toModelOutput: NonNullable<Tool<unknown, AiSdkToolOutput>['toModelOutput']>;
}

/**
 * The AI SDK `ToolSet` of a view, live and read-only (see {@link toAiSdkTools}).
 *
 * @example
 * const tools: AiSdkToolSet = toAiSdkTools(toolkit);
 */
export type AiSdkToolSet = Readonly<Record<string, AiSdkTool>>;

function warnSkipped({ name, error }: AiSdkSkippedTool): void {
  const why = error instanceof Error ? error.message : String(error);
  process.emitWarning(`toolwright/ai-sdk left tool '${name}' out of the AI SDK tool set: ${why}`, { code: 'TOOLWRIGHT_TOOL_SKIPPED' });
}

/**
 * The view's *active* tools as the Vercel AI SDK's `ToolSet`, for `generateText` / `streamText`
 * (`ai` 5, 6 or 7, an optional peer; the major is told at run time from the `ai` that loads).
 * The set is live: the SDK reads it on every step, and it always holds the view's tools of that
 * moment, so a tool enabled during a run (by a skill, by `equip_tool_groups`, by the application)
 * is offered on the next step. Spreading it (`{ ...tools, mine }`) takes a snapshot.
 *
 * Every call runs through `view.callTool` (validation, presets, hooks, approval, timeouts,
 * events) with the SDK's `toolCallId` as the call id and its `abortSignal`; the run's context is
 * the call's context when it is a `ToolExecutionContext` (merged over `options.context`): in `ai` 7
 * the tool's entry of `toolsContext` (see `toAiSdkToolsContext`), in 5 and 6
 * `experimental_context`. `inputSchema` is the lowered JSON Schema without SDK-side validation, so
 * invalid arguments reach toolwright's validation and the model gets its field-by-field
 * message. An error result is thrown as an {@link AiSdkToolError}: the SDK makes it a
 * `tool-error` whose text (toolwright's `forLLM`) the model gets. A success's output is the
 * whole `ToolResult` (the application's, with `forUser`, `data` and content parts); `toModelOutput`
 * gives the model its `forLLM`, then the images of its content parts meant for the model. A tool the model was offered but that is disabled by the time it is
 * called is refused by toolwright with the reason; names never offered are answered by the SDK.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * import { toAiSdkTools } from 'toolwright/ai-sdk';
 * const result = await generateText({ model, tools: toAiSdkTools(toolkit.session(chatId)), stopWhen: stepCountIs(5), prompt });
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING` when `ai` is not installed. Tools whose schema
 *   cannot be lowered are left out and reported (`onToolSkipped`, `onLoweringReport`), not thrown.
 */
export function toAiSdkTools(view: ToolView, options: AiSdkToolsOptions = {}): AiSdkToolSet {
  const adapt: AdaptOptions = {
    major: aiMajor(loadAi()),
    call: options.context === undefined ? {} : { context: options.context },
    provider: options.provider ?? 'openai',
    strict: options.strict === true,
    preliminaryResults: options.preliminaryResults !== false,
    onLoweringReport: options.onLoweringReport,
    bridge: options.approvals === undefined ? undefined : new FrameworkApprovalBridge(view, options.approvals, options.context === undefined ? {} : { context: options.context }),
  };
  const onSkipped = options.onToolSkipped ?? (options.onLoweringReport === undefined ? warnSkipped : undefined);
  const active = followActiveTools(view, options.context, (tool: AgentTool): SdkTool | undefined => {
    const adapted = adaptTool(view, tool, adapt);
    if ('error' in adapted) {
      onSkipped?.({ name: tool.name, error: adapted.error });
      return undefined;
    }
    return adapted;
  });
  const set = liveToolSet(active) as AiSdkToolSet;
  if (adapt.bridge !== undefined) BRIDGES.set(set, adapt.bridge);
  return set;
}

/** The approval bridge of each tool set made with the `approvals` option. */
const BRIDGES = new WeakMap<AiSdkToolSet, FrameworkApprovalBridge>();

/** @internal True for a tool set made with the `approvals` option. */
export function madeWithApprovals(tools: AiSdkToolSet): boolean {
  return BRIDGES.has(tools);
}

/**
 * Records at once, in toolwright, the denials of a conversation whose calls were held through
 * `toAiSdkTools(view, { approvals })`: each `tool-approval-response` with `approved: false`
 * rejects the held call (`ApprovalManager.reject`, a tombstone: no later "approve" runs it). The
 * SDK answers a denied call without calling the tool, so the tool set otherwise records a denial
 * the next time the conversation reaches one of its tools. Call it before `generateText` /
 * `streamText` when the conversation comes from a client (e.g. `useChat`). A tool set made
 * without `approvals` is left alone.
 *
 * @example
 * await recordAiSdkDenials(tools, messages);
 * const result = streamText({ model, tools, messages });
 * @throws ToolkitError `APPROVAL_STORE_FAILED` when the approval store cannot be reached.
 */
export async function recordAiSdkDenials(tools: AiSdkToolSet, messages: readonly unknown[]): Promise<void> {
  const bridge = BRIDGES.get(tools);
  if (bridge !== undefined) await settleDenials(bridge, messages);
}

/**
 * A read-only object whose keys are the view's active tools at the moment it is read. A name
 * that was offered once but is no longer active still resolves to its tool (an own property, not
 * enumerable, not listed: `ai` 7 looks tools up with `Object.hasOwn`), so a call the model made
 * against an earlier step's list reaches toolwright, which refuses it with the reason, instead of
 * being dropped by the SDK without an answer.
 */
function liveToolSet(active: () => ReadonlyMap<string, SdkTool | undefined>): object {
  const offered = new Map<string, SdkTool>();
  let seen: ReadonlyMap<string, SdkTool | undefined> | undefined;
  let keys: string[] = [];
  const current = (): ReadonlyMap<string, SdkTool | undefined> => {
    const map = active();
    if (map !== seen) {
      keys = [];
      for (const [name, tool] of map) {
        if (tool === undefined) continue;
        keys.push(name);
        offered.set(name, tool);
      }
      seen = map;
    }
    return map;
  };
  const lookup = (name: string | symbol): SdkTool | undefined => {
    if (typeof name !== 'string') return undefined;
    return current().get(name) ?? offered.get(name);
  };
  const refuse = (): boolean => false;
  return new Proxy(Object.create(null) as object, {
    get: (_target, name) => lookup(name),
    has: (_target, name) => typeof name === 'string' && current().get(name) !== undefined,
    ownKeys: () => {
      current();
      return [...keys];
    },
    getOwnPropertyDescriptor: (_target, name) => {
      const tool = lookup(name);
      if (tool === undefined) return undefined;
      return { value: tool, enumerable: current().get(name as string) !== undefined, configurable: true, writable: false };
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
  });
}
