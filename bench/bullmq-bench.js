'use strict';
// toolwright/bullmq against bare BullMQ, in the same run on this machine's Redis:
// - latency: one call at a time, a 10 ms I/O-bound tool, 1 worker: queueTools + callTool vs
//   queue.add → Worker → QueueEvents 'completed' (the bare BullMQ round trip);
// - throughput: calls/s with 1, 2 and 4 worker processes (concurrency 50 each, then 5 each, which
//   shows the growth with workers before the two cores are the limit), 400 calls in flight.
// "bare, kept" is bare BullMQ with the job options toolwright uses (finished jobs kept for the
// duplicate check, attempts and a custom backoff): the part of the difference that is BullMQ's.
// Worker processes are real child processes (bench/bullmq-worker.js); queues are unique and
// obliterated after.
const { spawn } = require('node:child_process');
const path = require('node:path');
const { Queue, QueueEvents } = require('bullmq');
const { Redis } = require('ioredis');
const tw = require('../dist');
const { queueTools } = require('../dist/bullmq');

const connection = { host: '127.0.0.1', port: 6379 };
const LATENCY_CALLS = Number(process.env.BENCH_LATENCY_CALLS ?? 300);
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 3000);
const IN_FLIGHT = 400;

function startWorkers(mode, queueName, count, concurrency) {
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, [path.join(__dirname, 'bullmq-worker.js'), mode, queueName, String(concurrency)], { stdio: ['ignore', 'pipe', 'inherit'] });
      return new Promise((resolve) => child.stdout.on('data', (d) => d.toString().includes('ready') && resolve(child)));
    }),
  );
}

async function stopWorkers(children) {
  await Promise.all(children.map((child) => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); })));
}

/** Runs `total` calls of `one(i)` with at most `inFlight` at once; resolves with the elapsed ms. */
async function drive(total, inFlight, one) {
  let next = 0;
  const started = process.hrtime.bigint();
  const lane = async () => {
    while (next < total) await one(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, lane));
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function bare(queueName, kept) {
  const options = kept ? { removeOnComplete: { age: 600 }, removeOnFail: { age: 600 }, attempts: 1, backoff: { type: 'toolwright' } } : { removeOnComplete: true };
  const queue = new Queue(queueName, { connection });
  // read the events from the stream's current end (a QueueEvents starting at '$' can miss the first ones)
  const client = new Redis(connection);
  const last = await client.xrevrange(queue.keys.events, '+', '-', 'COUNT', 1);
  client.disconnect();
  const events = new QueueEvents(queueName, { connection, lastEventId: last[0]?.[0] ?? '0-0' });
  await events.waitUntilReady();
  const waiting = new Map();
  events.on('completed', ({ jobId, returnvalue }) => { waiting.get(jobId)?.(returnvalue); waiting.delete(jobId); });
  let id = 0;
  const call = (n) => new Promise((resolve) => {
    const jobId = `b${++id}`;
    waiting.set(jobId, resolve);
    queue.add('io_call', { n }, { jobId, ...options }).catch(() => undefined);
  });
  return { call, close: async () => { await events.close(); await queue.obliterate({ force: true }); await queue.close(); } };
}

async function routed(queueName) {
  const toolkit = new tw.Toolkit();
  toolkit.registerTool({ name: 'io_call', description: 'Waits 10 ms', parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, execute: () => 'local' });
  const routing = queueTools(toolkit, { connection, queueName, tools: ['io_call'], keepResultsMs: 1000 });
  await routing.ready();
  let id = 0;
  const run = Date.now().toString(36);
  const call = async (n) => {
    const result = await toolkit.callTool({ id: `c${run}-${++id}`, name: 'io_call', arguments: { n } });
    if (result.isError) throw new Error(result.forLLM);
    return result;
  };
  const queue = new Queue(queueName, { connection });
  return { call, close: async () => { await routing.close(); await queue.obliterate({ force: true }); await queue.close(); } };
}

async function measure(mode, workers, concurrency) {
  const queueName = `tw-bench-${mode}-${workers}-${process.pid}-${Date.now()}`;
  const children = await startWorkers(mode === 'toolwright' ? 'toolwright' : 'bare', queueName, workers, concurrency);
  const side = mode === 'toolwright' ? await routed(queueName) : await bare(queueName, mode === 'kept');
  try {
    await drive(50, 10, side.call); // warm-up
    let latency;
    if (workers === 1 && concurrency === 50) latency = (await drive(LATENCY_CALLS, 1, side.call)) / LATENCY_CALLS;
    const ms = await drive(THROUGHPUT_CALLS, IN_FLIGHT, side.call);
    return { latency, perSecond: (THROUGHPUT_CALLS / ms) * 1000 };
  } finally {
    await side.close();
    await stopWorkers(children);
  }
}

(async () => {
  for (const concurrency of [50, 5]) {
    for (const workers of [1, 2, 4]) {
      const b = await measure('bare', workers, concurrency);
      const k = await measure('kept', workers, concurrency);
      const t = await measure('toolwright', workers, concurrency);
      if (b.latency !== undefined) {
        console.log(
          `latency, one call at a time, 1 worker: bare BullMQ ${b.latency.toFixed(2)} ms, bare kept ${k.latency.toFixed(2)} ms, ` +
            `toolwright ${t.latency.toFixed(2)} ms (${(t.latency / b.latency).toFixed(2)}× bare; ${(t.latency - b.latency).toFixed(2)} ms per call)`,
        );
      }
      console.log(
        `${workers} worker(s) × concurrency ${concurrency}, ${IN_FLIGHT} in flight: bare ${b.perSecond.toFixed(0)}, bare kept ${k.perSecond.toFixed(0)}, ` +
          `toolwright ${t.perSecond.toFixed(0)} calls/s (${(t.perSecond / b.perSecond).toFixed(2)}× bare, ${(t.perSecond / k.perSecond).toFixed(2)}× kept)`,
      );
    }
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
