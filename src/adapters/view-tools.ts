import type { AgentTool } from '../model/agent-tool';
import { ToolExecutionContext } from '../model/execution-context';
import type { ToolResult } from '../model/tool-types';
import type { CallOptions } from '../executor/executor-parts';
import type { ToolView } from '../toolkit/tool-view';

/**
 * Options of every agent-framework adapter (`toAiSdkTools`, `toLangChainTools`,
 * `toOpenAIAgentsTools`).
 *
 * @example
 * const tools = toAiSdkTools(toolkit.session(chatId), { context: ToolExecutionContext.of(new UserContext(userId)) });
 */
export interface FrameworkToolsOptions {
  /**
   * Call-level context for every call made through the adapted tools. Where the framework
   * carries a per-run context that holds a `ToolExecutionContext`, that one is merged over this
   * one (its keys win).
   */
  readonly context?: ToolExecutionContext | undefined;
}

/** @internal One call as a framework hands it to an adapted tool. */
export interface FrameworkCall {
  /** The tool's name in the view. */
  readonly name: string;
  /** The framework's id of the call (becomes `ToolCall.id`); a fresh id when it has none. */
  readonly id?: string | undefined;
  /** The arguments as the framework has them: the model's JSON text or a parsed value. */
  readonly arguments: unknown;
  /** The framework's abort signal for the call. */
  readonly signal?: AbortSignal | undefined;
  /** The framework's per-run context, used when it is a `ToolExecutionContext`. */
  readonly runContext?: unknown;
  /** Receives the call's progress reports. */
  readonly onProgress?: CallOptions['onProgress'];
}

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @internal Runs a framework's call through `view.callTool`, so validation, presets, hooks,
 * approval, timeouts and events apply as to any other call. Arguments that are not an object
 * (an array, a number, `null`) go to toolwright as JSON text, so its parser answers them with
 * its own message instead of the adapter guessing. Never rejects for call-time faults.
 */
export function callThroughView(view: ToolView, call: FrameworkCall, options: FrameworkToolsOptions): Promise<ToolResult> {
  const args = typeof call.arguments === 'string' || isPlainRecord(call.arguments) ? call.arguments : JSON.stringify(call.arguments ?? null);
  const runContext = call.runContext instanceof ToolExecutionContext ? call.runContext : undefined;
  const callOptions: CallOptions = {
    context: ToolExecutionContext.merge(options.context, runContext),
    signal: call.signal,
    onProgress: call.onProgress,
  };
  const id = call.id !== undefined && call.id !== '' ? call.id : `tw_${globalThis.crypto.randomUUID()}`;
  return view.callTool({ id, name: call.name, arguments: args }, callOptions);
}

/**
 * @internal The view's active tools, each adapted once: `adapt` runs once per tool object (a
 * re-registered tool is adapted again), and the map is rebuilt only when the view's active
 * list changes, so an adapter that reads it on every model step follows skills, groups and
 * `equip_tool_groups` without rebuilding what did not change. Only the tools the caller of
 * `context` may use are listed (scopes, a synchronous `authorize` answer); every call is checked again.
 */
export function followActiveTools<T>(view: ToolView, context: ToolExecutionContext | undefined, adapt: (tool: AgentTool) => T): () => ReadonlyMap<string, T> {
  const adapted = new WeakMap<AgentTool, T>();
  let seen: readonly AgentTool[] | undefined;
  let current: ReadonlyMap<string, T> = new Map();
  return () => {
    const active = view.getActiveTools({ context });
    if (active === seen) return current;
    const next = new Map<string, T>();
    for (const tool of active) {
      let framework = adapted.get(tool);
      if (framework === undefined) {
        framework = adapt(tool);
        adapted.set(tool, framework);
      }
      next.set(tool.name, framework);
    }
    seen = active;
    current = next;
    return current;
  };
}
