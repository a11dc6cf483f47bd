import type { FunctionTool } from '@openai/agents';
import type { AgentTool } from '../../model/agent-tool';
import type { LoweringChange } from '../../schema/lowering';
import type { ToolView } from '../../toolkit/tool-view';
import { followActiveTools, type FrameworkToolsOptions } from '../view-tools';
import { FrameworkApprovalBridge, type FrameworkApprovals } from '../framework-approvals';
import { adaptTool, loadAgentsCjs, type AgentsSdk } from './agents-tool';

/**
 * Options of {@link toOpenAIAgentsTools}.
 *
 * @example
 * const tools = toOpenAIAgentsTools(session, { context: ToolExecutionContext.of(user), strict: false });
 */
export interface OpenAIAgentsToolsOptions extends FrameworkToolsOptions {
  /**
   * Send tools in OpenAI's strict (Structured Outputs) form where the lowering allows it: every
   * property required, optionals as `null` unions (toolwright reads such a `null` as "absent").
   * A tool whose schema has no strict form is sent with `strict: false` (and reported). Default
   * `true`; `false` sends every tool in the plain form.
   */
  strict?: boolean | undefined;
  /**
   * Receives the lowering report of each tool the first time it is adapted (what the lowering
   * changed), when not empty; a tool that cannot be lowered at all is in it too (an entry with
   * `omitted: true`). Unset: such a tool gets a `TOOLWRIGHT_TOOL_SKIPPED` process warning.
   */
  onLoweringReport?: ((report: readonly LoweringChange[]) => void) | undefined;
  /**
   * Calls the toolkit's `ApprovalManager` holds surface through the SDK's approvals (`needsApproval`, `result.interruptions`, `state.approve(item)` / `state.reject(item)`, a `RunState` resumed anywhere) instead of a "pending
   * approval" answer to the model; toolwright's manager still decides, binds, stores and audits
   * (see {@link FrameworkApprovals}). Default: off.
   */
  approvals?: FrameworkApprovals | undefined;
}

function warnSkipped(name: string, error: unknown): void {
  const why = error instanceof Error ? error.message : String(error);
  process.emitWarning(`toolwright/openai-agents left tool '${name}' out of the agent's tools: ${why}`, { code: 'TOOLWRIGHT_TOOL_SKIPPED' });
}

const isIndex = (key: string | symbol): boolean => typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key);

/**
 * An array whose leading elements are the view's adapted active tools of the moment it is read,
 * followed by whatever the application added (`push`): every trap first brings the target up to
 * date when the view's active list changed. The SDK reads `agent.tools` afresh on every turn.
 */
function liveArray<T extends object>(current: () => ReadonlyMap<string, T | undefined>): T[] {
  const target: T[] = [];
  const ours = new WeakSet<T>();
  let synced: ReadonlyMap<string, T | undefined> | undefined;
  const sync = (): void => {
    const map = current();
    if (map === synced) return;
    synced = map;
    const own = target.filter((item) => !ours.has(item));
    const adapted = [...map.values()].filter((tool): tool is T => tool !== undefined);
    for (const tool of adapted) ours.add(tool);
    target.splice(0, target.length, ...adapted, ...own);
  };
  return new Proxy(target, {
    get(t, key, receiver) {
      if (key === 'length' || isIndex(key) || key === Symbol.iterator) sync();
      return Reflect.get(t, key, receiver);
    },
    has(t, key) {
      sync();
      return Reflect.has(t, key);
    },
    ownKeys(t) {
      sync();
      return Reflect.ownKeys(t);
    },
    getOwnPropertyDescriptor(t, key) {
      sync();
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    set(t, key, value, receiver) {
      sync();
      return Reflect.set(t, key, value, receiver);
    },
  });
}

/**
 * @internal {@link toOpenAIAgentsTools} with the SDK module instance it builds for (the CommonJS
 * or the ES module build, matching the entry point the application imported).
 */
export function adaptView<TContext>(view: ToolView, options: OpenAIAgentsToolsOptions, sdk: AgentsSdk): FunctionTool<TContext>[] {
  const adapt = {
    call: options.context === undefined ? {} : { context: options.context },
    strict: options.strict !== false,
    onLoweringReport: options.onLoweringReport,
    sdk,
    bridge: options.approvals === undefined ? undefined : new FrameworkApprovalBridge(view, options.approvals, options.context === undefined ? {} : { context: options.context }),
  };
  const active = followActiveTools(view, options.context, (tool: AgentTool): FunctionTool | undefined => {
    const adapted = adaptTool(view, tool, adapt, (self) => active().get(tool.name) === self);
    if ('error' in adapted) {
      if (options.onLoweringReport === undefined) warnSkipped(tool.name, adapted.error);
      return undefined;
    }
    return adapted;
  });
  return liveArray<FunctionTool>(active) as FunctionTool<TContext>[];
}

/**
 * The view's *active* tools as OpenAI Agents SDK `FunctionTool`s, for `new Agent({ tools })`
 * (`@openai/agents`, an optional peer). The array is live: the SDK reads `agent.tools` on every
 * turn, and it always holds the view's tools of that moment, so a tool enabled during a run (by a
 * skill, by `equip_tool_groups`, by the application) is offered on the next turn, and a disabled
 * one is not (each tool's `isEnabled` asks the view too). Add tools of your own with
 * `agent.tools.push(...)`; spreading the array (`[...tools, mine]`) takes a snapshot that no longer
 * gains tools.
 *
 * Every call runs through `view.callTool` (validation, presets, hooks, approval, timeouts, events)
 * with the model's raw JSON text, the function call's `callId` as the call id and the SDK's abort
 * signal; the run's `context` is the call's context when it is a `ToolExecutionContext` (merged
 * over `options.context`). The SDK does not validate the arguments: the model gets toolwright's
 * field-by-field message. The output is the result's `forLLM` — for an error result its error
 * text, since the SDK's function-call output has no error marker; a rich result with images meant
 * for the model answers with structured output (the text, then the images). Malformed JSON is answered by
 * the SDK itself, a name the agent does not offer by its `toolNotFoundBehavior`.
 *
 * @example
 * import { Agent, run } from '@openai/agents';
 * import { toOpenAIAgentsTools } from 'toolwright/openai-agents';
 * const agent = new Agent({ name: 'support', instructions: session.renderPrompt(), tools: toOpenAIAgentsTools(session) });
 * const result = await run(agent, 'What is the weather in Paris?', { context: ToolExecutionContext.of(user) });
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING` when `@openai/agents` is not installed. Tools whose
 *   schema cannot be lowered are left out with a `TOOLWRIGHT_TOOL_SKIPPED` process warning, not thrown.
 */
export function toOpenAIAgentsTools<TContext = unknown>(view: ToolView, options: OpenAIAgentsToolsOptions = {}): FunctionTool<TContext>[] {
  return adaptView<TContext>(view, options, loadAgentsCjs());
}
