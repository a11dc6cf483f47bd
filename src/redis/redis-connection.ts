import { Redis, type RedisOptions } from 'ioredis';
import { ToolkitError } from '../errors';
import { endClient } from '../utils/client-end';

/**
 * Where a Redis-backed store is: ioredis options (`{ host, port, password, db, tls… }`), or an
 * ioredis client, which toolwright uses (and duplicates where it needs a connection of its own)
 * without ever closing it: your client stays yours.
 *
 * @example const connection: RedisConnection = { host: '127.0.0.1', port: 6379 };
 */
export type RedisConnection = RedisOptions | Redis;

/** How long one Redis command may take before it is answered with an error, by default. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5_000;

/** How long ioredis waits for a closing socket before destroying it. */
const DISCONNECT_TIMEOUT_MS = 200;

/** @internal Whether `connection` is an ioredis client (else: options). */
export function isRedisClient(connection: RedisConnection): connection is Redis {
  return typeof (connection as Redis).duplicate === 'function' && typeof (connection as Redis).disconnect === 'function';
}

/** @internal `host:port` (or the socket path) of the options, for messages (never the password). */
export function redisAddressOf(options: RedisOptions): string {
  if (typeof options.path === 'string') return options.path;
  return `${options.host ?? '127.0.0.1'}:${options.port ?? 6379}`;
}

/**
 * @internal The Redis clients of one store or bus: the user's client as given (never closed here),
 * or clients made from options (closed by `close()`); `dedicated()` always makes a new one (a
 * subscriber cannot send other commands). Every command goes through `run`, which bounds its time
 * and names the address in its error.
 */
export class RedisConnectionHandle {
  private readonly base: RedisConnection;
  private readonly owned: Redis[] = [];
  private shared: Redis | undefined = undefined;
  private closed = false;
  private lastError: Error | undefined = undefined;
  readonly address: string;

  constructor(
    connection: RedisConnection,
    private readonly what: string,
    private readonly timeoutMs: number = DEFAULT_COMMAND_TIMEOUT_MS,
  ) {
    if (connection === null || typeof connection !== 'object') {
      throw new ToolkitError('INVALID_OPTIONS', `${what}: connection must be ioredis options ({ host, port, … }) or an ioredis client.`);
    }
    if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
      throw new ToolkitError('INVALID_OPTIONS', `${what}: commandTimeoutMs must be a whole number >= 1, got ${String(timeoutMs)}.`);
    }
    this.base = connection;
    this.address = redisAddressOf(isRedisClient(connection) ? connection.options : connection);
  }

  /** The client for ordinary commands: the user's own, or one made from the options. */
  client(): Redis {
    this.assertOpen();
    if (this.shared !== undefined) return this.shared;
    this.shared = isRedisClient(this.base) ? this.base : this.own(new Redis({ ...this.base, disconnectTimeout: DISCONNECT_TIMEOUT_MS }));
    return this.shared;
  }

  /** A new client of toolwright's own (closed by `close()`), e.g. for SUBSCRIBE. */
  dedicated(): Redis {
    this.assertOpen();
    const base = this.base;
    return this.own(isRedisClient(base) ? base.duplicate({ disconnectTimeout: DISCONNECT_TIMEOUT_MS }) : new Redis({ ...base, disconnectTimeout: DISCONNECT_TIMEOUT_MS }));
  }

  /**
   * Runs `command` on {@link client}; rejects with an error naming the address and the cause when
   * Redis fails or does not answer within the timeout (the command may still run later).
   */
  async run<T>(operation: string, command: (client: Redis) => Promise<T>): Promise<T> {
    const client = this.client();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      return await Promise.race([command(client), late]);
    } catch (error) {
      const cause = error instanceof Error ? error : (this.lastError ?? new Error(String(error)));
      throw new Error(`${this.what}: ${operation} failed on Redis at ${this.address}: ${cause.message.slice(0, 200)}`, { cause });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the clients made here (the user's own client stays open); resolves when their sockets are closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.owned.map(endClient));
  }

  private own(client: Redis): Redis {
    client.on('error', (error: Error) => {
      this.lastError = error;
    });
    this.owned.push(client);
    return client;
  }

  private assertOpen(): void {
    if (this.closed) throw new ToolkitError('INVALID_OPTIONS', `${this.what} is closed.`);
  }
}
