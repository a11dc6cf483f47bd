import { Tool, ToolkitError, ToolParam, errorResult, type ToolResult } from '../../src';
import { backoffDelay, DEFAULT_EXECUTION, resolveExecution } from '../../src/executor/execution-settings';
import { toolkitWith, typesOf, useFakeTime } from './helpers';
import { agentTool } from '../support/toolkit';
import { recordEvents } from '../support/events';

/** A tool that fails `failures` times (recording when each attempt started), then answers. */
function flakyTool(name: string, failures: number, behaviour: Parameters<typeof agentTool>[2], failWith: () => unknown = () => new Error('503 Service Unavailable')) {
  const startedAt: number[] = [];
  const t0 = Date.now();
  const tool = agentTool(
    name,
    async () => {
      startedAt.push(Date.now() - t0);
      if (startedAt.length <= failures) throw failWith();
      return `ok after ${startedAt.length}`;
    },
    behaviour,
  );
  return { tool, startedAt };
}

describe('retries with exponential backoff (fake timers)', () => {
  beforeEach(() => useFakeTime());
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('per tool: delays grow by backoffMultiplier up to maxBackoffMs; success on attempt N is a success with attempts: N', async () => {
    const { tool, startedAt } = flakyTool('flaky', 3, { retry: { maxAttempts: 4, initialBackoffMs: 100, backoffMultiplier: 3, maxBackoffMs: 500, jitter: 0 } });
    const toolkit = toolkitWith([tool]);
    const recorder = recordEvents(toolkit);
    let result: ToolResult | undefined;
    void toolkit.callTool({ id: 'r', name: 'flaky', arguments: {} }).then((r) => (result = r));

    await jest.advanceTimersByTimeAsync(99);
    expect(startedAt).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(startedAt).toEqual([0, 100]);
    await jest.advanceTimersByTimeAsync(299);
    expect(startedAt).toEqual([0, 100]);
    await jest.advanceTimersByTimeAsync(1);
    expect(startedAt).toEqual([0, 100, 400]);
    await jest.advanceTimersByTimeAsync(500); // 100 × 3² = 900, capped at 500
    expect(startedAt).toEqual([0, 100, 400, 900]);
    expect(result).toMatchObject({ isError: false, forLLM: 'ok after 4', toolCallId: 'r' });

    expect(typesOf(recorder.events)).toEqual([
      'call_started',
      'attempt_failed',
      'retry_scheduled',
      'attempt_failed',
      'retry_scheduled',
      'attempt_failed',
      'retry_scheduled',
      'call_succeeded',
    ]);
    expect(recorder.of('attempt_failed').map((e) => [e.attempt, e.error.code, e.error.message])).toEqual([
      [1, 'EXECUTION_FAILED', "Tool 'flaky' failed: 503 Service Unavailable"],
      [2, 'EXECUTION_FAILED', "Tool 'flaky' failed: 503 Service Unavailable"],
      [3, 'EXECUTION_FAILED', "Tool 'flaky' failed: 503 Service Unavailable"],
    ]);
    expect(recorder.of('retry_scheduled').map((e) => [e.attempt, e.delayMs])).toEqual([
      [2, 100],
      [3, 300],
      [4, 500],
    ]);
    expect(recorder.of('call_succeeded')[0]).toMatchObject({ callId: 'r', tool: 'flaky', attempts: 4, durationMs: 900 });
    expect(jest.getTimerCount()).toBe(0);
    recorder.stop();
  });

  it('toolkit-wide (execution) policy, merged field by field under the tool policy', async () => {
    const inherits = flakyTool('inherits', 2, undefined);
    const overrides = flakyTool('overrides', 2, { retry: { initialBackoffMs: 10 } });
    const toolkit = toolkitWith([inherits.tool, overrides.tool], { execution: { maxAttempts: 3, initialBackoffMs: 50, backoffMultiplier: 2 } });
    const a = toolkit.callTool({ id: 'a', name: 'inherits', arguments: {} });
    const b = toolkit.callTool({ id: 'b', name: 'overrides', arguments: {} });
    await jest.advanceTimersByTimeAsync(1000);
    await expect(a).resolves.toMatchObject({ forLLM: 'ok after 3' });
    await expect(b).resolves.toMatchObject({ forLLM: 'ok after 3' });
    expect(inherits.startedAt).toEqual([0, 50, 150]);
    expect(overrides.startedAt).toEqual([0, 10, 30]); // own initialBackoffMs, toolkit's maxAttempts and multiplier
  });

  it('a decorated tool takes @Tool({ retry })', async () => {
    let calls = 0;
    class Quotes {
      @Tool({ description: 'Quote', retry: { maxAttempts: 2, initialBackoffMs: 250 } })
      async quote(@ToolParam({ name: 'symbol' }) symbol: string) {
        if (++calls === 1) throw new Error('rate limited');
        return `${symbol}: 42`;
      }
    }
    const toolkit = toolkitWith([]);
    toolkit.registerTool(new Quotes());
    const pending = toolkit.callTool({ id: 'q', name: 'quote', arguments: '{"symbol":"ACME"}' });
    await jest.advanceTimersByTimeAsync(249);
    expect(calls).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toMatchObject({ forLLM: 'ACME: 42' });
  });

  it('gives up after maxAttempts with the last error, the attempt count in the message and on call_failed', async () => {
    const { tool, startedAt } = flakyTool('down', 99, { retry: { maxAttempts: 3, initialBackoffMs: 10 } });
    const toolkit = toolkitWith([tool]);
    const recorder = recordEvents(toolkit);
    const pending = toolkit.callTool({ id: 'd', name: 'down', arguments: {} });
    await jest.advanceTimersByTimeAsync(100);
    const result = await pending;
    expect(startedAt).toEqual([0, 10, 30]);
    expect(result).toMatchObject({ isError: true, error: { code: 'EXECUTION_FAILED' } });
    expect(result.forLLM).toBe("Tool 'down' failed: 503 Service Unavailable (after 3 attempts)");
    const failed = recorder.of('call_failed')[0];
    expect(failed).toMatchObject({ attempts: 3 });
    expect((failed.cause as Error).message).toBe('503 Service Unavailable');
    expect(typesOf(recorder.events).filter((t) => t === 'attempt_failed')).toHaveLength(3);
    expect(typesOf(recorder.events).filter((t) => t === 'retry_scheduled')).toHaveLength(2);
    recorder.stop();
  });

  it('retryOn decides per error and attempt; a throwing predicate means no retry', async () => {
    class Transient extends Error {}
    const seen: [string, number][] = [];
    const retryOn = (error: unknown, attempt: number) => {
      seen.push([(error as Error).message, attempt]);
      return error instanceof Transient;
    };
    const transient = flakyTool('transient', 2, { retry: { maxAttempts: 5, initialBackoffMs: 1, retryOn } }, () => new Transient('blip'));
    const permanent = flakyTool('permanent', 2, { retry: { maxAttempts: 5, initialBackoffMs: 1, retryOn } }, () => new Error('404'));
    const broken = flakyTool(
      'broken',
      2,
      {
        retry: {
          maxAttempts: 5,
          initialBackoffMs: 1,
          retryOn: () => {
            throw new Error('bad predicate');
          },
        },
      },
      () => new Transient('blip'),
    );
    const toolkit = toolkitWith([transient.tool, permanent.tool, broken.tool]);
    const results = toolkit.callTools(['transient', 'permanent', 'broken'].map((name) => ({ id: name, name, arguments: {} })));
    await jest.advanceTimersByTimeAsync(100);
    const [t, p, b] = await results;
    expect(t).toMatchObject({ isError: false, forLLM: 'ok after 3' });
    expect(p).toMatchObject({ isError: true, forLLM: "Tool 'permanent' failed: 404" });
    expect(b).toMatchObject({ isError: true });
    expect(permanent.startedAt).toHaveLength(1);
    expect(broken.startedAt).toHaveLength(1);
    expect(seen).toEqual([
      ['blip', 1],
      ['404', 1],
      ['blip', 2],
    ]);
  });

  it('retries a timed-out attempt of an idempotent tool with a fresh signal (the timeout applies per attempt)', async () => {
    const signals: AbortSignal[] = [];
    const toolkit = toolkitWith([
      agentTool(
        'slow_once',
        (_args, ctx) => {
          signals.push(ctx.signal);
          return ctx.attempt === 1 ? new Promise(() => undefined) : Promise.resolve('second time lucky');
        },
        { timeoutMs: 200, retry: { maxAttempts: 2, initialBackoffMs: 50 }, annotations: { idempotent: true } },
      ),
    ]);
    const recorder = recordEvents(toolkit);
    const pending = toolkit.callTool({ id: 's', name: 'slow_once', arguments: {} });
    await jest.advanceTimersByTimeAsync(250);
    await expect(pending).resolves.toMatchObject({ isError: false, forLLM: 'second time lucky' });
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    expect(recorder.of('attempt_failed').map((e) => e.error.code)).toEqual(['TIMEOUT']);
    expect(recorder.of('call_succeeded')[0].attempts).toBe(2);
    recorder.stop();
  });

  it('jitter randomises each delay within ±jitter of itself', async () => {
    const random = jest.spyOn(Math, 'random');
    const { tool, startedAt } = flakyTool('jittery', 2, { retry: { maxAttempts: 3, initialBackoffMs: 100, backoffMultiplier: 2, jitter: 0.5 } });
    const toolkit = toolkitWith([tool]);
    random.mockReturnValueOnce(0).mockReturnValueOnce(0.999_999);
    const pending = toolkit.callTool({ id: 'j', name: 'jittery', arguments: {} });
    await jest.advanceTimersByTimeAsync(1000);
    await pending;
    expect(startedAt).toEqual([0, 50, 50 + 300]); // 100 × (1 − 0.5), then 200 × (1 + 0.5)
  });

  it('never retries invalid arguments, denied calls, missing context or error results the tool returned', async () => {
    let runs = 0;
    const retry = { maxAttempts: 5, initialBackoffMs: 1 };
    class Account {}
    const toolkit = toolkitWith([
      agentTool('strict', () => ++runs, { retry }, { n: { type: 'integer' } }),
      agentTool('guarded', () => ++runs, { retry }),
      agentTool('answers_error', () => (++runs, errorResult('not found', 'NOT_FOUND')), { retry }),
      agentTool(
        'needs_ctx',
        (_args, ctx) => {
          ++runs;
          if (!ctx.context.get(Account)) throw new ToolkitError('CONTEXT_MISSING', 'needs an Account');
          return 'ok';
        },
        { retry },
      ),
    ]);
    toolkit.use({ name: 'deny-guarded', before: (ctx) => (ctx.tool.name === 'guarded' ? { action: 'deny', reason: 'not allowed' } : undefined) });
    const recorder = recordEvents(toolkit);
    const pending = toolkit.callTools([
      { id: '1', name: 'strict', arguments: '{"n":"x"}' },
      { id: '2', name: 'guarded', arguments: {} },
      { id: '3', name: 'answers_error', arguments: {} },
      { id: '4', name: 'needs_ctx', arguments: {} },
    ]);
    await jest.advanceTimersByTimeAsync(100);
    const results = await pending;
    expect(results.map((r) => r.error?.code)).toEqual(['INVALID_ARGUMENTS', 'DENIED', 'NOT_FOUND', 'CONTEXT_MISSING']);
    expect(runs).toBe(2); // answers_error once, needs_ctx once
    expect(recorder.of('retry_scheduled')).toHaveLength(0);
    expect(recorder.of('call_failed').map((e) => [e.callId, e.attempts])).toEqual([
      ['1', 0],
      ['2', 0],
      ['3', 1],
      ['4', 1],
    ]);
    recorder.stop();
  });
});

