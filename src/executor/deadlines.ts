/** A scheduled deadline; `cancel()` it when the work finished first. */
export interface Deadline {
  cancel(): void;
}

interface Entry extends Deadline {
  at: number;
  fire: (() => void) | undefined;
}

/**
 * Many timeouts on one timer. Calls with the same timeout expire in the order they started,
 * so each distinct duration keeps a FIFO queue and a single Node timer waits for the earliest
 * head. Arming and cancelling cost an array push and a flag, far less than a `setTimeout` each;
 * when nothing is pending the timer is cleared, so nothing is left behind.
 */
export class DeadlineScheduler {
  private readonly queues = new Map<number, { items: Entry[]; head: number }>();
  private live = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  /** Calls `fire` after `ms` unless the returned deadline is cancelled first. */
  schedule(ms: number, fire: () => void): Deadline {
    const at = Date.now() + ms;
    const entry: Entry = {
      at,
      fire,
      cancel: () => {
        if (entry.fire === undefined) return;
        entry.fire = undefined;
        if (--this.live === 0) this.reset();
      },
    };
    let queue = this.queues.get(ms);
    if (!queue) this.queues.set(ms, (queue = { items: [], head: 0 }));
    queue.items.push(entry);
    this.live++;
    if (at < this.timerAt) this.arm(at);
    return entry;
  }

  /** Pending deadlines (for tests and diagnostics). */
  get pending(): number {
    return this.live;
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - Date.now()));
  }

  private reset(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    this.queues.clear();
  }

  private expire(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    const due: (() => void)[] = [];
    let next = Infinity;
    for (const [ms, queue] of this.queues) {
      const { items } = queue;
      while (queue.head < items.length) {
        const entry = items[queue.head];
        if (entry.fire === undefined) {
          queue.head++;
          continue;
        }
        if (entry.at > now) break;
        due.push(entry.fire);
        entry.fire = undefined;
        this.live--;
        queue.head++;
      }
      if (queue.head >= items.length) this.queues.delete(ms);
      else {
        if (queue.head > 1024) {
          queue.items = items.slice(queue.head);
          queue.head = 0;
        }
        next = Math.min(next, queue.items[queue.head].at);
      }
    }
    if (this.live === 0) this.reset();
    else if (next < Infinity) this.arm(next);
    for (const fire of due) fire();
  }
}
