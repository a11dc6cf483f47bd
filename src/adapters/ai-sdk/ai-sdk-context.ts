import { ToolExecutionContext } from '../../model/execution-context';
import type { ToolResult } from '../../model/tool-types';
import { ToolkitError } from '../../errors';

/**
 * The `toolsContext` of an `ai` 7 run for a set of adapted tools: each tool's entry is the run's
 * `ToolExecutionContext`. Read-only.
 *
 * @example
 * const toolsContext: AiSdkToolsContext = toAiSdkToolsContext(tools, ToolExecutionContext.of(user));
 */
export type AiSdkToolsContext = Readonly<Record<string, ToolExecutionContext>>;

/**
 * The `toolsContext` that gives every tool of `tools` the run's context in AI SDK 7, which passes a
 * tool only its own entry of `toolsContext` (as `options.context`) and no longer has
 * `experimental_context`. Live like the set: a tool the view enables during the run (a skill,
 * `equip_tool_groups`) has its entry on the next step. The context is merged over
 * `toAiSdkTools`' `options.context` (its keys win), as `experimental_context` is in `ai` 5 and 6.
 * Spreading it (`{ ...toolsContext, mine: { … } }`) takes a snapshot.
 *
 * @example
 * import { generateText, isStepCount } from 'ai';
 * const tools = toAiSdkTools(toolkit.session(chatId));
 * await generateText({ model, tools, toolsContext: toAiSdkToolsContext(tools, ToolExecutionContext.of(new UserContext(userId))), stopWhen: isStepCount(5), prompt });
 * @throws ToolkitError `INVALID_OPTIONS` when `context` is not a `ToolExecutionContext` or `tools` is not an object.
 */
export function toAiSdkToolsContext(tools: object, context: ToolExecutionContext): AiSdkToolsContext {
  if (typeof tools !== 'object' || tools === null) throw new ToolkitError('INVALID_OPTIONS', 'toAiSdkToolsContext(tools, context): tools must be the tool set of toAiSdkTools.');
  if (!(context instanceof ToolExecutionContext)) {
    throw new ToolkitError('INVALID_OPTIONS', 'toAiSdkToolsContext(tools, context): context must be a ToolExecutionContext (ToolExecutionContext.of(...) or its builder).');
  }
  const names = (name: string | symbol): name is string => typeof name === 'string' && Object.hasOwn(tools, name);
  const refuse = (): boolean => false;
  return new Proxy(Object.create(null) as AiSdkToolsContext, {
    get: (_target, name) => (names(name) ? context : undefined),
    has: (_target, name) => names(name),
    ownKeys: () => Object.keys(tools),
    getOwnPropertyDescriptor: (_target, name) =>
      names(name) ? { value: context, enumerable: Object.prototype.propertyIsEnumerable.call(tools, name), configurable: true, writable: false } : undefined,
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
    setPrototypeOf: refuse,
  });
}

/** What an SDK 7 user is told when a tool needs a context object the run did not give it. */
const SDK7_CONTEXT_HINT =
  ' With AI SDK 7 a run reaches toolwright tools only through toolsContext (experimental_context and runtimeContext do not reach tools): ' +
  'pass toolsContext: toAiSdkToolsContext(tools, context) to generateText / streamText, or give the context to toAiSdkTools(view, { context }).';

/**
 * @internal An `ai` 7 call's result, with how to pass a context in `ai` 7 added to a
 * `CONTEXT_MISSING` error when the run gave the tool no `ToolExecutionContext`: code written for
 * `experimental_context` (or a context put in `runtimeContext`) otherwise fails with no clue why.
 */
export function withSdk7ContextHint(result: ToolResult, runContext: unknown): ToolResult {
  if (result.error?.code !== 'CONTEXT_MISSING' || runContext instanceof ToolExecutionContext) return result;
  return { ...result, forLLM: result.forLLM + SDK7_CONTEXT_HINT, error: { ...result.error, message: result.error.message + SDK7_CONTEXT_HINT } };
}
