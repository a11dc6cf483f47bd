import { getEventListeners } from 'node:events';
import { unwatchAbort, watchAbort } from '../../src/executor/call/abort-watch';
import { DeadlineScheduler } from '../../src/executor/deadlines';
import { literalScrub, redactDeep } from '../../src/executor/presets/redact';
import { useFakeTime } from './helpers';

describe('DeadlineScheduler', () => {
  beforeEach(() => useFakeTime());
  afterEach(() => jest.useRealTimers());

  const target = (log: string[], name: string) => ({ onDeadline: () => log.push(`${name}@${Date.now()}`) });

  it('fires each deadline once, on time, in order, with a single Node timer', async () => {
    jest.setSystemTime(0);
    const scheduler = new DeadlineScheduler();
    const log: string[] = [];
    scheduler.schedule(300, target(log, 'a'));
    scheduler.schedule(100, target(log, 'b'));
    await jest.advanceTimersByTimeAsync(50);
    scheduler.schedule(100, target(log, 'c'));
    scheduler.schedule(300, target(log, 'd'));
    expect(jest.getTimerCount()).toBe(1);
    expect(scheduler.pending).toBe(4);
    await jest.advanceTimersByTimeAsync(400);
    expect(log).toEqual(['b@100', 'c@150', 'a@300', 'd@350']);
    expect([scheduler.pending, scheduler.retained, scheduler.armed, jest.getTimerCount()]).toEqual([0, 0, false, 0]);
  });

  it('cancelled deadlines never fire; cancelling the last one clears the timer; cancel is idempotent', async () => {
    const scheduler = new DeadlineScheduler();
    const log: string[] = [];
    const a = scheduler.schedule(100, target(log, 'a'));
    const b = scheduler.schedule(100, target(log, 'b'));
    a.cancel();
    a.cancel();
    expect(scheduler.pending).toBe(1);
    expect(scheduler.retained).toBe(1); // the dead head was skipped at once
    b.cancel();
    expect([scheduler.pending, scheduler.retained, scheduler.armed, jest.getTimerCount()]).toEqual([0, 0, false, 0]);
    await jest.advanceTimersByTimeAsync(200);
    expect(log).toEqual([]);
  });

  it('drops cancelled deadlines as soon as no live deadline precedes them (bounded by one timeout window)', () => {
    const scheduler = new DeadlineScheduler();
    const noop = { onDeadline: () => undefined };
    // FIFO completion, the common case: the queue never grows
    for (let i = 0; i < 5000; i++) scheduler.schedule(1000, noop).cancel();
    expect(scheduler.retained).toBe(0);
    // a long-running call at the head keeps the dead entries behind it until it ends…
    const head = scheduler.schedule(1000, noop);
    for (let i = 0; i < 50_000; i++) scheduler.schedule(1000, noop).cancel();
    const tail = scheduler.schedule(1000, noop);
    expect(scheduler.retained).toBe(50_002);
    // …then they go at once (and the array is compacted)
    head.cancel();
    expect([scheduler.pending, scheduler.retained]).toEqual([1, 1]);
    tail.cancel();
    expect([scheduler.pending, scheduler.retained, scheduler.armed]).toEqual([0, 0, false]);
  });

  it('a deadline may schedule another from its callback', async () => {
    jest.setSystemTime(0);
    const scheduler = new DeadlineScheduler();
    const log: string[] = [];
    scheduler.schedule(100, { onDeadline: () => (log.push(`first@${Date.now()}`), scheduler.schedule(100, target(log, 'second'))) });
    await jest.advanceTimersByTimeAsync(250);
    expect(log).toEqual(['first@100', 'second@200']);
    expect(scheduler.armed).toBe(false);
  });
});

describe('abort watch', () => {
  it('adds one listener per signal for any number of watchers and removes it with the last one', () => {
    const controller = new AbortController();
    const heard: number[] = [];
    const watchers = [0, 1, 2].map((i) => ({ onCallerAbort: () => heard.push(i) }));
    for (const w of watchers) watchAbort(controller.signal, w);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    unwatchAbort(controller.signal, watchers[1]);
    controller.abort();
    expect(heard).toEqual([0, 2]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const other = new AbortController();
    watchAbort(other.signal, watchers[0]);
    unwatchAbort(other.signal, watchers[0]);
    unwatchAbort(other.signal, watchers[0]);
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0);
  });
});

describe('redactDeep', () => {
  it('replaces secrets at any depth, copying only what changes', () => {
    const scrub = literalScrub(['hunter2-secret'])!;
    const clean = { a: 1, b: ['x', { c: 'y' }] };
    expect(redactDeep(clean, scrub)).toBe(clean);
    const dirty = { a: 'key=hunter2-secret', b: [{ c: 'hunter2-secret' }], keep: { z: 1 } };
    const safe = redactDeep(dirty, scrub) as typeof dirty;
    expect(safe).toEqual({ a: 'key=[REDACTED]', b: [{ c: '[REDACTED]' }], keep: { z: 1 } });
    expect(safe.keep).toBe(dirty.keep);
    expect(dirty.a).toBe('key=hunter2-secret');
    const error = redactDeep(new TypeError('bad hunter2-secret'), scrub) as Error;
    expect([error.name, error.message, error.stack?.includes('hunter2-secret')]).toEqual(['TypeError', 'bad [REDACTED]', false]);
    expect(redactDeep(new Map([['k', 'hunter2-secret']]), scrub)).toEqual(new Map([['k', '[REDACTED]']]));
    class Holder {
      constructor(readonly key: string) {}
    }
    expect(redactDeep(new Holder('hunter2-secret'), scrub)).toBe('[REDACTED]');
  });
});
