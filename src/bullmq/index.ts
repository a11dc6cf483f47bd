/**
 * `toolwright/bullmq`: run chosen tools of a toolkit on a fleet of workers through BullMQ.
 *
 * @example
 * // caller
 * const routing = queueTools(toolkit, { connection, queueName: 'reports', groups: ['reports'] });
 * // each worker process
 * const worker = createToolWorker(workerToolkit, { connection, queueName: 'reports', concurrency: 50 });
 *
 * @packageDocumentation
 */
import './require-bullmq';

export { queueTools, type QueueToolsOptions, type QueuedTools } from './queue-tools';
export { createToolWorker, type ToolWorkerOptions, type ToolWorker } from './tool-worker';
export type { TravellingContexts } from './job-data';
export type { QueueConnection } from './redis-link';
