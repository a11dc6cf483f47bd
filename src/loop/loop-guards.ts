import type { LLMUsage } from '../common/llm-types';
import type { ToolCall, ToolResult } from '../common/tool-types';
import { quoteInput } from '../common/quote-input';
import { MalformedArguments, parseCallArguments } from '../common/call-arguments';
import { ToolkitError, type ToolkitErrorCode } from '../errors';
import type { ToolLoopOptions, ToolLoopResult } from './loop-types';

/** @internal What the guard says about one call: run it, or answer it with an error. */
export type CallAdmission =
  | { readonly run: true }
  | { readonly run: false; readonly code: ToolkitErrorCode; readonly message: string; readonly budgetHit: boolean };

function stableKey(call: ToolCall): string {
  const args = parseCallArguments(call.arguments);
  if (args instanceof MalformedArguments) return `${call.name}\u0000${String(call.arguments)}`;
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]))
        : v;
  return `${call.name}\u0000${JSON.stringify(sort(args))}`;
}

/**
 * @internal The loop's per-conversation limits: the whole-loop tool-call budget, the per-tool
 * budgets and the repeated-call check, applied to each call in the order the model made them.
 */
export class CallGuard {
  private readonly perTool = new Map<string, number>();
  private readonly repeats = new Map<string, number>();
  private readonly maxRepeats: number;
  /** Tool calls admitted, all turns together. */
  admitted = 0;

  constructor(private readonly options: ToolLoopOptions) {
    this.maxRepeats = options.maxRepeatedCalls ?? 3;
  }

  /** Counts `call` and says whether it may run. */
  admit(call: ToolCall): CallAdmission {
    const key = stableKey(call);
    const seen = (this.repeats.get(key) ?? 0) + 1;
    this.repeats.set(key, seen);
    const used = (this.perTool.get(call.name) ?? 0) + 1;
    const perTool = this.options.maxCallsPerTool;
    const limit = typeof perTool === 'number' ? perTool : perTool?.[call.name];
    const max = this.options.maxToolCalls;
    if (max !== undefined && this.admitted >= max) {
      const message = `The tool-call budget of this conversation (${max}) is used up; answer with what you have.`;
      return { run: false, code: 'TOOL_BUDGET_EXCEEDED', message, budgetHit: true };
    }
    if (limit !== undefined && used > limit) {
      const message = `Tool ${quoteInput(call.name)} may be called at most ${limit} time(s) in this conversation; use what you have.`;
      return { run: false, code: 'TOOL_BUDGET_EXCEEDED', message, budgetHit: false };
    }
    if (seen > this.maxRepeats) {
      const message = `You already called ${quoteInput(call.name)} with exactly these arguments ${seen - 1} time(s); the answer will not change. Use the earlier result or try something else.`;
      return { run: false, code: 'REPEATED_CALL', message, budgetHit: false };
    }
    this.perTool.set(call.name, used);
    this.admitted++;
    return { run: true };
  }
}

/** @internal Token usage summed over turns. */
export function addUsage(total: LLMUsage | undefined, usage: LLMUsage | undefined): LLMUsage | undefined {
  if (!usage) return total;
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  const next: LLMUsage = {};
  const input = sum(total?.inputTokens, usage.inputTokens);
  const output = sum(total?.outputTokens, usage.outputTokens);
  const all = sum(total?.totalTokens, usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));
  if (input !== undefined) next.inputTokens = input;
  if (output !== undefined) next.outputTokens = output;
  if (all !== undefined) next.totalTokens = all;
  return next;
}

/** @internal What an aborted loop rejects with: the signal's reason, or an `ABORTED` error when it has none. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new ToolkitError('ABORTED', 'The tool loop was aborted.');
}

/**
 * @internal The first call of a finished batch, in call order, whose tool says `returnDirect` and
 * whose result is the answer: not an error (the model then tries again), not a pending async answer.
 */
export function directAnswer(options: ToolLoopOptions, calls: readonly ToolCall[], results: readonly ToolResult[]): ToolLoopResult['returnedDirect'] {
  const direct = new Set(
    options.toolkit
      .getActiveTools({ context: options.context })
      .filter((tool) => tool.behaviour?.returnDirect === true)
      .map((tool) => tool.name),
  );
  if (direct.size === 0) return undefined;
  const index = calls.findIndex((call, i) => direct.has(call.name) && !results[i].isError && !results[i].async);
  return index < 0 ? undefined : { tool: calls[index].name, callId: calls[index].id, result: results[index] };
}
