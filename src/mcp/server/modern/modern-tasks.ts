import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { McpTaskSupport } from '../../shared/mcp-tool-options';
import type { ToolProgress, ToolResult } from '../../../model/tool-types';
import { errorResult } from '../../../model/results';
import { failedCallResult, toCallToolResult } from '../call-result';
import type { FormValidators } from '../mcp-client-requests';
import type { ModernCall } from './modern-call';
import type { RecordedAnswer } from './request-state';
import { TaskClientRequests } from './task-client-requests';
import { PreAnsweredClientRequests } from './task-escalation';
import { TaskProtocolFailure } from './task-entries';
import { TASKS_EXTENSION, type TaskRun, type TasksExtension } from './tasks-extension';

type ServerSdk = typeof import('@modelcontextprotocol/server');

/** The `_meta` key under which a 2026-07-28 request declares the client's capabilities. */
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * Params pass the SDK's schema step as they are: each handler checks what it reads (an unknown
 * or malformed task id answers "not found", as for any id the caller does not own).
 */
const ANY_PARAMS = {
  '~standard': { version: 1, vendor: 'toolwright', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) },
} as const;

/** @internal The capabilities a server declares for the extension (under `capabilities.extensions`). */
export const TASKS_CAPABILITY = { extensions: { [TASKS_EXTENSION]: {} } } as const;

/** The client capabilities a request declared in its `_meta`. */
function declaredCapabilities(ctx: ServerContext): unknown {
  return (ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined)?.[CLIENT_CAPABILITIES_KEY];
}

/** @internal True when the request declared the tasks extension in its `_meta` client capabilities. */
export function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = declaredCapabilities(ctx);
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  const extensions = (capabilities as { extensions?: unknown }).extensions;
  return typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}

/** The -32021 error of a request that needs the extension from a client that did not declare it. */
function missingExtension(sdk: ServerSdk): Error {
  return new sdk.MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    `This request needs the client capability extensions["${TASKS_EXTENSION}"]: declare it in the request's _meta clientCapabilities.`,
  );
}

/**
 * @internal How a `tools/call` of a tool with `taskSupport` runs for this request: as a task when
 * the tool supports tasks and the request declared the extension (the server decides: the client
 * sends no hint, and a legacy `task` param changes nothing); synchronously otherwise. A tool that
 * requires a task, called without the extension, is refused with -32021 before anything runs.
 */
export function taskModeOf(sdk: ServerSdk, support: McpTaskSupport, ctx: ServerContext): 'task' | 'sync' {
  if (support === 'forbidden') return 'sync';
  if (declaresTasks(ctx)) return 'task';
  if (support === 'required') throw missingExtension(sdk);
  return 'sync';
}

/**
 * @internal Serves `tasks/get`, `tasks/update` and `tasks/cancel` on a 2026-07-28 server for the
 * caller `owner` (a principal's id; `undefined` when anonymous). A request that did not declare
 * the extension is refused with -32021; `tasks/list` and `tasks/result` stay unknown methods (-32601).
 */
export function serveTasksExtension(sdk: ServerSdk, server: Server, tasks: TasksExtension, owner: string | undefined): void {
  const gated =
    <T>(answer: (params: Record<string, unknown>, ctx: ServerContext) => Promise<T>) =>
    (params: unknown, ctx: ServerContext): Promise<T> => {
      if (!declaresTasks(ctx)) return Promise.reject(missingExtension(sdk));
      return answer(typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {}, ctx);
    };
  server.setRequestHandler('tasks/get', { params: ANY_PARAMS }, gated((params) => tasks.get(owner, params.taskId)));
  // the SDK lifts `inputResponses` out of the params of every 2026-07-28 request (keeping bare answers only)
  server.setRequestHandler('tasks/update', { params: ANY_PARAMS }, gated((params, ctx) => tasks.update(owner, params.taskId, ctx.mcpReq.inputResponses)));
  server.setRequestHandler('tasks/cancel', { params: ANY_PARAMS }, gated((params) => tasks.cancel(owner, params.taskId)));
}

/** Resolves with an error result when `signal` fires (a task cancelled before its tool completed in the background). */
function whenAborted(signal: AbortSignal): Promise<ToolResult> {
  return new Promise((resolve) => {
    const stop = (): void => resolve(errorResult('The task was cancelled before the tool completed in the background.'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * @internal Runs one `tools/call` as a task: through the caller's view (the gate of every door),
 * with the task's signal (a cancel on any process, the TTL), questions to the client parked on the
 * task (see {@link TaskClientRequests}), and the toolkit's redacted result as the task's result (for
 * a tool that finishes in the background, its completion). `answers`: what a round before the task
 * gathered for its before-hooks (see `roundBeforeTask`), replayed to them. Progress and log messages have no
 * request to go with once the task was answered, and are not sent as notifications: the last
 * progress report becomes the task's `statusMessage` on `tasks/get` (its message, else
 * `progress/total`; preset values redacted, at most 200 characters).
 *
 * What a tool throws is a tool error (`completed`, `result.isError`), as on a plain call, except a
 * protocol-level error — an Error whose `code` is a whole number, as the SDKs' `ProtocolError` and
 * `McpError` are: the task ends `failed` with that code and the error's message (preset values
 * redacted, at most 200 characters), as the extension reserves `failed` for protocol errors.
 */
export function callToolAsTask(call: ModernCall, name: string, args: Record<string, unknown>, ctx: ServerContext, forms: FormValidators, answers: readonly RecordedAnswer[] = []) {
  const capabilities = declaredCapabilities(ctx);
  return async (task: TaskRun): Promise<CallToolResult> => {
    let completed!: (result: ToolResult) => void;
    const completion = new Promise<ToolResult>((resolve) => (completed = resolve));
    const id = `mcp_task_${task.taskId}`;
    let fault: TaskProtocolFailure | undefined;
    const watch = call.toolkit.events$.subscribe((event) => {
      if (event.type === 'call_failed' && event.callId === id) fault = protocolFailureOf(event.cause);
    });
    try {
      const parked = new TaskClientRequests(task, capabilities, forms);
      const client = answers.length > 0 ? new PreAnsweredClientRequests(parked, answers) : parked;
      const onProgress = (progress: ToolProgress): void => task.report(statusOf(progress));
      const options = { signal: task.signal, client, onAsyncComplete: completed, onProgress, ...(call.context !== undefined && { context: call.context }) };
      let result = await call.view.callTool({ id, name, arguments: args }, options);
      if (result.async && !result.isError) result = await Promise.race([completion, whenAborted(task.signal)]);
      if (result.isError && fault !== undefined) throw fault;
      const tool = result.isError ? undefined : call.toolkit.getTool(name);
      return toCallToolResult(result, tool ? call.list.shapeOf(tool) : undefined, name);
    } catch (error) {
      if (error instanceof TaskProtocolFailure) throw error;
      return failedCallResult(name, error);
    } finally {
      watch.unsubscribe();
    }
  };
}

/** A progress report as a task's `statusMessage`: its message, else `progress/total` (or `progress`). */
function statusOf(progress: ToolProgress): string {
  if (typeof progress.message === 'string' && progress.message.length > 0) return progress.message;
  if (typeof progress.progress !== 'number') return 'working';
  return typeof progress.total === 'number' ? `${progress.progress}/${progress.total}` : String(progress.progress);
}

/** A protocol-level error a tool threw (see {@link callToolAsTask}), as the task's failure. */
function protocolFailureOf(cause: unknown): TaskProtocolFailure | undefined {
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  return typeof code === 'number' && Number.isInteger(code) ? new TaskProtocolFailure(code, String(cause.message)) : undefined;
}
