'use strict';
// The cost of human approval with each store, on this machine's Redis and PostgreSQL:
// - latency: one call at a time: ms per hold (callTool → the held answer, the record written) and
//   per decision (approve → the store's atomic decide → the tool's run), median and p95;
// - throughput: held-and-approved calls per second with 50 in flight (one replica).
// "memory" is the default in-process manager, the baseline. Prefixes and schemas are unique and
// removed after.
const { Redis } = require('ioredis');
const { Pool } = require('pg');
const { ApprovalManager, Toolkit } = require('../dist');
const { redisApprovalStore } = require('../dist/redis');
const { postgresApprovalStore } = require('../dist/postgres');

const LATENCY_CALLS = Number(process.env.BENCH_LATENCY_CALLS ?? 300);
const THROUGHPUT_CALLS = Number(process.env.BENCH_THROUGHPUT_CALLS ?? 2000);
const IN_FLIGHT = 50;
const unique = `tw_bench_${process.pid}_${Date.now().toString(36)}`;

const tool = {
  name: 'pay',
  description: 'Pays',
  parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
  execute: (args) => `paid ${args.n}`,
};

function replica(store) {
  const toolkit = new Toolkit();
  toolkit.registerTool(tool);
  const approvals = new ApprovalManager({ tools: ['pay'], maxPending: 100_000, maxPendingPerSession: 100_000, ...(store ? { store } : {}) });
  toolkit.use(approvals.hook);
  return { toolkit, approvals };
}

let seq = 0;
async function holdAndDecide({ toolkit, approvals }, timings) {
  const id = `c${++seq}`;
  const t0 = process.hrtime.bigint();
  const held = await toolkit.callTool({ id, name: 'pay', arguments: { n: seq } });
  const t1 = process.hrtime.bigint();
  const result = await approvals.approve(held.data.approvalId);
  const t2 = process.hrtime.bigint();
  if (result.isError) throw new Error(result.forLLM);
  if (timings) {
    timings.hold.push(Number(t1 - t0) / 1e6);
    timings.decide.push(Number(t2 - t1) / 1e6);
  }
}

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const fmt = (ms) => ms.toFixed(2).padStart(7);

/** Counts the store's reads: whole-list reloads (and the rows they read) and single-record reads. */
function countReads(store) {
  const reads = { lists: 0, rows: 0, gets: 0 };
  if (!store) return reads;
  const { list, get } = store;
  store.list = async () => {
    const records = await list.call(store);
    reads.lists++;
    reads.rows += records.length;
    return records;
  };
  store.get = (id) => {
    reads.gets++;
    return get.call(store, id);
  };
  return reads;
}

async function measure(name, store) {
  const reads = countReads(store);
  const r = replica(store);
  for (let i = 0; i < 30; i++) await holdAndDecide(r); // warm-up (and the PostgreSQL tables)
  const timings = { hold: [], decide: [] };
  for (let i = 0; i < LATENCY_CALLS; i++) await holdAndDecide(r, timings);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < THROUGHPUT_CALLS) await holdAndDecide(r);
    }),
  );
  const perSecond = THROUGHPUT_CALLS / (Number(process.hrtime.bigint() - started) / 1e9);
  // the results kept for other replicas are written after approve() answered: let the last ones land
  await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(
    `${name.padEnd(10)} hold ms median ${fmt(quantile(timings.hold, 0.5))} p95 ${fmt(quantile(timings.hold, 0.95))} | ` +
      `decide+run ms median ${fmt(quantile(timings.decide, 0.5))} p95 ${fmt(quantile(timings.decide, 0.95))} | ${perSecond.toFixed(0).padStart(6)} approvals/s (${IN_FLIGHT} in flight)` +
      (store ? ` | store reads: ${reads.lists} list reloads (${reads.rows} rows), ${reads.gets} single reads` : ''),
  );
}

async function main() {
  console.log(`${LATENCY_CALLS} calls one at a time, then ${THROUGHPUT_CALLS} held and approved with ${IN_FLIGHT} in flight (one replica)`);
  await measure('memory', undefined);

  const redis = redisApprovalStore({ connection: { host: '127.0.0.1', port: 6379 }, prefix: unique });
  await measure('redis', redis);
  await redis.close();
  const cleaner = new Redis({ host: '127.0.0.1', port: 6379 });
  const keys = await cleaner.keys(`{${unique}}:*`);
  if (keys.length > 0) await cleaner.del(...keys);
  cleaner.disconnect();

  const pool = new Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 10 });
  const postgres = postgresApprovalStore({ pool, schema: unique });
  await measure('postgres', postgres);
  await postgres.close();
  await pool.query(`DROP SCHEMA IF EXISTS "${unique}" CASCADE`);
  await pool.end();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
