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
 * An {@link McpStateStore} in this process's memory: enough for one process. It holds at most
 * `maxEntries` (default 100,000) live entries: when full, expired entries are dropped, and if none
 * has expired a new key is refused (`setIfAbsent` answers `false`, `set` rejects) rather than a live
 * one forgotten: a consumed round-trip state or a task's claim is never evicted by a flood.
 */
export function memoryMcpStateStore(options: { readonly maxEntries?: number } = {}): McpStateStore {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const entries = new Map<string, { value: string; expires: number }>();
  /** No entry expires before this time: a full store is not scanned again until then. */
  let nextExpiry = 0;
  const live = (key: string): { value: string; expires: number } | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires > Date.now()) return entry;
    entries.delete(key);
    return undefined;
  };
  /** True when `key` may be stored: it is there already, or there is room (after dropping expired entries). */
  const room = (key: string): boolean => {
    if (entries.has(key) || entries.size < maxEntries) return true;
    const now = Date.now();
    if (now < nextExpiry) return false;
    let earliest = Infinity;
    for (const [k, e] of entries) {
      if (e.expires <= now) entries.delete(k);
      else earliest = Math.min(earliest, e.expires);
    }
    nextExpiry = earliest;
    return entries.size < maxEntries;
  };
  const put = (key: string, value: string, ttlMs: number): void => {
    const expires = Date.now() + ttlMs;
    entries.delete(key);
    entries.set(key, { value, expires });
    nextExpiry = Math.min(nextExpiry, expires);
  };
  return {
    setIfAbsent: (key, value, ttlMs) => {
      if (live(key) !== undefined || !room(key)) return Promise.resolve(false);
      put(key, value, ttlMs);
      return Promise.resolve(true);
    },
    set: (key, value, ttlMs) => {
      if (!room(key)) return Promise.reject(new Error(`The in-memory MCP state store is full (maxEntries ${maxEntries}): nothing expired yet to make room.`));
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
