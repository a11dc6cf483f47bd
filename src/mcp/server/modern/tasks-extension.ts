import { randomBytes } from 'node:crypto';
import type { ProtocolError } from '@modelcontextprotocol/server';
import { ToolkitError } from '../../../errors';
import type { McpStateStore } from './state-store';
import { MAX_STATUS_MESSAGE_CHARS, taskKeys, TaskEntries, TaskProtocolFailure, type TaskEnd, type TaskRecord, type TaskRun, type TaskStatus } from './task-entries';

/** @internal The extension's identifier, declared under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * @internal The bounds of the tasks extension's tasks (the server's `tasks` option). Tasks live in
 * the server's `stateStore`, so any process of a fleet answers `tasks/get`, `tasks/update` and
 * `tasks/cancel` for a task another one runs.
 */
export interface TaskLimits {
  /** How long a task and its result are kept from its creation, in ms (default 1 hour); a task still running then is cancelled. */
  readonly ttlMs?: number | undefined;
  /** The `pollIntervalMs` suggested to clients, and how often the running process looks for a cancel or answers (default 500). */
  readonly pollIntervalMs?: number | undefined;
  /** The most tasks one principal has within their TTL, running or ended (default 100; all anonymous callers count as one). */
  readonly maxTasksPerPrincipal?: number | undefined;
  /** The largest result (as JSON) a task keeps, in bytes (default 1 MiB); a larger one ends the task `failed`. */
  readonly maxResultBytes?: number | undefined;
}

export type { TaskRun } from './task-entries';

