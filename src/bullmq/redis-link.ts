import { Redis, type RedisOptions } from 'ioredis';
import { ToolkitError } from '../errors';
import { endClient } from '../utils/client-end';

/**
 * Where the queue's Redis is: ioredis options (`{ host, port, password, db, tls… }`), or an
 * ioredis client, which toolwright duplicates (your client stays yours: `close()` leaves it open).
 *
 * @example const connection: QueueConnection = { host: '127.0.0.1', port: 6379 };
 */
export type QueueConnection = RedisOptions | Redis;

/** How long `ready()` and each call wait for Redis before answering `QUEUE_UNAVAILABLE`, by default. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

function isClient(connection: QueueConnection): connection is Redis {
  return typeof (connection as Redis).duplicate === 'function' && typeof (connection as Redis).disconnect === 'function';
}

/** `host:port` (or the socket path) of the options, for messages. */
function addressOf(options: RedisOptions): string {
  if (typeof options.path === 'string') return options.path;
  return `${options.host ?? '127.0.0.1'}:${options.port ?? 6379}`;
}

/**
 * @internal The Redis clients of one `queueTools` or `createToolWorker`: each BullMQ object gets
 * its own client (workers and event readers block on theirs), all made here so that `close()`
 * can end them even when Redis never answered (BullMQ's own `close()` then waits forever). It
 * remembers the last connection error, for a message that names the problem.
 */
export class RedisLink {
  private readonly clients: Redis[] = [];
  private readonly base: RedisOptions | Redis;
  readonly address: string;
  private lastError: Error | undefined = undefined;
  private closed = false;
  private onLost: ((why: string) => void) | undefined = undefined;
  private lostTimer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(
    connection: QueueConnection,
    private readonly connectTimeoutMs: number,
    private readonly what: string,
  ) {
    if (connection === null || typeof connection !== 'object') {
      throw new ToolkitError('INVALID_OPTIONS', `${what}: connection must be ioredis options ({ host, port, … }) or an ioredis client.`);
    }
    this.base = connection;
    this.address = addressOf(isClient(connection) ? connection.options : connection);
  }

  /** A new client for one BullMQ object (BullMQ needs `maxRetriesPerRequest: null` on them). */
  client(): Redis {
    if (this.closed) throw new ToolkitError('INVALID_OPTIONS', `${this.what} is closed.`);
    const base = this.base;
    const client = isClient(base) ? base.duplicate({ maxRetriesPerRequest: null, disconnectTimeout: DISCONNECT_TIMEOUT_MS }) : new Redis({ ...base, maxRetriesPerRequest: null, disconnectTimeout: DISCONNECT_TIMEOUT_MS });
    client.on('error', (error: Error) => {
      this.lastError = error;
    });
    client.on('close', () => this.checkLost());
    this.clients.push(client);
    return client;
  }

  /** True when every client is connected. */
  get connected(): boolean {
    return this.clients.every((client) => client.status === 'ready');
  }

  /**
   * Resolves once every client is connected; rejects with `QUEUE_UNAVAILABLE` (naming the address
   * and the last error) when they are not within the connect timeout.
   */
  ready(): Promise<void> {
    return this.connectedWithin(this.connectTimeoutMs);
  }

  private connectedWithin(ms: number): Promise<void> {
    if (this.connected) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const pending = this.clients.filter((client) => client.status !== 'ready');
      let left = pending.length;
      const done = (): void => {
        if (--left > 0) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(this.unavailable());
      }, ms);
      const cleanup = (): void => {
        clearTimeout(timer);
        for (const client of pending) client.off('ready', done);
      };
      for (const client of pending) client.once('ready', done);
    });
  }

  /**
   * Runs `start` once every client is connected (at once when they are), and never after
   * `close()`: a BullMQ worker started before Redis answers keeps retry timers that its `close()`
   * cannot end.
   */
  onceConnected(start: () => void): void {
    if (this.connected) {
      start();
      return;
    }
    const pending = this.clients.filter((client) => client.status !== 'ready');
    let left = pending.length;
    for (const client of pending) {
      client.once('ready', () => {
        if (--left === 0 && !this.closed) start();
      });
    }
  }

  /**
   * Calls `onLost` (with why, naming the address and the last error) when a connection that was
   * up is lost and not back within the connect timeout — once per outage.
   */
  watch(onLost: (why: string) => void): void {
    this.onLost = onLost;
  }

  private checkLost(): void {
    if (this.closed || this.onLost === undefined || this.lostTimer !== undefined || this.connected) return;
    this.lostTimer = setTimeout(() => {
      this.lostTimer = undefined;
      if (this.closed || this.connected) return;
      const why = this.lastError !== undefined ? `: ${String(this.lastError.message).slice(0, 200)}` : '';
      this.onLost?.(`the connection to Redis at ${this.address} was lost for more than ${this.connectTimeoutMs} ms${why}`);
    }, this.connectTimeoutMs);
    this.lostTimer.unref();
  }

  /** The `QUEUE_UNAVAILABLE` error of a Redis that did not answer in time. */
  unavailable(): ToolkitError {
    const cause = this.lastError;
    const why = cause !== undefined ? `: ${String(cause.message).slice(0, 200)}` : ' (no answer)';
    return new ToolkitError(
      'QUEUE_UNAVAILABLE',
      `${this.what}: Redis at ${this.address} is unreachable after ${this.connectTimeoutMs} ms${why}. Nothing was queued; check that Redis runs and the connection options.`,
      { cause },
    );
  }

  /**
   * Closes `parts` (BullMQ objects) gracefully while Redis answers, waiting at most `graceMs`, then
   * ends every client: no reconnect timer or socket is left behind.
   */
  async close(parts: readonly { close(force?: boolean): Promise<void> }[], graceMs: number): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.lostTimer);
    // a Redis that is coming back (clients reconnecting) gets a moment: a graceful close ends BullMQ's loops
    await this.connectedWithin(Math.min(this.connectTimeoutMs, 1_000)).catch(() => undefined);
    if (this.connected) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled(parts.map((part) => part.close())), grace]);
      clearTimeout(timer);
    } else {
      // BullMQ's close waits for a connection that is not there: force it (a worker then stops its
      // lock and stall timers without waiting for its jobs), and end the clients
      for (const part of parts) part.close(true).catch(() => undefined);
    }
    // resolve once the sockets are closed: nothing of ours outlives close()
    await Promise.all(this.clients.map(endClient));
  }
}

/**
 * How long ioredis waits for a closing socket before destroying it (its default, 2 s, also holds
 * the process open after a connection that failed: that socket never reports its close again).
 */
const DISCONNECT_TIMEOUT_MS = 200;
