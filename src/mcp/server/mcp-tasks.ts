import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type CallToolResult,
  type CreateTaskResult,
  type ServerNotification,
  type ServerRequest,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import { quoteInput } from '../../utils/quote-input';
import { ToolkitError } from '../../errors';
import { errorCallResult } from './call-result';
import { httpRequestScope } from '../shared/http-request-scope';

/**
 * How `createMcpServer` runs `tools/call` requests that ask for an MCP task (`params.task`). Each
 * MCP connection (each Streamable HTTP session) keeps its own tasks: a task id is a random UUID,
 * and another session, or another principal, is told it does not exist.
 *
 * @example
 * createMcpServer(toolkit, { name: 'app', version: '1.0.0', tasks: { maxTasks: 20, ttlMs: 10 * 60_000 } });
 */
export interface McpTaskOptions {
  /**
   * The most tasks one MCP session keeps at once, running or finished (default 100). A new task
   * beyond it drops the oldest finished one; when every task is still running, the `tools/call`
   * gets JSON-RPC error -32000 saying so.
   */
  maxTasks?: number | undefined;
  /**
   * How long a task and its result are kept, from its creation, in ms: the `ttl` the client asks
   * for, at most this (default and most: 1 hour). A task still running then is cancelled (the
   * call's `AbortSignal` fires) and forgotten.
   */
  ttlMs?: number | undefined;
  /** The `pollInterval` (ms) suggested to clients that poll `tasks/get` (default 500). */
  pollIntervalMs?: number | undefined;
  /**
   * 2026-07-28 clients (the `io.modelcontextprotocol/tasks` extension, which has no sessions): the
   * most tasks one principal has within their `ttlMs`, running or ended, across every process that
   * shares the `stateStore` (default 100; all anonymous callers together count as one principal).
   * A `tools/call` beyond it gets JSON-RPC error -32000.
   */
  maxTasksPerPrincipal?: number | undefined;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Defaults of {@link McpTaskOptions}. */
const DEFAULTS = { maxTasks: 100, ttlMs: 60 * 60_000, pollIntervalMs: 500, maxTasksPerPrincipal: 100 } as const;
/** The JSON-RPC error of a `tools/call` refused because the session's tasks are all running. */
const TOO_MANY_TASKS = -32000;

/** @internal What a running task's call can do to its task. */
export interface McpTaskHandle {
  /** The task's id. */
  readonly taskId: string;
  /** Fires when the task is cancelled (`tasks/cancel`), expires or its connection closes. */
  readonly signal: AbortSignal;
  /** Sets the task's status (`working` or `input_required`) and status message. */
  update(status: 'working' | 'input_required', message?: string): void;
}

interface TaskRecord {
  readonly task: Task;
  readonly owner: string | undefined;
  readonly controller: AbortController;
  readonly done: Promise<CallToolResult>;
  readonly finish: (result: CallToolResult) => void;
  timer: NodeJS.Timeout | undefined;
}

function terminal(status: Task['status']): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

function checkedOption(name: keyof McpTaskOptions, value: number | undefined): number {
  const chosen = value ?? DEFAULTS[name];
  if (Number.isInteger(chosen) && chosen >= 1) return chosen;
  throw new ToolkitError('INVALID_OPTIONS', `MCP server option tasks.${name} must be a whole number >= 1, got ${String(value)}.`);
}

/**
 * @internal The task options with their defaults; throws `INVALID_OPTIONS` for a value that is not
 * a whole number >= 1.
 */
export function checkTaskOptions(options: McpTaskOptions): Required<{ [K in keyof McpTaskOptions]: number }> {
  return {
    maxTasks: checkedOption('maxTasks', options.maxTasks),
    ttlMs: checkedOption('ttlMs', options.ttlMs),
    pollIntervalMs: checkedOption('pollIntervalMs', options.pollIntervalMs),
    maxTasksPerPrincipal: checkedOption('maxTasksPerPrincipal', options.maxTasksPerPrincipal),
  };
}

function notFound(taskId: unknown): McpError {
  return new McpError(-32602, `Task not found: ${quoteInput(String(taskId), 100)}. It may have expired (see its ttl); tasks/list names this session's tasks.`);
}

/**
 * @internal The tasks of one MCP connection: created by task-augmented `tools/call` requests, read
 * by `tasks/get`, `tasks/result` (which waits for the end), `tasks/list` and ended by
 * `tasks/cancel`. Bounded (`maxTasks`, `ttlMs`); each task belongs to the principal that created
 * it. Status changes are sent as `notifications/tasks/status`.
 *
 * @example
 * const tasks = new McpTasks(server, options.tasks ?? {});
 * return tasks.start(request.params.task, principal?.id, (handle) => runCall(handle));
 */
export class McpTasks {
  private readonly byId = new Map<string, TaskRecord>();
  private readonly maxTasks: number;
  private readonly ttlMs: number;
  private readonly pollIntervalMs: number;
  private closed = false;

