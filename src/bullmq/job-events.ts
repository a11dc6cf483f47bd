import type { ToolResult } from '../model/tool-types';
import { isLogLevel } from '../model/tool-emitter';
import type { ToolCallContext } from '../model/agent-tool';
import { isPlainObject } from '../utils/plain-object';

/** @internal The custom queue event by which a worker relays an async tool's completion. */
export const ASYNC_EVENT = 'toolwright:async';

/** @internal The field of a job's hash holding its async tool's completion (the event only says it is there). */
export const ASYNC_FIELD = 'twAsync';

/** @internal Keeps a completion on its job, unless the job is gone from Redis (never makes a stray hash). */
export const KEEP_ON_JOB = "if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return 1 end return 0";

/** @internal The pub/sub channel on which callers cancel the jobs of a queue (its message: the job id). */
export function cancelChannel(prefix: string | undefined, queueName: string): string {
  return `${prefix ?? 'bull'}:${queueName}:toolwright:cancel`;
}

/** @internal The longest failure text of a job kept in a result. */
const MAX_REASON_CHARS = 2_000;

/** @internal What a worker reports through job progress: a progress report (`k: 'p'`) or a log message (`k: 'l'`). */
export type JobReport =
  | { readonly k: 'p'; readonly progress?: number; readonly total?: number; readonly message?: string }
  | { readonly k: 'l'; readonly level: string; readonly data: unknown; readonly logger?: string };

/** @internal Replays a worker's report on the caller's attempt (its `emit` / `log`); anything else is ignored. */
export function replayReport(report: unknown, attempt: ToolCallContext): void {
  if (!isPlainObject(report)) return;
  if (report.k === 'p') {
    const progress: { progress?: number; total?: number; message?: string } = {};
    if (typeof report.progress === 'number') progress.progress = report.progress;
    if (typeof report.total === 'number') progress.total = report.total;
    if (typeof report.message === 'string') progress.message = report.message;
    attempt.emit?.(progress);
  } else if (report.k === 'l' && typeof report.level === 'string' && isLogLevel(report.level)) {
    attempt.log?.(report.level, report.data, typeof report.logger === 'string' ? report.logger : undefined);
  }
}

/** @internal An error result (the code kept: the caller's pipeline passes it on as it is). */
export function errorToolResult(code: string, message: string): ToolResult {
  return { forLLM: message, silent: false, isError: true, async: false, error: { code, message } };
}

/** @internal A job's return value as a result: what a worker returned is a `ToolResult`; anything else is refused. */
export function resultOf(value: unknown, tool: string): ToolResult {
  const parsed = typeof value === 'string' ? safeParse(value) : value;
  if (isPlainObject(parsed) && typeof parsed.forLLM === 'string' && typeof parsed.isError === 'boolean') return parsed as unknown as ToolResult;
  return errorToolResult('EXECUTION_FAILED', `Tool '${tool}' failed: its worker returned something that is not a tool result.`);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** @internal The result of a job BullMQ failed (attempts used up, or stalled too often: the worker died). */
export function failedResult(reason: unknown, tool: string): ToolResult {
  const text = String(reason ?? 'unknown reason').slice(0, MAX_REASON_CHARS);
  if (/stalled more than allowable limit/i.test(text)) {
    return errorToolResult(
      'WORKER_LOST',
      `Tool '${tool}' did not finish: the workers running it stopped mid-call too many times. It may or may not have taken effect; check before calling it again.`,
    );
  }
  return errorToolResult('EXECUTION_FAILED', `Tool '${tool}' failed on its worker: ${text}`);
}
