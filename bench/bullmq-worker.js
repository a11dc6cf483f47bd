'use strict';
// A worker process of bullmq-bench.js: `node bullmq-worker.js <bare|toolwright> <queue> <concurrency>`.
// The tool sleeps 10 ms (an I/O-bound call). Prints "ready" once connected; SIGTERM closes it.
const { Worker } = require('bullmq');
const tw = require('../dist');
const { createToolWorker } = require('../dist/bullmq');

const [mode, queueName, concurrency] = process.argv.slice(2);
const connection = { host: '127.0.0.1', port: 6379 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let close;
if (mode === 'bare') {
  const worker = new Worker(queueName, async (job) => {
    await sleep(10);
    return { text: `done ${job.data.n}` };
  }, { connection: { ...connection, maxRetriesPerRequest: null }, concurrency: Number(concurrency) });
  close = () => worker.close();
  worker.waitUntilReady().then(() => process.stdout.write('ready\n'));
} else {
  const toolkit = new tw.Toolkit();
  toolkit.registerTool({
    name: 'io_call',
    description: 'Waits 10 ms, as an I/O-bound call',
    parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    execute: async (args) => {
      await sleep(10);
      return `done ${args.n}`;
    },
  });
  const worker = createToolWorker(toolkit, { connection, queueName, concurrency: Number(concurrency) });
  close = () => worker.close();
  worker.ready().then(() => process.stdout.write('ready\n'));
}
process.on('SIGTERM', () => close().then(() => process.exit(0)));
