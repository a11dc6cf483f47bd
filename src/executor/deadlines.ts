/** A scheduled deadline; `cancel()` it when the work finished first. */
export interface Deadline {
  /** When it passes (ms since the epoch). */
  readonly at: number;
  /** Forgets the deadline (idempotent). When nothing is pending any more, the timer is cleared. */
  cancel(): void;
}

/** What a deadline fires: an object, so arming one costs no closure. */
export interface DeadlineTarget {
  /** Called once when the deadline passes (unless it was cancelled first). */
  onDeadline(): void;
}

/** Deadlines of one duration, in the order they were armed (and so in the order they expire). */
interface Queue {
  readonly ms: number;
  items: Entry[];
  head: number;
}

class Entry implements Deadline {
  constructor(
    readonly at: number,
    public target: DeadlineTarget | undefined,
    private readonly owner: DeadlineScheduler,
    readonly queue: Queue,
  ) {}

  cancel(): void {
    if (this.target === undefined) return;
    this.target = undefined;
    this.owner.cancelled(this);
  }
}

/** Compact a queue once this many dead entries sit before its head. */
const COMPACT_AT = 1024;

/**
 * Many timeouts on one Node timer. Deadlines with the same duration expire in the order they were
 * armed, so each distinct duration keeps a FIFO queue and a single timer waits for the earliest
 * live head. Arming costs an array push, cancelling a flag (plus skipping dead entries at the
 * head); the timer is cleared as soon as nothing is pending, so an idle toolkit holds no timer,
 * and cancelled deadlines never accumulate beyond the calls started within one timeout window.
 */
export class DeadlineScheduler {
  private readonly queues = new Map<number, Queue>();
  private live = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  /**
   * Calls `target.onDeadline()` after `ms` unless the returned deadline is cancelled first.
   *
   * @example
   * const deadline = scheduler.schedule(5_000, { onDeadline: () => controller.abort() });
   * work.finally(() => deadline.cancel());
   */
  schedule(ms: number, target: DeadlineTarget): Deadline {
    const at = Date.now() + ms;
    let queue = this.queues.get(ms);
    if (queue === undefined) this.queues.set(ms, (queue = { ms, items: [], head: 0 }));
    const entry = new Entry(at, target, this, queue);
    queue.items.push(entry);
    this.live++;
    if (at < this.timerAt) this.arm(at);
    return entry;
  }

  /** Deadlines armed and neither fired nor cancelled. */
  get pending(): number {
    return this.live;
  }

  /** Entries still held in queues, dead ones included (diagnostics: 0 when idle). */
  get retained(): number {
    let count = 0;
    for (const queue of this.queues.values()) count += queue.items.length - queue.head;
    return count;
  }

  /** True while a Node timer is armed (diagnostics: false when idle). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** @internal Called by a deadline's `cancel()`. */
  cancelled(entry: Entry): void {
    if (--this.live === 0) {
      this.reset();
      return;
    }
    const queue = entry.queue;
    const { items } = queue;
    while (queue.head < items.length && items[queue.head].target === undefined) queue.head++;
    if (queue.head >= items.length) this.queues.delete(queue.ms);
    else if (queue.head >= COMPACT_AT && queue.head * 2 >= items.length) {
      queue.items = items.slice(queue.head);
      queue.head = 0;
    }
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
    const due: DeadlineTarget[] = [];
    let next = Infinity;
    for (const [ms, queue] of this.queues) {
      const { items } = queue;
      while (queue.head < items.length) {
        const entry = items[queue.head];
        const target = entry.target;
        if (target === undefined) {
          queue.head++;
          continue;
        }
        if (entry.at > now) break;
        due.push(target);
        entry.target = undefined;
        this.live--;
        queue.head++;
      }
      if (queue.head >= items.length) this.queues.delete(ms);
      else {
        if (queue.head >= COMPACT_AT) {
          queue.items = items.slice(queue.head);
          queue.head = 0;
        }
        next = Math.min(next, queue.items[queue.head].at);
      }
    }
    if (this.live === 0) this.reset();
    else if (next < Infinity) this.arm(next);
    for (const target of due) target.onDeadline();
  }
}
