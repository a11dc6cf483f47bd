import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, type AgentTool, type ToolEvent, type ToolkitOptions } from '../../../src';

/**
 * Regressions: a `before` (or `after`) hook that never resolved left a call with `timeoutMs: 100`
 * unanswered; a synchronous CPU-bound tool with `timeoutMs: 50` returned success after 2 s; a
 * timed-out tool not marked idempotent was retried while its first body could still be running.
 */
function toolkitWith(tools: AgentTool[], options: ToolkitOptions = {}) {
  const toolkit = new Toolkit({ container: new Container(), ...options });
  for (const tool of tools) toolkit.registerTool(tool);
  const events: ToolEvent[] = [];
  toolkit.events$.subscribe((e) => events.push(e));
  return { toolkit, events };
}

const busy = (ms: number): void => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a CPU-bound body that never yields
  }
};

const never = (): Promise<never> => new Promise<never>(() => undefined);

function tool(name: string, execute: AgentTool['execute'], behaviour: AgentTool['behaviour'] = { timeoutMs: 100 }): AgentTool {
  return { name, description: `The ${name} tool`, parameters: { type: 'object', properties: {} }, behaviour, execute };
}

describe('security: the timeout bounds the whole call', () => {
  it('a before hook that never resolves: TIMEOUT naming the hook, the tool never runs, and call_timed_out is emitted', async () => {
    let runs = 0;
    const { toolkit, events } = toolkitWith([tool('guarded', () => ++runs)]);
    toolkit.use({ name: 'stuck-policy', before: never });
    const result = await toolkit.callTool({ id: 'h1', name: 'guarded', arguments: {} });
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.forLLM).toBe("Tool 'guarded' timed out after 100 ms while hook 'stuck-policy' was running. Its work was cancelled; try again, or with a smaller request.");
    expect(runs).toBe(0);
    expect(events.filter((e) => e.type === 'call_timed_out')).toHaveLength(1);
  });

  it('an after hook that never resolves: TIMEOUT, the result is not delivered as a success', async () => {
    const { toolkit } = toolkitWith([tool('fast', () => 'done')]);
    toolkit.use({ name: 'stuck-audit', after: never });
    const result = await toolkit.callTool({ id: 'h2', name: 'fast', arguments: {} });
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.forLLM).toContain("while hook 'stuck-audit' was running");
  });

  it('the toolkit default timeout covers hooks as well', async () => {
    const { toolkit } = toolkitWith([tool('plain', () => 'x', undefined)], { execution: { timeoutMs: 80 } });
    toolkit.use({ name: 'slow', before: never });
    expect((await toolkit.callTool({ id: 'h3', name: 'plain', arguments: {} })).error?.code).toBe('TIMEOUT');
  });

  it("the caller's abort ends a call stuck in a hook at once", async () => {
    const { toolkit } = toolkitWith([tool('guarded', () => 'x', {})]);
    toolkit.use({ name: 'stuck', before: never });
    const controller = new AbortController();
    const pending = toolkit.callTool({ id: 'h4', name: 'guarded', arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 10);
    const result = await pending;
    expect(result.error?.code).toBe('ABORTED');
    expect(result.forLLM).toContain('user left');
  });

  it('hooks and the first attempt share the timeout: a slow hook leaves the tool what remains', async () => {
    jest.useFakeTimers();
    try {
      const signals: AbortSignal[] = [];
      const { toolkit } = toolkitWith([tool('rest', (_a, ctx) => (signals.push(ctx.signal), never()), { timeoutMs: 150 })]);
      toolkit.use({ name: 'slowish', before: () => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 100)) });
      let answered = false;
      const pending = toolkit.callTool({ id: 'h5', name: 'rest', arguments: {} }).then((r) => ((answered = true), r));
      await jest.advanceTimersByTimeAsync(160); // 150 ms in all, not 100 + 150
      expect(answered).toBe(true);
      expect((await pending).error?.code).toBe('TIMEOUT');
      expect(signals[0].aborted).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a preset resolver that never resolves ends with TIMEOUT', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool(
      { name: 'keyed', description: 'Uses a key', parameters: { type: 'object', properties: { key: { type: 'string' } } }, behaviour: { timeoutMs: 60 }, execute: () => 'ran' },
      { presets: { keyed: { key: never } } },
    );
    expect((await toolkit.callTool({ id: 'p1', name: 'keyed', arguments: {} })).error?.code).toBe('TIMEOUT');
  });
});

describe('security: a result that arrives after its deadline is a TIMEOUT, never a success', () => {
  it('a synchronous CPU-bound tool that overruns its timeout', async () => {
    const { toolkit, events } = toolkitWith([tool('crunch', () => (busy(150), 'crunched'), { timeoutMs: 50 })]);
    const result = await toolkit.callTool({ id: 't1', name: 'crunch', arguments: {} });
    expect(result.error?.code).toBe('TIMEOUT');
    expect(events.some((e) => e.type === 'call_succeeded')).toBe(false);
  });

  it('an async tool that blocks the event loop past its deadline before resolving', async () => {
    const { toolkit } = toolkitWith([
      tool(
        'hog',
        async () => {
          await Promise.resolve();
          busy(150);
          return 'hogged';
        },
        { timeoutMs: 50 },
      ),
    ]);
    expect((await toolkit.callTool({ id: 't2', name: 'hog', arguments: {} })).error?.code).toBe('TIMEOUT');
  });

  it('a timed-out tool not marked idempotent is not retried; an idempotent one is', async () => {
    let plain = 0;
    let idempotent = 0;
    const { toolkit } = toolkitWith([
      tool('charge', () => (++plain, never()), { timeoutMs: 30, retry: { maxAttempts: 3, initialBackoffMs: 1 } }),
      tool('lookup', () => (++idempotent === 3 ? 'found' : never()), { timeoutMs: 30, retry: { maxAttempts: 3, initialBackoffMs: 1 }, annotations: { idempotent: true } }),
    ]);
    const [charged, looked] = await toolkit.callTools([
      { id: 'r1', name: 'charge', arguments: {} },
      { id: 'r2', name: 'lookup', arguments: {} },
    ]);
    expect(charged.error?.code).toBe('TIMEOUT');
    expect(plain).toBe(1);
    expect(looked.forLLM).toBe('found');
    expect(idempotent).toBe(3);
  });

  it('a retryOn predicate decides for itself', async () => {
    let runs = 0;
    const { toolkit } = toolkitWith([tool('flaky', () => (++runs === 2 ? 'ok' : never()), { timeoutMs: 30, retry: { maxAttempts: 2, initialBackoffMs: 1, retryOn: () => true } })]);
    expect((await toolkit.callTool({ id: 'r3', name: 'flaky', arguments: {} })).forLLM).toBe('ok');
    expect(runs).toBe(2);
  });
});
