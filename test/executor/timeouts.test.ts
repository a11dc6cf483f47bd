import { getEventListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Observable } from 'rxjs';
import { Tool, ToolEmitter, ToolkitError, ToolParam, type ToolResult } from '../../src';
import { internals, toolkitWith, trackTimers, typesOf, useFakeTime } from './helpers';
import { agentTool, hang } from '../support/toolkit';
import { recordEvents } from '../support/events';

describe('timeouts on fake timers', () => {
  beforeEach(() => useFakeTime());
  afterEach(() => jest.useRealTimers());

  it('@Tool-style per-tool timeoutMs: the injected signal fires, the call answers TIMEOUT at the deadline, nothing is left behind', async () => {
    let seen: AbortSignal | undefined;
    const toolkit = toolkitWith([
      agentTool(
        'slow',
        (_args, ctx) => {
          seen = ctx.signal;
          return hang();
        },
        { timeoutMs: 1000 },
      ),
    ]);
    const recorder = recordEvents(toolkit);
    let result: ToolResult | undefined;
    void toolkit.callTool({ id: 't1', name: 'slow', arguments: '{}' }).then((r) => (result = r));
    await jest.advanceTimersByTimeAsync(999);
    expect(result).toBeUndefined();
    expect(seen!.aborted).toBe(false);
    expect(internals(toolkit).deadlines.pending).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(result).toMatchObject({ isError: true, toolCallId: 't1', name: 'slow', error: { code: 'TIMEOUT' } });
    expect(result!.forLLM).toMatch(/^Tool 'slow' timed out after 1000 ms\. /);
    expect(seen!.aborted).toBe(true);
    expect(ToolkitError.is(seen!.reason, 'TIMEOUT')).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    const { deadlines } = internals(toolkit);
    expect([deadlines.pending, deadlines.retained, deadlines.armed]).toEqual([0, 0, false]);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'attempt_failed', 'call_timed_out']);
    expect(recorder.of('call_timed_out')[0]).toMatchObject({ callId: 't1', tool: 'slow', timeoutMs: 1000, attempts: 1, durationMs: 1000 });
    recorder.stop();
  });

  it('a decorated tool gets its AbortSignal by type and @Tool({ timeoutMs }) applies', async () => {
    const signals: AbortSignal[] = [];
    class Crawler {
      @Tool({ description: 'Crawl a site', timeoutMs: 250 })
      crawl(@ToolParam({ name: 'url' }) url: string, signal: AbortSignal): Promise<string> {
        signals.push(signal);
        return new Promise((resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          if (url === 'fast') resolve('crawled');
        });
      }
    }
    const toolkit = toolkitWith([]);
    toolkit.registerTool(new Crawler());
    const fast = await toolkit.callTool({ id: 'a', name: 'crawl', arguments: { url: 'fast' } });
    expect(fast).toMatchObject({ isError: false, forLLM: 'crawled' });
    let slow: ToolResult | undefined;
    void toolkit.callTool({ id: 'b', name: 'crawl', arguments: { url: 'slow' } }).then((r) => (slow = r));
    await jest.advanceTimersByTimeAsync(250);
    // the tool rejected with the abort reason: still reported as a timeout, not as a thrown error
    expect(slow).toMatchObject({ isError: true, error: { code: 'TIMEOUT' } });
    expect(signals.map((s) => s.aborted)).toEqual([false, true]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('the toolkit default (execution.timeoutMs) applies to tools without their own; a tool timeoutMs wins; 0 disables', async () => {
    const toolkit = toolkitWith(
      [agentTool('plain', hang), agentTool('patient', hang, { timeoutMs: 2000 }), agentTool('unbounded', hang, { timeoutMs: 0 })],
      { execution: { timeoutMs: 500 } },
    );
    const done: Record<string, number> = {};
    const t0 = Date.now();
    for (const name of ['plain', 'patient', 'unbounded']) {
      void toolkit.callTool({ id: name, name, arguments: {} }).then((r) => {
        expect(r.error?.code).toBe('TIMEOUT');
        done[name] = Date.now() - t0;
      });
    }
    await jest.advanceTimersByTimeAsync(5000);
    expect(done).toEqual({ plain: 500, patient: 2000 });
    expect(internals(toolkit).deadlines.pending).toBe(0);
    expect(jest.getTimerCount()).toBe(0); // the unbounded call holds no timer either
  });

  it('a call that finishes before its deadline cancels it (no timer left)', async () => {
    const toolkit = toolkitWith([agentTool('quick', () => new Promise((r) => setTimeout(() => r('made it'), 999)), { timeoutMs: 1000 })]);
    const pending = toolkit.callTool({ id: 'q', name: 'quick', arguments: {} });
    await jest.advanceTimersByTimeAsync(999);
    await expect(pending).resolves.toMatchObject({ isError: false, forLLM: 'made it' });
    expect(internals(toolkit).deadlines.pending).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('many calls with several durations share one timer and each expires on time', async () => {
    const toolkit = toolkitWith([agentTool('a', hang, { timeoutMs: 300 }), agentTool('b', hang, { timeoutMs: 100 }), agentTool('c', hang, { timeoutMs: 200 })]);
    const order: string[] = [];
    const t0 = Date.now();
    for (let i = 0; i < 30; i++) {
      const name = ['a', 'b', 'c'][i % 3];
      void toolkit.callTool({ id: `${name}${i}`, name, arguments: {} }).then(() => order.push(`${name}@${Date.now() - t0}`));
    }
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(300);
    expect(order.filter((o) => o.startsWith('b')).every((o) => o.endsWith('@100'))).toBe(true);
    expect(order.filter((o) => o.startsWith('c')).every((o) => o.endsWith('@200'))).toBe(true);
    expect(order.filter((o) => o.startsWith('a')).every((o) => o.endsWith('@300'))).toBe(true);
    expect(order).toHaveLength(30);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('covers preset resolution: a hanging secret store times out and the tool never runs', async () => {
    let ran = false;
    const toolkit = toolkitWith([]);
    toolkit
      .registration()
      .tool(
        agentTool(
          'mail',
          () => {
            ran = true;
            return 'sent';
          },
          { timeoutMs: 100 },
          { apiKey: { type: 'string' } },
        ),
      )
      .presetParameters({ mail: { apiKey: () => hang() } })
      .apply();
    const pending = toolkit.callTool({ id: 'm', name: 'mail', arguments: {} });
    await jest.advanceTimersByTimeAsync(100);
    await expect(pending).resolves.toMatchObject({ error: { code: 'TIMEOUT' } });
    expect(ran).toBe(false);
  });

  it('drops progress reported after the timeout', async () => {
    let emitter: ToolEmitter | undefined;
    class Importer {
      @Tool({ description: 'Import', timeoutMs: 100 })
      run(emit: ToolEmitter): Promise<string> {
        emitter = emit;
        emit.emit('started');
        return hang();
      }
    }
    const toolkit = toolkitWith([]);
    toolkit.registerTool(new Importer());
    const progress: string[] = [];
    const recorder = recordEvents(toolkit);
    const pending = toolkit.callTool({ id: 'i', name: 'run', arguments: {} }, { onProgress: (p) => progress.push(p.message ?? '') });
    await jest.advanceTimersByTimeAsync(100);
    await pending;
    emitter!.emit('too late');
    expect(progress).toEqual(['started']);
    expect(recorder.of('call_progress')).toHaveLength(1);
    recorder.stop();
  });

  it('stops an async generator (its finally runs) and unsubscribes an Observable when they time out', async () => {
    const log: string[] = [];
    const toolkit = toolkitWith([
      agentTool(
        'gen',
        async function* () {
          try {
            yield 'step 1';
            await new Promise((r) => setTimeout(r, 1000));
            yield 'step 2';
            return 'never';
          } finally {
            log.push('generator finally');
          }
        },
        { timeoutMs: 100 },
      ),
      agentTool(
        'stream',
        () =>
          new Observable<string>((subscriber) => {
            subscriber.next('first');
            const timer = setInterval(() => subscriber.next('tick'), 10);
            return () => {
              clearInterval(timer);
              log.push('observable teardown');
            };
          }),
        { timeoutMs: 100 },
      ),
    ]);
    const gen = toolkit.callTool({ id: 'g', name: 'gen', arguments: {} });
    const stream = toolkit.callTool({ id: 's', name: 'stream', arguments: {} });
    await jest.advanceTimersByTimeAsync(100);
    await expect(gen).resolves.toMatchObject({ error: { code: 'TIMEOUT' } });
    await expect(stream).resolves.toMatchObject({ error: { code: 'TIMEOUT' } });
    expect(log).toContain('observable teardown');
    await jest.advanceTimersByTimeAsync(1000); // the generator's pending await ends; return() then runs its finally
    expect(log).toContain('generator finally');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('synchronous tools are not subject to timeouts (they cannot be interrupted) and arm no deadline', async () => {
    const toolkit = toolkitWith([agentTool('sync', () => 'instant', { timeoutMs: 10 })]);
    await expect(toolkit.callTool({ id: 's', name: 'sync', arguments: {} })).resolves.toMatchObject({ forLLM: 'instant' });
    expect(jest.getTimerCount()).toBe(0);
  });
});

describe('timeouts on real time', () => {
  it('a hanging tool with a 50 ms timeout answers TIMEOUT (not the test timeout), its signal aborted', async () => {
    let signal: AbortSignal | undefined;
    const toolkit = toolkitWith([
      agentTool(
        'hang',
        (_args, ctx) => {
          signal = ctx.signal;
          return hang();
        },
        { timeoutMs: 50 },
      ),
    ]);
    const t0 = performance.now();
    const result = await toolkit.callTool({ id: 'h', name: 'hang', arguments: {} });
    const elapsed = performance.now() - t0;
    expect(result.error?.code).toBe('TIMEOUT');
    expect(signal!.aborted).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(45);
    expect(elapsed).toBeLessThan(10_000); // loose: a loaded machine may be slow, a hang never ends
  });

  it('a soak of 1,000 timed-out calls leaves no deadline, timer or caller-signal listener behind', async () => {
    const timers = trackTimers();
    try {
      const toolkit = toolkitWith([agentTool('hang', (_args, ctx) => (ctx.signal, hang()), { timeoutMs: 50 })], { maxConcurrency: 1000 });
      const caller = new AbortController();
      const { deadlines } = internals(toolkit);
      const calls = Array.from({ length: 1000 }, (_, i) => ({ id: `h${i}`, name: 'hang', arguments: {} }));
      const t0 = performance.now();
      const results = await toolkit.callTools(calls, { signal: caller.signal });
      // loose: one after another they would take 50 s; together, one timeout and some scheduling
      expect(performance.now() - t0).toBeLessThan(10_000);
      expect(results.every((r) => r.error?.code === 'TIMEOUT')).toBe(true);
      expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
      expect([deadlines.pending, deadlines.retained, deadlines.armed]).toEqual([0, 0, false]);
      expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
      expect(timers.created()).toBeGreaterThan(0); // the deadline timer went through the tracker…
      expect(timers.outstanding()).toBe(0); // …and is gone
    } finally {
      timers.restore();
    }
  });
});
