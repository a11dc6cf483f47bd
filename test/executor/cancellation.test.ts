import { getEventListeners } from 'node:events';
import type { ToolResult } from '../../src';
import { deferred, flushPromises, toolkitWith, typesOf, useFakeTime } from './helpers';
import { agentTool, hang } from '../support/toolkit';
import { recordEvents } from '../support/events';

describe('caller signal on callTool', () => {
  it('a caller that aborts as the call starts (on its call_started, after the before-hooks) gets ABORTED and the body never runs', async () => {
    let runs = 0;
    const toolkit = toolkitWith([agentTool('effect', () => `ran ${++runs}`)]);
    toolkit.use({ name: 'audit', before: () => undefined });
    const caller = new AbortController();
    const watch = toolkit.events$.subscribe((event) => {
      if (event.type === 'call_started') caller.abort(new Error('stop at the body'));
    });
    const result = await toolkit.callTool({ id: 's1', name: 'effect', arguments: {} }, { signal: caller.signal });
    watch.unsubscribe();
    expect(result).toMatchObject({ isError: true, error: { code: 'ABORTED' } });
    expect(runs).toBe(0);
    expect((await toolkit.callTool({ id: 's2', name: 'effect', arguments: {} })).forLLM).toBe('ran 1');
  });

  it("aborts a running tool: its signal fires with the caller's reason and the call answers ABORTED at once", async () => {
    let toolSignal: AbortSignal | undefined;
    const toolkit = toolkitWith([
      agentTool('hang', (_args, ctx) => {
        toolSignal = ctx.signal;
        return hang(); // ignores its signal: the call must answer anyway
      }),
    ]);
    const recorder = recordEvents(toolkit);
    const caller = new AbortController();
    const pending = toolkit.callTool({ id: 'a1', name: 'hang', arguments: {} }, { signal: caller.signal });
    await flushPromises();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort(new Error('user pressed stop'));
    const result = await pending;
    expect(result).toMatchObject({ isError: true, toolCallId: 'a1', name: 'hang', error: { code: 'ABORTED' } });
    expect(result.forLLM).toBe("Tool 'hang' was aborted: user pressed stop");
    expect(toolSignal!.aborted).toBe(true);
    expect((toolSignal!.reason as Error).message).toBe('user pressed stop');
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'call_aborted']);
    expect(recorder.of('call_aborted')[0]).toMatchObject({ callId: 'a1', tool: 'hang', reason: 'user pressed stop', attempts: 1 });
    recorder.stop();
  });

  it('an already-aborted signal never runs the tool or its hooks', async () => {
    let ran = false;
    let hookRan = false;
    const toolkit = toolkitWith([
      agentTool('work', () => {
        ran = true;
        return 'done';
      }),
    ]);
    toolkit.use({ name: 'spy', before: () => void (hookRan = true) });
    const recorder = recordEvents(toolkit);
    const result = await toolkit.callTool({ id: 'x', name: 'work', arguments: {} }, { signal: AbortSignal.abort() });
    expect(result.error?.code).toBe('ABORTED');
    expect(ran).toBe(false);
    expect(hookRan).toBe(false);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'call_aborted']);
    expect(recorder.of('call_aborted')[0].attempts).toBe(0);
    recorder.stop();
  });

  it('a tool that rejects on abort, or resolves after it, is still reported as aborted (never retried, no success event)', async () => {
    const late = deferred<string>();
    const toolkit = toolkitWith(
      [
        agentTool('honours', (_args, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))))),
        agentTool('late', () => late.promise),
      ],
      { execution: { maxAttempts: 3, initialBackoffMs: 1 } },
    );
    const recorder = recordEvents(toolkit);
    const caller = new AbortController();
    const both = toolkit.callTools(
      [
        { id: 'h', name: 'honours', arguments: {} },
        { id: 'l', name: 'late', arguments: {} },
      ],
      { signal: caller.signal },
    );
    await flushPromises();
    caller.abort();
    late.resolve('finished anyway');
    const results = await both;
    await flushPromises();
    expect(results.map((r) => r.error?.code)).toEqual(['ABORTED', 'ABORTED']);
    expect(recorder.of('attempt_failed')).toHaveLength(0);
    expect(recorder.of('retry_scheduled')).toHaveLength(0);
    expect(recorder.of('call_succeeded')).toHaveLength(0);
    expect(recorder.of('call_aborted').map((e) => e.callId).sort()).toEqual(['h', 'l']);
    recorder.stop();
  });

  it('aborts a call waiting in a before hook (e.g. a pending approval); the tool never runs', async () => {
    let ran = false;
    const approval = deferred<void>();
    const toolkit = toolkitWith([agentTool('deploy', () => void (ran = true))]);
    toolkit.use({ name: 'approval', before: () => approval.promise });
    const caller = new AbortController();
    const pending = toolkit.callTool({ id: 'd', name: 'deploy', arguments: {} }, { signal: caller.signal });
    await flushPromises();
    caller.abort('session closed');
    await expect(pending).resolves.toMatchObject({ error: { code: 'ABORTED' }, forLLM: "Tool 'deploy' was aborted: session closed" });
    approval.resolve();
    await flushPromises();
    expect(ran).toBe(false);
  });

  it('aborts a call whose preset is still resolving; the tool never runs', async () => {
    let ran = false;
    const secret = deferred<string>();
    const toolkit = toolkitWith([]);
    toolkit
      .registration()
      .tool(agentTool('mail', () => void (ran = true), undefined, { apiKey: { type: 'string' } }))
      .presetParameters({ mail: { apiKey: () => secret.promise } })
      .apply();
    const caller = new AbortController();
    const pending = toolkit.callTool({ id: 'm', name: 'mail', arguments: {} }, { signal: caller.signal });
    await flushPromises();
    caller.abort();
    await expect(pending).resolves.toMatchObject({ error: { code: 'ABORTED' } });
    secret.resolve('sk-live-123456');
    await flushPromises();
    expect(ran).toBe(false);
  });

  it('an abort after the call answered changes nothing and finds no listener left', async () => {
    const toolkit = toolkitWith([agentTool('quick', async () => 'done')]);
    const caller = new AbortController();
    const result = await toolkit.callTool({ id: 'q', name: 'quick', arguments: {} }, { signal: caller.signal });
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    caller.abort();
    expect(result).toMatchObject({ isError: false, forLLM: 'done' });
  });
});

