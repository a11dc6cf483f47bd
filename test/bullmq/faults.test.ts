import 'reflect-metadata';
import { Redis } from 'ioredis';
import { Toolkit } from '../../src';
import { createToolWorker, queueTools, type QueuedTools } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';
import { exited, freePort, WorkerProcesses } from './fixtures/processes';
import { ReportService, TRAVEL } from './fixtures/services';

jest.setTimeout(90_000);

const runsPrefix = uniqueQueue('fault-runs');
let redis: Redis;
const workers = new WorkerProcesses(runsPrefix);

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const runs = (what: string): Promise<string | null> => redis.get(`${runsPrefix}:${what}`);

function caller(queueName: string): { toolkit: Toolkit; routing: QueuedTools } {
  const toolkit = new Toolkit();
  toolkit.registerTool(ReportService);
  return { toolkit, routing: queueTools(toolkit, { connection: REDIS, queueName, groups: ['reports'], contexts: TRAVEL }) };
}

describe('queued calls survive worker faults (real Redis, real worker processes)', () => {
  beforeAll(async () => {
    await requireRedis();
    redis = new Redis(REDIS);
  });

  afterEach(() => workers.killAll());

  afterAll(async () => {
    await cleanRedis(`${runsPrefix}:*`);
    redis.disconnect();
  });

  it('a worker SIGKILLed mid-call: another worker completes the job and the caller gets its result', async () => {
    const queueName = uniqueQueue('kill');
    const { toolkit, routing } = caller(queueName);
    try {
      await Promise.all([workers.start(queueName), workers.start(queueName), routing.ready()]);
      const tag = `k-${queueName}`;
      const pending = toolkit.callTool({ id: 'k1', name: 'slow_job', arguments: { ms: 1_500, tag } });
      await waitFor(async () => (await runs(`pid:${tag}`)) !== null, 'the job to start');
      const victim = Number(await runs(`pid:${tag}`));
      process.kill(victim, 'SIGKILL');
      const result = await pending;
      expect(result.isError).toBe(false);
      expect(result.forLLM).toMatch(new RegExp(`^slept 1500 ms for ${tag} on \\d+$`));
      expect(result.forLLM).not.toContain(String(victim));
      expect(await runs(`start:${tag}`)).toBe('2');
      expect(await runs(`done:${tag}`)).toBe('1');
    } finally {
      await routing.close();
      await cleanRedis(`bull:${queueName}:*`);
    }
  });

  it('a worker stopped and restarted while calls are queued: none is lost, none runs twice', async () => {
    const queueName = uniqueQueue('restart');
    const { toolkit, routing } = caller(queueName);
    try {
      const first = await workers.start(queueName);
      await routing.ready();
      const tags = Array.from({ length: 12 }, (_, i) => `r${i}-${queueName}`);
      const pending = toolkit.callTools(tags.map((tag, i) => ({ id: `r${i}`, name: 'slow_job', arguments: { ms: 300, tag } })));
      await waitFor(async () => (await runs(`done:${tags[0]}`)) !== null, 'a first call to finish');
      first.kill('SIGTERM');
      await exited(first);
      await workers.start(queueName);
      const results = await pending;
      expect(results.map((r) => r.isError)).toEqual(tags.map(() => false));
      for (const tag of tags) expect(await runs(`done:${tag}`)).toBe('1');
    } finally {
      await routing.close();
      await cleanRedis(`bull:${queueName}:*`);
    }
  });

  it('a non-idempotent tool whose worker dies: WORKER_LOST, and no second run', async () => {
    const queueName = uniqueQueue('lost');
    const { toolkit, routing } = caller(queueName);
    try {
      await Promise.all([workers.start(queueName), workers.start(queueName), routing.ready()]);
      const tag = `c-${queueName}`;
      const pending = toolkit.callTool({ id: 'p1', name: 'charge_card', arguments: { tag, ms: 3_000 } });
      await waitFor(async () => (await runs(`pid:${tag}`)) !== null, 'the charge to start');
      process.kill(Number(await runs(`pid:${tag}`)), 'SIGKILL');
      const result = await pending;
      expect(result.error?.code).toBe('WORKER_LOST');
      expect(result.forLLM).toContain("Tool 'charge_card' did not finish: the worker running it stopped mid-call. The tool is not idempotent, so it was not run again");
      expect(await runs(`charge:${tag}`)).toBe('1');
    } finally {
      await routing.close();
      await cleanRedis(`bull:${queueName}:*`);
    }
  });

  it('Redis refusing connections: calls answer QUEUE_UNAVAILABLE within seconds, ready() rejects, close() does not hang', async () => {
    const port = await freePort();
    const toolkit = new Toolkit();
    toolkit.registerTool(ReportService);
    const connection = { host: '127.0.0.1', port };
    const routing = queueTools(toolkit, { connection, queueName: 'unreachable', tools: ['slow_job'], connectTimeoutMs: 1_000 });
    const started = Date.now();
    const result = await toolkit.callTool({ id: 'u1', name: 'slow_job', arguments: { ms: 1, tag: 'u' } });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.error?.code).toBe('QUEUE_UNAVAILABLE');
    expect(result.forLLM).toMatch(new RegExp(`Redis at 127\\.0\\.0\\.1:${port} is unreachable after 1000 ms: connect ECONNREFUSED`));
    await expect(routing.ready()).rejects.toThrow(/QUEUE_UNAVAILABLE|unreachable/);
    const worker = createToolWorker(new Toolkit(), { connection, queueName: 'unreachable', connectTimeoutMs: 500 });
    await expect(worker.ready()).rejects.toThrow(`createToolWorker('unreachable'): Redis at 127.0.0.1:${port} is unreachable after 500 ms`);
    const closing = Date.now();
    await Promise.all([routing.close(), worker.close()]);
    expect(Date.now() - closing).toBeLessThan(5_000);
  });
});
