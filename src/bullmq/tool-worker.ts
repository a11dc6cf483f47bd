import { QueueEventsProducer, Worker, type Job, type JobJson, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { checkedLogger, type ToolwrightLogger } from '../model/logger';
import type { ToolResult } from '../model/tool-types';
import type { CallOptions } from '../executor/executor-parts';
import { ToolkitError } from '../errors';
import { assertSelection, entriesOf, extensionOf, selects, unboundPresetsOf, workerRunner, type ToolEntry, type WorkerAttempt, type WorkerRunner } from '../toolkit/remote-routes';
import type { Toolkit } from '../toolkit/toolkit';
import { decodeContext, isToolJobId, MAX_JOB_DATA_CHARS, parseJobData, type TravellingContexts } from './job-data';
import { ASYNC_EVENT, ASYNC_FIELD, cancelChannel, errorToolResult, KEEP_ON_JOB, type JobReport } from './job-events';
import { DEFAULT_CONNECT_TIMEOUT_MS, RedisLink, type QueueConnection } from './redis-link';
import { logWorker } from './worker-logging';

/**
 * Options of {@link createToolWorker}.
 *
 * @example
 * createToolWorker(toolkit, { connection: { host: '127.0.0.1', port: 6379 }, queueName: 'reports', concurrency: 50,
 *   workerOptions: { lockDuration: 10_000 } });
 */
export interface ToolWorkerOptions {
  /** The queue's Redis: ioredis options or an ioredis client (duplicated; yours stays open). */
  readonly connection: QueueConnection;
  /** The queue `queueTools` routes the tools to. */
  readonly queueName: string;
  /** Jobs run at once by this worker (default 1). */
  readonly concurrency?: number | undefined;
  /**
   * BullMQ worker settings passed through (`lockDuration`, `stalledInterval`, `maxStalledCount`,
   * `limiter`…): they decide how fast a dead worker's job moves on. Not `connection`,
   * `concurrency`, `autorun` or the backoff strategy, which toolwright sets.
   */
  readonly workerOptions?: Partial<Omit<WorkerOptions, 'connection' | 'concurrency' | 'autorun'>> | undefined;
  /** The context objects that travel with calls (the same declaration as the caller's). */
  readonly contexts?: TravellingContexts | undefined;
  /** Only these tools run here (default: every tool the toolkit registered); a job of another is refused with `TOOL_DISABLED`. */
  readonly tools?: readonly string[] | undefined;
  /** Only the tools of these groups run here. */
  readonly groups?: readonly string[] | undefined;
  /** BullMQ's key prefix (default `bull`): the same as the caller's. */
  readonly prefix?: string | undefined;
  /** How long `ready()` waits for Redis (default 5 s). */
  readonly connectTimeoutMs?: number | undefined;
  /** How long `close()` waits for running calls before it ends the connections (default 30 s); the queue retries what it cuts off. */
  readonly closeTimeoutMs?: number | undefined;
  /** Receives the worker's connection and job errors (default: dropped; `ready()` reports an unreachable Redis). */
  readonly onError?: ((error: Error) => void) | undefined;
  /**
   * Where the worker logs (default: nowhere): started and closed (`info`), each call that ended in
   * an error result, each job retried or found stalled because its worker was lost (`warn`),
   * connection errors (`error`). Calls themselves are logged by the worker toolkit's own `logger`.
   *
   * @example
   * createToolWorker(toolkit, { connection, queueName: 'reports', logger: pino() });
   */
  readonly logger?: ToolwrightLogger | undefined;
}

/** A running worker: see {@link createToolWorker}. */
export interface ToolWorker {
  /** Resolves once connected; rejects with `QUEUE_UNAVAILABLE` when Redis does not answer in time. */
  ready(): Promise<void>;
  /** Stops taking jobs, lets running calls finish (up to `closeTimeoutMs`) and ends the connections. */
  close(): Promise<void>;
}

/** Cancellations remembered for jobs not running here yet (a cancel may overtake its job). */
const MAX_REMEMBERED_CANCELS = 10_000;

/** Thrown to hand a retry to the queue: the backoff strategy reads its delay. */
class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/**
 * A BullMQ worker that refuses job data longer than a caller can queue before parsing it: the job
 * is made with empty data, and its length is kept for the refusal.
 */
class BoundedWorker extends Worker {
  /** The length of each oversized job's data, by job. */
  readonly oversized = new WeakMap<Job, number>();

  protected override createJob(json: JobJson, jobId: string): Job {
    const chars = typeof json.data === 'string' ? json.data.length : 0;
    if (chars <= MAX_JOB_DATA_CHARS) return super.createJob(json, jobId);
    const job = super.createJob({ ...json, data: '{}' }, jobId);
    this.oversized.set(job, chars);
    return job;
  }
}

/**
 * Runs the queued calls of `queueName` on this process's `toolkit`: the same decorated services,
 * resolved from this process's container, with the presets bound here (never sent through
 * Redis). Each job runs one attempt (arguments validated again, the caller's context rebuilt,
 * the tool's timeout capped by the caller's deadline); where the tool's retry settings call for
 * another attempt, the queue runs it after the backoff, on any worker. A tool annotated
 * `idempotent: false` is not run again after its worker died mid-call: its call fails with
 * `WORKER_LOST`. Hooks (approval, guardrails) ran on the caller and do not run here.
 *
 * @throws ToolkitError `INVALID_OPTIONS` (no queue name, a concurrency that is not a whole number
 *   ≥ 1, a tool or group the toolkit lacks), `INVALID_DEFINITION` (a served tool whose declared
 *   preset is not bound here).
 */
export function createToolWorker(toolkit: Toolkit, options: ToolWorkerOptions): ToolWorker {
  const { queueName } = options;
  if (typeof queueName !== 'string' || queueName === '') throw new ToolkitError('INVALID_OPTIONS', 'createToolWorker: queueName must be a non-empty string.');
  const concurrency = options.concurrency ?? 1;
  if (typeof concurrency !== 'number' || !Number.isInteger(concurrency) || concurrency < 1) {
    throw new ToolkitError('INVALID_OPTIONS', `createToolWorker('${queueName}'): concurrency must be a whole number ≥ 1, not ${String(concurrency).slice(0, 40)}.`);
  }
  const logger = checkedLogger(options.logger, `createToolWorker('${queueName}', { logger })`);
  const serves = selects(options);
  checkServed(toolkit, options, serves, queueName);
  const run = workerRunner(toolkit, serves, queueName);
  const link = new RedisLink(options.connection, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, `createToolWorker('${queueName}')`);
  const prefix = options.prefix !== undefined ? { prefix: options.prefix } : {};
  const contexts = options.contexts ?? {};
  const onError = options.onError;
  const report = (error: Error): void => {
    if (onError !== undefined) {
      try {
        onError(error);
      } catch {
        // a failing error callback must not stop the worker
      }
    }
  };
  const cancelled = new Set<string>();
  const redis = link.client();
  const producer = new QueueEventsProducer(queueName, { connection: redis, ...prefix });
  producer.on('error', report);
  const processJob = (job: Job, _token?: string, signal?: AbortSignal): Promise<ToolResult> => {
    if (job.id !== undefined && cancelled.delete(job.id)) return Promise.resolve(errorToolResult('ABORTED', 'The caller cancelled the call before it ran.'));
    const chars = worker.oversized.get(job);
    if (chars !== undefined) {
      return Promise.resolve(
        errorToolResult('INVALID_ARGUMENTS', `Job ${String(job.id).slice(0, 80)} of queue '${queueName}' was not run: its data is ${chars} characters, more than the ${MAX_JOB_DATA_CHARS} of the largest call a caller queues.`),
      );
    }
    return runJob(toolkit, job, { run, queueName, contexts, signal, producer, redis });
  };
  const worker = new BoundedWorker(queueName, processJob, {
    ...options.workerOptions,
    ...prefix,
    connection: link.client(),
    concurrency,
    autorun: false,
    settings: { ...options.workerOptions?.settings, backoffStrategy: (_made, _type, error) => (error instanceof RetryLater ? error.delayMs : 0) },
  });
  worker.on('error', report);
  if (logger) logWorker(worker, logger, queueName, concurrency);
  // cancellations come by pub/sub: a worker does not read the queue's whole event stream for them
  const listener = link.client();
  listener.on('message', (_channel: string, jobId: string) => {
    // only ids queueTools makes: whoever floods the channel with others cannot grow this set
    if (!isToolJobId(jobId)) return;
    if (worker.cancelJob(jobId, 'the caller cancelled the call')) return;
    if (cancelled.size >= MAX_REMEMBERED_CANCELS) cancelled.delete(cancelled.values().next().value!);
    cancelled.add(jobId);
  });
  void listener.subscribe(cancelChannel(options.prefix, queueName)).catch(report);
  link.onceConnected(() => void worker.run().catch(report));
  return {
    ready: () => link.ready(),
    close: () => link.close([worker, producer], options.closeTimeoutMs ?? 30_000),
  };
}

/** Every served tool exists and has its declared presets bound here. */
function checkServed(toolkit: Toolkit, options: ToolWorkerOptions, serves: (entry: ToolEntry) => boolean, queueName: string): void {
  assertSelection(toolkit, options, `createToolWorker('${queueName}')`);
  for (const entry of entriesOf(toolkit).filter(serves)) {
    const unbound = unboundPresetsOf(entry);
    if (unbound.length > 0) {
      throw new ToolkitError(
        'INVALID_DEFINITION',
        `createToolWorker('${queueName}'): tool '${entry.name}' runs here, but its preset parameter(s) ${unbound.map((n) => `'${n}'`).join(', ')} are not bound: ` +
          `register it with .presetParameters({ ${entry.name}: { ${unbound[0]}: … } }) on the worker's toolkit.`,
        { tool: entry.name },
      );
    }
  }
}

interface JobScope {
  /** Runs an attempt on the worker's toolkit, in the worker's gate. */
  readonly run: WorkerRunner;
  readonly queueName: string;
  readonly contexts: TravellingContexts;
  readonly signal: AbortSignal | undefined;
  readonly producer: QueueEventsProducer;
  readonly redis: Redis;
}

/**
 * Relays an async tool's completion: kept on its job first (the caller reads it there, since
 * anyone who can write to the event stream could add an event), then announced by an event.
 */
async function relayCompletion(scope: JobScope, job: Job, result: ToolResult): Promise<void> {
  const text = JSON.stringify(result);
  try {
    await scope.redis.eval(KEEP_ON_JOB, 1, `${job.queueQualifiedName}:${String(job.id)}`, ASYNC_FIELD, text);
    await scope.producer.publishEvent({ eventName: ASYNC_EVENT, jobId: job.id, result: text });
  } catch {
    // Redis went away: the completion is lost, as is any of a worker that stops
  }
}

/** Runs one job's attempt; throws {@link RetryLater} when the queue should run another. */
async function runJob(toolkit: Toolkit, job: Job, scope: JobScope): Promise<ToolResult> {
  const data = parseJobData(job.data);
  if (typeof data === 'string') return errorToolResult('EXECUTION_FAILED', `Job ${String(job.id).slice(0, 80)} of queue '${scope.queueName}' was not run: ${data}.`);
  const { tool } = data;
  const entry = extensionOf(toolkit).registry.get(tool);
  const stalled = job.stalledCounter > 0 || job.attemptsStarted > job.attemptsMade + 1;
  if (stalled && entry?.behaviour.annotations?.idempotent === false) {
    return errorToolResult(
      'WORKER_LOST',
      `Tool '${tool}' did not finish: the worker running it stopped mid-call. The tool is not idempotent, so it was not run again; it may or may not have taken effect. Check before calling it again.`,
    );
  }
  if (data.deadlineAt !== undefined && Date.now() >= data.deadlineAt) {
    return errorToolResult('TIMEOUT', `Tool '${tool}' timed out waiting in queue '${scope.queueName}'; it was not run.`);
  }
  let context;
  try {
    context = decodeContext(data.context, scope.contexts, tool);
  } catch (error) {
    return errorToolResult('INVALID_CONTEXT', (error as Error).message);
  }
  const report = (payload: JobReport): void => void job.updateProgress(payload as object).catch(() => undefined);
  const options: CallOptions = {
    context,
    ...(data.sessionId !== undefined ? { sessionId: data.sessionId } : {}),
    ...(scope.signal !== undefined ? { signal: scope.signal } : {}),
    onProgress: ({ progress, total, message }) => report({ k: 'p', ...(progress !== undefined ? { progress } : {}), ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) }),
    onLog: ({ level, data: logged, logger }) => report({ k: 'l', level, data: logged, ...(logger !== undefined ? { logger } : {}) }),
    onAsyncComplete: (result) => void relayCompletion(scope, job, result),
  };
  const handoff: WorkerAttempt = { attempt: job.attemptsMade + 1, maxAttempts: job.opts.attempts ?? 1, deadlineAt: data.deadlineAt, retryDelayMs: undefined };
  const result = await scope.run({ tool, callId: data.callId, args: data.args, handoff }, options);
  if (handoff.retryDelayMs !== undefined) throw new RetryLater(result.forLLM, handoff.retryDelayMs);
  return result;
}
