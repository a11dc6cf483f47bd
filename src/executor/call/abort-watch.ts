/** What hears when a caller's signal aborts: a pending call (`onCallerAbort` is called once, synchronously). */
export interface AbortWatcher {
  onCallerAbort(): void;
}

/**
 * One `abort` listener per caller signal, shared by every call watching it. A batch of 10,000
 * calls under one signal therefore adds a single listener (no MaxListenersExceededWarning), and
 * the listener is removed as soon as the last call stops watching, so nothing is left on the
 * caller's signal.
 */
class SignalWatch {
  readonly watchers = new Set<AbortWatcher>();

  constructor(private readonly signal: AbortSignal) {}

  /** EventTarget listener protocol: saves a closure per signal. */
  handleEvent(): void {
    watches.delete(this.signal);
    const watchers = [...this.watchers];
    this.watchers.clear();
    for (const watcher of watchers) watcher.onCallerAbort();
  }
}

const watches = new WeakMap<AbortSignal, SignalWatch>();

/** Starts telling `watcher` when `signal` aborts. Pair every call with {@link unwatchAbort}. */
export function watchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  let watch = watches.get(signal);
  if (watch === undefined) {
    watch = new SignalWatch(signal);
    watches.set(signal, watch);
    signal.addEventListener('abort', watch, { once: true });
  }
  watch.watchers.add(watcher);
}

/** Stops telling `watcher`; the signal's listener goes away with its last watcher. */
export function unwatchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  const watch = watches.get(signal);
  if (watch === undefined || !watch.watchers.delete(watcher) || watch.watchers.size > 0) return;
  watches.delete(signal);
  signal.removeEventListener('abort', watch);
}

/** The abort reason of `signal` as text for a model. */
export function describeAbort(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message || reason.name;
  if (typeof reason === 'string' && reason) return reason;
  return 'the caller cancelled the call';
}
