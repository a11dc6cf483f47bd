import { Queue, QueueEvents, QueueEventsProducer } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ContextKey } from '../model/execution-context';
import type { ToolResult } from '../model/tool-types';
import { ToolkitError } from '../errors';
import { contextKeysOf, type RemoteCall, type ToolEntry } from '../toolkit/remote-routes';
import { encodeContext, identify, MAX_JOB_CHARS, travelNames, type ToolJobData, type TravellingContexts } from './job-data';
import { ASYNC_EVENT, ASYNC_FIELD, cancelChannel, errorToolResult, failedResult, replayReport, resultOf } from './job-events';
import type { RedisLink } from './redis-link';

/**
 * How often the caller checks on the jobs it has waited for that long: an answer whose event it
 * never read (trimmed from a busy event stream) or a job gone from Redis must not leave a call
 * waiting forever.
 */
const SWEEP_MS = 3_000;

/** One caller waiting for a job. */
interface Waiter {
  readonly call: RemoteCall;
  readonly resolve: (result: ToolResult) => void;
  /** Stops waiting when the caller's signal fires (removed once the job answered). */
  readonly onAbort: () => void;
}

/** @internal Where `queueTools` puts its jobs: the queue's name, its key prefix, how long finished jobs stay. */
export interface QueuePlace {
  readonly queueName: string;
  readonly prefix: string | undefined;
  readonly keepResultsMs: number;
  readonly contexts: TravellingContexts;
  /** Context keys the workers provide themselves (never required to travel). */
  readonly workerContexts: readonly ContextKey[];
  /** Told when the connection to Redis was lost (after the calls waiting were answered). */
  readonly onLost?: ((why: string) => void) | undefined;
}

/**
 * @internal The caller's side of a queue: enqueues each routed call as one job (its id derived
 * from the call) and answers it from the queue's events — completion, failure, progress, and an
 * async tool's later completion — through one `QueueEvents` reader shared by every call.
 */
export class QueueRunner {
  private readonly queue: Queue;
  private readonly producer: QueueEventsProducer;
  private readonly client: Redis;
  private events: QueueEvents | undefined = undefined;
  private starting: Promise<void> | undefined = undefined;
  private closed = false;
  private readonly waiting = new Map<string, Set<Waiter>>();
  private readonly asyncWaiting = new Map<string, RemoteCall[]>();
  /** Async completions that overtook their job's answer (the worker relays them as soon as the tool completes). */
  private readonly early = new Map<string, string | undefined>();
  /** When each job waited for was queued (for the sweep). */
  private readonly queuedAt = new Map<string, number>();
  private sweeper: ReturnType<typeof setInterval> | undefined = undefined;
  private sweeping = false;
  /** The declared name of each travelling context key, made once. */
  private readonly names: ReadonlyMap<ContextKey, string>;
  /** The context keys each routed tool needs to travel, worked out on its first call. */
  private readonly needed = new WeakMap<ToolEntry, readonly ContextKey[] | undefined>();
  /** The job options every call shares but its attempts. */
  private readonly keep: { readonly age: number };

  constructor(
    private readonly link: RedisLink,
    private readonly place: QueuePlace,
  ) {
    const connection = (this.client = link.client());
    const prefix = place.prefix !== undefined ? { prefix: place.prefix } : {};
    this.queue = new Queue(place.queueName, { connection, ...prefix });
    this.producer = new QueueEventsProducer(place.queueName, { connection, ...prefix });
    // connection errors reach the calls (QUEUE_UNAVAILABLE); BullMQ would print those nobody listens to
    this.queue.on('error', () => undefined);
    this.producer.on('error', () => undefined);
    link.watch((why) => this.lost(why));
    this.names = travelNames(place.contexts);
    this.keep = { age: Math.ceil(place.keepResultsMs / 1000) };
  }

  /** The context keys `entry` injects that must travel (not those the workers provide). */
  private neededBy(entry: ToolEntry): readonly ContextKey[] | undefined {
    if (this.needed.has(entry)) return this.needed.get(entry);
    const needed = contextKeysOf(entry)?.filter((key) => !this.place.workerContexts.includes(key));
    this.needed.set(entry, needed);
    return needed;
  }

