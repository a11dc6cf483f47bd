import 'reflect-metadata';
import { Toolkit } from '../../../src';
import { createToolWorker } from '../../../src/bullmq';
import { ReportService, TRAVELLING } from './report.service';

/** One worker process: the same service, with the warehouse token bound here (never sent through Redis). */
const toolkit = new Toolkit();
toolkit.registration().tool(ReportService).presetParameters({ sales_report: { warehouseToken: () => process.env.WAREHOUSE_TOKEN ?? 'wh-demo-token-7Hq2' } }).apply();
const worker = createToolWorker(toolkit, {
  connection: { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) },
  queueName: process.env.QUEUE_NAME!,
  concurrency: 10,
  contexts: TRAVELLING,
  workerOptions: { lockDuration: 2_000, stalledInterval: 1_000 },
});
worker.ready().then(
  () => process.stdout.write(`ready ${process.pid}\n`),
  (error: unknown) => {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  },
);
process.on('SIGTERM', () => void worker.close().then(() => process.exit(0)));
