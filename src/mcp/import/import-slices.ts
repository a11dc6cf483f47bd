import { performance } from 'node:perf_hooks';

/** The longest stretch an import or refresh works before it lets the event loop run, in ms. */
const SLICE_MS = 10;

const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * One whole turn of the event loop: a second `setImmediate`, queued while the first one's callbacks
 * run, waits for the next iteration, so timers and I/O have run in between wherever the slice began.
 */
async function turn(): Promise<void> {
  await immediate();
  await immediate();
}

/**
 * @internal Cuts a long synchronous job into slices: {@link pause} resolves at once while the
 * current slice is younger than 10 ms, else after a whole turn of the event loop (timers, I/O, other
 * requests), so that processing a large catalogue never blocks the process in one piece.
 *
 * @example
 * const slices = new Slices();
 * for (const tool of tools) { await slices.pause(); process(tool); }
 */
export class Slices {
  private started = performance.now();

  /** Lets the event loop run when the current slice has lasted long enough. */
  async pause(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await turn();
    this.started = performance.now();
  }

  /**
   * Hands `items` to `run` in batches, pausing between them: a batch is halved after one that
   * outlasted a slice and doubled after one that did not (work whose cost grows with the batch and
   * cannot be split finer, such as one registration of many tools).
   */
  async batches<T>(items: readonly T[], run: (batch: readonly T[]) => void): Promise<void> {
    let size = 16;
    for (let i = 0; i < items.length; ) {
      await this.pause();
      const batch = items.slice(i, i + size);
      const started = performance.now();
      run(batch);
      i += batch.length;
      size = performance.now() - started > SLICE_MS ? Math.max(1, size >> 1) : Math.min(1024, size * 2);
    }
  }
}
