import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from '../../model/agent-tool';
import { boundInput } from '../../utils/quote-input';
import type { McpImportSdk2Client, McpImportSdk2RequestOptions, McpImportSdk2ResultSchema } from './sdk2-client';

/** @internal The longest remote status message relayed as progress. */
export const MAX_STATUS_CHARS = 300;
/** @internal The server's poll interval is held between these, in ms: it cannot make the import spin or stall. */
export const MIN_POLL_MS = 50;
/** @internal See {@link MIN_POLL_MS}. */
export const MAX_POLL_MS = 5_000;
/** @internal How long the `tools/call` that creates a task may take when the import sets no request timeout. */
export const MAX_CREATE_MS = 60_000;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A Standard Schema that accepts an object `check` finds nothing wrong with. */
function objectSchema(what: string, check: (value: Record<string, unknown>) => boolean): McpImportSdk2ResultSchema {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolwright',
      validate: (value) => (isObject(value) && check(value) ? { value } : { issues: [{ message: `not a valid ${what}` }] }),
    },
  };
}

interface RemoteTask {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string | undefined;
  readonly pollInterval?: number | undefined;
}

const isTask = (value: unknown): value is RemoteTask => isObject(value) && typeof value.taskId === 'string' && typeof value.status === 'string';
/** `tools/call` with `task`: a `CreateTaskResult`, or a plain result from a server that ran the tool at once. */
const CREATED = objectSchema('CreateTaskResult', (v) => isTask(v.task) || Array.isArray(v.content));
const TASK = objectSchema('task', isTask);
const RESULT = objectSchema('CallToolResult', () => true);
const ANY = objectSchema('result', () => true);

/**
 * @internal Why an SDK 2 client on 2025-11-25 cannot call a tool its server runs only as a task,
 * or `undefined`: the server must declare the tasks capability for `tools/call`.
 */
export function sdk2TaskProblem(client: McpImportSdk2Client): string | undefined {
  const capabilities = client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined;
  if (capabilities?.tasks?.requests?.tools?.call !== undefined) return undefined;
  return "requires MCP tasks (execution.taskSupport 'required') but the server does not declare the tasks capability for tools/call";
}

const PROGRESS = 'notifications/progress';
type Relay = (progress: { progress: number; total?: number; message?: string }) => void;
/** The progress relays of the task calls in flight, by client and progress token. */
const relays = new WeakMap<object, Map<string, Relay>>();

/**
 * The progress relays of `client`'s task calls. The SDK 2 forgets a request's progress handler
 * once its response came, and a task's `tools/call` answers at once: its progress notifications
 * carry a token of toolwright's own, taken here before they reach the SDK's handler.
 */
function taskRelays(client: McpImportSdk2Client): Map<string, Relay> {
  const known = relays.get(client);
  if (known !== undefined) return known;
  const own = new Map<string, Relay>();
  relays.set(client, own);
  const handlers = (client as unknown as { _notificationHandlers?: unknown })._notificationHandlers;
  const map = handlers instanceof Map ? (handlers as Map<string, (...args: unknown[]) => unknown>) : undefined;
  const previous = map?.get(PROGRESS);
  const handler = (...args: unknown[]): unknown => {
    const params = (args[0] as { params?: { progressToken?: unknown; progress?: unknown; total?: unknown; message?: unknown } } | undefined)?.params;
    const relay = typeof params?.progressToken === 'string' ? own.get(params.progressToken) : undefined;
    if (relay === undefined) return previous?.(...args);
    if (typeof params?.progress !== 'number') return undefined;
    relay({
      progress: params.progress,
      ...(typeof params.total === 'number' ? { total: params.total } : {}),
      ...(typeof params.message === 'string' ? { message: boundInput(params.message, MAX_STATUS_CHARS) } : {}),
    });
    return undefined;
  };
  // stored as the SDK stores handlers: its own progress handler gets every other notification as the SDK dispatches it
  if (map !== undefined && previous !== undefined) map.set(PROGRESS, handler);
  else client.setNotificationHandler(PROGRESS, (notification) => void handler(notification));
  return own;
}

/** @internal Waits `ms`, or rejects with the signal's reason when it fires first. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * @internal Calls remote tool `name` as a 2025-11-25 MCP task through an SDK 2 client, which has
 * no task API of its own: `tools/call` with `task`, `tasks/get` at the server's poll interval
 * (held to 50 ms – 5 s), then `tasks/result`. Each new status message becomes `ctx.emit`
 * progress; the call's signal (timeout, abort) stops waiting and cancels the task (`tasks/cancel`).
 *
 * @example
 * const result = await callAsSdk2Task(client, 'simulate-research-query', { topic: 'tides' }, ctx, undefined);
 */
export async function callAsSdk2Task(
  client: McpImportSdk2Client,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolCallContext,
  timeout: number | undefined,
): Promise<CallToolResult> {
  const options: McpImportSdk2RequestOptions = { signal: ctx.signal, ...(timeout !== undefined ? { timeout } : {}) };
  const progressToken = `toolwright-task-${randomUUID()}`;
  const progress = taskRelays(client);
  progress.set(progressToken, (p) => ctx.emit(p));
  let taskId: string | undefined;
  const cancel = (): void => {
    if (taskId !== undefined) client.request({ method: 'tasks/cancel', params: { taskId } }, ANY, { timeout: MAX_POLL_MS }).catch(() => undefined);
  };
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    const params = { name, arguments: args, task: {}, _meta: { progressToken } };
    // not aborted with the call: a task created meanwhile is learnt of, and cancelled
    const created = (await client.request({ method: 'tools/call', params }, CREATED, { timeout: timeout ?? MAX_CREATE_MS })) as Record<string, unknown>;
    if (!isTask(created.task)) return created as unknown as CallToolResult;
    taskId = created.task.taskId;
    if (ctx.signal.aborted) {
      cancel();
      throw ctx.signal.reason;
    }
    let task: RemoteTask = created.task;
    let said: string | undefined;
    for (;;) {
      if (task.statusMessage !== undefined && task.statusMessage !== said) ctx.emit({ message: boundInput(task.statusMessage, MAX_STATUS_CHARS) });
      said = task.statusMessage;
      if (TERMINAL.has(task.status) || task.status === 'input_required') break;
      await pause(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollInterval ?? 0)), ctx.signal);
      task = (await client.request({ method: 'tasks/get', params: { taskId } }, TASK, options)) as RemoteTask;
    }
    if (task.status === 'failed' || task.status === 'cancelled') {
      const detail = task.statusMessage !== undefined ? `: ${boundInput(task.statusMessage, MAX_STATUS_CHARS)}` : '';
      throw new Error(`the remote task of tool '${boundInput(name)}' ${task.status}${detail}`);
    }
    // tasks/result waits for the end of a task that asks for input (the server's requests reach the client's handlers meanwhile)
    return (await client.request({ method: 'tasks/result', params: { taskId } }, RESULT, options)) as unknown as CallToolResult;
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
    progress.delete(progressToken);
  }
}
