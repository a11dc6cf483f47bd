import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import type { ToolCall } from '@langchain/core/messages';
import type { StructuredTool, ToolRunnableConfig } from '@langchain/core/tools';
import type { JSONSchema } from '@langchain/core/utils/json_schema';
import type { AgentTool } from '../../model/agent-tool';
import { lazyPeer } from '../../utils/peer-dependency';
import type { ToolResult } from '../../model/tool-types';
import type { CallProgress } from '../../executor/executor-parts';
import { lowerToolSchema } from '../../schema/lowering';
import type { ToolView } from '../../toolkit/tool-view';
import { FrameworkApprovalBridge, type FrameworkApprovals } from '../framework-approvals';
import { callThroughView, followActiveTools, type FrameworkToolsOptions } from '../view-tools';
import { toolSchemaOf } from '../adapter-schema';

/**
 * Options of {@link toLangChainTools} and {@link followLangChainTools}.
 *
 * @example
 * const tools = toLangChainTools(session, { context: ToolExecutionContext.of(user), approvals: { manager: approvals } });
 */
export interface LangChainToolsOptions extends FrameworkToolsOptions {
  /**
   * Calls the toolkit's `ApprovalManager` holds surface through LangChain's human-in-the-loop
   * middleware (`humanInTheLoopMiddleware({ interruptOn: langChainInterruptOn(tools) })`, an
   * interrupt, `Command({ resume })`) instead of a "pending approval" answer to the model;
   * toolwright's manager still decides, binds, stores and audits (see `FrameworkApprovals`). Default: off.
   */
  readonly approvals?: FrameworkApprovals | undefined;
}

/** @internal The approval bridge of each tool made with the `approvals` option. */
export const LANGCHAIN_BRIDGES = new WeakMap<object, FrameworkApprovalBridge>();

/**
 * The key of LangChain's `configurable` under which a run may carry a `ToolExecutionContext`
 * for the calls of that run (merged over `options.context`, its keys win). LangGraph's runtime
 * `context`, when it is a `ToolExecutionContext`, is used the same way.
 *
 * @example
 * await tool.invoke(toolCall, { configurable: { [TOOLWRIGHT_CONTEXT_KEY]: ToolExecutionContext.of(new User(id)) } });
 */
export const TOOLWRIGHT_CONTEXT_KEY = 'toolwrightContext';

/**
 * A toolwright tool as a `@langchain/core` structured tool. Invoked with a `ToolCall`
 * (`{ id, name, args, type: 'tool_call' }`) it returns a `ToolMessage` (that `tool_call_id`,
 * `status: 'error'` for an error result, `content` = `forLLM`, `artifact` = the whole
 * `ToolResult`, content parts included); invoked with plain arguments it returns the `forLLM` text. It never throws
 * LangChain's `ToolInputParsingException`: arguments go to toolwright's validation as they are.
 *
 * @example
 * const message = await tools[0].invoke({ id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' });
 */
export type ToolwrightLangChainTool = StructuredTool<JSONSchema, unknown, unknown, string>;

interface LangChainModules {
  readonly tools: typeof import('@langchain/core/tools');
  readonly messages: typeof import('@langchain/core/messages');
  readonly callbacks: typeof import('@langchain/core/callbacks/manager');
  readonly runnables: typeof import('@langchain/core/runnables');
  readonly singletons: typeof import('@langchain/core/singletons');
}

const langChain = lazyPeer(
  (): LangChainModules => ({
    tools: require('@langchain/core/tools') as typeof import('@langchain/core/tools'),
    messages: require('@langchain/core/messages') as typeof import('@langchain/core/messages'),
    callbacks: require('@langchain/core/callbacks/manager') as typeof import('@langchain/core/callbacks/manager'),
    runnables: require('@langchain/core/runnables') as typeof import('@langchain/core/runnables'),
    singletons: require('@langchain/core/singletons') as typeof import('@langchain/core/singletons'),
  }),
  { feature: 'toolwright/langchain', modules: ['@langchain/core/tools'], install: 'npm i @langchain/core', optional: true },
);

