import { errorResult } from '../model/results';
import type { ToolCall, ToolResult } from '../model/tool-types';
import { describeThrown } from '../errors/toolkit-error';

/** How a toolkit runs its batches (defaults: parallel, at most 5 calls at once). */
export interface BatchSettings {
  /** Run calls in parallel (false: one after the other, in order). */
  readonly parallel?: boolean | undefined;
  /** Most calls running at once (at least 1). */
  readonly maxConcurrency?: number | undefined;
}

/**
 * Runs batches of calls by one toolkit's settings and returns their results in call order.
 *
 * Slots are granted in call order, up to `maxConcurrency` at once; a call frees its slot the
 * moment it answers, however it answers, so a failing call never holds back its siblings.
 * Calls of `concurrency: 'sequential'` tools additionally wait for the previous sequential call
 * (a lane: one at a time, in call order) without holding back the parallel calls behind them.
 * With `parallel: false` (or `maxConcurrency` 1) every call runs after the previous one.
 *
 * @example
 * const batches = new BatchRunner({ parallel: true, maxConcurrency: 5 }, (call) => registry.isSequential(call.name));
 * const results = await batches.run(calls, (call) => view.callTool(call));
 */
export class BatchRunner {
  /** Most calls running at once: 1 when the batches are not parallel. */
  private readonly cap: number;

  constructor(
    settings: BatchSettings,
    /** True for calls whose tool is marked `concurrency: 'sequential'`. */
    private readonly isSequential: (call: ToolCall) => boolean,
  ) {
    // a cap that is not a number (NaN) runs one call at a time
    this.cap = (settings.parallel ?? true) ? Math.floor(Math.max(1, settings.maxConcurrency ?? 5)) || 1 : 1;
  }

  /** Runs `calls` through `run` (which should never reject: a rejection becomes an `EXECUTION_FAILED` result); results in call order. */
  run(calls: readonly ToolCall[], run: (call: ToolCall) => Promise<ToolResult>): Promise<ToolResult[]> {
    const count = calls.length;
    if (count === 0) return Promise.resolve([]);
    const cap = this.cap;
    const isSequential = this.isSequential;
    const results = new Array<ToolResult>(count);
    // Parallel calls and sequential calls, each in call order.
    const open: number[] = [];
    const lane: number[] = [];
    for (let i = 0; i < count; i++) (cap > 1 && isSequential(calls[i]) ? lane : open).push(i);
    let nextOpen = 0;
    let nextLane = 0;
    let laneBusy = false;
    let running = 0;
    let remaining = count;

    return new Promise<ToolResult[]>((resolve) => {
      const finish = (index: number, sequential: boolean, result: ToolResult) => {
        results[index] = result;
        running--;
        if (sequential) laneBusy = false;
        if (--remaining === 0) resolve(results);
        else pump();
      };
      const start = (index: number, sequential: boolean) => {
        running++;
        const call = calls[index];
        let pending: Promise<ToolResult>;
        try {
          pending = run(call);
        } catch (error) {
          pending = Promise.reject(error);
        }
        pending.then(
          (result) => finish(index, sequential, result),
          (error: unknown) => finish(index, sequential, { ...errorResult(`Tool '${String(call.name)}' failed: ${describeThrown(error)}`), toolCallId: call.id, name: String(call.name) }),
        );
      };
      // Grants free slots to the earliest waiting call (the lane's head counts only when the lane is idle).
      const pump = () => {
        while (running < cap) {
          const o = nextOpen < open.length ? open[nextOpen] : count;
          const l = !laneBusy && nextLane < lane.length ? lane[nextLane] : count;
          if (o === count && l === count) return;
          if (l < o) {
            nextLane++;
            laneBusy = true;
            start(l, true);
          } else {
            nextOpen++;
            start(o, false);
          }
        }
      };
      pump();
    });
  }
}
