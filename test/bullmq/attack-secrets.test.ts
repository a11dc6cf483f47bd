import 'reflect-metadata';
import { Redis } from 'ioredis';
import { AsyncCompletion, asyncResult, Tool, ToolEmitter, Toolkit, ToolParam, ToolService, type ToolEvent, type ToolResult } from '../../src';
import { REDIS, uniqueQueue } from '../support/redis';
import { startMonitor } from './fixtures/monitor';
import { startQueue, stopQueue, type QueuePair } from './fixtures/queue';
import { CREDS, HOSTILE_PRESETS, HostileService, KEY, PIN } from './fixtures/hostile';
import { findLeaks, leakForms } from '../support/leaks';

jest.setTimeout(60_000);

/** Every form of every preset value an attacker would look for. */
const FORMS = [KEY, JSON.stringify(KEY).slice(1, -1), JSON.stringify(JSON.stringify(KEY)).slice(2, -2), encodeURIComponent(KEY), KEY.slice(0, 10), '1f2e\\3d4c', String(PIN), CREDS.password, encodeURIComponent(CREDS.password), CREDS.password.slice(0, 9)];

function leaks(text: string): string[] {
  return FORMS.filter((form) => text.includes(form));
}

/** Every key of the queue `queueName` read back from Redis, as JSON text. */
async function dump(queueName: string): Promise<string> {
  const redis = new Redis(REDIS);
  try {
    const out: unknown[] = [];
    for (const key of await redis.keys(`bull:${queueName}:*`)) {
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
  } finally {
    redis.disconnect();
  }
}

describe('attack: getting a preset out of a queued tool, in any form', () => {
  const queueName = uniqueQueue('attack-secrets');
  let caller: Toolkit;
  let pair: QueuePair;

  beforeAll(async () => {
    caller = new Toolkit();
    caller.registerTool(HostileService);
    const workerKit = new Toolkit();
    workerKit.registration().tool(HostileService).presetParameters(HOSTILE_PRESETS).apply();
    pair = await startQueue(queueName, caller, workerKit, { groups: ['hostile'] }, { concurrency: 8 });
  });

  afterAll(() => stopQueue(pair, queueName));

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
    // MONITOR sees the whole server: the same suite under another Jest project writes its own control keys
    expect(sent.filter((command) => !command.includes('"tw-control-') && leaks(command).length > 0)).toEqual([]);
    monitor.stop();
    const stored = await dump(queueName);
    expect(stored).toContain('upstream refused');
    expect(leaks(stored)).toEqual([]);
  });
});

/** A passphrase: URLSearchParams writes `+` for its spaces, a URL `%20`, encodeURIComponent `%2F` and `%21`. */
const PASSPHRASE = 'tangerine walrus ladder/quartz!';

/** Tools that leak their key the way a failing HTTP client does: inside the URL they quote. */
@ToolService({ group: 'url-leaks' })
class UrlLeakService {
  @Tool({ name: 'url_throw', description: 'Fails quoting its request URL, retried', retry: { maxAttempts: 2, initialBackoffMs: 10 } })
  fail(@ToolParam({ name: 'key', preset: true }) key: string): string {
    throw new Error(`GET https://api.example/v1?${new URLSearchParams({ key })} failed`, { cause: new URL(`https://api.example/${key}`) });
  }

  @Tool({ name: 'url_result', description: 'Returns its connection URL' })
  connection(@ToolParam({ name: 'key', preset: true }) key: string): unknown {
    const url = new URL('postgres://svc@db.example/app');
    url.password = key;
    return { href: url.href, search: new URL(`https://api.example/v1?key=${key}`).search, lower: encodeURIComponent(key).toLowerCase() };
  }

  @Tool({ name: 'url_progress', description: 'Reports its request URL as progress and logs' })
  progress(@ToolParam({ name: 'key', preset: true }) key: string, emitter: ToolEmitter): string {
    emitter.emit({ progress: 1, total: 2, message: encodeURI(`https://api.example/${key}`) });
    emitter.log('warning', { url: new URL(`https://api.example/#${key}`).hash });
    return 'done';
  }

  @Tool({ name: 'url_async', description: 'Completes later quoting its URL' })
  later(@ToolParam({ name: 'key', preset: true }) key: string, done: AsyncCompletion): unknown {
    setTimeout(() => done.complete({ ready: true, url: `https://api.example/?${new URLSearchParams({ key })}` }), 30);
    return asyncResult('started');
  }
}

describe('attack: a preset in URL forms (URLSearchParams, URL, encodeURI, lower-case escapes) from a queued tool', () => {
  const queueName = uniqueQueue('attack-url-secrets');
  let caller: Toolkit;
  let pair: QueuePair;

  beforeAll(async () => {
    caller = new Toolkit();
    caller.registerTool(UrlLeakService);
    const workerKit = new Toolkit();
    const presets = { key: PASSPHRASE };
    workerKit.registration().tool(UrlLeakService).presetParameters({ url_throw: presets, url_result: presets, url_progress: presets, url_async: presets }).apply();
    pair = await startQueue(queueName, caller, workerKit, { groups: ['url-leaks'] }, { concurrency: 4 });
  });

  afterAll(() => stopQueue(pair, queueName));

  it('never in Redis (MONITOR and every key read back), results, failed-job text, events, progress, logs or async completions', async () => {
    const monitor = await startMonitor(REDIS.host, REDIS.port);
    const events: ToolEvent[] = [];
    const seen: unknown[] = [];
    const subscription = caller.events$.subscribe((e) => events.push(e));
    let results: ToolResult[] = [];
    let completed: ToolResult;
    try {
      completed = await new Promise<ToolResult>((resolve) => {
        void caller
          .callTools(['url_throw', 'url_result', 'url_progress', 'url_async'].map((name, i) => ({ id: `u${i}`, name, arguments: {} })), {
            onProgress: (p) => seen.push(p),
            onLog: (l) => seen.push(l),
            onAsyncComplete: resolve,
          })
          .then((r) => (results = r));
      });
      while (results.length === 0) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300)); // the last writes (retention, events) land
    } finally {
      subscription.unsubscribe();
      monitor.stop();
    }
    expect(results.map((r) => r.isError)).toEqual([true, false, false, false]);
    expect(results[0].forLLM).toContain('GET https://api.example/v1?key=[REDACTED] failed');
    expect(results[1].forLLM).toContain('postgres://svc:[REDACTED]@db.example/app');
    expect(completed.forLLM).toContain('https://api.example/?key=[REDACTED]');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(findLeaks({ results, completed, events, seen }, [PASSPHRASE])).toEqual([]);
    const sent = monitor.lines.filter((line) => line.includes(queueName));
    expect(sent.length).toBeGreaterThan(20);
    const forms = leakForms(PASSPHRASE);
    expect(forms.filter((form) => sent.some((line) => line.includes(form)))).toEqual([]);
    const stored = await dump(queueName);
    expect(stored).toContain('[REDACTED]');
    expect(forms.filter((form) => stored.includes(form))).toEqual([]);
  });
});
