import 'reflect-metadata';
import { Worker } from 'bullmq';
import { Toolkit, ToolExecutionContext } from '../../src';
import { queueTools, type QueuedTools } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';
import { ReportService, TRAVEL, UserContext } from './fixtures/services';

jest.setTimeout(60_000);

/**
 * Jobs that BullMQ itself fails, which no toolwright worker answers: the caller turns the job's
 * failure into a bounded error result. The workers here are plain BullMQ workers on the queue (what
 * someone may run on it by mistake), so the failures are real ones, written to Redis by BullMQ.
 */
describe('a queued call whose job BullMQ fails', () => {
  let queueName: string;
  let caller: Toolkit;
  let routing: QueuedTools;
  const context = ToolExecutionContext.of(new UserContext('ada', 'acme'));

  beforeAll(requireRedis);

  beforeEach(async () => {
    queueName = uniqueQueue('failed');
    caller = new Toolkit();
    caller.registerTool(ReportService);
    routing = queueTools(caller, { connection: REDIS, queueName, groups: ['reports'], contexts: TRAVEL });
    await routing.ready();
  });

  afterEach(async () => {
    await routing.close();
    await cleanRedis(`bull:${queueName}:*`);
  });

  it('failed by its worker: EXECUTION_FAILED with the reason, cut to a bounded length', async () => {
    const reason = `no toolwright here ${'r'.repeat(5_000)}`;
    const foreign = new Worker(
      queueName,
      async () => {
        throw new Error(reason);
      },
      { connection: REDIS },
    );
    try {
      const result = await caller.callTool({ id: 'f1', name: 'build_report', arguments: { month: '2026-10' } }, { context });
      expect(result.error?.code).toBe('EXECUTION_FAILED');
      expect(result.forLLM.startsWith("Tool 'build_report' failed on its worker: no toolwright here rrr")).toBe(true);
      expect(result.forLLM.length).toBeLessThan(2_100);
      expect(result.forLLM.length).toBeLessThan(reason.length);
    } finally {
      await foreign.close();
    }
  });

  it('stalled more often than the workers allow (each died mid-call): WORKER_LOST, saying it may or may not have run', async () => {
    let taken = 0;
    // a worker that takes the job and then neither renews its lock nor finishes, as if it died (it
    // may take the job again after a stall, until BullMQ fails it for stalling too often)
    const dying = new Worker(
      queueName,
      () => {
        taken++;
        return new Promise<never>(() => undefined);
      },
      { connection: REDIS, concurrency: 5, lockDuration: 300, stalledInterval: 200, maxStalledCount: 0, skipLockRenewal: true },
    );
    try {
      const result = await caller.callTool({ id: 'f2', name: 'build_report', arguments: { month: '2026-10' } }, { context });
      expect(result.error?.code).toBe('WORKER_LOST');
      expect(result.forLLM).toBe(
        "Tool 'build_report' did not finish: the workers running it stopped mid-call too many times. It may or may not have taken effect; check before calling it again.",
      );
      expect(taken).toBeGreaterThanOrEqual(1);
    } finally {
      await dying.close(true);
    }
  });
});
