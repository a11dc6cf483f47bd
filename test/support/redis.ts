import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

/** The machine's Redis: every queue test uses it for real. */
export const REDIS = { host: '127.0.0.1', port: 6379 } as const;

/**
 * Resolves when Redis answers PING; rejects with a message that says how to start it otherwise
 * (the tests that need it fail clearly instead of hanging).
 */
export async function requireRedis(): Promise<void> {
  const client = new Redis({ ...REDIS, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${REDIS.host}:${REDIS.port} (${String((error as Error).message)}): the queue tests need it. Start it with ` +
        `redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`,
    );
  } finally {
    client.disconnect();
  }
}

/** A queue name no other test (or run) uses. */
export function uniqueQueue(label: string): string {
  return `tw-test-${label}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Deletes every key of BullMQ's queue `queueName` (prefix `bull`) and of the tests' own `prefix`. */
export async function cleanRedis(...patterns: string[]): Promise<void> {
  const client = new Redis({ ...REDIS, maxRetriesPerRequest: 1 });
  try {
    for (const pattern of patterns) {
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (keys.length > 0) await client.del(...keys);
      } while (cursor !== '0');
    }
  } finally {
    client.disconnect();
  }
}

/**
 * Waits until ioredis' reply parser has shrunk its buffer pool again: after a reply of megabytes it
 * keeps a 50 ms interval running for ~3 s (redis-parser's `decreaseBufferPool`), which would keep a
 * Jest worker from exiting. Call it in `afterAll` of tests that move megabytes through Redis.
 */
export function parserSettled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 3_500));
}

/** A Redis of the test's own on `port`, as a child process it can kill (no persistence). */
export function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${String(code)}: ${out}`)));
  });
}
