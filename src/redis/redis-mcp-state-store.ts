import type { McpStateStore } from '../mcp/server/modern/state-store';
import { ToolkitError } from '../errors';
import { RedisConnectionHandle, type RedisConnection } from './redis-connection';

/** Options of {@link redisMcpStateStore}. */
export interface RedisMcpStateStoreOptions {
  /** The Redis: ioredis options, or an ioredis client (used as is, never closed by toolwright). */
  readonly connection: RedisConnection;
  /** Prepended to every key (default `toolwright:mcp:`): the servers of one endpoint share it, other endpoints use their own. */
  readonly prefix?: string | undefined;
  /** How long one command may take before the store answers with an error (default 5,000 ms). */
  readonly commandTimeoutMs?: number | undefined;
}

/** An {@link McpStateStore} on Redis, with `close()` for the connections it made. */
export interface RedisMcpStateStore extends McpStateStore {
  /** Ends the Redis connections this store made (a client you passed stays open). */
  close(): Promise<void>;
}

/** Default of {@link RedisMcpStateStoreOptions.prefix}. */
const DEFAULT_PREFIX = 'toolwright:mcp:';

/** Redis takes whole milliseconds >= 1 for PX. */
function px(ttlMs: number): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new ToolkitError('INVALID_OPTIONS', `redisMcpStateStore: a TTL must be a positive number of ms, got ${String(ttlMs)}.`);
  return Math.max(1, Math.ceil(ttlMs));
}

/**
 * An {@link McpStateStore} on Redis (ioredis, an optional peer): the processes of a fleet that
 * serve one MCP endpoint share what outlives a request (round-trip states, handles, tasks).
 * `setIfAbsent` is one atomic `SET NX PX`, so exactly one process wins a key; every entry expires
 * (`PX`). A command that fails or takes longer than `commandTimeoutMs` rejects with an error that
 * names the address and the cause (never the password).
 *
 * @example
 * import { redisMcpStateStore } from 'toolwright/redis';
 * const stateStore = redisMcpStateStore({ connection: { host: '127.0.0.1', port: 6379 } });
 * await serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', stateSecret, stateStore });
 */
export function redisMcpStateStore(options: RedisMcpStateStoreOptions): RedisMcpStateStore {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (typeof prefix !== 'string') throw new ToolkitError('INVALID_OPTIONS', 'redisMcpStateStore: prefix must be a string.');
  const redis = new RedisConnectionHandle(options.connection, 'redisMcpStateStore', options.commandTimeoutMs);
  return {
    setIfAbsent: async (key, value, ttlMs) => {
      const ttl = px(ttlMs);
      return (await redis.run('SET NX', (client) => client.set(prefix + key, value, 'PX', ttl, 'NX'))) === 'OK';
    },
    set: async (key, value, ttlMs) => {
      const ttl = px(ttlMs);
      await redis.run('SET', (client) => client.set(prefix + key, value, 'PX', ttl));
    },
    get: async (key) => (await redis.run('GET', (client) => client.get(prefix + key))) ?? undefined,
    delete: async (key) => {
      await redis.run('DEL', (client) => client.del(prefix + key));
    },
    close: () => redis.close(),
  };
}
