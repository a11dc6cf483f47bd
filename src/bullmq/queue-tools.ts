import { Principal } from '../model/principal';
import type { ContextKey } from '../model/execution-context';
import { checkedLogger, writeLog, type ToolwrightLogger } from '../model/logger';
import { ToolkitError } from '../errors';
import { addRoute, assertSelection, contextKeysOf, entriesOf, selects, type ToolEntry } from '../toolkit/remote-routes';
import type { Toolkit } from '../toolkit/toolkit';
import { untravelled, type TravellingContexts } from './job-data';
import { QueueRunner } from './queue-runner';
import { DEFAULT_CONNECT_TIMEOUT_MS, RedisLink, type QueueConnection } from './redis-link';

/**
 * Options of {@link queueTools}.
 *
 * @example
 * queueTools(toolkit, { connection: { host: '127.0.0.1', port: 6379 }, queueName: 'reports', groups: ['reports'],
 *   contexts: { user: UserContext } });
 */
export interface QueueToolsOptions {
  /** The queue's Redis: ioredis options or an ioredis client (duplicated; yours stays open). */
  readonly connection: QueueConnection;
  /** The BullMQ queue the calls go to (the workers' `queueName`). */
  readonly queueName: string;
  /** Every tool of these groups (registered now or later) runs on the workers. */
  readonly groups?: readonly string[] | undefined;
  /** These tools run on the workers. */
  readonly tools?: readonly string[] | undefined;
  /**
   * The context objects that travel with the calls, by name (the same declaration on the
   * workers). A routed tool that injects a context not declared here is refused now (or, when it
   * is registered later, its registration is); the other contexts stay in this process.
   */
  readonly contexts?: TravellingContexts | undefined;
  /**
   * Context keys the routed tools inject that the workers provide themselves (their toolkit's
   * context or container): they do not travel, and `queueTools` does not ask for them.
   */
  readonly workerContexts?: readonly ContextKey[] | undefined;
  /** BullMQ's key prefix (default `bull`): the same as the workers'. */
  readonly prefix?: string | undefined;
  /** How long a call waits for Redis before it answers `QUEUE_UNAVAILABLE` (default 5 s). */
  readonly connectTimeoutMs?: number | undefined;
  /**
   * How long a finished job (and so its result) stays in Redis (default 10 minutes): within it, the
   * same call queued again — same id, session, arguments and context — gets that result without a
   * second run.
   */
  readonly keepResultsMs?: number | undefined;
  /**
   * Where the routing logs (default: nowhere): the routes made (`info`) and a lost connection to
   * Redis (`error`, naming the address, never credentials). The calls themselves, with their
   * `QUEUE_UNAVAILABLE` failures, are logged by the toolkit's own `logger`.
   *
   * @example
   * queueTools(toolkit, { connection, queueName: 'reports', groups: ['reports'], logger: pino() });
   */
  readonly logger?: ToolwrightLogger | undefined;
}

/** The routing of {@link queueTools}. */
export interface QueuedTools {
  /** Resolves once connected; rejects with `QUEUE_UNAVAILABLE` when Redis does not answer in time. */
  ready(): Promise<void>;
  /**
   * Answers the calls still waiting with `ABORTED` (their jobs stay queued and run) and releases
   * the Redis connections; later calls of the routed tools answer `QUEUE_UNAVAILABLE` (they never
   * fall back to running in this process).
   */
  close(): Promise<void>;
}

/**
 * Routes the named groups or tools of `toolkit` to a BullMQ queue, where the workers of
 * {@link createToolWorker} run them. The caller's API is unchanged — `callTool`, `callTools`,
 * sessions, hooks, approval, events, `ToolResult`s — and the arguments are validated before
 * anything is enqueued. A job carries the tool, the validated arguments, the call id, the
 * session id and the travelling context; never a preset value (a `@ToolParam({ preset: true })`
 * parameter is hidden here and bound on the workers; the route may come before or after the
 * registration). The tool's `timeoutMs` bounds the whole call, time in the queue included; its
 * retry settings become the job's attempts, run by the queue; progress and logs come back as
 * they happen; the caller's abort cancels the job. Tools registered later that the route takes
 * are routed too (one injecting a context `contexts` does not declare fails its registration).
 *
 * @example
 * toolkit.registerTool(ReportTools); // its hidden apiKey is bound on the workers
 * const routing = queueTools(toolkit, { connection, queueName: 'reports', groups: ['reports'] });
 * await toolkit.callTool({ id: 'c1', name: 'build_report', arguments: { month: '2026-10' } });
 * await routing.close();
 * @throws ToolkitError `INVALID_OPTIONS` (no queue name, nothing to route, a tool or group the
 *   toolkit lacks), `INVALID_CONTEXT` (a routed tool injects a context `contexts` does not declare).
 */
export function queueTools(toolkit: Toolkit, options: QueueToolsOptions): QueuedTools {
  const { queueName, tools, groups } = options;
  if (typeof queueName !== 'string' || queueName === '') throw new ToolkitError('INVALID_OPTIONS', 'queueTools: queueName must be a non-empty string.');
  if (tools === undefined && groups === undefined) {
    throw new ToolkitError('INVALID_OPTIONS', `queueTools('${queueName}'): name the groups or the tools to route (groups: ['reports'] or tools: ['build_report']).`);
  }
  const keepResultsMs = options.keepResultsMs ?? 600_000;
  if (typeof keepResultsMs !== 'number' || !Number.isFinite(keepResultsMs) || keepResultsMs < 0) {
    throw new ToolkitError('INVALID_OPTIONS', `queueTools('${queueName}'): keepResultsMs must be a finite number of milliseconds ≥ 0, not ${String(keepResultsMs).slice(0, 40)}.`);
  }
  assertSelection(toolkit, { tools, groups }, `queueTools('${queueName}')`);
  const takes = selects({ tools, groups });
  const contexts = options.contexts ?? {};
  // the caller's Principal always travels (see PRINCIPAL_NAME)
  const declared = new Set<ContextKey>([Principal, ...Object.values(contexts), ...(options.workerContexts ?? [])]);
  const admit = (entry: ToolEntry): void => {
    const needed = contextKeysOf(entry)?.find((key) => !declared.has(key));
    if (needed !== undefined) throw untravelled(needed, entry.name);
  };
  for (const entry of entriesOf(toolkit).filter(takes)) admit(entry);
  const logger = checkedLogger(options.logger, `queueTools('${queueName}', { logger })`);
  const onLost = logger && ((why: string): void => writeLog(logger, 'error', { event: 'queue_lost', queueName, error: why }, `queue ${queueName}: ${why}`));
  const link = new RedisLink(options.connection, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, `queueTools('${queueName}')`);
  const runner = new QueueRunner(link, { queueName, prefix: options.prefix, keepResultsMs, contexts, workerContexts: options.workerContexts ?? [], onLost });
  addRoute(toolkit, takes, (call) => runner.run(call), admit);
  if (logger) writeLog(logger, 'info', { event: 'queue_routed', queueName, ...(groups !== undefined ? { groups: [...groups] } : {}), ...(tools !== undefined ? { tools: [...tools] } : {}) }, `calls routed to queue ${queueName}`);
  let closing: Promise<void> | undefined;
  return {
    ready: () => runner.start(),
    close: () => (closing ??= runner.close(5_000)),
  };
}
