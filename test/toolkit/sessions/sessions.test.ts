import 'reflect-metadata';
import { defineSkill } from '../../../src';
import { rejection, thrown } from '../../support/errors';
import { call, names } from '../../support/toolkit';
import { setupToolkit } from '../fixtures';

describe('sessions', () => {
  afterEach(() => jest.useRealTimers());

  it('start from the toolkit base groups with no skill, and never see the toolkit view later toggles', async () => {
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(defineSkill({ name: 'w', description: 'W', tools: ['summarise'] }));
    toolkit.updateToolGroups(['admin'], true);
    await toolkit.activateSkill('w');
    const session = toolkit.session('s');
    expect(session.activeSkill).toBeUndefined();
    expect(session.getActiveGroups()).toEqual(['search', 'admin']);
    await toolkit.deactivateSkill();
    toolkit.updateToolGroups(['search'], false);
    expect(session.getActiveGroups()).toEqual(['search', 'admin']);
    // a group created later (active) reaches every open session
    toolkit.createToolGroup('ops', 'Ops', true);
    expect(session.getActiveGroups()).toEqual(['search', 'admin', 'ops']);
    expect(toolkit.getActiveGroups()).toEqual(['admin', 'ops']);
  });

  it("keep their own TTL across lookups without options; use (calls, toggles, skills) extends it", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { toolkit } = setupToolkit({ sessionTtlMs: 1_000 });
    toolkit.registerSkill(defineSkill({ name: 'w', description: 'W', tools: ['summarise'] }));
    const long = toolkit.session('long', { ttlMs: 10_000 });
    const used = toolkit.session('used');
    const forever = toolkit.session('forever', { ttlMs: Infinity });
    jest.setSystemTime(1_000_500);
    expect(toolkit.session('long')).toBe(long); // keeps its 10 s TTL (not the toolkit's 1 s)
    await call(used, 'summarise', { text: 'x' }); // → 1_001_500
    jest.setSystemTime(1_001_200);
    used.updateToolGroups(['admin'], true); // → 1_002_200
    jest.setSystemTime(1_002_100);
    await used.activateSkill('w'); // → 1_003_100
    jest.setSystemTime(1_003_000);
    expect(toolkit.getSessionIds()).toEqual(['long', 'used', 'forever']);
    jest.setSystemTime(1_003_100);
    expect(toolkit.getSessionIds()).toEqual(['long', 'forever']);
    expect(used.closed).toBe(true);
    jest.setSystemTime(1_010_500);
    expect(toolkit.getSessionIds()).toEqual(['forever']);
    expect(forever.closed).toBe(false);
    // a new TTL replaces the old one
    toolkit.session('forever', { ttlMs: 100 });
    jest.setSystemTime(1_010_600);
    expect(toolkit.getSessionIds()).toEqual([]);
  });

  it('once closed: Observables complete, toggles and skills fail with SESSION_CLOSED, calls answer SESSION_CLOSED; a lookup starts afresh', async () => {
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(defineSkill({ name: 'w', description: 'W', tools: ['summarise'] }));
    const session = toolkit.session('s');
    session.updateToolGroups(['admin'], true);
    const completed: string[] = [];
    session.activeTools$.subscribe({ complete: () => completed.push('tools') });
    session.activeSkill$.subscribe({ complete: () => completed.push('skill') });
    session.availability$.subscribe({ complete: () => completed.push('availability') });
    session.close();
    session.close(); // idempotent
    expect(completed).toEqual(['tools', 'skill', 'availability']);
    expect(session.closed).toBe(true);
    expect(toolkit.getSessionIds()).toEqual([]);
    expect(thrown(() => session.updateToolGroups(['admin'], false), 'SESSION_CLOSED').message).toBe(
      "Session 's' is closed (it expired or was closed); get a new one with toolkit.session(id).",
    );
    await rejection(session.activateSkill('w'), 'SESSION_CLOSED');
    await rejection(session.deactivateSkill(), 'SESSION_CLOSED');
    const result = await call(session, 'summarise', { text: 'x' });
    expect(result).toMatchObject({ isError: true, name: 'summarise', error: { code: 'SESSION_CLOSED' } });
    // reads still work (the last state)
    expect(session.getActiveGroups()).toEqual(['search', 'admin']);
    const fresh = toolkit.session('s');
    expect(fresh).not.toBe(session);
    expect(fresh.getActiveGroups()).toEqual(['search']);
    // closing the stale object again does not close the new session
    session.close();
    expect(fresh.closed).toBe(false);
    expect(toolkit.getSessionIds()).toEqual(['s']);
  });

  it('are cheap: 10,000 sessions share one computed availability until they toggle', () => {
    const { toolkit } = setupToolkit();
    const started = performance.now();
    const sessions = Array.from({ length: 10_000 }, (_, i) => toolkit.session(`s${i}`));
    for (const session of sessions) session.getToolSchemas();
    const shared = new Set(sessions.map((s) => s.getAvailability()));
    expect(shared.size).toBe(1);
    sessions[7].updateToolGroups(['admin'], true);
    expect(names(sessions[7].getActiveTools())).toContain('delete_user');
    expect(names(sessions[8].getActiveTools())).not.toContain('delete_user');
    expect(toolkit.sessionCount).toBe(10_000);
    for (const session of sessions) session.close();
    expect(toolkit.sessionCount).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('closing a session with an active skill', () => {
  it('runs the skill onDeactivate, once', async () => {
    const { toolkit } = setupToolkit();
    const seen: (string | undefined)[] = [];
    toolkit.registerSkill(
      defineSkill({ name: 'researcher', description: 'Research', tools: ['web_search'], onDeactivate: (view) => void seen.push(view.sessionId) }),
    );
    const session = toolkit.session('closing');
    await session.activateSkill('researcher');
    session.close();
    session.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['closing']);
  });
});
