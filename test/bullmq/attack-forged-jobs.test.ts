import 'reflect-metadata';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { defineSkill, Toolkit, ToolExecutionContext, type ToolResult } from '../../src';
import { createToolWorker, queueTools, type ToolWorker } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue, parserSettled } from '../support/redis';
import { closeServices, ReportService, SECRET, TRAVEL, UserContext } from './fixtures/services';

jest.setTimeout(60_000);

const user = { id: 'ada', tenant: 'acme' };

function workerToolkit(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registration().tool(ReportService).presetParameters({ build_report: { apiKey: SECRET }, leak_key: { apiKey: SECRET }, reject_key: { apiKey: SECRET } }).apply();
  // a skill: the worker's toolkit now has the meta tools list_skills and invoke_skill
  toolkit.registerSkill(defineSkill({ name: 'helper', description: 'Helps', tools: ['build_report'] }));
  return toolkit;
}

describe('attack: jobs forged in Redis against a worker (default: serves every tool of its toolkit)', () => {
  const queueName = uniqueQueue('forged-attack');
  let worker: ToolWorker;
  let queue: Queue;
  let events: QueueEvents;
  let n = 0;

  /** Adds `data` as a job (as anyone who can write to Redis could) and waits for its answer. */
  async function answer(data: unknown): Promise<ToolResult> {
    const job = await queue.add('forged', data as object, { jobId: `forged-${++n}` });
    return (await job.waitUntilFinished(events, 30_000)) as ToolResult;
  }

  /** Adds a job whose data is `text` exactly, written straight into Redis (what BullMQ's own client could not even serialise). */
  async function answerRaw(text: string): Promise<ToolResult> {
    const job = await queue.add('forged', { placeholder: true }, { jobId: `forged-${++n}`, delay: 1_000 });
    const redis = new Redis(REDIS);
    try {
      await redis.hset(`bull:${queueName}:${job.id!}`, 'data', text);
    } finally {
      redis.disconnect();
    }
    return (await job.waitUntilFinished(events, 30_000)) as ToolResult;
  }

  beforeAll(async () => {
    await requireRedis();
    worker = createToolWorker(workerToolkit(), { connection: REDIS, queueName, concurrency: 4, contexts: TRAVEL });
    queue = new Queue(queueName, { connection: REDIS });
    events = new QueueEvents(queueName, { connection: REDIS });
    await Promise.all([worker.ready(), events.waitUntilReady()]);
  });

  afterAll(async () => {
    await Promise.all([worker.close(), events.close()]);
    await queue.obliterate({ force: true });
    await queue.close();
    closeServices();
    await cleanRedis(`bull:${queueName}:*`);
  });

  it('meta tools and prototype names are not tools a job can run', async () => {
    for (const tool of ['invoke_skill', 'list_skills', '__proto__', 'constructor', 'toString', 'BUILD_REPORT']) {
      const result = await answer({ v: 1, tool, callId: 'm1', args: { name: 'helper' } });
      expect(result.isError).toBe(true);
      expect(['TOOL_DISABLED', 'UNKNOWN_TOOL']).toContain(result.error?.code);
      expect(result.forLLM.length).toBeLessThan(2_000);
    }
  });

  it('context names that are keys of every object (constructor, __proto__, toString) are undeclared contexts, not Object or its prototype', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const context = JSON.parse(`{"user": ${JSON.stringify(user)}, ${JSON.stringify(name)}: {"id": "root"}}`) as Record<string, unknown>;
      const result = await answer({ v: 1, tool: 'build_report', callId: `p-${name}`, args: { month: '2026-10' }, context });
      expect({ name, code: result.error?.code }).toEqual({ name, code: 'INVALID_CONTEXT' });
      expect(result.forLLM).toContain('does not declare');
    }
  });

  it('a travelling context value cannot pollute prototypes through plainToInstance', async () => {
    const hostile = JSON.parse('{"id":"eve","tenant":"acme","__proto__":{"polluted":"yes","label":"not a function"},"constructor":{"prototype":{"polluted2":"yes"}}}') as object;
    const result = await answer({ v: 1, tool: 'build_report', callId: 'pp1', args: { month: '2026-10' }, context: { user: hostile } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((UserContext.prototype as unknown as Record<string, unknown>).polluted2).toBeUndefined();
    expect((Object.prototype as unknown as Record<string, unknown>).polluted2).toBeUndefined();
    expect(new UserContext('a', 'b').label()).toBe('a@b');
    // either the tool ran as eve (label intact) or it was refused: never a crash
    if (!result.isError) expect(result.forLLM).toMatch(/^report 2026-10 for eve@acme/);
  });

  it('hostile arguments: prototype keys, a 5 MB string, 100,000 levels of nesting, wrong types are refused with bounded messages, and the worker keeps working', async () => {
    const proto = JSON.parse('{"month":"2026-10","__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}') as object;
    const protoResult = await answer({ v: 1, tool: 'build_report', callId: 'a1', args: proto, context: { user } });
    expect(protoResult.error?.code).toBe('INVALID_ARGUMENTS');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    const huge = await answer({ v: 1, tool: 'build_report', callId: 'a2', args: { month: 'x'.repeat(5_000_000) }, context: { user } });
    expect(huge.error?.code).toBe('INVALID_ARGUMENTS');
    expect(huge.forLLM.length).toBeLessThan(3_000);
    const deep = `{"v":1,"tool":"build_report","callId":"a3","context":{"user":${JSON.stringify(user)}},"args":{"month":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const deepResult = await answerRaw(deep);
    expect(deepResult.error?.code).toBe('INVALID_ARGUMENTS');
    expect(deepResult.forLLM.length).toBeLessThan(3_000);
    const longId = await answer({ v: 1, tool: 'build_report', callId: 'i'.repeat(1_000_000), args: { month: 'bad' }, context: { user } });
    expect(longId.error?.code).toBe('INVALID_ARGUMENTS');
    expect(longId.forLLM.length).toBeLessThan(3_000);
    for (const data of [
      null,
      'text',
      [1, 2],
      { v: 1, tool: 'build_report', callId: 42, args: {} },
      { v: 1, tool: 'build_report', callId: 'w', args: [] },
      { v: 1, tool: 'build_report', callId: 'w', args: {}, sessionId: {} },
      { v: 1, tool: 'build_report', callId: 'w', args: {}, context: 'user' },
      { v: 1, tool: 'build_report', callId: 'w', args: {}, context: { user: 'not an object' } },
      { v: 1, tool: 'build_report', callId: 'w', args: {}, deadlineAt: 'soon' },
    ]) {
      const result = await answer(data);
      expect(result.isError).toBe(true);
      expect(result.forLLM.length).toBeLessThan(2_000);
    }
    const fine = await answer({ v: 1, tool: 'build_report', callId: 'ok', args: { month: '2026-10' }, context: { user } });
    expect(fine.forLLM).toMatch(/^report 2026-10 for ada@acme/);
  });
});

describe('attack: the model reaching a queued tool around the gates', () => {
  const queueName = uniqueQueue('gates-attack');

  beforeAll(requireRedis);
  afterAll(() => cleanRedis(`bull:${queueName}:*`));

  it('a skill run and invoke_skill cannot reach a routed tool whose group is off: TOOL_DISABLED, nothing queued', async () => {
    const caller = new Toolkit();
    caller.registerTool(ReportService);
    caller.registerSkill(defineSkill({
      name: 'monthly', description: 'Monthly report', tools: ['build_report'],
      run: async (_args, ctx) => (await ctx.callTool('build_report', { month: '2026-10' })).forLLM,
    }));
    const routing = queueTools(caller, { connection: REDIS, queueName, groups: ['reports'], contexts: TRAVEL });
    try {
      await routing.ready();
      const session = caller.session('gate-1');
      session.updateToolGroups(['reports'], false);
      const context = ToolExecutionContext.of(new UserContext('ada', 'acme'));
      const direct = await session.callTool({ id: 'g1', name: 'build_report', arguments: { month: '2026-10' } }, { context });
      expect(direct.error?.code).toBe('TOOL_DISABLED');
      const viaSkill = await session.callTool({ id: 'g2', name: 'invoke_skill', arguments: { name: 'monthly' } }, { context });
      expect(viaSkill.forLLM).toContain("Tool 'build_report' is disabled: its group 'reports' is not active.");
      const redis = new Redis(REDIS);
      try {
        expect(await redis.keys(`bull:${queueName}:tw-*`)).toEqual([]);
      } finally {
        redis.disconnect();
      }
    } finally {
      await routing.close();
    }
  });
});

// megabyte replies above leave redis-parser's shrink timer running for a few seconds
afterAll(parserSettled);
