import type { ServerResponse } from 'node:http';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CallProgress } from '../../executor/executor-parts';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
/** @internal What a relay needs of its request: a way to send notifications related to it. */
export type NotificationSender = Pick<Extra, 'sendNotification'>;

interface ProgressParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

/**
 * How many notifications of one call may wait for the transport. Beyond it the newest replaces
 * the last waiting one: a client that stops reading costs the server at most this many.
 */
const PROGRESS_QUEUE_LIMIT = 32;

/**
 * @internal The notifications of one call waiting for the transport, sent one at a time, each once
 * the transport took the previous one: over HTTP, once the SDK's stream handed it to the socket
 * and the socket does not need to drain (the SDK queues SSE events in memory without
 * backpressure); elsewhere, once `sendNotification` resolved. A failed send is dropped (the client
 * is gone or the stream closed). Subclasses keep the queue and its bound.
 */
export abstract class NotificationPump<P> {
  private pump: Promise<void> | undefined;

  constructor(
    protected readonly extra: NotificationSender,
    private readonly response?: ServerResponse,
  ) {}

  /** Resolves once every notification waiting was written. */
  async flush(): Promise<void> {
    await this.pump;
  }

  /** Starts sending what {@link next} hands out, unless sending is under way. */
  protected start(): void {
    this.pump ??= this.drain();
  }

  /** The next notification's params, or `undefined` when none waits. */
  protected abstract next(): P | undefined;

  /** Sends one notification. */
  protected abstract send(params: P): Promise<void>;

  private async drain(): Promise<void> {
    for (let params = this.next(); params !== undefined; params = this.next()) {
      await this.send(params).catch(() => undefined);
      if (this.response) await writable(this.response);
    }
    this.pump = undefined;
  }
}

/**
 * @internal Relays a call's `ToolEmitter` progress as `notifications/progress` for one request. MCP wants
 * `progress` to increase with every notification: a tool's own value is used when it does,
 * otherwise the previous value plus one (and then no `total`, which would no longer match).
 *
 * Notifications go out in turn ({@link NotificationPump}). At most {@link PROGRESS_QUEUE_LIMIT} wait; when more arrive, the newest replaces the
 * last waiting one, so a slow reader gets the latest progress (still strictly increasing) and
 * the server's memory stays bounded.
 */
export class ProgressRelay extends NotificationPump<ProgressParams> {
  private last: number | undefined;
  private readonly queue: ProgressParams[] = [];

  constructor(
    private readonly token: string | number,
    extra: NotificationSender,
    response?: ServerResponse,
  ) {
    super(extra, response);
  }

  /** The `onProgress` of the call. */
  readonly report = (report: CallProgress): void => {
    const own = report.progress;
    const useOwn = typeof own === 'number' && Number.isFinite(own) && (this.last === undefined || own > this.last);
    const progress = useOwn ? own : this.last === undefined ? 1 : this.last + 1;
    this.last = progress;
    const params: ProgressParams = { progressToken: this.token, progress };
    if (useOwn && typeof report.total === 'number') params.total = report.total;
    if (report.message !== undefined) params.message = report.message;
    if (this.queue.length < PROGRESS_QUEUE_LIMIT) this.queue.push(params);
    else this.queue[this.queue.length - 1] = params;
    this.start();
  };

  /** True once the call reported progress (the response then waits for the ping barrier). */
  get sent(): boolean {
    return this.last !== undefined;
  }

  protected next(): ProgressParams | undefined {
    return this.queue.shift();
  }

  protected send(params: ProgressParams): Promise<void> {
    return this.extra.sendNotification({ method: 'notifications/progress', params });
  }
}

/**
 * Resolves once `response` took what was queued for it: after a macrotask (the SDK's stream
 * hands queued events to the socket in microtasks) and, when the socket's buffer is full, after
 * `drain` (or `close`: nothing will be written any more).
 */
async function writable(response: ServerResponse): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (!response.writableNeedDrain || response.destroyed || response.writableEnded) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}
