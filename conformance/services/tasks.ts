import { setTimeout as sleep } from 'node:timers/promises';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { AgentTool, ElicitationSchema, ToolCallContext, ToolHook } from '../../src';
import { withMcpOptions, type McpTaskSupport } from '../../src/mcp';

/**
 * The fixtures of the suite's `tasks-*` scenarios (the `io.modelcontextprotocol/tasks` extension):
 * `greet` runs synchronously; the others support tasks, so a 2026-07-28 client that declares the
 * extension gets a task for them.
 */

const noArgs = { type: 'object', properties: {} } as const;

function fixture(support: McpTaskSupport, tool: AgentTool): AgentTool {
  return withMcpOptions(tool, { taskSupport: support });
}

/** Asks the client through the call's `ClientRequests` (parked on the task under the extension). */
function ask(ctx: ToolCallContext, message: string, requestedSchema: ElicitationSchema) {
  if (ctx.client === undefined) throw new Error('this call cannot ask the client');
  return ctx.client.elicit({ message, requestedSchema });
}

const CONFIRM: ElicitationSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** The tools of the tasks scenarios. */
export const TASK_FIXTURES: readonly AgentTool[] = [
  fixture('forbidden', {
    name: 'greet',
    description: 'Greets by name, synchronously',
    parameters: { type: 'object', properties: { name: { type: 'string' } } },
    execute: (args) => `Hello, ${String(args.name ?? 'World')}!`,
  }),
  fixture('optional', {
    name: 'slow_compute',
    description: 'Sleeps `seconds` seconds, then answers',
    parameters: { type: 'object', properties: { seconds: { type: 'number' }, label: { type: 'string' } } },
    execute: async (args, ctx) => {
      await sleep(Number(args.seconds ?? 0) * 1000, undefined, { signal: ctx.signal });
      return `computed ${String(args.label ?? '')} after ${Number(args.seconds ?? 0)} s`;
    },
  }),
  fixture('required', {
    name: 'failing_job',
    description: 'Fails after about a second (a tool error)',
    parameters: noArgs,
    execute: async (_args, ctx) => {
      await sleep(1000, undefined, { signal: ctx.signal });
      throw new Error('the job failed on purpose');
    },
  }),
  // a tool error is `completed` with `isError`; a JSON-RPC error the tool throws (a protocol-level
  // fault) ends its task `failed` with that error
  fixture('optional', {
    name: 'protocol_error_job',
    description: 'Panics into a protocol error (JSON-RPC -32603)',
    parameters: noArgs,
    execute: () => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'the job panicked');
    },
  }),
  fixture('optional', {
    name: 'confirm_delete',
    description: 'Asks for a confirmation, then deletes (pretends to)',
    parameters: { type: 'object', properties: { filename: { type: 'string' } } },
    execute: async (args, ctx) => {
      const answer = await ask(ctx, `Delete ${String(args.filename ?? 'the file')}?`, CONFIRM);
      return answer.action === 'accept' && answer.content?.confirm === true ? `deleted ${String(args.filename ?? '')}` : 'kept';
    },
  }),
  fixture('optional', {
    name: 'multi_input',
    description: 'Asks two questions at once',
    parameters: noArgs,
    execute: async (_args, ctx) => {
      const [first, second] = await Promise.all([ask(ctx, 'First?', CONFIRM), ask(ctx, 'Second?', CONFIRM)]);
      return `answers: ${first.action}, ${second.action}`;
    },
  }),
  withMcpOptions(
    {
      name: 'test_tool_with_task',
      description: 'Greets the user a before-hook asked for, as a task',
      parameters: { type: 'object', properties: { user_name: { type: 'string' } } },
      execute: async (args, ctx) => {
        await sleep(100, undefined, { signal: ctx.signal });
        return `Hello, ${String(args.user_name ?? 'stranger')}! (from the task)`;
      },
    },
    // its before-hook's question is a Multi Round-Trip round before the task exists
    { taskSupport: 'required', askBeforeTask: true },
  ),
];

const NAME_FORM: ElicitationSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };

/**
 * `tasks-mrtr-composition`: a before-hook asks the user's name for `test_tool_with_task`. Under
 * the extension it is a Multi Round-Trip round before the task exists; the answer becomes the
 * tool's argument, and the task runs the tool with it.
 */
export const ASK_NAME_BEFORE_TASK: ToolHook = {
  name: 'ask-name-before-task',
  before: async (ctx) => {
    if (ctx.tool.name !== 'test_tool_with_task' || ctx.client === undefined) return undefined;
    const answer = await ctx.client.elicit<{ name: string }>({ message: 'What is your name?', requestedSchema: NAME_FORM }, { key: 'user_name' });
    return answer.action === 'accept' ? { action: 'rewrite', arguments: { ...ctx.arguments, user_name: answer.content?.name ?? '' } } : { action: 'deny', reason: 'no name given' };
  },
};
