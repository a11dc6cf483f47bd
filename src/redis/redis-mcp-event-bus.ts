import { randomBytes } from 'node:crypto';
import { ToolkitError } from '../errors';
import { DEFAULT_COMMAND_TIMEOUT_MS, RedisConnectionHandle, type RedisConnection } from './redis-connection';

/**
 * A change event for `subscriptions/listen` streams: the shape of the MCP SDK v2 `ServerEvent`
 * (`@modelcontextprotocol/server`), so a {@link RedisMcpEventBus} is an SDK `ServerEventBus`.
 */
export type McpServerEvent = (
  | { readonly kind: 'tools_list_changed' }
  | { readonly kind: 'prompts_list_changed' }
  | { readonly kind: 'resources_list_changed' }
  | { readonly kind: 'resource_updated'; readonly uri: string }
) & {
  /** Notification params forwarded with the event (a JSON object). */
  readonly params?: { readonly [key: string]: unknown } | undefined;
};

/** Options of {@link redisMcpEventBus}. */
export interface RedisMcpEventBusOptions {
  /** The Redis: ioredis options, or an ioredis client (duplicated for the subscription; yours is never closed). */
  readonly connection: RedisConnection;
  /** The pub/sub channel (default `toolwright:mcp:events`): the servers of one endpoint share it. */
  readonly channel?: string | undefined;
  /**
   * Told about what the bus drops or cannot do: a message on the channel that is no event (malformed,
   * too large), a listener that threw, a PUBLISH that failed. Default: nothing is reported.
   */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** An SDK v2 `ServerEventBus` over Redis pub/sub, with `ready()` and `close()`. */
export interface RedisMcpEventBus {
  /** Delivers `event` to this process's listeners now and to every other process's through Redis. */
  publish(event: McpServerEvent): void;
  /** Registers a listener for the events of every process; returns an idempotent unsubscribe. */
  subscribe(listener: (event: McpServerEvent) => void): () => void;
  /** Resolves once the subscription to the channel is in place (events published before may be missed). */
  ready(): Promise<void>;
  /** Unsubscribes and ends the Redis connections the bus made. */
  close(): Promise<void>;
}

/** Default of {@link RedisMcpEventBusOptions.channel}. */
const DEFAULT_CHANNEL = 'toolwright:mcp:events';
/** The largest message read from the channel: larger ones are dropped unparsed. */
const MAX_MESSAGE_BYTES = 16 * 1024;
const KINDS = new Set(['tools_list_changed', 'prompts_list_changed', 'resources_list_changed', 'resource_updated']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event a channel message carries, or a reason it is none. */
function eventOf(message: unknown): McpServerEvent | string {
  if (!isObject(message) || !isObject(message.e)) return 'not an event envelope';
  const { kind, uri, params } = message.e;
  if (typeof kind !== 'string' || !KINDS.has(kind)) return 'unknown event kind';
  if (params !== undefined && !isObject(params)) return 'params is not an object';
  const extra = params === undefined ? {} : { params };
  if (kind === 'resource_updated') {
    if (typeof uri !== 'string' || uri.length === 0) return 'resource_updated without a uri';
    return { kind, uri, ...extra };
  }
  return { kind: kind as Exclude<McpServerEvent['kind'], 'resource_updated'>, ...extra };
}

/** `promise`, or a rejection with `message` when it takes longer than the command timeout. */
function withinTimeout(promise: Promise<void>, message: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), DEFAULT_COMMAND_TIMEOUT_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A `ServerEventBus` (MCP SDK v2) over Redis pub/sub: `subscriptions/listen` on any process of a
 * fleet hears a list change published on another. `publish` delivers to this process's listeners
 * at once and sends the event to the channel; the other processes deliver it to theirs (a process
 * ignores its own echo). What arrives from Redis is checked: a message that is not one of the four
 * event kinds, or larger than 16 KiB, is dropped (and reported to `onError`); a listener that
 * throws does not stop the others. Anyone who can publish on the channel can make the servers'
 * listeners hear list changes (clients then list again: lists stay gated per caller).
 *
 * @example
 * import { redisMcpEventBus } from 'toolwright/redis';
 * const bus = redisMcpEventBus({ connection: { host: '127.0.0.1', port: 6379 } });
 * await bus.ready();
 * await serveMcpHttp(toolkit, { name: 'app', version: '1.0.0', stateSecret, stateStore, bus });
 */
export function redisMcpEventBus(options: RedisMcpEventBusOptions): RedisMcpEventBus {
  const channel = options.channel ?? DEFAULT_CHANNEL;
  if (typeof channel !== 'string' || channel.length === 0) throw new ToolkitError('INVALID_OPTIONS', 'redisMcpEventBus: channel must be a non-empty string.');
  const report = (error: Error): void => {
    try {
      options.onError?.(error);
    } catch {
      // a throwing reporter must not end the delivery loop
    }
  };
  const redis = new RedisConnectionHandle(options.connection, 'redisMcpEventBus');
  const origin = randomBytes(12).toString('base64url');
  const listeners = new Set<(event: McpServerEvent) => void>();
  const deliver = (event: McpServerEvent): void => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        report(new Error(`redisMcpEventBus: a listener threw: ${String((error as Error)?.message ?? error).slice(0, 200)}`, { cause: error }));
      }
    }
  };
  const subscriber = redis.dedicated();
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    if (Buffer.byteLength(text) > MAX_MESSAGE_BYTES) {
      report(new Error(`redisMcpEventBus: dropped a message of more than ${MAX_MESSAGE_BYTES} bytes on ${channel}.`));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      report(new Error(`redisMcpEventBus: dropped a message on ${channel} that is not JSON.`));
      return;
    }
    if (isObject(parsed) && parsed.o === origin) return;
    const event = eventOf(parsed);
    if (typeof event === 'string') report(new Error(`redisMcpEventBus: dropped a message on ${channel}: ${event}.`));
    else deliver(event);
  });
  const subscribed = subscriber.subscribe(channel).then(
    () => undefined,
    (error: unknown) => {
      throw new Error(`redisMcpEventBus: could not subscribe to ${channel} on Redis at ${redis.address}: ${String((error as Error)?.message ?? error).slice(0, 200)}`, { cause: error });
    },
  );
  subscribed.catch(report);
  let closed = false;
  return {
    publish(event) {
      deliver(event);
      if (closed) return;
      const text = JSON.stringify({ o: origin, e: event });
      redis.run('PUBLISH', (client) => client.publish(channel, text)).catch(report);
    },
    subscribe(listener) {
      listeners.add(listener);
      let live = true;
      return () => {
        if (!live) return;
        live = false;
        listeners.delete(listener);
      };
    },
    ready: () => withinTimeout(subscribed, `redisMcpEventBus: no subscription to ${channel} on Redis at ${redis.address} within ${DEFAULT_COMMAND_TIMEOUT_MS} ms.`),
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await redis.close();
    },
  };
}
