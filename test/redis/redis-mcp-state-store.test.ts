import net from 'node:net';
import { Redis } from 'ioredis';
import { redisMcpStateStore, type RedisMcpStateStore } from '../../src/redis';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../support/redis';

/** The state store on the machine's Redis: atomic claims, expiry, prefixes, a Redis that is gone. */

const prefix = `${uniqueQueue('state')}:`;
let raw: Redis;
const stores: RedisMcpStateStore[] = [];
const store = (options: { prefix?: string } = {}): RedisMcpStateStore => {
  const made = redisMcpStateStore({ connection: REDIS, prefix, ...options });
  stores.push(made);
  return made;
};

beforeAll(async () => {
  await requireRedis();
  raw = new Redis(REDIS);
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  raw.disconnect();
  await cleanRedis(`${prefix}*`);
});

describe('redisMcpStateStore', () => {
  it('stores, reads, replaces and deletes values under its prefix, each with its TTL', async () => {
    const s = store();
    await s.set('a', '{"v":1}', 60_000);
    expect(await s.get('a')).toBe('{"v":1}');
    expect(await raw.get(`${prefix}a`)).toBe('{"v":1}');
    const ttl = await raw.pttl(`${prefix}a`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await s.set('a', 'two', 60_000);
    expect(await s.get('a')).toBe('two');
    await s.delete('a');
    expect(await s.get('a')).toBeUndefined();
    await s.delete('never-there');
  });

  it('lets exactly one of many concurrent claims win a key, whichever store makes it (SET NX)', async () => {
    const [one, two] = [store(), store()];
    const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? one : two).setIfAbsent('claim', `by-${i}`, 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims.indexOf(true);
    expect(await two.get('claim')).toBe(`by-${winner}`);
    expect(await one.setIfAbsent('claim', 'late', 60_000)).toBe(false);
  });

  it('forgets an entry when its TTL ends, and a claim can then be made again', async () => {
    const s = store();
    expect(await s.setIfAbsent('short', 'x', 30)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await s.get('short')).toBeUndefined();
    expect(await s.setIfAbsent('short', 'y', 60_000)).toBe(true);
  });

  it('keeps stores with different prefixes apart, and treats pattern characters in keys as plain text', async () => {
    const mine = store();
    const other = store({ prefix: `${prefix}other:` });
    await mine.set('k*', 'mine', 60_000);
    expect(await other.get('k*')).toBeUndefined();
    expect(await mine.get('k?')).toBeUndefined();
    expect(await mine.get('k*')).toBe('mine');
  });

  it('uses a client it is given without closing it', async () => {
    const client = new Redis(REDIS);
    try {
      const s = redisMcpStateStore({ connection: client, prefix });
      await s.set('client', 'yes', 60_000);
      await s.close();
      expect(await client.get(`${prefix}client`)).toBe('yes');
    } finally {
      client.disconnect();
    }
  });

  it('answers within its timeout, naming the address but not the password, when Redis is not there', async () => {
    const port = await closedPort();
    const s = redisMcpStateStore({ connection: { host: '127.0.0.1', port, password: 'hunter2-secret-pass', retryStrategy: () => 50 }, commandTimeoutMs: 300 });
    const started = Date.now();
    const error = await s.get('x').then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    await s.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error?.message).toContain(`127.0.0.1:${port}`);
    expect(error?.message).not.toContain('hunter2');
  });

  it('refuses options that are no connection and TTLs that are not positive', async () => {
    expect(() => redisMcpStateStore({ connection: 'redis://x' as never })).toThrow(/connection must be ioredis options/);
    await expect(store().set('t', 'v', 0)).rejects.toThrow(/TTL must be a positive number/);
  });
});

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
