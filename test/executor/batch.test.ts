import type { ToolCall, ToolResult } from '../../src';
import { deferred, flushPromises, toolkitWith, useFakeTime, type Deferred } from './helpers';
import { agentTool } from '../support/toolkit';
import { recordEvents } from '../support/events';

/** A tool whose calls stay in flight until the test releases them; it counts in-flight calls. */
function gatedTool(name = 'work', behaviour: Parameters<typeof agentTool>[2] = undefined) {
  const state = { inFlight: 0, maxInFlight: 0, started: [] as string[], finished: [] as string[], gates: new Map<string, Deferred<string>>() };
  const tool = agentTool(
    name,
    async (args, ctx) => {
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      state.started.push(ctx.callId);
      const gate = deferred<string>();
      state.gates.set(ctx.callId, gate);
      try {
        return await gate.promise;
      } finally {
        state.inFlight--;
        state.finished.push(ctx.callId);
      }
    },
    behaviour,
    { n: { type: 'number' } },
  );
  const release = (callId: string, value = `done ${callId}`) => state.gates.get(callId)!.resolve(value);
  const fail = (callId: string, error: unknown) => state.gates.get(callId)!.reject(error);
  return { tool, state, release, fail };
}

const callsOf = (name: string, n: number, prefix = 'c'): ToolCall[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, name, arguments: { n: i } }));

