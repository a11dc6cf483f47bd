import { Toolkit, type AgentTool } from '../../src';
import { createToolWorker, queueTools } from '../../src/bullmq';
import { eventually } from '../support/mcp';
import { PINO_LEVEL, pinoLogger } from '../support/loggers';
import { cleanRedis, REDIS, requireRedis, startRedis, uniqueQueue } from '../support/redis';
import { freePort } from '../bullmq/fixtures/processes';

jest.setTimeout(30_000);

const NO_ARGS = { type: 'object', properties: {} } as const;

/** `ok` works, `flaky` fails its first attempt (the queue retries it), `broken` always throws a text holding its `key`. */
function tools(): AgentTool[] {
  let flakyRuns = 0;
  return [
    { name: 'ok', description: 'Works', parameters: NO_ARGS, behaviour: { group: 'remote' }, execute: () => 'fine' },
    {
      name: 'flaky',
      description: 'Fails once',
      parameters: NO_ARGS,
      behaviour: { group: 'remote', retry: { maxAttempts: 2, initialBackoffMs: 1 } },
      execute: () => {
        if (flakyRuns++ === 0) throw new Error('first attempt fails');
        return 'second attempt works';
      },
    },
    {
      name: 'broken',
      description: 'Always throws',
      parameters: { type: 'object', properties: { key: { type: 'string' } } },
      behaviour: { group: 'remote' },
      execute: (args) => {
        throw new Error(`upstream refused key ${String(args.key)} (${encodeURIComponent(String(args.key))})`);
      },
    },
  ];
}

describe('createToolWorker({ logger }) (real Redis)', () => {
  beforeAll(requireRedis);

  it('logs started, failed jobs with their code, retries and the close; never arguments, results or presets', async () => {
    const secret = 'sk-worker-secret-77aa88bb';
    const queueName = uniqueQueue('worker-logger');
    const { logger, lines, text } = pinoLogger('debug');
    const caller = new Toolkit();
    for (const tool of tools()) caller.registerTool(tool);
    const workerKit = new Toolkit();
    for (const tool of tools()) workerKit.registerTool(tool, tool.name === 'broken' ? { presets: { broken: { key: secret } } } : {});
    const routing = queueTools(caller, { connection: REDIS, queueName, groups: ['remote'] });
    const worker = createToolWorker(workerKit, { connection: REDIS, queueName, logger });
    try {
      await Promise.all([routing.ready(), worker.ready()]);
      await eventually(() => lines().some((line) => line.event === 'worker_started'));
      expect((await caller.callTool({ id: 'w1', name: 'ok', arguments: {} })).forLLM).toBe('fine');
      expect((await caller.callTool({ id: 'w2', name: 'flaky', arguments: {} })).forLLM).toBe('second attempt works');
      expect((await caller.callTool({ id: 'w3', name: 'broken', arguments: {} })).error?.code).toBe('EXECUTION_FAILED');
      await eventually(() => lines().some((line) => line.event === 'job_failed'));
    } finally {
      await Promise.all([routing.close(), worker.close()]);
      await cleanRedis(`bull:${queueName}:*`);
    }
    await eventually(() => lines().some((line) => line.event === 'worker_closed'));
    expect(lines()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: PINO_LEVEL.info, event: 'worker_started', queueName, concurrency: 1 }),
        expect.objectContaining({ level: PINO_LEVEL.warn, event: 'job_retried', queueName, tool: 'flaky', delayMs: expect.any(Number) }),
        expect.objectContaining({ level: PINO_LEVEL.warn, event: 'job_failed', queueName, tool: 'broken', code: 'EXECUTION_FAILED', jobId: expect.any(String) }),
        expect.objectContaining({ level: PINO_LEVEL.info, event: 'worker_closed', queueName }),
      ]),
    );
    expect(lines().filter((line) => line.tool === 'ok')).toEqual([]);
    expect(text()).not.toMatch(/fine|second attempt|first attempt|upstream|sk-worker|sk-work/);
  });

  it('queueTools({ logger }) logs its routes, and the queue and the worker log a lost Redis', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const connection = { host: '127.0.0.1', port };
    const queueName = uniqueQueue('lost-redis');
    const { logger, lines } = pinoLogger('debug');
    const caller = new Toolkit();
    for (const tool of tools()) caller.registerTool(tool);
    const routing = queueTools(caller, { connection, queueName, tools: ['ok'], connectTimeoutMs: 500, logger });
    const worker = createToolWorker(new Toolkit(), { connection, queueName, tools: [], connectTimeoutMs: 500, closeTimeoutMs: 500, logger });
    try {
      await Promise.all([routing.ready(), worker.ready()]);
      expect(lines()).toContainEqual(expect.objectContaining({ level: PINO_LEVEL.info, event: 'queue_routed', queueName, tools: ['ok'] }));
      await new Promise<void>((resolve) => {
        redis.once('exit', () => resolve());
        redis.kill('SIGKILL');
      });
      await eventually(() => lines().some((line) => line.event === 'queue_lost') && lines().some((line) => line.event === 'worker_error'), 10_000);
      expect(lines()).toContainEqual(
        expect.objectContaining({ level: PINO_LEVEL.error, event: 'queue_lost', queueName, error: expect.stringContaining(`the connection to Redis at 127.0.0.1:${port} was lost`) }),
      );
      expect(lines()).toContainEqual(expect.objectContaining({ level: PINO_LEVEL.error, event: 'worker_error', queueName }));
    } finally {
      if (redis.exitCode === null && redis.signalCode === null) redis.kill('SIGKILL');
      await Promise.all([routing.close(), worker.close()]);
    }
  });
});
