import 'reflect-metadata';
import { Redis } from 'ioredis';
import { Toolkit, type ToolEvent, type ToolResult } from '../../src';
import { createToolWorker, queueTools, type QueuedTools, type ToolWorker } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';
import { startMonitor } from './fixtures/monitor';
import { CREDS, HOSTILE_PRESETS, HostileService, KEY, PIN } from './fixtures/hostile';

jest.setTimeout(60_000);

/** Every form of every preset value an attacker would look for. */
const FORMS = [KEY, JSON.stringify(KEY).slice(1, -1), JSON.stringify(JSON.stringify(KEY)).slice(2, -2), encodeURIComponent(KEY), KEY.slice(0, 10), '1f2e\\3d4c', String(PIN), CREDS.password, encodeURIComponent(CREDS.password), CREDS.password.slice(0, 9)];

function leaks(text: string): string[] {
  return FORMS.filter((form) => text.includes(form));
}

async function dump(redis: Redis, pattern: string): Promise<string> {
  const out: unknown[] = [];
  for (const key of await redis.keys(pattern)) {
    const type = await redis.type(key);
    out.push(
      type === 'hash' ? await redis.hgetall(key)
      : type === 'list' ? await redis.lrange(key, 0, -1)
      : type === 'zset' ? await redis.zrange(key, 0, -1)
      : type === 'set' ? await redis.smembers(key)
      : type === 'stream' ? await redis.xrange(key, '-', '+')
      : await redis.get(key),
    );
  }
  return JSON.stringify(out);
}

describe('attack: getting a preset out of a queued tool, in any form', () => {
  const queueName = uniqueQueue('attack-secrets');
  let caller: Toolkit;
  let routing: QueuedTools;
  let worker: ToolWorker;

  beforeAll(async () => {
    await requireRedis();
    caller = new Toolkit();
    caller.registerTool(HostileService);
    routing = queueTools(caller, { connection: REDIS, queueName, groups: ['hostile'] });
    const workerKit = new Toolkit();
    workerKit.registration().tool(HostileService).presetParameters(HOSTILE_PRESETS).apply();
    worker = createToolWorker(workerKit, { connection: REDIS, queueName, concurrency: 8 });
    await Promise.all([routing.ready(), worker.ready()]);
  });

  afterAll(async () => {
    await Promise.all([routing.close(), worker.close()]);
    await cleanRedis(`bull:${queueName}:*`);
  });

  it('thrown objects, progress, logs, async completions, stacks and causes of retried errors, number and object presets: never in Redis, results, events or callbacks', async () => {
    const monitor = await startMonitor(REDIS.host, REDIS.port);
    const sent = monitor.lines;
    const events: ToolEvent[] = [];
    const seen: unknown[] = [];
    const subscription = caller.events$.subscribe((e) => events.push(e));
    let results: ToolResult[];
    let completed: ToolResult;
    try {
      const later = new Promise<ToolResult>((resolve) => {
        void caller.callTools(
          ['throw_object', 'progress_key', 'async_key', 'stack_key', 'pin_code', 'creds_dump'].map((name, i) => ({ id: `x${i}`, name, arguments: {} })),
          { onProgress: (p) => seen.push(p), onLog: (l) => seen.push(l), onAsyncComplete: resolve },
        ).then((r) => (results = r));
      });
      completed = await later;
      while (results! === undefined) await new Promise((r) => setTimeout(r, 20));
      // let the last writes (retention, events) land before reading them back
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      subscription.unsubscribe();
    }
    expect(results.map((r) => r.isError)).toEqual([true, false, false, true, false, false]);
    expect(results[0].forLLM).toContain('denied');
    expect(results[3].forLLM).toContain('upstream refused');
    expect(results[4].forLLM).toContain('pin');
    expect(results[5].forLLM).toContain('"password":"[REDACTED]"');
    expect(completed.forLLM).toContain('ready');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(sent.filter((command) => command.includes(queueName)).length).toBeGreaterThan(20);
    expect(leaks(JSON.stringify(results))).toEqual([]);
    expect(leaks(JSON.stringify(completed))).toEqual([]);
    expect(leaks(JSON.stringify(events))).toEqual([]);
    expect(leaks(JSON.stringify(seen))).toEqual([]);
    // the monitor itself sees a key written in the clear (a control outside the queue's keys)
    const control = new Redis(REDIS);
    try {
      await control.set(`tw-control-${queueName}`, KEY, 'PX', 1_000);
      for (let i = 0; i < 100 && !sent.some((command) => command.includes(`tw-control-${queueName}`)); i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      control.disconnect();
    }
    expect(sent.find((command) => command.includes(`tw-control-${queueName}`))).toContain(KEY);
    expect(sent.filter((command) => !command.includes(`tw-control-${queueName}`) && leaks(command).length > 0)).toEqual([]);
    monitor.stop();
    const redis = new Redis(REDIS);
    try {
      const stored = await dump(redis, `bull:${queueName}:*`);
      expect(stored).toContain('upstream refused');
      expect(leaks(stored)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
