import 'reflect-metadata';
import { Redis } from 'ioredis';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Toolkit } from '../../src';
import { createToolWorker, queueTools, type QueuedTools, type ToolWorker } from '../../src/bullmq';
import { Closer, connectInMemory, textOf } from '../support/mcp';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';
import { ReportService, SECRET, TRAVEL } from './fixtures/services';

jest.setTimeout(60_000);

/** A hostile MCP client against a server whose tools run on a worker: the MCP path keeps every promise. */
describe('queued tools served over MCP (the client as the attacker)', () => {
  let queueName: string;
  let routing: QueuedTools;
  let worker: ToolWorker;
  let toolkit: Toolkit;
  const closer = new Closer();

  beforeAll(requireRedis);

  beforeEach(async () => {
    queueName = uniqueQueue('mcp');
    toolkit = new Toolkit();
    toolkit.registerTool(ReportService);
    routing = queueTools(toolkit, { connection: REDIS, queueName, groups: ['reports'], contexts: TRAVEL });
    const workerKit = new Toolkit();
    workerKit.registration().tool(ReportService).presetParameters({ build_report: { apiKey: SECRET }, leak_key: { apiKey: SECRET }, reject_key: { apiKey: SECRET } }).apply();
    worker = createToolWorker(workerKit, { connection: REDIS, queueName, contexts: TRAVEL });
    await Promise.all([routing.ready(), worker.ready()]);
  });

  afterEach(async () => {
    await closer.closeAll();
    await Promise.all([routing.close(), worker.close()]);
    await cleanRedis(`bull:${queueName}:*`);
  });

  it('lists no preset, refuses a preset sent anyway before anything is queued, and returns no preset value a worker tool leaks', async () => {
    const { client } = await connectInMemory(toolkit, closer);
    const { tools } = await client.client.listTools();
    expect(JSON.stringify(tools)).not.toContain('apiKey');
    const smuggled = (await client.client.callTool({ name: 'leak_key', arguments: { apiKey: 'attacker' } })) as CallToolResult;
    expect(smuggled.isError).toBe(true);
    expect(textOf(smuggled)).toContain('apiKey');
    const redis = new Redis(REDIS);
    try {
      expect(await redis.keys(`bull:${queueName}:tw-*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
    const leaked = (await client.client.callTool({ name: 'leak_key', arguments: {} })) as CallToolResult;
    expect(leaked.isError).toBeFalsy();
    expect(textOf(leaked)).toMatch(/^the key is \S+$/);
    expect(JSON.stringify(leaked)).not.toContain(SECRET);
  });

  it('a group switched off is unreachable over MCP too: the call errors and nothing is queued', async () => {
    toolkit.updateToolGroups(['reports'], false);
    const { client } = await connectInMemory(toolkit, closer);
    expect((await client.client.listTools()).tools.map((t) => t.name)).not.toContain('leak_key');
    const refused = (await client.client.callTool({ name: 'leak_key', arguments: {} })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/disabled/i);
    const redis = new Redis(REDIS);
    try {
      expect(await redis.keys(`bull:${queueName}:tw-*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