const isToolCall = (value: unknown): value is ToolCall =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'tool_call';

/** The run's `ToolExecutionContext`: `configurable.toolwrightContext`, else LangGraph's runtime `context`. */
const runContextOf = (config: ToolRunnableConfig): unknown =>
  (config.configurable as Record<string, unknown> | undefined)?.[TOOLWRIGHT_CONTEXT_KEY] ?? config.context;

type ToolClass = new (view: ToolView, tool: AgentTool, options: FrameworkToolsOptions, bridge: FrameworkApprovalBridge | undefined) => ToolwrightLangChainTool;
let toolClass: ToolClass | undefined;

/**
 * The structured-tool class, made once `@langchain/core` is loaded. It owns LangChain's `call`
 * (which `invoke`, `batch` and `stream` reach): no schema validation there, toolwright's
 * `ToolMessage` out; LangChain's callbacks (tracing, `streamEvents`) fire as for its own tools.
 */
function langChainToolClass(): ToolClass {
  if (toolClass !== undefined) return toolClass;
  const lc = langChain();
  class ToolwrightStructuredTool extends lc.tools.StructuredTool<JSONSchema, unknown, unknown, string> {
    static override lc_name(): string {
      return 'ToolwrightStructuredTool';
    }
    name: string;
    description: string;
    schema: JSONSchema;

    constructor(
      private readonly view: ToolView,
      tool: AgentTool,
      private readonly options: FrameworkToolsOptions,
      private readonly bridge: FrameworkApprovalBridge | undefined,
    ) {
      super({ responseFormat: 'content_and_artifact' });
      if (bridge !== undefined) LANGCHAIN_BRIDGES.set(this, bridge);
      this.name = tool.name;
      // createAgent ends the run after this tool answered (not after an error: its ToolMessage has status 'error')
      this.returnDirect = tool.behaviour?.returnDirect === true;
      // a mutable copy (LangChain's converters may add keywords) of the OpenAI form: no `$schema`, arrays with `items`;
      // LangChain's tools have no examples field: the description carries them
      const { definition } = lowerToolSchema(toolSchemaOf(tool), 'openai');
      this.description = definition.function.description;
      this.schema = JSON.parse(JSON.stringify(definition.function.parameters)) as JSONSchema;
    }

    override async call(arg: unknown, configArg?: unknown, tags?: string[]): Promise<never> {
      const config = lc.callbacks.parseCallbackConfigArg(configArg as ToolRunnableConfig) as ToolRunnableConfig;
      const input = isToolCall(arg) ? arg.args : arg;
      const toolCallId = isToolCall(arg) ? arg.id : config.toolCall?.id;
      const manager = lc.callbacks.CallbackManager.configure(config.callbacks, this.callbacks, config.tags ?? tags, this.tags, config.metadata, this.metadata, {
        verbose: this.verbose,
      });
      const callbackInput = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : JSON.stringify(input ?? null);
      const runManager = await manager?.handleToolStart(this.toJSON(), callbackInput, config.runId, undefined, undefined, undefined, config.runName ?? this.name, toolCallId);
      let result: ToolResult;
      try {
        result = await this.run(input, toolCallId, config, runManager);
      } catch (error) {
        await runManager?.handleToolError(error);
        throw error;
      }
      const output =
        toolCallId === undefined || toolCallId === ''
          ? result.forLLM
          : new lc.messages.ToolMessage({
              content: result.forLLM,
              artifact: result,
              tool_call_id: toolCallId,
              name: this.name,
              status: result.isError ? 'error' : 'success',
              ...(this.metadata ? { metadata: this.metadata } : {}),
            });
      await runManager?.handleToolEnd(output);
      return output as never;
    }

    protected async _call(arg: unknown, runManager?: CallbackManagerForToolRun, config?: ToolRunnableConfig): Promise<string> {
      return (await this.run(arg, config?.toolCall?.id, config ?? {}, runManager)).forLLM;
    }

    /** One call through `view.callTool`, inside the run's config (nested LangChain calls trace under it). */
    private run(args: unknown, id: string | undefined, config: ToolRunnableConfig, runManager: CallbackManagerForToolRun | undefined): Promise<ToolResult> {
      const frameworkCall = {
        name: this.name,
        id,
        arguments: args,
        signal: config.signal,
        runContext: runContextOf(config),
        onProgress: runManager ? (progress: CallProgress) => void runManager.handleToolEvent(progress) : undefined,
      };
      const bridge = this.bridge;
      const call = () =>
        bridge !== undefined && id !== undefined && id !== '' ? bridge.execute({ ...frameworkCall, id }) : callThroughView(this.view, frameworkCall, this.options);
      if (runManager === undefined) return call();
      const child = lc.runnables.patchConfig(config, { callbacks: runManager.getChild() });
      return lc.singletons.AsyncLocalStorageProviderSingleton.runWithConfig(lc.runnables.pickRunnableConfigKeys(child), call);
    }
  }
  return (toolClass = ToolwrightStructuredTool as unknown as ToolClass);
}