  constructor(
    private readonly server: Server,
    options: McpTaskOptions,
  ) {
    ({ maxTasks: this.maxTasks, ttlMs: this.ttlMs, pollIntervalMs: this.pollIntervalMs } = checkTaskOptions(options));
  }

  /**
   * Creates a task owned by `owner` and starts `run` for it; answers at once. Throws an McpError
   * (-32000) when every one of the session's `maxTasks` tasks is still running.
   */
  start(params: { readonly ttl?: unknown }, owner: string | undefined, run: (handle: McpTaskHandle) => Promise<CallToolResult>): CreateTaskResult {
    if (this.closed) throw new McpError(TOO_MANY_TASKS, 'The connection is closing: no task can be created.');
    this.makeRoom();
    const requested = typeof params.ttl === 'number' && Number.isFinite(params.ttl) && params.ttl >= 1 ? Math.floor(params.ttl) : this.ttlMs;
    const ttl = Math.min(requested, this.ttlMs);
    const now = new Date().toISOString();
    const task: Task = { taskId: randomUUID(), status: 'working', ttl, createdAt: now, lastUpdatedAt: now, pollInterval: this.pollIntervalMs };
    let finish!: (result: CallToolResult) => void;
    const done = new Promise<CallToolResult>((resolve) => (finish = resolve));
    const record: TaskRecord = { task, owner, controller: new AbortController(), done, finish, timer: undefined };
    record.timer = setTimeout(() => this.expire(record), ttl).unref();
    this.byId.set(task.taskId, record);
    const handle: McpTaskHandle = {
      taskId: task.taskId,
      signal: record.controller.signal,
      update: (status, message) => this.setStatus(record, status, message),
    };
    // the call starts once the answer naming the task was sent: what it sends the client is then about a known task
    setImmediate(() => {
      if (record.controller.signal.aborted) return;
      run(handle).then(
        (result) => this.settle(record, 'completed', result),
        (error: unknown) => this.settle(record, 'failed', errorCallResult(`The task failed: ${error instanceof Error ? error.message : String(error)}`)),
      );
    });
    return { task: { ...task } };
  }

  /** The task `taskId` of `owner` (`tasks/get`). */
  get(taskId: unknown, owner: string | undefined): Task {
    return { ...this.recordOf(taskId, owner).task };
  }