describe('caller signal on callTools', () => {
  it('aborts the running calls, answers the queued ones ABORTED without running them, keeps call order, uses one listener', async () => {
    const started: string[] = [];
    const signals = new Map<string, AbortSignal>();
    const toolkit = toolkitWith(
      [
        agentTool('hang', (_args, ctx) => {
          started.push(ctx.callId);
          signals.set(ctx.callId, ctx.signal);
          return hang();
        }),
      ],
      { maxConcurrency: 3 },
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const caller = new AbortController();
    const calls = Array.from({ length: 40 }, (_, i) => ({ id: `c${i}`, name: 'hang', arguments: {} }));
    const batch = toolkit.callTools(calls, { signal: caller.signal });
    await flushPromises();
    expect(started).toEqual(['c0', 'c1', 'c2']);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort();
    const results = await batch;
    process.off('warning', onWarning);
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
    expect(results.every((r) => r.error?.code === 'ABORTED')).toBe(true);
    expect(started).toEqual(['c0', 'c1', 'c2']);
    expect([...signals.values()].every((s) => s.aborted)).toBe(true);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    expect(warnings).toEqual([]);
  });

  it('many concurrent callTool calls on one signal share a single listener (no MaxListenersExceededWarning)', async () => {
    const toolkit = toolkitWith([agentTool('hang', hang)]);
    const caller = new AbortController();
    const pending = Array.from({ length: 50 }, (_, i) => toolkit.callTool({ id: `c${i}`, name: 'hang', arguments: {} }, { signal: caller.signal }));
    await flushPromises();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    caller.abort();
    const results: ToolResult[] = await Promise.all(pending);
    expect(results.every((r) => r.error?.code === 'ABORTED')).toBe(true);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

describe('abort during a retry backoff', () => {
  beforeEach(() => useFakeTime());
  afterEach(() => jest.useRealTimers());

  it('stops retrying at once: no further attempt, no timer left', async () => {
    let attempts = 0;
    const toolkit = toolkitWith([
      agentTool(
        'flaky',
        () => {
          attempts++;
          return Promise.reject(new Error('503'));
        },
        { retry: { maxAttempts: 5, initialBackoffMs: 1000 } },
      ),
    ]);
    const recorder = recordEvents(toolkit);
    const caller = new AbortController();
    let result: ToolResult | undefined;
    void toolkit.callTool({ id: 'f', name: 'flaky', arguments: {} }, { signal: caller.signal }).then((r) => (result = r));
    await jest.advanceTimersByTimeAsync(500);
    expect(attempts).toBe(1);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'attempt_failed', 'retry_scheduled']);
    caller.abort('user left');
    await jest.advanceTimersByTimeAsync(0);
    expect(result).toMatchObject({ error: { code: 'ABORTED' } });
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(attempts).toBe(1);
    expect(typesOf(recorder.events)).toEqual(['call_started', 'attempt_failed', 'retry_scheduled', 'call_aborted']);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    recorder.stop();
  });
});
