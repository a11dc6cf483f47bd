import type { ExecutorCore } from '../executor/call-executor';
import type { EntryLookup, ToolEntry } from '../executor/tool-entry';

export type { ToolEntry, ToolSource } from '../executor/tool-entry';

/** @internal The toolkit's tools by name, in registration order. */
export class Registry implements EntryLookup {
  private readonly byName = new Map<string, ToolEntry>();
  /** Bumped on every change so views know their caches are stale. */
  version = 0;

  get(name: string): ToolEntry | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** True for a tool marked `concurrency: 'sequential'` (a batch runs those one at a time, in order). */
  isSequential(name: string): boolean {
    return this.byName.get(name)?.behaviour.concurrency === 'sequential';
  }

  add(entries: readonly ToolEntry[]): void {
    for (const entry of entries) this.byName.set(entry.name, entry);
    this.version++;
  }

  remove(name: string): boolean {
    const removed = this.byName.delete(name);
    if (removed) this.version++;
    return removed;
  }

  entries(): IterableIterator<ToolEntry> {
    return this.byName.values();
  }
}

/** @internal The executor core as the toolkit builds it: with its registry. */
export interface ToolkitCore extends ExecutorCore {
  readonly registry: Registry;
}