  /** Connects and starts reading the queue's events from now on; `QUEUE_UNAVAILABLE` when Redis does not answer in time. */
  start(): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    return (this.starting ??= this.open().catch((error: unknown) => {
      this.starting = undefined;
      throw error;
    }));
  }

  private async open(): Promise<void> {
    await this.link.ready();
    // read from the stream's current end: no event of a job added after this is missed
    const last = await this.client.xrevrange(this.queue.keys.events, '+', '-', 'COUNT', 1);
    if (this.events === undefined) {
      const events = new QueueEvents(this.place.queueName, {
        connection: this.link.client(),
        lastEventId: last[0]?.[0] ?? '0-0',
        // a short blocking read: one stuck in a lost connection (BullMQ's watchdog: this + 1 s) ends soon after close()
        blockingTimeout: 2_000,
        ...(this.place.prefix !== undefined ? { prefix: this.place.prefix } : {}),
      });
      events.on('error', () => undefined);
      events.on('completed', ({ jobId, returnvalue }) => void this.settle(jobId, (call) => resultOf(returnvalue, call.entry.name)));
      events.on('failed', ({ jobId, failedReason }) => void this.settle(jobId, (call) => failedResult(failedReason, call.entry.name)));
      events.on('progress', ({ jobId, data }) => this.waiting.get(jobId)?.forEach((w) => replayReport(data, w.call.attempt)));
      events.on('duplicated', ({ jobId }) => void this.settle(jobId));
      events.on(ASYNC_EVENT as 'completed', (args: unknown) => void this.completeAsync(args as { jobId?: string; result?: string }));
      this.events = events;
      this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
      this.sweeper.unref();
    }
    await this.link.ready();
  }

  /** Enqueues the call (once: its job id is derived from it) and resolves with its answer; never rejects. */
  async run(call: RemoteCall): Promise<ToolResult> {
    try {
      return await this.enqueue(call);
    } catch (error) {
      if (ToolkitError.is(error)) return errorToolResult(error.code, error.message);
      throw error;
    }
  }

  private async enqueue(call: RemoteCall): Promise<ToolResult> {
    const name = call.entry.name;
    const context = encodeContext(call.context, this.names, this.neededBy(call.entry), name);
    const data: ToolJobData = {
      v: 1,
      tool: name,
      callId: call.callId,
      args: call.args as Record<string, unknown>,
      ...(call.sessionId !== undefined ? { sessionId: call.sessionId } : {}),
      ...(context !== undefined ? { context } : {}),
      ...(call.deadlineAt !== undefined ? { deadlineAt: call.deadlineAt } : {}),
    };
    const { jobId, chars } = identify(data);
    if (chars > MAX_JOB_CHARS) {
      return errorToolResult('INVALID_ARGUMENTS', `The call of tool '${name}' is too large to queue (${chars} characters of arguments and context; at most ${MAX_JOB_CHARS}). Send less.`);
    }
    if (this.closed) throw this.closedError(name);
    await this.start();
    // Redis was reached once and is gone now: wait for it as long as at the start, never forever
    if (!this.link.connected) await this.link.ready();
    const signal = call.attempt.signal;
    // the caller gave up while Redis was being reached: nothing is queued
    if (signal.aborted) return errorToolResult('ABORTED', `Tool '${name}' was not queued: the call was cancelled.`);
    return new Promise<ToolResult>((resolve) => {
      const waiter: Waiter = { call, resolve, onAbort: () => this.abandon(jobId, waiter) };
      const set = this.waiting.get(jobId) ?? new Set<Waiter>();
      set.add(waiter);
      this.waiting.set(jobId, set);
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue
        .add(name, data, { jobId, attempts: Math.max(1, call.maxAttempts), backoff: { type: 'toolwright' }, removeOnComplete: this.keep, removeOnFail: this.keep })
        .then(() => {
          if (this.waiting.has(jobId) && !this.queuedAt.has(jobId)) this.queuedAt.set(jobId, Date.now());
        })
        .catch((error: unknown) => this.finish(jobId, () => errorToolResult('QUEUE_UNAVAILABLE', `Tool '${name}' could not be queued: ${String((error as Error)?.message ?? error).slice(0, 300)}`)));
    });
  }

  /** Answers every caller of `jobId` with what `answer` makes for each. */
  private finish(jobId: string, answer: (call: RemoteCall) => ToolResult): void {
    const set = this.waiting.get(jobId);
    if (set === undefined) return;
    this.waiting.delete(jobId);
    this.queuedAt.delete(jobId);
    const early = this.early.get(jobId);
    const overtaken = this.early.delete(jobId);
    for (const waiter of set) {
      waiter.call.attempt.signal.removeEventListener('abort', waiter.onAbort);
      const result = answer(waiter.call);
      if (result.async && !result.isError) {
        // taken before the call answers, so the completion is delivered after its answer
        const completion = waiter.call.asyncCompletion;
        if (overtaken) completion.complete(resultOf(early, waiter.call.entry.name));
        else this.asyncWaiting.set(jobId, [...(this.asyncWaiting.get(jobId) ?? []), waiter.call]);
      }
      waiter.resolve(result);
    }
  }

  /** Redis stayed away: the waiting calls answer now (their jobs may still run once it is back). */
  private lost(why: string): void {
    for (const jobId of [...this.waiting.keys()]) {
      this.finish(jobId, (call) =>
        errorToolResult('QUEUE_UNAVAILABLE', `Tool '${call.entry.name}' was queued on queue '${this.place.queueName}', but ${why}. It may still run on a worker once Redis is back; check before calling it again.`),
      );
    }
    this.place.onLost?.(why);
  }

  /**
   * Checks the jobs waited for since at least {@link SWEEP_MS}: a finished one is answered from
   * Redis (its event was missed), a vanished one with `QUEUE_UNAVAILABLE`.
   */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.closed || !this.link.connected) return;
    const due = [...this.queuedAt].filter(([, at]) => Date.now() - at >= SWEEP_MS).map(([jobId]) => jobId);
    if (due.length === 0) return;
    this.sweeping = true;
    try {
      const pipeline = this.client.pipeline();
      for (const jobId of due) pipeline.hmget(this.queue.toKey(jobId), 'finishedOn', 'timestamp');
      const states = (await pipeline.exec()) ?? [];
      due.forEach((jobId, i) => {
        const [error, fields] = states[i] ?? [];
        if (error || !Array.isArray(fields)) return;
        if (fields[1] === null) this.vanished(jobId);
        else if (fields[0] !== null) void this.settle(jobId);
      });
    } catch {
      // Redis went away meanwhile: the link's watch answers the calls
    } finally {
      this.sweeping = false;
    }
  }

  /** A job waited for is no longer in Redis (removed by someone, or Redis lost its data). */
  private vanished(jobId: string): void {
    this.finish(jobId, (call) =>
      errorToolResult(
        'QUEUE_UNAVAILABLE',
        `Tool '${call.entry.name}' was queued on queue '${this.place.queueName}', but its job is gone from Redis (removed, or Redis restarted without its data). It may or may not have run; check before calling it again.`,
      ),
    );
  }

  /**
   * Answers the callers of `jobId` from its job in Redis, once it has finished. A `completed` or
   * `failed` event only says when to look: anyone who can write to the queue's event stream can
   * add one, so its payload is never the answer while the job exists. `removed` (the event's
   * payload) answers instead when the job was queued and is gone: removed as it finished, kept
   * shorter (`keepResultsMs`) than the event took to be read.
   */
  private async settle(jobId: string, removed?: (call: RemoteCall) => ToolResult): Promise<void> {
    if (!this.waiting.has(jobId)) return;
    let fields: (string | null)[];
    try {
      fields = await this.client.hmget(this.queue.toKey(jobId), 'finishedOn', 'returnvalue', 'failedReason', 'timestamp');
    } catch {
      return; // Redis went away: the link's watch answers the calls
    }
    const [finishedOn, returnvalue, failedReason, timestamp] = fields;
    if (finishedOn === null) {
      if (timestamp === null && removed !== undefined && this.queuedAt.has(jobId)) this.finish(jobId, removed);
      return;
    }
    if (failedReason !== null && returnvalue === null) this.finish(jobId, (call) => failedResult(failedReason, call.entry.name));
    else this.finish(jobId, (call) => resultOf(returnvalue, call.entry.name));
  }

  /**
   * A worker relayed the later completion of an async tool's call. The completion is read from
   * the job, where the worker keeps it: an event's own payload is taken only when the job is gone
   * from Redis (kept shorter than the tool took to complete).
   */
  private async completeAsync({ jobId, result }: { jobId?: string; result?: string }): Promise<void> {
    if (jobId === undefined || (!this.asyncWaiting.has(jobId) && !this.waiting.has(jobId))) return;
    let kept: (string | null)[];
    try {
      kept = await this.client.hmget(this.queue.toKey(jobId), ASYNC_FIELD, 'timestamp');
    } catch {
      return; // Redis went away: the link's watch answers the calls
    }
    const [stored, timestamp] = kept;
    const completion = stored ?? (timestamp === null ? result : undefined);
    if (completion === undefined) return; // the job has no completion: the event was not its worker's
    const calls = this.asyncWaiting.get(jobId);
    if (calls === undefined) {
      // the tool completed before its job's answer came: held until it does
      if (this.waiting.has(jobId)) this.early.set(jobId, completion);
      return;
    }
    this.asyncWaiting.delete(jobId);
    for (const call of calls) call.asyncCompletion.complete(resultOf(completion, call.entry.name));
  }

  /** The caller aborted, or its timeout ran out: stop waiting, and cancel the job unless another caller waits for it. */
  private abandon(jobId: string, waiter: Waiter): void {
    const set = this.waiting.get(jobId);
    if (set === undefined || !set.delete(waiter)) return;
    if (set.size > 0) return;
    this.waiting.delete(jobId);
    this.early.delete(jobId);
    this.queuedAt.delete(jobId);
    this.client.publish(cancelChannel(this.place.prefix, this.place.queueName), jobId).catch(() => undefined);
    this.queue.remove(jobId).catch(() => undefined);
  }

  /** The error of a call made once the queue is closed. */
  private closedError(tool?: string): ToolkitError {
    const queue = `queue '${this.place.queueName}'`;
    return new ToolkitError(
      'QUEUE_UNAVAILABLE',
      tool === undefined ? `The routing to ${queue} is closed.` : `Tool '${tool}' runs on the workers of ${queue}, and this process closed its connection to the queue.`,
    );
  }

  /** Stops waiting (each pending caller gets `ABORTED`; their jobs stay queued), then closes the queue's connections. */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const jobId of [...this.waiting.keys()]) {
      this.finish(jobId, (call) => errorToolResult('ABORTED', `Tool '${call.entry.name}' was not answered: its queue closed.`));
    }
    this.asyncWaiting.clear();
    this.early.clear();
    const parts: { close(): Promise<void> }[] = [this.queue, this.producer];
    if (this.events !== undefined) parts.push(this.events);
    await this.link.close(parts, graceMs);
  }
}
