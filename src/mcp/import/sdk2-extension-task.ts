import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from '../../model/agent-tool';
import { boundInput } from '../../utils/quote-input';
import type { McpImportSdk2Client } from './sdk2-client';
import { answerInputRequests, inputRequiredOf, MAX_INPUT_ROUNDS } from './sdk2-input-requests';
import { sendRawRequest } from './sdk2-raw-request';
import { MAX_CREATE_MS, MAX_POLL_MS, MAX_STATUS_CHARS, MIN_POLL_MS, pause } from './sdk2-task-call';

/** @internal The tasks extension of MCP 2026-07-28. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The -32021 error of a request that needs a client capability the client did not declare. */
const MISSING_CAPABILITY = -32021;
/** The longest task id accepted from a server. */
const MAX_TASK_ID_CHARS = 256;
/** How long a task is waited for at most, whatever TTL its server claims. */
const MAX_TASK_WAIT_MS = 24 * 60 * 60_000;
const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * @internal True when `error` is a server's refusal of a call that needs the tasks extension
 * (-32021 naming it), from a server that declares the extension: the call is then made again
 * through it. The refusal comes before the tool runs.
 */
export function needsTasksExtension(error: unknown, client: McpImportSdk2Client): boolean {
  const { code, data } = (isObject(error) ? error : {}) as { code?: unknown; data?: unknown };
  if (code !== MISSING_CAPABILITY) return false;
  const required = isObject(data) && isObject(data.requiredCapabilities) ? data.requiredCapabilities.extensions : undefined;
  const offered = (client.getServerCapabilities() as { extensions?: unknown } | undefined)?.extensions;
  return isObject(required) && Object.hasOwn(required, TASKS_EXTENSION) && isObject(offered) && Object.hasOwn(offered, TASKS_EXTENSION);
}

/** The id of a task a server created, checked. */
function taskIdOf(answer: Record<string, unknown>): string {
  const { taskId } = answer;
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_CHARS || !/^[\x21-\x7e]+$/.test(taskId)) {
    throw new Error(`the server created a task whose id is not a printable string of at most ${MAX_TASK_ID_CHARS} characters`);
  }
  return taskId;
}

/** A number the server sent, or `fallback`. */
const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isFinite(value) ? value : fallback);

/**
 * @internal Calls remote tool `name` of a 2026-07-28 server through the tasks extension
 * (`io.modelcontextprotocol/tasks`), which the SDK 2 client has no client side of: `tools/call`
 * declaring the extension, answered with a result (the server ran it at once), an
 * `input_required` round, or a `CreateTaskResult`; then `tasks/get` at the server's poll interval
 * (held to 50 ms – 5 s) until the task ends, for at most its TTL (at most 24 hours), the call's
 * signal (timeout, abort) and the per-request `timeout`. A task's `input_required` is answered
 * through the importing call's `ClientRequests` and `tasks/update`, within the same bounds as a
 * call's rounds; each new status message becomes `ctx.emit` progress (bounded); the call's signal
 * cancels the task (`tasks/cancel`). The completed task's result goes on through the import's
 * result checks as any call's.
 *
 * @throws Error for a hostile or broken server: an unusable task id, a `tasks/get` answer about
 *   another task or with an unknown status, too many input rounds, a failed or cancelled task.
 */