  /** The result of the task `taskId` of `owner` once it ended (`tasks/result`); `signal` gives up waiting. */
  async result(taskId: unknown, owner: string | undefined, signal: AbortSignal): Promise<CallToolResult> {
    const record = this.recordOf(taskId, owner);
    const result = await abortable(record.done, signal);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: record.task.taskId } } };
  }

  /** The tasks of `owner`, oldest first (`tasks/list`; at most `maxTasks`, so one page). */
  list(owner: string | undefined): { tasks: Task[] } {
    const tasks: Task[] = [];
    for (const record of this.byId.values()) if (record.owner === owner) tasks.push({ ...record.task });
    return { tasks };
  }

  /** Cancels the task `taskId` of `owner` (`tasks/cancel`): its call's signal fires. */
  cancel(taskId: unknown, owner: string | undefined): Task {
    const record = this.recordOf(taskId, owner);
    if (terminal(record.task.status)) throw new McpError(-32602, `Cannot cancel task ${quoteInput(record.task.taskId)}: it already ended (${record.task.status}).`);
    this.settle(record, 'cancelled', errorCallResult('The task was cancelled by the client (tasks/cancel) before it finished.'), 'Cancelled by the client.');
    return { ...record.task };
  }

  /**
   * The request context of a task's call: the task's signal; its notifications and requests to the
   * client sent outside the request that created it (that request was answered: over HTTP they go
   * on the session's standalone stream), marked as related to the task. While a request to the
   * client waits for its answer, the task is `input_required`.
   */
  extraFor(extra: Extra, handle: McpTaskHandle): Extra {
    const related = { [RELATED_TASK_META_KEY]: { taskId: handle.taskId } };
    const mark = <M extends { params?: { _meta?: object } }>(message: M): M => ({ ...message, params: { ...message.params, _meta: { ...message.params?._meta, ...related } } });
    return {
      ...extra,
      signal: handle.signal,
      sendNotification: (notification) => this.server.notification(mark(notification)),
      sendRequest: async (request, schema, options) => {
        handle.update('input_required');
        try {
          return await this.server.request(mark(request), schema, options);
        } finally {
          handle.update('working');
        }
      },
    };
  }

  /** Cancels every task and forgets them (the connection closed). */
  release(): void {
    this.closed = true;
    for (const record of [...this.byId.values()]) {
      this.settle(record, 'cancelled', errorCallResult('The task was cancelled: its MCP connection closed.'), 'The connection closed.', false);
      this.forget(record);
    }
  }

  private recordOf(taskId: unknown, owner: string | undefined): TaskRecord {
    const record = typeof taskId === 'string' ? this.byId.get(taskId) : undefined;
    // another principal's task is answered as an unknown one: ids are not probed through it
    if (record === undefined || record.owner !== owner) throw notFound(taskId);
    return record;
  }

  /** Drops the oldest finished task when the session holds `maxTasks`; throws when all run. */
  private makeRoom(): void {
    if (this.byId.size < this.maxTasks) return;
    for (const record of this.byId.values()) {
      if (terminal(record.task.status)) {
        this.forget(record);
        return;
      }
    }
    throw new McpError(
      TOO_MANY_TASKS,
      `Too many tasks: this session has ${this.maxTasks} tasks running (the server's tasks.maxTasks). ` +
        'Wait for one to finish (tasks/result), cancel one (tasks/cancel), or call the tool without a task.',
    );
  }

  private expire(record: TaskRecord): void {
    record.timer = undefined;
    const message = `The task reached its ttl of ${record.task.ttl ?? 0} ms before it finished and was cancelled.`;
    this.settle(record, 'cancelled', errorCallResult(message), message);
    this.forget(record);
  }

  private forget(record: TaskRecord): void {
    if (record.timer !== undefined) clearTimeout(record.timer);
    record.timer = undefined;
    if (this.byId.get(record.task.taskId) === record) this.byId.delete(record.task.taskId);
  }

  private setStatus(record: TaskRecord, status: Task['status'], message: string | undefined, notify = true): void {
    if (terminal(record.task.status)) return;
    record.task.status = status;
    if (message !== undefined) record.task.statusMessage = message;
    record.task.lastUpdatedAt = new Date().toISOString();
    if (notify && this.server.transport && !this.closed) {
      this.server.notification({ method: 'notifications/tasks/status', params: { ...record.task } }).catch(() => undefined);
    }
  }

  /** Ends the task (once): its status, its result for `tasks/result`, and its call's signal when it did not finish itself. */
  private settle(record: TaskRecord, status: 'completed' | 'failed' | 'cancelled', result: CallToolResult, message?: string, notify = true): void {
    if (terminal(record.task.status)) return;
    this.setStatus(record, status, message, notify);
    record.finish(result);
    if (status === 'cancelled') record.controller.abort(new Error(message ?? 'The task was cancelled.'));
  }
}

/** `promise` (which never rejects), or a rejection when `signal` fires first (the client gave up waiting). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new McpError(-32600, 'Request cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new McpError(-32600, 'Request cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

/** The principal the HTTP request being served authenticated as (`undefined` elsewhere). */
function ownerOfRequest(): string | undefined {
  return httpRequestScope.getStore()?.principal?.id;
}

/**
 * @internal Serves MCP tasks on `server` (which must declare the tasks capability): `tasks/get`,
 * `tasks/result`, `tasks/list` and `tasks/cancel` answer for the tasks this connection created,
 * each for the principal that created it.
 *
 * @example
 * const tasks = serveMcpTasks(server, options.tasks ?? {});
 */
export function serveMcpTasks(server: Server, options: McpTaskOptions): McpTasks {
  const tasks = new McpTasks(server, options);
  server.setRequestHandler(GetTaskRequestSchema, (request) => tasks.get(request.params.taskId, ownerOfRequest()));
  server.setRequestHandler(GetTaskPayloadRequestSchema, (request, extra) => tasks.result(request.params.taskId, ownerOfRequest(), extra.signal));
  server.setRequestHandler(ListTasksRequestSchema, () => tasks.list(ownerOfRequest()));
  server.setRequestHandler(CancelTaskRequestSchema, (request) => tasks.cancel(request.params.taskId, ownerOfRequest()));
  return tasks;
}
