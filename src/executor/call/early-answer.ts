import type { ToolResult } from '../../model/tool-types';
import { unwatchAbort, watchAbort, type AbortWatcher } from './abort-watch';

/** @internal What an {@link EarlyAnswer} asks its call. */
export interface AnswersEarly {
  /** The caller's signal aborted: the call's answer now; `undefined` when it had one already. */
  callerAborted(): ToolResult | undefined;
  /** The answer to a fault of the pipeline itself. */
  fault(error: unknown): ToolResult;
}

/**
 * @internal What the caller of a pending call waits on when something may answer the call before
 * its pipeline settles: the caller's signal (watched until then) or the deadline of a hook phase.
 * Resolves with the first answer; never rejects.
 */
export class EarlyAnswer implements AbortWatcher {
  readonly promise: Promise<ToolResult>;
  private resolve: ((result: ToolResult) => void) | undefined = undefined;

  constructor(
    private readonly run: AnswersEarly,
    pending: Promise<ToolResult>,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.promise = new Promise<ToolResult>((resolve) => {
      this.resolve = resolve;
      if (signal !== undefined) watchAbort(signal, this);
      pending.then(
        (result) => {
          if (signal !== undefined) unwatchAbort(signal, this);
          resolve(result);
        },
        (error: unknown) => {
          if (signal !== undefined) unwatchAbort(signal, this);
          resolve(run.fault(error));
        },
      );
      if (signal?.aborted) this.onCallerAbort();
    });
  }

  /** Answers the caller now, before the pipeline settles. */
  answer(result: ToolResult): void {
    const resolve = this.resolve;
    this.resolve = undefined;
    resolve?.(result);
  }

  /** @internal The caller's signal aborted while the call was pending. */
  onCallerAbort(): void {
    unwatchAbort(this.signal!, this);
    const result = this.run.callerAborted();
    if (result !== undefined) this.answer(result);
  }
}
