import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { Toolkit, type ToolResult } from '../../src';
import { createToolWorker, queueTools } from '../../src/bullmq';
import { startRedis, uniqueQueue } from '../support/redis';
import { freePort, within } from './fixtures/processes';
import { HOSTILE_PRESETS, HostileService, RUNS } from './fixtures/hostile';

jest.setTimeout(60_000);

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('attack: the queue Redis goes away mid-call (a Redis of the test own, killed)', () => {
  let redis: ChildProcess | undefined;

  afterEach(async () => {
    if (redis !== undefined) await stop(redis);
  });

  it('a call in flight and a call made while Redis is down answer QUEUE_UNAVAILABLE within seconds (no timeout set); close() returns', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const connection = { host: '127.0.0.1', port };
    const queueName = uniqueQueue('redis-loss');
    const caller = new Toolkit();
    caller.registerTool(HostileService);
    const routing = queueTools(caller, { connection, queueName, tools: ['hang', 'big_result'], connectTimeoutMs: 1_500 });
    const workerKit = new Toolkit();
    workerKit.registration().tool(HostileService).presetParameters(HOSTILE_PRESETS).apply();
    const worker = createToolWorker(workerKit, { connection, queueName, tools: ['hang', 'big_result'], connectTimeoutMs: 1_500, closeTimeoutMs: 1_000 });
    await Promise.all([routing.ready(), worker.ready()]);
    const tag = `loss-${queueName}`;
    const inFlight = caller.callTool({ id: 'r1', name: 'hang', arguments: { tag } });
    for (let i = 0; i < 200 && RUNS.get(tag) !== 1; i++) await new Promise((r) => setTimeout(r, 25));
    expect(RUNS.get(tag)).toBe(1);
    const lostAt = Date.now();
    await stop(redis);
    const lost: ToolResult = await within(15_000, 'the call in flight', inFlight);
    expect(lost.error?.code).toBe('QUEUE_UNAVAILABLE');
    expect(lost.forLLM).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - lostAt).toBeLessThan(12_000);
    const startedAt = Date.now();
    const down = await within(15_000, 'a call while Redis is down', caller.callTool({ id: 'r2', name: 'big_result', arguments: { n: 3 } }));
    expect(down.error?.code).toBe('QUEUE_UNAVAILABLE');
    expect(Date.now() - startedAt).toBeLessThan(12_000);
    await within(15_000, 'close()', Promise.all([routing.close(), worker.close()]));
  });

  it('Redis back on the same address: the next calls run again', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const connection = { host: '127.0.0.1', port };
    const queueName = uniqueQueue('redis-back');
    const caller = new Toolkit();
    caller.registerTool(HostileService);
    const routing = queueTools(caller, { connection, queueName, tools: ['hang', 'big_result'], connectTimeoutMs: 3_000 });
    const workerKit = new Toolkit();
    workerKit.registration().tool(HostileService).presetParameters(HOSTILE_PRESETS).apply();
    const worker = createToolWorker(workerKit, { connection, queueName, tools: ['hang', 'big_result'], connectTimeoutMs: 3_000, closeTimeoutMs: 1_000 });
    try {
      await Promise.all([routing.ready(), worker.ready()]);
      expect((await caller.callTool({ id: 'b1', name: 'big_result', arguments: { n: 2 } })).forLLM).toBe('xx');
      await stop(redis);
      redis = await startRedis(port);
      let result: ToolResult | undefined;
      for (let i = 0; i < 20 && result?.forLLM !== 'xxx'; i++) {
        result = await within(15_000, 'a call after Redis came back', caller.callTool({ id: `b2-${i}`, name: 'big_result', arguments: { n: 3 } }, { signal: AbortSignal.timeout(5_000) }));
      }
      expect(result?.forLLM).toBe('xxx');
    } finally {
      await within(15_000, 'close()', Promise.all([routing.close(), worker.close()]));
    }
  });
});