describe('execution settings', () => {
  it('resolveExecution keeps base values for absent fields and makes nonsense safe', () => {
    const base = resolveExecution(DEFAULT_EXECUTION, { maxAttempts: 3, initialBackoffMs: 50 });
    expect(resolveExecution(base, { timeoutMs: 1000, maxAttempts: undefined })).toMatchObject({ timeoutMs: 1000, maxAttempts: 3, initialBackoffMs: 50, backoffMultiplier: 2 });
    expect(resolveExecution(base, { maxAttempts: 0, jitter: 7, initialBackoffMs: -5, timeoutMs: Infinity })).toMatchObject({
      maxAttempts: 1,
      jitter: 1,
      initialBackoffMs: 0,
      timeoutMs: 0,
    });
    expect(resolveExecution(base, { maxAttempts: Number.NaN }).maxAttempts).toBe(3);
    expect(resolveExecution(base, { timeoutMs: 1e12 }).timeoutMs).toBe(2_147_483_647);
  });

  it('backoffDelay: initial × multiplier^(n−1), jittered, capped', () => {
    const s = resolveExecution(DEFAULT_EXECUTION, { initialBackoffMs: 100, backoffMultiplier: 2, maxBackoffMs: 1000, jitter: 0.2 });
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay({ ...s, jitter: 0 }, n))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(s, 1, 0)).toBe(80);
    expect(backoffDelay(s, 1, 0.5)).toBe(100);
    expect(backoffDelay(s, 5, 0.99)).toBe(1000);
  });
});
