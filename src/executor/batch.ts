import type { ToolCall, ToolResult } from '../common/tool-types';

/** How a batch runs. */
export interface BatchPlan {
  /** Run calls in parallel (false: one after the other, in order). */
  parallel: boolean;
  /** Most calls running at once. */
  maxConcurrency: number;
  /** True for calls whose tool is marked `concurrency: 'sequential'`. */
  isSequential(call: ToolCall): boolean;
  /** Runs one call; never rejects. */
  run(call: ToolCall): Promise<ToolResult>;
}

/**
 * Runs a batch of calls and returns their results in call order. Parallel calls share
 * `maxConcurrency` slots (granted first come, first served); sequential tools also wait for
 * the previous sequential call, so they run one at a time in call order without holding back
 * the parallel ones.
 */
export async function runBatch(calls: readonly ToolCall[], plan: BatchPlan): Promise<ToolResult[]> {
  if (!plan.parallel || plan.maxConcurrency <= 1) {
    const results: ToolResult[] = [];
    for (const call of calls) results.push(await plan.run(call));
    return results;
  }
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> | undefined => {
    if (inFlight < plan.maxConcurrency) {
      inFlight++;
      return undefined;
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  const slot = async (call: ToolCall): Promise<ToolResult> => {
    const wait = acquire();
    if (wait) await wait;
    try {
      return await plan.run(call);
    } finally {
      release();
    }
  };
  let lane: Promise<unknown> = Promise.resolve();
  return Promise.all(
    calls.map((call) => {
      if (!plan.isSequential(call)) return slot(call);
      const result = lane.then(() => slot(call));
      lane = result;
      return result;
    }),
  );
}
