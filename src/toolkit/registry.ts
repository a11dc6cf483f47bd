import type { RoutedEntry } from '../executor/executor-parts';
import type { ToolEntry } from '../executor/tool-entry';

export type { ToolEntry, ToolSource } from '../executor/tool-entry';

/**
 * @internal The toolkit's tools by name, in registration order. Each entry is kept resolved for
 * the dispatcher (a {@link RoutedEntry} made once at registration), so that a call costs one
 * lookup and no allocation.
 */
export class Registry {
  private readonly byName = new Map<string, RoutedEntry>();
  /** Bumped on every change so views know their caches are stale. */
  version = 0;

  get(name: string): ToolEntry | undefined {
    return this.byName.get(name)?.entry;
  }

  /** What a call of `name` runs and what its availability gate checks: the entry itself. */
  resolve(name: string): RoutedEntry | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** True for a tool marked `concurrency: 'sequential'` (a batch runs those one at a time, in order). */
  isSequential(name: string): boolean {
    return this.byName.get(name)?.entry.behaviour.concurrency === 'sequential';
  }

  add(entries: readonly ToolEntry[]): void {
    for (const entry of entries) this.byName.set(entry.name, Object.freeze({ entry, checkedEntry: entry, parsed: undefined }));
    this.version++;
  }

  remove(name: string): boolean {
    const removed = this.byName.delete(name);
    if (removed) this.version++;
    return removed;
  }

  *entries(): IterableIterator<ToolEntry> {
    for (const resolved of this.byName.values()) yield resolved.entry;
  }
}
