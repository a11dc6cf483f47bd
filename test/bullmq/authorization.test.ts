import 'reflect-metadata';
import { Queue, QueueEvents } from 'bullmq';
import { injectable } from 'inversify';
import { Principal, Tool, Toolkit, ToolExecutionContext, ToolParam, type ToolResult } from '../../src';
import { createToolWorker, queueTools, type QueuedTools, type ToolWorker } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';

jest.setTimeout(60_000);

/** Queued tools: the caller's Principal travels with the job and the worker checks the scopes again. */
@injectable()
class Ledger {
  static posted: string[] = [];

  @Tool({ description: 'Post an entry', scopes: ['ledger:write'] })
  post(@ToolParam({ name: 'entry' }) entry: string): string {
    Ledger.posted.push(entry);
    return `posted ${entry}`;
  }
}

function toolkitWithLedger(): Toolkit {
  const toolkit = new Toolkit();
  toolkit.registerTool(new Ledger());
  return toolkit;
}

describe('authorization of queued tools', () => {
  const queueName = uniqueQueue('authz');
  let worker: ToolWorker;
  let queued: QueuedTools;
  let caller: Toolkit;
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    await requireRedis();
    worker = createToolWorker(toolkitWithLedger(), { connection: REDIS, queueName, concurrency: 2 });
    caller = toolkitWithLedger();
    queued = queueTools(caller, { connection: REDIS, queueName, tools: ['post'] });
    queue = new Queue(queueName, { connection: REDIS });
    events = new QueueEvents(queueName, { connection: REDIS });
    await Promise.all([worker.ready(), queued.ready(), events.waitUntilReady()]);
  });

  afterAll(async () => {
    await Promise.all([worker.close(), queued.close(), events.close()]);
    await queue.obliterate({ force: true });
    await queue.close();
    await cleanRedis(`bull:${queueName}:*`);
  });

  beforeEach(() => {
    Ledger.posted = [];
  });

  const as = (...scopes: string[]) => ({ context: ToolExecutionContext.of(new Principal('ann', { scopes })) });

  it('a caller with the scope: its principal travels and the worker runs the tool', async () => {
    const result = await caller.callTool({ id: 'ok-1', name: 'post', arguments: { entry: 'a' } }, as('ledger:write'));
    expect(result.forLLM).toBe('posted a');
    expect(Ledger.posted).toEqual(['a']);
  });

  it('a caller without the scope is refused before anything is queued', async () => {
    const before = await queue.count();
    const result = await caller.callTool({ id: 'no-1', name: 'post', arguments: { entry: 'b' } }, as('ledger:read'));
    expect(result.error?.code).toBe('FORBIDDEN');
    expect(await queue.count()).toBe(before);
    expect(Ledger.posted).toEqual([]);
  });

  it('a job forged in Redis without a principal, or with one lacking the scope, does not run on the worker', async () => {
    const answers: ToolResult[] = [];
    const forged = [
      { v: 1, tool: 'post', callId: 'f1', args: { entry: 'forged' } },
      { v: 1, tool: 'post', callId: 'f2', args: { entry: 'forged' }, context: { 'toolwright:principal': { id: 'eve', scopes: ['ledger:read'], claims: {} } } },
    ];
    for (const [i, data] of forged.entries()) {
      const job = await queue.add('forged', data, { jobId: `forged-${i}` });
      answers.push((await job.waitUntilFinished(events, 30_000)) as ToolResult);
    }
    expect(answers.map((a) => a.error?.code)).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(Ledger.posted).toEqual([]);
  });

  it('a forged principal of the wrong shape is refused as INVALID_CONTEXT', async () => {
    const job = await queue.add('forged', { v: 1, tool: 'post', callId: 'f3', args: { entry: 'x' }, context: { 'toolwright:principal': { id: '', scopes: [1] } } }, { jobId: 'forged-shape' });
    const result = (await job.waitUntilFinished(events, 30_000)) as ToolResult;
    expect(result.error?.code).toBe('INVALID_CONTEXT');
    expect(Ledger.posted).toEqual([]);
  });
});