/** @internal The wire answers of the extension (flat, as SEP-2663 shapes them). */
export type CreateTaskResult = { resultType: 'task'; taskId: string; status: 'working'; createdAt: string; lastUpdatedAt: string; ttlMs: number; pollIntervalMs: number };
/** @internal `tasks/get`'s answer. */
export type DetailedTask = Omit<CreateTaskResult, 'resultType' | 'status'> & {
  resultType: 'complete';
  status: TaskStatus;
  statusMessage?: string;
  inputRequests?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

const DEFAULTS = { ttlMs: 60 * 60_000, pollIntervalMs: 500, maxTasksPerPrincipal: 100, maxResultBytes: 1024 * 1024 } as const;
/** Bounds of what a client hands in through `tasks/update`. */
const MAX_ANSWER_BYTES = 64 * 1024;
const MAX_PENDING_INPUTS = 16;
const TOO_MANY_TASKS = -32000;
/** How long a running task's heartbeat lasts, in poll intervals (at least 2 s): a task whose process stops beating ends `failed`. */
const HEARTBEAT_POLLS = 20;
const MIN_HEARTBEAT_MS = 2_000;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

interface Running {
  readonly controller: AbortController;
  readonly pending: Map<string, { readonly request: Readonly<Record<string, unknown>>; readonly resolve: (answer: unknown) => void }>;
  timer: ReturnType<typeof setInterval> | undefined;
  expiry: ReturnType<typeof setTimeout> | undefined;
  /** True once the call ended here and its end is being written: an end read back is its own, not a cancel. */
  ending: boolean;
  /** The last progress reported, and whether the store has it yet. */
  statusMessage?: string;
  reported?: boolean;
}

/** @internal The SDK v2 error class the extension's JSON-RPC errors are made of (`@modelcontextprotocol/server` is loaded on first use). */
export type ProtocolErrorClass = typeof ProtocolError;

const now = (): string => new Date().toISOString();

function checked(name: keyof TaskLimits, value: number | undefined): number {
  const chosen = value ?? DEFAULTS[name];
  if (Number.isInteger(chosen) && chosen >= 1) return chosen;
  throw new ToolkitError('INVALID_OPTIONS', `MCP server option tasks.${name} must be a whole number >= 1, got ${String(value)}.`);
}

/**
 * @internal The tasks of the `io.modelcontextprotocol/tasks` extension on one process: `create`
 * stores a task (ids of 192 random bits, bound to their owner) before it answers and runs the call
 * here; `get`, `update` and `cancel` answer for any task in the store, each only to its owner
 * (anyone else is told it does not exist, as for an unknown id). A cancel or an answer that lands
 * on another process reaches the running call through the store (checked every `pollIntervalMs`),
 * where the running process also renews the task's heartbeat: a task whose process stopped (no
 * heartbeat for 20 poll intervals, at least 2 s) ends `failed` on the next `tasks/get`.
 */
export class TasksExtension {
  private readonly entries: TaskEntries;
  private readonly running = new Map<string, Running>();
  private readonly options: Required<{ [K in keyof TaskLimits]: number }>;
  private closed = false;

  constructor(
    private readonly ProtocolError: ProtocolErrorClass,
    private readonly store: McpStateStore,
    secret: string | Uint8Array,
    options: TaskLimits = {},
    onForged: (key: string) => void = () => undefined,
  ) {
    this.entries = new TaskEntries(store, secret, onForged);
    this.options = {
      ttlMs: checked('ttlMs', options.ttlMs),
      pollIntervalMs: checked('pollIntervalMs', options.pollIntervalMs),
      maxTasksPerPrincipal: checked('maxTasksPerPrincipal', options.maxTasksPerPrincipal),
      maxResultBytes: checked('maxResultBytes', options.maxResultBytes),
    };
  }

  /**
   * Creates a task for `owner` (a principal's id, `undefined` when anonymous), stores it, and starts
   * `run` on this process once the answer is on its way. Throws -32000 beyond `maxTasksPerPrincipal`.
   */
  async create(owner: string | undefined, run: (task: TaskRun) => Promise<Record<string, unknown>>): Promise<CreateTaskResult> {
    if (this.closed) throw new this.ProtocolError(TOO_MANY_TASKS, 'The server is closing: no task can be created.');
    const { ttlMs, pollIntervalMs } = this.options;
    const taskId = randomBytes(24).toString('base64url');
    const ownerTag = this.entries.ownerTag(ownerKey(owner));
    await this.claimSlot(ownerTag, taskId);
    const createdAt = now();
    const record: TaskRecord = { taskId, owner: ownerTag, createdAt, ttlMs, pollIntervalMs };
    const keys = taskKeys(taskId);
    await this.entries.write('progress', keys.progress, { status: 'working', lastUpdatedAt: createdAt }, ttlMs);
    await this.beat(taskId);
    await this.entries.write('record', keys.record, record, ttlMs, true);
    const running: Running = { controller: new AbortController(), pending: new Map(), timer: undefined, expiry: undefined, ending: false };
    this.running.set(taskId, running);
    setImmediate(() => this.start(taskId, running, run));
    return { resultType: 'task', taskId, status: 'working', createdAt, lastUpdatedAt: createdAt, ttlMs, pollIntervalMs };
  }

  /** `tasks/get`: the task `taskId` of `owner`, its result or error inlined once it ended. */
  async get(owner: string | undefined, taskId: unknown): Promise<DetailedTask> {
    const record = await this.recordOf(owner, taskId);
    const keys = taskKeys(record.taskId);
    const base: Omit<DetailedTask, 'status' | 'lastUpdatedAt'> = { resultType: 'complete', taskId: record.taskId, createdAt: record.createdAt, ttlMs: record.ttlMs, pollIntervalMs: record.pollIntervalMs };
    let end = await this.entries.read('end', keys.end);
    if (end === undefined && (await this.store.get(keys.alive)) === undefined) {
      // the process running the task stopped beating: the task ends failed (unless it ended meanwhile)
      const stopped: TaskEnd = { status: 'failed', lastUpdatedAt: now(), error: { code: INTERNAL_ERROR, message: 'The server process running the task stopped.' } };
      await this.entries.write('end', keys.end, stopped, record.ttlMs, true);
      end = (await this.entries.read('end', keys.end)) ?? stopped;
    }
    if (end !== undefined) {
      return {
        ...base,
        status: end.status,
        lastUpdatedAt: end.lastUpdatedAt,
        ...(end.statusMessage !== undefined && { statusMessage: end.statusMessage }),
        ...(end.status === 'completed' && end.result !== undefined && { result: { ...end.result } }),
        ...(end.status === 'failed' && end.error !== undefined && { error: { code: end.error.code, message: end.error.message } }),
      };
    }
    const progress = await this.entries.read('progress', keys.progress);
    if (progress === undefined) return { ...base, status: 'working', lastUpdatedAt: record.createdAt };
    if (progress.statusMessage !== undefined) base.statusMessage = progress.statusMessage;
    if (progress.status !== 'input_required' || progress.inputRequests === undefined) return { ...base, status: 'working', lastUpdatedAt: progress.lastUpdatedAt };
    const open: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(progress.inputRequests)) {
      if ((await this.entries.read('answer', keys.answer(key))) === undefined) open[key] = request;
    }
    if (Object.keys(open).length === 0) return { ...base, status: 'working', lastUpdatedAt: progress.lastUpdatedAt };
    return { ...base, status: 'input_required', lastUpdatedAt: progress.lastUpdatedAt, inputRequests: open };
  }

  /** `tasks/update`: records the answers to the task's open input requests (the first answer to a key wins). */
  async update(owner: string | undefined, taskId: unknown, inputResponses: unknown): Promise<{ resultType: 'complete' }> {
    const record = await this.recordOf(owner, taskId);
    if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) {
      throw new this.ProtocolError(INVALID_PARAMS, 'tasks/update: inputResponses must be an object of answers by input request key.');
    }
    const keys = taskKeys(record.taskId);
    const progress = await this.entries.read('progress', keys.progress);
    const open = progress?.status === 'input_required' ? (progress.inputRequests ?? {}) : {};
    for (const [key, value] of Object.entries(inputResponses as Record<string, unknown>)) {
      if (!Object.hasOwn(open, key)) continue;
      if (Buffer.byteLength(JSON.stringify(value) ?? '') > MAX_ANSWER_BYTES) {
        throw new this.ProtocolError(INVALID_PARAMS, `tasks/update: the answer to an input request is larger than ${MAX_ANSWER_BYTES} bytes.`);
      }
      await this.entries.write('answer', keys.answer(key), { value }, record.ttlMs, true);
    }
    const local = this.running.get(record.taskId);
    if (local !== undefined) void this.poll(record.taskId, local);
    return { resultType: 'complete' };
  }

  /** `tasks/cancel`: ends the task `cancelled` unless it already ended (the same ack either way); its call's signal fires. */
  async cancel(owner: string | undefined, taskId: unknown): Promise<{ resultType: 'complete' }> {
    const record = await this.recordOf(owner, taskId);
    const end: TaskEnd = { status: 'cancelled', lastUpdatedAt: now(), statusMessage: 'Cancelled by the client (tasks/cancel).' };
    await this.entries.write('end', taskKeys(record.taskId).end, end, record.ttlMs, true);
    this.running.get(record.taskId)?.controller.abort(new Error('The task was cancelled by the client.'));
    return { resultType: 'complete' };
  }

  /** Cancels the tasks running on this process (each ends `failed`: the process stopped) and refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    const stopping = [...this.running.entries()].map(async ([taskId, running]) => {
      const end: TaskEnd = { status: 'failed', lastUpdatedAt: now(), error: { code: INTERNAL_ERROR, message: 'The server process running the task stopped.' } };
      await this.entries.write('end', taskKeys(taskId).end, end, this.options.ttlMs, true).catch(() => false);
      this.finish(taskId, running, new Error('The server is closing.'));
    });
    await Promise.all(stopping);
  }

  private async recordOf(owner: string | undefined, taskId: unknown): Promise<TaskRecord> {
    if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > 100) throw this.notFound();
    const record = await this.entries.read('record', taskKeys(taskId).record);
    // another principal's task answers exactly as an unknown id: ids cannot be probed through it
    if (record === undefined || record.taskId !== taskId || record.owner !== this.entries.ownerTag(ownerKey(owner))) throw this.notFound();
    return record;
  }

  /** Takes one of the owner's `maxTasksPerPrincipal` slots (atomic claims, held for the task's TTL), or throws -32000. */
  private async claimSlot(ownerTag: string, taskId: string): Promise<void> {
    const { maxTasksPerPrincipal: max, ttlMs } = this.options;
    const start = randomBytes(4).readUInt32BE() % max;
    for (let i = 0; i < max; i++) {
      if (await this.store.setIfAbsent(`tasks-of:${ownerTag}:${(start + i) % max}`, taskId, ttlMs)) return;
    }
    throw new this.ProtocolError(
      TOO_MANY_TASKS,
      `Too many tasks: this caller has ${max} tasks within their TTL of ${ttlMs} ms (the server's maxTasksPerPrincipal). Wait for one to expire, or call the tool without the tasks extension.`,
    );
  }

  private start(taskId: string, running: Running, run: (task: TaskRun) => Promise<Record<string, unknown>>): void {
    const { pollIntervalMs, ttlMs } = this.options;
    running.timer = setInterval(() => void this.poll(taskId, running), pollIntervalMs);
    running.expiry = setTimeout(() => this.finish(taskId, running, new Error(`The task reached its TTL of ${ttlMs} ms.`)), ttlMs);
    running.timer.unref();
    running.expiry.unref();
    const task: TaskRun = {
      taskId,
      signal: running.controller.signal,
      requestInput: (request) => this.requestInput(taskId, running, request),
      report: (statusMessage) => {
        running.statusMessage = String(statusMessage).slice(0, MAX_STATUS_MESSAGE_CHARS);
        running.reported = false;
      },
    };
    let outcome: Promise<TaskEnd>;
    try {
      outcome = run(task).then((result) => this.completed(result));
    } catch (error) {
      outcome = Promise.reject(error);
    }
    void outcome
      .catch((error: unknown) => this.failed(error))
      .then((end) => {
        running.ending = true;
        return this.entries.write('end', taskKeys(taskId).end, end, ttlMs, true);
      })
      .catch(() => false)
      .then(() => this.finish(taskId, running));
  }

  private completed(result: Record<string, unknown>): TaskEnd {
    const size = Buffer.byteLength(JSON.stringify(result));
    if (size > this.options.maxResultBytes) {
      return { status: 'failed', lastUpdatedAt: now(), error: { code: INTERNAL_ERROR, message: `The task's result (${size} bytes) is larger than the server keeps (${this.options.maxResultBytes} bytes).` } };
    }
    return { status: 'completed', lastUpdatedAt: now(), result };
  }

  private async requestInput(taskId: string, running: Running, request: Readonly<Record<string, unknown>>): Promise<unknown> {
    if (running.controller.signal.aborted) throw running.controller.signal.reason;
    if (running.pending.size >= MAX_PENDING_INPUTS) throw new Error(`A task waits on at most ${MAX_PENDING_INPUTS} input requests at once.`);
    const key = randomBytes(9).toString('base64url');
    const answer = new Promise<unknown>((resolve, reject) => {
      running.pending.set(key, { request, resolve });
      running.controller.signal.addEventListener('abort', () => reject(running.controller.signal.reason), { once: true });
    });
    await this.writeProgress(taskId, running);
    return answer;
  }

  private writeProgress(taskId: string, running: Running): Promise<boolean> {
    const inputRequests = Object.fromEntries([...running.pending].map(([key, { request }]) => [key, request]));
    const waiting = running.pending.size > 0;
    const { statusMessage } = running;
    running.reported = true;
    const progress = { status: waiting ? 'input_required' : 'working', lastUpdatedAt: now(), ...(waiting && { inputRequests }), ...(statusMessage !== undefined && { statusMessage }) } as const;
    return this.entries.write('progress', taskKeys(taskId).progress, progress, this.options.ttlMs);
  }

  /** One look at the store for the running task: a cancel (its end written elsewhere) aborts it; answers resolve its input requests. */
  private async poll(taskId: string, running: Running): Promise<void> {
    try {
      await this.beat(taskId);
      const keys = taskKeys(taskId);
      if ((await this.entries.read('end', keys.end)) !== undefined) {
        if (!running.ending) this.finish(taskId, running, new Error('The task was cancelled.'));
        return;
      }
      let answered = false;
      for (const [key, waiter] of [...running.pending]) {
        const answer = await this.entries.read('answer', keys.answer(key));
        if (answer === undefined || !running.pending.has(key)) continue;
        running.pending.delete(key);
        waiter.resolve(answer.value);
        answered = true;
      }
      if (answered || running.reported === false) await this.writeProgress(taskId, running);
    } catch {
      // the store did not answer: the next tick looks again
    }
  }

  /** Tells the fleet this process still runs the task (see {@link HEARTBEAT_POLLS}). */
  private beat(taskId: string): Promise<void> {
    const ttl = Math.max(this.options.pollIntervalMs * HEARTBEAT_POLLS, MIN_HEARTBEAT_MS);
    return this.store.set(taskKeys(taskId).alive, '1', Math.min(ttl, this.options.ttlMs));
  }

  private notFound(): ProtocolError {
    return new this.ProtocolError(INVALID_PARAMS, 'Task not found: no task with this id exists for this caller (it may have expired).');
  }

  /**
   * The `failed` end of a call that threw: a protocol error (or a {@link TaskProtocolFailure}) keeps its code and (bounded) message;
   * anything else is an internal error whose message says nothing of its cause (it could name what
   * the client may not read).
   */
  private failed(error: unknown): TaskEnd {
    if (error instanceof this.ProtocolError || error instanceof TaskProtocolFailure) return { status: 'failed', lastUpdatedAt: now(), error: { code: error.code, message: String(error.message).slice(0, 200) } };
    return { status: 'failed', lastUpdatedAt: now(), error: { code: INTERNAL_ERROR, message: 'The task failed inside the server.' } };
  }

  private finish(taskId: string, running: Running, reason?: Error): void {
    clearInterval(running.timer);
    clearTimeout(running.expiry);
    if (reason !== undefined && !running.controller.signal.aborted) running.controller.abort(reason);
    if (this.running.get(taskId) === running) this.running.delete(taskId);
  }
}

/** Who owns a task: a principal by id, all anonymous callers as one. */
function ownerKey(owner: string | undefined): string {
  return owner === undefined ? 'anonymous' : `principal:${owner}`;
}