/** Deterministic pseudo-random order (LCG) so a failure is reproducible. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('callTools: parallel under maxConcurrency', () => {
  it('runs at most maxConcurrency (default 5) calls at once, reaches the cap, and keeps call order', async () => {
    const { tool, state, release } = gatedTool();
    const toolkit = toolkitWith([tool]);
    const calls = callsOf('work', 23);
    const batch = toolkit.callTools(calls);
    await flushPromises();
    expect(state.inFlight).toBe(5);
    let releasedCount = 0;
    while (releasedCount < calls.length) {
      // release the oldest running call; the next waiting call takes its slot
      const running = state.started.filter((id) => !state.finished.includes(id));
      release(running[0]);
      releasedCount++;
      await flushPromises();
      expect(state.inFlight).toBeLessThanOrEqual(5);
      expect(state.inFlight).toBe(Math.min(5, calls.length - releasedCount));
    }
    const results = await batch;
    expect(state.maxInFlight).toBe(5);
    expect(state.started).toEqual(calls.map((c) => c.id)); // slots are granted in call order
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
    expect(results.map((r) => r.forLLM)).toEqual(calls.map((c) => `done ${c.id}`));
  });

  it.each([
    [1, 7],
    [3, 11],
    [8, 42],
  ])('with maxConcurrency %i and completions in random order (seed %i): cap held and reached, results in call order', async (cap, seed) => {
    const { tool, state, release } = gatedTool();
    const toolkit = toolkitWith([tool], { maxConcurrency: cap });
    const calls = callsOf('work', 40);
    const batch = toolkit.callTools(calls);
    await flushPromises();
    let observedMax = state.inFlight;
    while (state.finished.length < calls.length) {
      const running = state.started.filter((id) => !state.finished.includes(id));
      for (const id of shuffled(running, seed + state.finished.length).slice(0, Math.max(1, Math.floor(running.length / 2)))) release(id);
      await flushPromises();
      observedMax = Math.max(observedMax, state.inFlight);
      expect(state.inFlight).toBeLessThanOrEqual(cap);
    }
    const results = await batch;
    expect(state.maxInFlight).toBe(cap);
    expect(observedMax).toBe(cap);
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
    expect(results.every((r) => !r.isError && r.forLLM === `done ${r.toolCallId}`)).toBe(true);
  });

  it('a batch of 1,000 at maxConcurrency 100 never exceeds 100 and reaches it', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const tool = agentTool('tick', async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await flushPromises(3);
      inFlight--;
      return 'ok';
    });
    const toolkit = toolkitWith([tool], { maxConcurrency: 100 });
    const calls = callsOf('tick', 1000);
    const results = await toolkit.callTools(calls);
    expect(maxInFlight).toBe(100);
    expect(results).toHaveLength(1000);
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
  });

  it('returns [] for an empty batch', async () => {
    const toolkit = toolkitWith([agentTool('noop', () => 'x')]);
    await expect(toolkit.callTools([])).resolves.toEqual([]);
  });
});

describe("callTools: concurrency 'sequential' tools", () => {
  it('runs them one at a time in call order, beside the parallel calls (which they do not hold back)', async () => {
    const browser = gatedTool('browse', { concurrency: 'sequential' });
    const parallel = gatedTool('fetch');
    const toolkit = toolkitWith([browser.tool, parallel.tool], { maxConcurrency: 10 });
    const calls: ToolCall[] = [
      { id: 'b1', name: 'browse', arguments: {} },
      { id: 'p1', name: 'fetch', arguments: {} },
      { id: 'b2', name: 'browse', arguments: {} },
      { id: 'p2', name: 'fetch', arguments: {} },
      { id: 'b3', name: 'browse', arguments: {} },
      { id: 'p3', name: 'fetch', arguments: {} },
    ];
    const batch = toolkit.callTools(calls);
    await flushPromises();
    expect(browser.state.started).toEqual(['b1']);
    expect(parallel.state.started).toEqual(['p1', 'p2', 'p3']); // not blocked by the sequential lane
    parallel.release('p2');
    await flushPromises();
    expect(browser.state.started).toEqual(['b1']);
    browser.release('b1');
    await flushPromises();
    expect(browser.state.started).toEqual(['b1', 'b2']);
    expect(browser.state.inFlight).toBe(1);
    browser.release('b2');
    await flushPromises();
    expect(browser.state.started).toEqual(['b1', 'b2', 'b3']);
    browser.release('b3');
    parallel.release('p1');
    parallel.release('p3');
    const results = await batch;
    expect(browser.state.maxInFlight).toBe(1);
    expect(browser.state.finished).toEqual(['b1', 'b2', 'b3']);
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
  });

  it('a failing sequential call does not stop the next one in the lane', async () => {
    const browser = gatedTool('browse', { concurrency: 'sequential' });
    const toolkit = toolkitWith([browser.tool]);
    const batch = toolkit.callTools(callsOf('browse', 3, 'b'));
    await flushPromises();
    browser.fail('b0', new Error('page crashed'));
    await flushPromises();
    expect(browser.state.started).toEqual(['b0', 'b1']);
    browser.release('b1');
    await flushPromises();
    browser.release('b2');
    const results = await batch;
    expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ['b0', true],
      ['b1', false],
      ['b2', false],
    ]);
    expect(results[0].forLLM).toContain('page crashed');
  });
});

describe('callTools: failures are isolated', () => {
  afterEach(() => jest.useRealTimers());

  it('throwing, unknown, invalid, malformed and timing-out calls never lose or reorder the results of their siblings', async () => {
    useFakeTime();
    const toolkit = toolkitWith(
      [
        agentTool('ok', (args) => `ok ${String(args.n)}`, undefined, { n: { type: 'number' } }),
        agentTool('boom', () => {
          throw new Error('kaboom');
        }),
        agentTool('reject', () => Promise.reject(new Error('rejected'))),
        agentTool('hang', () => new Promise(() => undefined), { timeoutMs: 1000 }),
      ],
      { maxConcurrency: 3 },
    );
    const calls: ToolCall[] = [
      { id: '1', name: 'ok', arguments: '{"n":1}' },
      { id: '2', name: 'boom', arguments: '{}' },
      { id: '3', name: 'hang', arguments: '{}' },
      { id: '4', name: 'nope', arguments: '{}' },
      { id: '5', name: 'ok', arguments: '{"n":"x"}' },
      { id: '6', name: 'ok', arguments: '{"n":' },
      { id: '7', name: 'reject', arguments: '{}' },
      { id: '8', name: 'ok', arguments: '{"n":8}' },
    ];
    const recorder = recordEvents(toolkit);
    let settled: ToolResult[] | undefined;
    void toolkit.callTools(calls).then((r) => (settled = r));
    await jest.advanceTimersByTimeAsync(0);
    // every call but the hanging one is answered at once: the timeout holds one slot, not the batch
    const answered = recorder.events.filter((e) => e.type === 'call_succeeded' || e.type === 'call_failed').map((e) => ('callId' in e ? e.callId : ''));
    expect(answered.sort()).toEqual(['1', '2', '4', '5', '6', '7', '8']);
    expect(settled).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1000);
    expect(settled).toBeDefined();
    const results = settled!;
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
    expect(results.map((r) => r.error?.code ?? 'OK')).toEqual([
      'OK',
      'EXECUTION_FAILED',
      'TIMEOUT',
      'UNKNOWN_TOOL',
      'INVALID_ARGUMENTS',
      'MALFORMED_ARGUMENTS',
      'EXECUTION_FAILED',
      'OK',
    ]);
    expect(results[0].forLLM).toBe('ok 1');
    expect(results[7].forLLM).toBe('ok 8');
    recorder.stop();
  });

  it('a failing call frees its slot at once, so the next waiting call starts while slower siblings still run', async () => {
    const slow = gatedTool('slow');
    const toolkit = toolkitWith(
      [
        slow.tool,
        agentTool('boom', async () => {
          await Promise.resolve();
          throw new Error('kaboom');
        }),
        agentTool('quick', () => 'quick'),
      ],
      { maxConcurrency: 2 },
    );
    const recorder = recordEvents(toolkit);
    const batch = toolkit.callTools([
      { id: 's', name: 'slow', arguments: {} },
      { id: 'b', name: 'boom', arguments: {} },
      { id: 'q', name: 'quick', arguments: {} },
    ]);
    await flushPromises();
    expect(recorder.of('call_succeeded').map((e) => e.callId)).toEqual(['q']);
    expect(slow.state.inFlight).toBe(1);
    slow.release('s');
    const results = await batch;
    expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ['s', false],
      ['b', true],
      ['q', false],
    ]);
    recorder.stop();
  });
});

describe('callTools: parallel: false', () => {
  it('runs every call one after the other, in call order', async () => {
    const { tool, state, release } = gatedTool();
    const toolkit = toolkitWith([tool], { parallel: false, maxConcurrency: 10 });
    const calls = callsOf('work', 6);
    const batch = toolkit.callTools(calls);
    for (const call of calls) {
      await flushPromises();
      expect(state.inFlight).toBe(1);
      expect(state.started[state.started.length - 1]).toBe(call.id);
      release(call.id);
    }
    const results = await batch;
    expect(state.maxInFlight).toBe(1);
    expect(state.started).toEqual(calls.map((c) => c.id));
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
  });

  it('a failure does not stop the calls after it', async () => {
    let n = 0;
    const toolkit = toolkitWith(
      [
        agentTool('count', () => `#${++n}`),
        agentTool('boom', () => {
          throw new Error('kaboom');
        }),
      ],
      { parallel: false },
    );
    const results = await toolkit.callTools([
      { id: '1', name: 'count', arguments: {} },
      { id: '2', name: 'boom', arguments: {} },
      { id: '3', name: 'count', arguments: {} },
    ]);
    expect(results.map((r) => r.forLLM)).toEqual(['#1', "Tool 'boom' failed: kaboom", '#2']);
  });
});
