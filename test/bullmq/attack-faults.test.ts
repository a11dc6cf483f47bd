import 'reflect-metadata';
import { Redis } from 'ioredis';
import { Toolkit, ToolExecutionContext, type ToolResult } from '../../src';
import { createToolWorker, queueTools, type QueuedTools, type ToolWorker } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue, parserSettled } from '../support/redis';
import { HOSTILE_PRESETS, HostileService, RUNS } from './fixtures/hostile';
import { delayedAnswer } from './fixtures/queue';
import { closeServices, ReportService, SECRET, TRAVEL, UserContext } from './fixtures/services';

jest.setTimeout(60_000);

const runsPrefix = uniqueQueue('attack-runs');
process.env.TW_RUNS = runsPrefix;

function callerToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registerTool(ReportService);
  toolkit.registerTool(HostileService);
  return toolkit;
}

function workerToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registration().tool(ReportService).presetParameters({ build_report: { apiKey: SECRET }, leak_key: { apiKey: SECRET }, reject_key: { apiKey: SECRET } }).apply();
  toolkit.registration().tool(HostileService).presetParameters(HOSTILE_PRESETS).apply();
  return toolkit;
}

const SERVED = ['build_report', 'export_later', 'async_now', 'hang', 'always_fails', 'big_result'];

