import type { ToolView } from '../../toolkit/tool-view';
import type { FrameworkToolsOptions } from '../view-tools';

/** The part of an AI SDK step that {@link stopOnReturnDirect} reads (`StepResult`'s successful tool results). */
export interface AiSdkStepToolResults {
  /** The step's successful tool results (a failed call is a `tool-error` part, not one of them). */
  readonly toolResults: readonly { readonly toolName: string }[];
}

/**
 * An AI SDK stop condition (`stopWhen`) that ends `generateText` / `streamText` after a step in
 * which a tool marked `@Tool({ returnDirect: true })` (or `behaviour.returnDirect`) answered: the
 * SDK makes no further model call, and the answer is that tool's output (the last step's
 * `toolResults`). The SDK checks it once every call of the step has finished; a call that failed
 * is a `tool-error`, not a result, and does not stop the run. Combine it with a step limit.
 *
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * const result = await generateText({ model, tools: toAiSdkTools(toolkit), stopWhen: [stopOnReturnDirect(toolkit), stepCountIs(10)], prompt });
 * const answer = result.steps.at(-1)?.toolResults[0]?.output;
 */
export function stopOnReturnDirect(view: ToolView, options: Pick<FrameworkToolsOptions, 'context'> = {}): (options: { readonly steps: readonly AiSdkStepToolResults[] }) => boolean {
  return ({ steps }) => {
    const last = steps[steps.length - 1];
    if (last === undefined || last.toolResults.length === 0) return false;
    const direct = new Set(
      view
        .getActiveTools({ context: options.context })
        .filter((tool) => tool.behaviour?.returnDirect === true)
        .map((tool) => tool.name),
    );
    return last.toolResults.some((result) => direct.has(result.toolName));
  };
}