export async function callThroughTasksExtension(
  client: McpImportSdk2Client,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolCallContext,
  baseCapabilities: Readonly<Record<string, unknown>>,
  timeout: number | undefined,
): Promise<CallToolResult> {
  const capabilities = { ...baseCapabilities, extensions: { [TASKS_EXTENSION]: {} } };
  const perRequest = { capabilities, timeout: timeout ?? MAX_CREATE_MS };
  let rounds = 0;
  const answered = async (inputRequests: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> => {
    if (++rounds > MAX_INPUT_ROUNDS) throw new Error(`the server asked for input more than ${MAX_INPUT_ROUNDS} times in one call of tool '${boundInput(name)}'; the call was given up`);
    return answerInputRequests(inputRequests, ctx);
  };
  let answer: Record<string, unknown>;
  let retry: Record<string, unknown> = {};
  for (;;) {
    // not aborted with the call: a task created meanwhile is learnt of, and cancelled
    answer = await sendRawRequest(client, 'tools/call', { name, arguments: args, ...retry }, perRequest);
    const asked = inputRequiredOf(answer);
    if (asked === undefined) break;
    ctx.signal.throwIfAborted();
    retry = { inputResponses: await answered(asked.inputRequests), ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}) };
  }
  if (answer.resultType !== 'task') return withoutResultType(answer);
  const taskId = taskIdOf(answer);
  const cancel = (): void => void sendRawRequest(client, 'tasks/cancel', { taskId }, { capabilities, timeout: MAX_POLL_MS }).catch(() => undefined);
  ctx.signal.addEventListener('abort', cancel, { once: true });
  let ended = false;
  const deadline = Date.now() + Math.min(MAX_TASK_WAIT_MS, Math.max(0, numberOr(answer.ttlMs, MAX_TASK_WAIT_MS)));
  if (ctx.signal.aborted) {
    // aborted while the task was being created
    cancel();
    throw ctx.signal.reason;
  }
  try {
    let task = answer;
    let said: string | undefined;
    for (;;) {
      const status = task.status;
      if (typeof status !== 'string' || !STATUSES.has(status)) throw new Error(`the server reported task status ${boundInput(String(status), 40)}, not an MCP task status`);
      const message = typeof task.statusMessage === 'string' ? boundInput(task.statusMessage, MAX_STATUS_CHARS) : undefined;
      if (message !== undefined && message !== said) ctx.emit({ message });
      said = message;
      if (status === 'completed') return completedResult(task, name);
      ended = status === 'failed' || status === 'cancelled';
      if (ended) throw new Error(`the remote task of tool '${boundInput(name)}' ${status}${endDetail(task, message)}`);
      if (status === 'input_required' && isObject(task.inputRequests) && Object.keys(task.inputRequests).length > 0) {
        const inputResponses = await answered(task.inputRequests);
        await sendRawRequest(client, 'tasks/update', { taskId, inputResponses }, { ...perRequest, signal: ctx.signal });
      } else {
        if (Date.now() >= deadline) throw new Error(`the remote task of tool '${boundInput(name)}' did not end within its TTL`);
        await pause(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, numberOr(task.pollIntervalMs, 0))), ctx.signal);
      }
      task = await sendRawRequest(client, 'tasks/get', { taskId }, { ...perRequest, signal: ctx.signal });
      if (task.taskId !== taskId) throw new Error(`the server answered tasks/get for task ${boundInput(taskId, 40)} about another task; the call was given up`);
    }
  } catch (error) {
    // a task left behind by a broken answer is cancelled as on abort
    if (!ended && !ctx.signal.aborted) cancel();
    throw error;
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
  }
}

/** A complete answer's result as a `CallToolResult` (the `resultType` discriminator dropped). */
function withoutResultType(answer: Record<string, unknown>): CallToolResult {
  const { resultType: _resultType, ...result } = answer;
  return result as CallToolResult;
}

/** The inlined result of a completed task. */
function completedResult(task: Record<string, unknown>, name: string): CallToolResult {
  if (!isObject(task.result)) throw new Error(`the remote task of tool '${boundInput(name)}' completed without a result object`);
  return withoutResultType(task.result);
}

/** Why a task ended, from its error or status message (bounded). */
function endDetail(task: Record<string, unknown>, message: string | undefined): string {
  const error = isObject(task.error) && typeof task.error.message === 'string' ? boundInput(task.error.message, MAX_STATUS_CHARS) : message;
  return error !== undefined ? `: ${error}` : '';
}
