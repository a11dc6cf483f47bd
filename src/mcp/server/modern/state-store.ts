/**
 * Where a 2026-07-28 server keeps what outlives one HTTP request (consumed round-trip states,
 * conversation handles, tasks): any process of a fleet must answer any request, so processes
 * that serve one endpoint share one store. Values are strings (JSON); every entry expires.
 *
 * @example
 * serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', stateStore: redisMcpStateStore({ connection }) });
 */
export interface McpStateStore {
  /** Stores `value` under `key` unless the key exists; `true` when this call stored it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Stores `value` under `key`, replacing what was there. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** The value under `key`, or `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Removes `key` (no error when absent). */
  delete(key: string): Promise<void>;
}

/** Default of {@link memoryMcpStateStore}'s `maxEntries`. */
const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * An {@link McpStateStore} in this process's memory: enough for one process. At `maxEntries`
 * (default 100,000) expired entries go first, then the oldest.
 */
export function memoryMcpStateStore(options: { readonly maxEntries?: number } = {}): McpStateStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries = new Map<string, { value: string; expires: number }>();
  const live = (key: string): { value: string; expires: number } | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires > Date.now()) return entry;
    entries.delete(key);
    return undefined;
  };
  const put = (key: string, value: string, ttlMs: number): void => {
    entries.delete(key);
    if (entries.size >= maxEntries) {
      const now = Date.now();
      for (const [k, e] of entries) if (e.expires <= now) entries.delete(k);
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    }
    entries.set(key, { value, expires: Date.now() + ttlMs });
  };
  return {
    setIfAbsent: (key, value, ttlMs) => {
      if (live(key) !== undefined) return Promise.resolve(false);
      put(key, value, ttlMs);
      return Promise.resolve(true);
    },
    set: (key, value, ttlMs) => {
      put(key, value, ttlMs);
      return Promise.resolve();
    },
    get: (key) => Promise.resolve(live(key)?.value),
    delete: (key) => {
      entries.delete(key);
      return Promise.resolve();
    },
  };
}
