import type { ServerEventBus } from '@modelcontextprotocol/server';
import { Redis } from 'ioredis';
import { redisMcpEventBus, type McpServerEvent, type RedisMcpEventBus } from '../../src/redis';
import { REDIS, requireRedis, uniqueQueue } from '../support/redis';

/** The event bus over Redis pub/sub: what one process publishes, the others hear once; what Redis carries is checked. */

/** Each test's own channel. */
let channel = '';
let raw: Redis;
const buses: RedisMcpEventBus[] = [];
const errors: Error[] = [];
async function bus(): Promise<RedisMcpEventBus> {
  const made = redisMcpEventBus({ connection: REDIS, channel, onError: (e) => errors.push(e) });
  buses.push(made);
  await made.ready();
  return made;
}

/** Resolves once `events` holds `count` entries (each test's own deadline bounds it). */
async function heard(events: readonly McpServerEvent[], count: number): Promise<void> {
  while (events.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

beforeAll(async () => {
  await requireRedis();
  raw = new Redis(REDIS);
});

afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  raw.disconnect();
});

beforeEach(() => {
  errors.length = 0;
  channel = uniqueQueue('events');
});

describe('redisMcpEventBus', () => {
  it('is an SDK v2 ServerEventBus', async () => {
    const sdk: ServerEventBus = await bus();
    expect(typeof sdk.publish).toBe('function');
  });

  it("delivers an event published on one process to every process's listeners, each once", async () => {
    const [a, b] = [await bus(), await bus()];
    const onA: McpServerEvent[] = [];
    const onB: McpServerEvent[] = [];
    a.subscribe((e) => onA.push(e));
    b.subscribe((e) => onB.push(e));
    a.publish({ kind: 'tools_list_changed' });
    expect(onA).toEqual([{ kind: 'tools_list_changed' }]);
    await heard(onB, 1);
    b.publish({ kind: 'resource_updated', uri: 'report://q3', params: { _meta: { n: 1 } } });
    await heard(onA, 2);
    // a marker through the same channel: everything before it has arrived
    a.publish({ kind: 'prompts_list_changed' });
    await heard(onB, 3);
    expect(onA).toEqual([{ kind: 'tools_list_changed' }, { kind: 'resource_updated', uri: 'report://q3', params: { _meta: { n: 1 } } }, { kind: 'prompts_list_changed' }]);
    expect(onB).toEqual(onA);
    expect(errors).toEqual([]);
  });

  it('drops what a hostile publisher writes on the channel that is no event, and keeps delivering', async () => {
    const b = await bus();
    const onB: McpServerEvent[] = [];
    b.subscribe((e) => onB.push(e));
    const forged = [
      'not json',
      '[]',
      '{"e":{"kind":"tools/call","name":"delete_all"}}',
      '{"e":{"kind":"resource_updated"}}',
      '{"e":{"kind":"tools_list_changed","params":"<script>"}}',
      '{"e":{"kind":"__proto__"}}',
      JSON.stringify({ e: { kind: 'tools_list_changed', params: { pad: 'x'.repeat(20_000) } } }),
    ];
    for (const message of forged) await raw.publish(channel, message);
    await raw.publish(channel, '{"e":{"kind":"resources_list_changed"}}');
    await heard(onB, 1);
    expect(onB).toEqual([{ kind: 'resources_list_changed' }]);
    expect(errors.map((e) => e.message)).toEqual(forged.map(() => expect.stringMatching(/^redisMcpEventBus: dropped a message/)));
    expect(errors.every((e) => e.message.length < 300)).toBe(true);
  });

  it('keeps delivering to the other listeners when one throws, and unsubscribes idempotently', async () => {
    const a = await bus();
    const got: McpServerEvent[] = [];
    a.subscribe(() => {
      throw new Error('listener bug');
    });
    const stop = a.subscribe((e) => got.push(e));
    a.publish({ kind: 'tools_list_changed' });
    expect(got).toHaveLength(1);
    expect(errors[0]?.message).toContain('listener bug');
    stop();
    stop();
    a.publish({ kind: 'tools_list_changed' });
    expect(got).toHaveLength(1);
  });

  it('refuses an empty channel name', () => {
    expect(() => redisMcpEventBus({ connection: REDIS, channel: '' })).toThrow(/channel must be a non-empty string/);
  });
});