/**
 * Follows a view's active tools as LangChain structured tools: each call of the returned function
 * gives the tools active now (a tool enabled by a skill or `equip_tool_groups` appears, a disabled
 * one goes), the same object for a tool that did not change. Call it before each model step and
 * bind what it returns (`model.bindTools(current())`): LangChain binds tools once per `bindTools`.
 *
 * @example
 * const current = followLangChainTools(session);
 * const ai = await model.bindTools(current()).invoke(messages);
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING` when `@langchain/core` is not installed;
 *   `INVALID_NAME` / `INVALID_DEFINITION` when a tool cannot be expressed as an OpenAI-style function.
 */
export function followLangChainTools(view: ToolView, options: LangChainToolsOptions = {}): () => ToolwrightLangChainTool[] {
  const Tool = langChainToolClass();
  const call = options.context === undefined ? {} : { context: options.context };
  const bridge = options.approvals === undefined ? undefined : new FrameworkApprovalBridge(view, options.approvals, call);
  const active = followActiveTools(view, options.context, (tool) => new Tool(view, tool, call, bridge));
  let seen: ReadonlyMap<string, ToolwrightLangChainTool> | undefined;
  let list: ToolwrightLangChainTool[] = [];
  return () => {
    const map = active();
    if (map !== seen) {
      seen = map;
      list = [...map.values()];
    }
    return [...list];
  };
}

/**
 * The view's active tools now, as `@langchain/core` structured tools for `model.bindTools(...)`,
 * LangGraph's `ToolNode` or your own loop. Every call runs through `view.callTool` (validation,
 * presets, hooks, approval, timeouts, events); the `ToolCall.id` becomes toolwright's call id,
 * LangChain's `signal` the call's signal, and `configurable.toolwrightContext` (or LangGraph's
 * runtime `context`) a run-level `ToolExecutionContext` over `options.context`. The array is a
 * snapshot: to offer tools enabled during a run, use {@link followLangChainTools}; a tool of the
 * snapshot that is no longer active answers with toolwright's `TOOL_DISABLED` error.
 *
 * @example
 * const tools = toLangChainTools(toolkit.session(chatId), { context: ToolExecutionContext.of(new User(userId)) });
 * const ai = await model.bindTools(tools).invoke(messages);
 * for (const call of ai.tool_calls ?? []) messages.push(await tools.find((t) => t.name === call.name)!.invoke(call));
 * @throws ToolkitError `PEER_DEPENDENCY_MISSING` when `@langchain/core` is not installed;
 *   `INVALID_NAME` / `INVALID_DEFINITION` when a tool cannot be expressed as an OpenAI-style function.
 */
export function toLangChainTools(view: ToolView, options: LangChainToolsOptions = {}): ToolwrightLangChainTool[] {
  return followLangChainTools(view, options)();
}
