import 'reflect-metadata';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { ApprovalManager, isPendingApprovalResult, Toolkit, ToolExecutionContext, type ToolEvent, type ToolResult } from '../../src';
import { createToolWorker, queueTools, type QueuedTools, type ToolWorker } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';
import { startMonitor } from './fixtures/monitor';
import { closeServices, ReportService, SECRET, TRAVEL, UserContext } from './fixtures/services';

jest.setTimeout(60_000);

const runsPrefix = uniqueQueue('runs');
process.env.TW_RUNS = runsPrefix;

const user = ToolExecutionContext.of(new UserContext('ada', 'acme'));

function callerToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registerTool(ReportService);
  return toolkit;
}

function workerToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registration().tool(ReportService).presetParameters({ build_report: { apiKey: SECRET }, leak_key: { apiKey: SECRET }, reject_key: { apiKey: SECRET } }).apply();
  return toolkit;
}

describe('queueTools / createToolWorker (real Redis, worker in this process)', () => {
  let queueName: string;
  let caller: Toolkit;
  let routing: QueuedTools;
  let worker: ToolWorker;

  beforeAll(requireRedis);

  beforeEach(async () => {
    queueName = uniqueQueue('queue');
    caller = callerToolkit();
    routing = queueTools(caller, { connection: REDIS, queueName, groups: ['reports'], contexts: TRAVEL });
    worker = createToolWorker(workerToolkit(), { connection: REDIS, queueName, concurrency: 4, contexts: TRAVEL });
    await Promise.all([routing.ready(), worker.ready()]);
  });

  afterEach(async () => {
    await Promise.all([routing.close(), worker.close()]);
    await cleanRedis(`bull:${queueName}:*`);
  });

  afterAll(async () => {
    closeServices();
    await cleanRedis(`${runsPrefix}:*`);
  });

  it('runs a decorated tool on the worker with the caller context and the worker preset; the caller sees the same ToolResult', async () => {
    const progress: unknown[] = [];
    const logs: unknown[] = [];
    const result = await caller.callTool(
      { id: 'c1', name: 'build_report', arguments: '{"month":"2026-10"}' },
      { context: user, onProgress: (p) => progress.push(p), onLog: (l) => logs.push(l.data) },
    );
    expect(result.isError).toBe(false);
    expect(result.forLLM).toMatch(/^report 2026-10 for ada@acme \(key of 21 chars\) by \d+$/);
    expect(result.toolCallId).toBe('c1');
    expect(result.name).toBe('build_report');
    expect(progress).toEqual([{ callId: 'c1', tool: 'build_report', progress: 1, total: 2, message: 'collecting 2026-10' }]);
    expect(logs).toEqual([{ step: 'collected', month: '2026-10' }]);
  });

  it('hides the preset on the caller: not in the schema, refused when the model sends it, nothing enqueued', async () => {
    expect(caller.getToolSchemas().find((s) => s.name === 'build_report')?.parameters.properties).toEqual({
      month: { type: 'string', description: 'YYYY-MM', pattern: '^\\d{4}-\\d{2}$' },
    });
    const sneaky = await caller.callTool({ id: 'c2', name: 'build_report', arguments: { month: '2026-10', apiKey: 'mine' } }, { context: user });
    expect(sneaky.error?.code).toBe('INVALID_ARGUMENTS');
    const invalid = await caller.callTool({ id: 'c3', name: 'build_report', arguments: { month: 'October' } }, { context: user });
    expect(invalid.error?.code).toBe('INVALID_ARGUMENTS');
    expect(invalid.forLLM).toContain('month');
    const redis = new Redis(REDIS);
    try {
      expect(await redis.keys(`bull:${queueName}:tw-*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('redacts a preset the worker tool leaks, on the worker, before it reaches Redis or the caller', async () => {
    const events: ToolEvent[] = [];
    caller.events$.subscribe((e) => events.push(e));
    const result = await caller.callTool({ id: 'c4', name: 'leak_key', arguments: {} });
    expect(result.forLLM).not.toContain(SECRET);
    expect(result.forLLM).toMatch(/^the key is \S+$/);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it('never writes a preset value to Redis: every command sent (MONITOR) and every key read back', async () => {
    const monitor = await startMonitor(REDIS.host, REDIS.port);
    const sent = monitor.lines;
    try {
      const results = await caller.callTools(
        [
          { id: 's1', name: 'build_report', arguments: { month: '2026-11' } },
          { id: 's2', name: 'leak_key', arguments: {} },
          { id: 's3', name: 'reject_key', arguments: {} },
        ],
        { context: user },
      );
      expect(results[0].isError).toBe(false);
      expect(results[2].error?.code).toBe('EXECUTION_FAILED');
      expect(results[2].forLLM).toContain('auth failed for');
      expect(JSON.stringify(results)).not.toContain(SECRET);
    } finally {
      monitor.stop();
    }
    expect(sent.filter((command) => command.includes(queueName)).length).toBeGreaterThan(10);
    expect(sent.filter((command) => command.includes(SECRET))).toEqual([]);
    const redis = new Redis(REDIS);
    try {
      const keys = await redis.keys(`bull:${queueName}:*`);
      expect(keys.length).toBeGreaterThan(3);
      for (const key of keys) {
        const type = await redis.type(key);
        const value =
          type === 'hash' ? await redis.hgetall(key)
          : type === 'list' ? await redis.lrange(key, 0, -1)
          : type === 'zset' ? await redis.zrange(key, 0, -1)
          : type === 'set' ? await redis.smembers(key)
          : type === 'stream' ? await redis.xrange(key, '-', '+')
          : await redis.get(key);
        expect(JSON.stringify(value)).not.toContain(SECRET);
      }
    } finally {
      redis.disconnect();
    }
  });

  it('a job forged in Redis is checked: malformed data, a tool the worker does not serve, an undeclared context, a preset argument are refused', async () => {
    const forged = uniqueQueue('forged');
    const narrow = createToolWorker(workerToolkit(), { connection: REDIS, queueName: forged, tools: ['build_report'], contexts: TRAVEL });
    const queue = new Queue(forged, { connection: REDIS });
    const events = new QueueEvents(forged, { connection: REDIS });
    try {
      await Promise.all([narrow.ready(), events.waitUntilReady()]);
      const answer = async (data: object): Promise<ToolResult> => (await (await queue.add('x', data)).waitUntilFinished(events, 20_000)) as ToolResult;
      expect((await answer({ v: 2, tool: 'build_report' })).forLLM).toMatch(/was not run: the job data has format 2, not 1/);
      const served = await answer({ v: 1, tool: 'leak_key', callId: 'f1', args: {} });
      expect(served.error?.code).toBe('TOOL_DISABLED');
      expect(served.forLLM).not.toContain(SECRET);
      const undeclared = await answer({ v: 1, tool: 'build_report', callId: 'f2', args: { month: '2026-10' }, context: { admin: { id: 'root' } } });
      expect(undeclared.error?.code).toBe('INVALID_CONTEXT');
      const smuggled = await answer({ v: 1, tool: 'build_report', callId: 'f3', args: { month: '2026-10', apiKey: 'attacker' }, context: { user: { id: 'x', tenant: 'y' } } });
      expect(smuggled.error?.code).toBe('INVALID_ARGUMENTS');
    } finally {
      await Promise.all([narrow.close(), events.close()]);
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('every gate stays on the caller: a group switched off, a closed session, a held approval — nothing is queued; the approved call runs as its requester', async () => {
    const session = caller.session('s-gate');
    session.updateToolGroups(['reports'], false);
    const off = await session.callTool({ id: 'g1', name: 'build_report', arguments: { month: '2026-10' } }, { context: user });
    expect(off.error?.code).toBe('TOOL_DISABLED');
    const closedSession = caller.session('s-closed');
    closedSession.close();
    const closed = await closedSession.callTool({ id: 'g2', name: 'build_report', arguments: { month: '2026-10' } }, { context: user });
    expect(closed.error?.code).toBe('SESSION_CLOSED');
    const approvals = new ApprovalManager({ tools: ['build_report'] });
    caller.use(approvals.hook);
    const held = await caller.callTool({ id: 'g3', name: 'build_report', arguments: { month: '2026-09' } }, { context: user });
    expect(isPendingApprovalResult(held)).toBe(true);
    const redis = new Redis(REDIS);
    try {
      expect(await redis.keys(`bull:${queueName}:tw-*`)).toEqual([]);
      const [pending] = approvals.pending();
      // approved later by someone else, in no context: the call runs as its requester, on a worker
      const approved = await approvals.approve(pending.id, { toolkit: caller });
      expect(approved.forLLM).toMatch(/^report 2026-09 for ada@acme/);
      expect(approved.toolCallId).toBe('g3');
    } finally {
      redis.disconnect();
    }
  });

  it('after close(), calls of routed tools answer QUEUE_UNAVAILABLE and never run in this process', async () => {
    await routing.close();
    const late = await caller.callTool({ id: 'z1', name: 'build_report', arguments: { month: '2026-10' } }, { context: user });
    expect(late.error?.code).toBe('QUEUE_UNAVAILABLE');
    expect(late.forLLM).toBe("Tool 'build_report' runs on the workers of queue '" + queueName + "', and this process closed its connection to the queue.");
    await expect(routing.ready()).rejects.toThrow(`The routing to queue '${queueName}' is closed.`);
  });

  it('runs a batch in parallel on the worker and keeps call order', async () => {
    const calls = ['2026-01', '2026-02', '2026-03', '2026-04'].map((month, i) => ({ id: `b${i}`, name: 'build_report', arguments: { month } }));
    const results = await caller.callTools(calls, { context: user });
    expect(results.map((r) => r.forLLM.slice(0, 14))).toEqual(['report 2026-01', 'report 2026-02', 'report 2026-03', 'report 2026-04']);
  });

  it('retries on the queue with the tool settings (attempts + backoff) and answers once', async () => {
    const result = await caller.callTool({ id: 'f1', name: 'flaky', arguments: { tag: `f-${queueName}` } });
    expect(result.forLLM).toBe('ok after 3 attempts');
  });

  it('a typo in the tools or groups to route or serve is INVALID_OPTIONS at once, naming it (never a silent local run)', () => {
    expect(() => queueTools(callerToolkit(), { connection: REDIS, queueName, tools: ['build_reprot'] })).toThrow(
      `queueTools('${queueName}'): the toolkit has no tool 'build_reprot'.`,
    );
    expect(() => createToolWorker(workerToolkit(), { connection: REDIS, queueName, groups: ['report'] })).toThrow(
      `createToolWorker('${queueName}'): the toolkit has no group 'report'.`,
    );
  });

  it("the worker's retryOn decides: a permanent failure runs once, a transient one uses every attempt", async () => {
    const permanent = await caller.callTool({ id: 'p1', name: 'picky', arguments: { tag: `p-${queueName}`, permanent: true } });
    expect(permanent.error?.code).toBe('EXECUTION_FAILED');
    expect(permanent.forLLM).toBe("Tool 'picky' failed: permanent failure 1");
    const transient = await caller.callTool({ id: 'p2', name: 'picky', arguments: { tag: `t-${queueName}`, permanent: false } });
    expect(transient.forLLM).toBe("Tool 'picky' failed: transient failure 4 (after 4 attempts)");
    const redis = new Redis(REDIS);
    try {
      expect(await redis.get(`${runsPrefix}:picky:p-${queueName}`)).toBe('1');
      expect(await redis.get(`${runsPrefix}:picky:t-${queueName}`)).toBe('4');
    } finally {
      redis.disconnect();
    }
  });

  it('a context the tool injects but the call lacks: CONTEXT_MISSING from the worker', async () => {
    const result = await caller.callTool({ id: 'c5', name: 'build_report', arguments: { month: '2026-10' } });
    expect(result.error?.code).toBe('CONTEXT_MISSING');
    expect(result.forLLM).toContain('UserContext');
  });

  it('the same call queued twice runs once; the same call id in another session is another call', async () => {
    const tag = `dup-${queueName}`;
    const call = { id: 'd1', name: 'slow_job', arguments: { ms: 200, tag } };
    const [a, b] = await Promise.all([caller.callTool(call), caller.callTool(call)]);
    expect(a.forLLM).toBe(b.forLLM);
    const again = await caller.callTool(call);
    expect(again.forLLM).toBe(a.forLLM);
    const other = await caller.session('s-2').callTool(call);
    expect(other.isError).toBe(false);
    const redis = new Redis(REDIS);
    try {
      expect(await redis.get(`${runsPrefix}:start:${tag}`)).toBe('2');
    } finally {
      redis.disconnect();
    }
  });

  it('timeoutMs bounds the whole call, queue time included: a call no worker takes answers TIMEOUT and never runs later', async () => {
    const idle = uniqueQueue('idle');
    const idleCaller = callerToolkit();
    const idleRouting = queueTools(idleCaller, { connection: REDIS, queueName: idle, tools: ['quick_wait'] });
    try {
      const started = Date.now();
      const result = await idleCaller.callTool({ id: 'w1', name: 'quick_wait', arguments: { tag: `w-${idle}` } });
      expect(result.error?.code).toBe('TIMEOUT');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      expect(Date.now() - started).toBeLessThan(15_000);
      const late = createToolWorker(workerToolkit(), { connection: REDIS, queueName: idle });
      await late.ready();
      await new Promise((r) => setTimeout(r, 500));
      await late.close();
      const redis = new Redis(REDIS);
      try {
        expect(await redis.get(`${runsPrefix}:quick:w-${idle}`)).toBeNull();
      } finally {
        redis.disconnect();
      }
    } finally {
      await idleRouting.close();
      await cleanRedis(`bull:${idle}:*`);
    }
  });

  it('the caller abort cancels the job on the worker (its AbortSignal fires)', async () => {
    const tag = `t-${queueName}`;
    const started = Date.now();
    const result = await caller.callTool({ id: 't1', name: 'slow_job', arguments: { ms: 30_000, tag } }, { signal: AbortSignal.timeout(800) });
    expect(result.error?.code).toBe('ABORTED');
    expect(Date.now() - started).toBeLessThan(10_000);
    const redis = new Redis(REDIS);
    try {
      for (let i = 0; i < 100 && (await redis.get(`${runsPrefix}:aborted:${tag}`)) !== '1'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await redis.get(`${runsPrefix}:aborted:${tag}`)).toBe('1');
      expect(await redis.get(`${runsPrefix}:done:${tag}`)).toBeNull();
    } finally {
      redis.disconnect();
    }
  });

  it('an async tool answers now and completes later through the queue, on events$ and onAsyncComplete with the call id', async () => {
    const events: ToolEvent[] = [];
    caller.events$.subscribe((e) => events.push(e));
    const completed = new Promise<ToolResult>((resolve) => {
      void caller.callTool({ id: 'a1', name: 'export_later', arguments: { table: 'orders' } }, { onAsyncComplete: resolve }).then((now) => {
        expect(now.async).toBe(true);
        expect(now.forLLM).toBe('export of orders started');
      });
    });
    const later = await completed;
    expect(later.toolCallId).toBe('a1');
    expect(later.forLLM).toBe('export of orders ready');
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['call_succeeded', 'async_completed']));
  });
});
