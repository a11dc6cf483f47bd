import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCallContext } from '../../model/agent-tool';
import { boundInput } from '../../utils/quote-input';
import type { McpImportSdk1Client } from './mcp-import-options';

/** The longest remote status message relayed as progress. */
const MAX_STATUS_CHARS = 300;

/**
 * @internal Why `client` cannot call a tool that its server runs only as an MCP task, or
 * `undefined` when it can: the client must have the SDK's task API and the server must declare
 * the tasks capability for `tools/call`.
 */
export function taskCallProblem(client: McpImportSdk1Client): string | undefined {
  if (typeof client.experimental?.tasks?.callToolStream !== 'function') {
    return "requires MCP tasks (execution.taskSupport 'required') and this MCP SDK client has no task API (client.experimental.tasks): update @modelcontextprotocol/sdk";
  }
  if (client.getServerCapabilities?.()?.tasks?.requests?.tools?.call === undefined) {
    return "requires MCP tasks (execution.taskSupport 'required') but the server does not declare the tasks capability for tools/call";
  }
  return undefined;
}

/**
 * @internal Calls remote tool `name` as an MCP task (`tools/call` with `task`, then `tasks/get`
 * at the server's poll interval and `tasks/result`) through the SDK client's task API. The call's
 * progress notifications and each new status message become `ctx.emit` progress; the call's
 * signal (timeout, abort) stops waiting and cancels the task (`tasks/cancel`).
 *
 * @example
 * const result = await callAsTask(client, 'simulate-research-query', { topic: 'tides' }, ctx, undefined);
 */
export async function callAsTask(
  client: McpImportSdk1Client,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolCallContext,
  timeout: number | undefined,
): Promise<CallToolResult> {
  const tasks = client.experimental?.tasks;
  if (tasks === undefined) throw new Error(`tool '${name}' runs only as an MCP task, and the MCP client no longer has a task API`);
  let taskId: string | undefined;
  let status = '';
  let statusMessage: string | undefined;
  const cancel = (): void => {
    if (taskId !== undefined) tasks.cancelTask(taskId).catch(() => undefined);
  };
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    const stream = tasks.callToolStream({ name, arguments: args }, undefined, {
      signal: ctx.signal,
      task: {},
      onprogress: (p) => ctx.emit({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
      resetTimeoutOnProgress: true,
      ...(timeout !== undefined ? { timeout } : {}),
    });
    for await (const message of stream) {
      if (message.type === 'taskCreated') {
        taskId = message.task.taskId;
        if (ctx.signal.aborted) cancel();
      } else if (message.type === 'taskStatus') {
        status = message.task.status;
        const next = message.task.statusMessage;
        if (next !== undefined && next !== statusMessage) ctx.emit({ message: boundInput(next, MAX_STATUS_CHARS) });
        statusMessage = next;
      } else if (message.type === 'result') {
        return message.result as CallToolResult;
      } else {
        const detail = status === 'failed' && statusMessage !== undefined ? `: ${boundInput(statusMessage, MAX_STATUS_CHARS)}` : '';
        throw new Error(`${message.error.message}${detail}`);
      }
    }
    throw new Error(`the remote task of tool '${name}' ended without a result`);
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
  }
}
