import type { Job, Worker } from 'bullmq';
import { loggedText, writeLog, type ToolwrightLogger } from '../model/logger';
import type { ToolResult } from '../model/tool-types';

/** The fields naming a job: its id and the tool it calls (the job's name), cut to a bounded length. */
function jobFields(queueName: string, job: Job | undefined): Record<string, unknown> {
  return { queueName, ...(job !== undefined ? { jobId: loggedText(String(job.id)), tool: loggedText(job.name) } : {}) };
}

/**
 * @internal Logs a tool worker's life: started (`info`, once connected), calls that ended in an
 * error result (`warn`, with the error code: `WORKER_LOST` when the worker running it died before),
 * jobs that BullMQ failed or found stalled (`warn`: their worker was lost), connection errors
 * (`error`) and the close (`info`). Never a job's arguments or result text.
 */
export function logWorker(worker: Worker, logger: ToolwrightLogger, queueName: string, concurrency: number): void {
  worker.on('ready', () => writeLog(logger, 'info', { event: 'worker_started', queueName, concurrency }, `tool worker started on queue ${queueName}`));
  worker.on('completed', (job: Job, result: ToolResult | undefined) => {
    if (result?.isError !== true) return;
    const code = result.error?.code ?? 'EXECUTION_FAILED';
    writeLog(logger, 'warn', { event: 'job_failed', ...jobFields(queueName, job), code }, `job of ${loggedText(job.name)} on queue ${queueName} failed: ${code}`);
  });
  worker.on('failed', (job: Job | undefined, error: Error) => {
    const retry = (error as { delayMs?: unknown }).delayMs;
    if (typeof retry === 'number') {
      // the tool's retry settings hand the next attempt to the queue: its text is the tool's error, not logged
      writeLog(logger, 'warn', { event: 'job_retried', ...jobFields(queueName, job), attemptsMade: job?.attemptsMade ?? 0, delayMs: retry }, `job on queue ${queueName} runs again in ${retry} ms`);
      return;
    }
    // BullMQ's own reasons (a job stalled too often, a lost lock)
    writeLog(logger, 'warn', { event: 'job_failed', ...jobFields(queueName, job), error: error.message.slice(0, 300) }, `job on queue ${queueName} failed: ${error.message.slice(0, 300)}`);
  });
  worker.on('stalled', (jobId: string) => {
    writeLog(logger, 'warn', { event: 'worker_lost', queueName, jobId: loggedText(jobId) }, `a worker of queue ${queueName} was lost mid-job; the job moves on to another worker`);
  });
  worker.on('error', (error: Error) => writeLog(logger, 'error', { event: 'worker_error', queueName, error: error.message.slice(0, 300) }, `tool worker of queue ${queueName}: ${error.message.slice(0, 300)}`));
  worker.on('closed', () => writeLog(logger, 'info', { event: 'worker_closed', queueName }, `tool worker of queue ${queueName} closed`));
}
