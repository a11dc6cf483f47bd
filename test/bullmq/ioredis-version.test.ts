import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Toolkit } from '../../src';
import { createToolWorker, queueTools } from '../../src/bullmq';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';

/** Set by the `ioredis-6` Jest project (jest.config.ts), which maps every `ioredis` import to ioredis 6. */
declare const IOREDIS_MAJOR: number | undefined;

/**
 * The ioredis these suites run on: 5 (the project's own, the lowest major of the peer range) in
 * the `unit` project, 6 in the `ioredis-6` project, for the suites', toolwright's and BullMQ's
 * imports alike.
 */
describe('the ioredis under test', () => {
  const version = (require('ioredis/package.json') as { version: string }).version;

  it('is the major this Jest project maps', () => {
    expect(Number(version.split('.')[0])).toBe(typeof IOREDIS_MAJOR === 'number' ? IOREDIS_MAJOR : 5);
  });

  it("is the one BullMQ's own clients and toolwright's worker use, in a round trip on the machine's Redis", async () => {
    await requireRedis();
    const queueName = uniqueQueue('ioredis');
    const toolkit = new Toolkit();
    toolkit.registerTool({ name: 'shout', description: 'Shout', parameters: { type: 'object', properties: { text: { type: 'string' } } }, execute: (a) => String(a.text).toUpperCase() });
    const caller = new Toolkit();
    caller.registerTool({ name: 'shout', description: 'Shout', parameters: { type: 'object', properties: { text: { type: 'string' } } }, execute: () => 'ran in the caller' });
    const worker = createToolWorker(toolkit, { connection: REDIS, queueName });
    const routing = queueTools(caller, { connection: REDIS, queueName, tools: ['shout'] });
    const queue = new Queue(queueName, { connection: REDIS });
    try {
      expect(await queue.getBackend().client).toBeInstanceOf(Redis);
      const result = await caller.callTool({ id: '1', name: 'shout', arguments: { text: 'hi' } });
      expect(result.forLLM).toBe('HI');
    } finally {
      await routing.close();
      await worker.close();
      await queue.close();
      await cleanRedis(`bull:${queueName}:*`);
    }
  });
});