describe('attack: callers, callbacks and tools that misbehave around a queue (worker of concurrency 1)', () => {
  const queueName = uniqueQueue('attack-faults');
  let caller: Toolkit;
  let routing: QueuedTools;
  let worker: ToolWorker;

  beforeAll(async () => {
    await requireRedis();
    caller = callerToolkit();
    routing = queueTools(caller, { connection: REDIS, queueName, tools: SERVED, contexts: TRAVEL });
    worker = createToolWorker(workerToolkit(), { connection: REDIS, queueName, concurrency: 1, contexts: TRAVEL, tools: SERVED });
    await Promise.all([routing.ready(), worker.ready()]);
  });

  afterAll(async () => {
    await Promise.all([routing.close(), worker.close()]);
    closeServices();
    await cleanRedis(`bull:${queueName}:*`, `${runsPrefix}:*`);
  });

  it('the same call id for two users at once: two jobs, each user gets the own result', async () => {
    const call = { id: 'same-id', name: 'build_report', arguments: { month: '2026-10' } };
    const [ada, bob] = await Promise.all([
      caller.callTool(call, { context: ToolExecutionContext.of(new UserContext('ada', 'acme')) }),
      caller.callTool(call, { context: ToolExecutionContext.of(new UserContext('bob', 'acme')) }),
    ]);
    expect(ada.forLLM).toMatch(/^report 2026-10 for ada@acme/);
    expect(bob.forLLM).toMatch(/^report 2026-10 for bob@acme/);
  });

  it('throwing onProgress, onLog, onAsyncComplete and events$ subscribers: the calls still answer, later calls still work', async () => {
    const failures: string[] = [];
    const subscription = caller.events$.subscribe((event) => {
      if (event.type === 'callback_failed') failures.push(event.source);
      else throw new Error('subscriber down');
    });
    try {
      const context = ToolExecutionContext.of(new UserContext('ada', 'acme'));
      const thrower = (): never => {
        throw new Error('callback down');
      };
      const result = await caller.callTool({ id: 'cb1', name: 'build_report', arguments: { month: '2026-09' } }, { context, onProgress: thrower, onLog: thrower });
      expect(result.forLLM).toMatch(/^report 2026-09 for ada@acme/);
      let thrown = false;
      const started = await caller.callTool({ id: 'cb2', name: 'export_later', arguments: { table: 't' } }, {
        onAsyncComplete: () => {
          thrown = true;
          throw new Error('completion callback down');
        },
      });
      expect(started.async).toBe(true);
      for (let i = 0; i < 200 && !thrown; i++) await new Promise((r) => setTimeout(r, 25));
      expect(thrown).toBe(true);
      const after = await caller.callTool({ id: 'cb3', name: 'build_report', arguments: { month: '2026-08' } }, { context });
      expect(after.forLLM).toMatch(/^report 2026-08 for ada@acme/);
      expect(failures).toEqual(expect.arrayContaining(['onProgress', 'onLog', 'onAsyncComplete', 'events$']));
    } finally {
      subscription.unsubscribe();
    }
  });

  it('an async tool that completes before it answers: the caller still gets the completion', async () => {
    const later = new Promise<ToolResult>((resolve) => {
      void caller.callTool({ id: 'an1', name: 'async_now', arguments: { tag: 'early' } }, { onAsyncComplete: resolve }).then((now) => expect(now.forLLM).toBe('early started'));
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const completion = await Promise.race([later, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 10_000)))]);
    clearTimeout(timer);
    expect(completion?.forLLM).toBe('early ready');
    expect(completion?.toolCallId).toBe('an1');
  });

  it('a tool that never settles and ignores its signal: the caller abort frees the worker slot (concurrency 1) for the next call', async () => {
    const tag = `hang-${queueName}`;
    const started = Date.now();
    const hung = await caller.callTool({ id: 'h1', name: 'hang', arguments: { tag } }, { signal: AbortSignal.timeout(700) });
    expect(hung.error?.code).toBe('ABORTED');
    expect(Date.now() - started).toBeLessThan(8_000);
    const next = await caller.callTool({ id: 'h2', name: 'big_result', arguments: { n: 4 } }, { signal: AbortSignal.timeout(15_000) });
    expect(next.forLLM).toBe('xxxx');
    expect(RUNS.get(tag)).toBe(1);
  });

  it('the caller timeout beats the queue backoff: TIMEOUT at the deadline, and the retry queued for later never runs', async () => {
    const tag = `backoff-${queueName}`;
    const started = Date.now();
    const result = await caller.callTool({ id: 'bo1', name: 'always_fails', arguments: { tag } });
    expect(result.error?.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(RUNS.get(tag)).toBe(1);
    // a barrier due after the retry would be (2 s backoff): the worker of concurrency 1 runs the retry, if any, first
    const barrier = await delayedAnswer(queueName, { v: 1, tool: 'big_result', callId: 'barrier', args: { n: 3 } }, 2_500);
    expect(barrier.answer.forLLM).toBe('xxx');
    expect(RUNS.get(tag)).toBe(1);
    // and no retry is left for later either
    expect(barrier.pending).toBe(0);
  });

  it('a flood of cancel messages (junk and 1 MB ids) neither grows the worker memory nor stops it', async () => {
    const v8 = await import('node:v8');
    const vm = await import('node:vm');
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    // the worker's one slot is held by a call that ignores its signal: only a cancel frees it
    const tag = `flood-${queueName}`;
    const controller = new AbortController();
    const hung = caller.callTool({ id: 'fl0', name: 'hang', arguments: { tag } }, { signal: controller.signal });
    for (let i = 0; i < 400 && RUNS.get(tag) === undefined; i++) await new Promise((r) => setTimeout(r, 25));
    expect(RUNS.get(tag)).toBe(1);
    const publisher = new Redis(REDIS);
    try {
      gc();
      const before = process.memoryUsage().heapUsed;
      const junk = 'j'.repeat(1_000_000);
      for (let i = 0; i < 150; i++) await publisher.publish(`bull:${queueName}:toolwright:cancel`, `${junk}${i}`);
      // the caller's cancel of the held call is published after the flood, on the same channel: once
      // the worker acted on it (the next call gets the slot), it had read every junk message before it
      controller.abort();
      expect((await hung).error?.code).toBe('ABORTED');
      const still = await caller.callTool({ id: 'fl1', name: 'big_result', arguments: { n: 2 } }, { signal: AbortSignal.timeout(15_000) });
      expect(still.forLLM).toBe('xx');
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      expect(grown).toBeLessThan(60_000_000);
    } finally {
      publisher.disconnect();
    }
  });
});

describe('attack: options that would have left a connection open or a worker that takes no job', () => {
  it('createToolWorker refuses a concurrency that is not a whole number ≥ 1 before it opens any connection', () => {
    for (const concurrency of [Number.NaN, 0, -3, 1.5, Number.POSITIVE_INFINITY]) {
      expect(() => createToolWorker(workerToolkit(), { connection: REDIS, queueName: 'never-used', concurrency, tools: ['build_report'] })).toThrow(/concurrency must be a whole number/);
    }
  });

  it('keepResultsMs that is not a non-negative number is refused', () => {
    for (const keepResultsMs of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(() => queueTools(callerToolkit(), { connection: REDIS, queueName: 'never-used', tools: ['build_report'], contexts: TRAVEL, keepResultsMs })).toThrow(/keepResultsMs/);
    }
  });
});

// megabyte replies above leave redis-parser's shrink timer running for a few seconds
afterAll(parserSettled);
