import type { FunctionTool, FunctionToolResult, RunContext, ToolsToFinalOutputResult } from '@openai/agents';

/** The most failed call ids kept per tool until the behaviour reads them. */
const MAX_FAILURES = 256;

/** The adapted tools whose toolwright tool says `returnDirect`, with the ids of their calls that failed. */
const DIRECT = new WeakMap<FunctionTool, Set<string>>();

/** @internal Marks an adapted tool as `returnDirect`. */
export function markReturnDirect(tool: FunctionTool): void {
  DIRECT.set(tool, new Set());
}

/** @internal Notes that a call of a `returnDirect` tool failed: its output is no answer. */
export function noteFailure(tool: FunctionTool, callId: string | undefined): void {
  const failures = DIRECT.get(tool);
  if (failures === undefined || callId === undefined) return;
  if (failures.size >= MAX_FAILURES) failures.delete(failures.values().next().value as string);
  failures.add(callId);
}

/** The text of a function output (a string, or the text items of a structured output). */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return JSON.stringify(output) ?? '';
  return output
    .filter((item): item is { type: 'text'; text: string } => typeof item === 'object' && item !== null && (item as { type?: unknown }).type === 'text')
    .map((item) => item.text)
    .join('');
}

/**
 * An Agents SDK `toolUseBehavior` that ends the run with the output of a toolwright tool marked
 * `@Tool({ returnDirect: true })` (or `behaviour.returnDirect`) as the final output, without
 * another model call — the SDK's own `stopAtToolNames`, but following the tools' definitions
 * and skipping a call that failed (its error text goes back to the model, which may try again).
 * The SDK calls it once every call of the turn has finished; the first direct call in call order wins.
 *
 * @example
 * import { Agent, run } from '@openai/agents';
 * import { returnDirectToolUse, toOpenAIAgentsTools } from 'toolwright/openai-agents';
 * const agent = new Agent({ name: 'reports', tools: toOpenAIAgentsTools(toolkit), toolUseBehavior: returnDirectToolUse });
 */
export function returnDirectToolUse(_context: RunContext, results: FunctionToolResult[]): ToolsToFinalOutputResult {
  for (const result of results) {
    if (result.type !== 'function_output') continue;
    const failures = DIRECT.get(result.tool as FunctionTool);
    if (failures === undefined) continue;
    const callId = (result.runItem?.rawItem as { callId?: string } | undefined)?.callId;
    if (callId !== undefined && failures.delete(callId)) continue;
    return { isFinalOutput: true, isInterrupted: undefined, finalOutput: outputText(result.output) };
  }
  return { isFinalOutput: false, isInterrupted: undefined };
}
