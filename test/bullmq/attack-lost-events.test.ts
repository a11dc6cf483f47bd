import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { Toolkit, type ToolResult } from '../../src';
import { queueTools, type QueuedTools } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';
import { WorkerProcesses, within } from './fixtures/processes';
import { ReportService, TRAVEL } from './fixtures/services';

jest.setTimeout(60_000);

const runsPrefix = uniqueQueue('lost-event-runs');
let redis: Redis;
const workers = new WorkerProcesses(runsPrefix);

/** Runs redis-cli synchronously: this process's event loop (and so its event reader) stands still meanwhile. */
function cli(...args: string[]): string {
  return execFileSync('redis-cli', ['-h', REDIS.host, '-p', String(REDIS.port), ...args], { encoding: 'utf8' });
}

async function started(tag: string): Promise<void> {
  for (let i = 0; i < 400 && (await redis.get(`${runsPrefix}:start:${tag}`)) === null; i++) await new Promise((r) => setTimeout(r, 25));
}

describe('attack: the event that answers a call never reaches the caller (no timeout set)', () => {
  let queueName: string;
  let toolkit: Toolkit;
  let routing: QueuedTools;

  beforeAll(async () => {
    await requireRedis();
    redis = new Redis(REDIS);
  });

  beforeEach(async () => {
    queueName = uniqueQueue('lost-event');
    toolkit = new Toolkit();
    toolkit.registerTool(ReportService);
    routing = queueTools(toolkit, { connection: REDIS, queueName, groups: ['reports'], contexts: TRAVEL });
    await Promise.all([workers.start(queueName), routing.ready()]);
  });

  afterEach(async () => {
    await workers.killAll();
    await routing.close();
    await cleanRedis(`bull:${queueName}:*`);
  });

  afterAll(async () => {
    await cleanRedis(`${runsPrefix}:*`);
    redis.disconnect();
  });

  it('its completion trimmed from a busy event stream before the caller read it: the caller still gets the result', async () => {
    const tag = `trim-${queueName}`;
    const pending = toolkit.callTool({ id: 'e1', name: 'slow_job', arguments: { ms: 500, tag } });
    await started(tag);
    // blocked from here: an event answers the reader's pending read, the job completes, the stream is trimmed
    cli('XADD', `bull:${queueName}:events`, '*', 'event', 'noise');
    execFileSync('sleep', ['1.5']);
    cli('XTRIM', `bull:${queueName}:events`, 'MAXLEN', '0');
    const result: ToolResult = await within(12_000, 'the answer', pending);
    expect(result.forLLM).toMatch(new RegExp(`^slept 500 ms for ${tag} on \\d+$`));
  });

  it('its job vanished from Redis (flushed, or a Redis restarted without its data): QUEUE_UNAVAILABLE, no hang', async () => {
    const tag = `gone-${queueName}`;
    const pending = toolkit.callTool({ id: 'e2', name: 'slow_job', arguments: { ms: 3_000, tag } });
    await started(tag);
    for (const key of cli('--scan', '--pattern', `bull:${queueName}:*`).split('\n').filter(Boolean)) cli('DEL', key);
    const result: ToolResult = await within(12_000, 'the answer', pending);
    expect(result.error?.code).toBe('QUEUE_UNAVAILABLE');
    expect(result.forLLM).toContain('may or may not have run');
  });
});
