import 'reflect-metadata';
import { Principal, ToolExecutionContext, type AgentTool, type AuthorizeRequest } from '../../src';
import { Reports } from '../support/scoped-reports';
import { freshToolkit } from '../support/toolkit';

/**
 * `view.visibleTools$({ context })`: the reactive list of one caller. It lists only what that
 * caller may use, follows toggles, awaits an asynchronous `authorize` rule, drops a list whose
 * answers come after a newer one, and never lets a failing rule show a tool.
 */
const ann = ToolExecutionContext.of(new Principal('ann', { scopes: ['reports:write'] }));
const guest = ToolExecutionContext.of(new Principal('guest'));
const names = (tools: readonly AgentTool[]): string[] => tools.map((tool) => tool.name);

function setup(authorize?: (request: AuthorizeRequest) => boolean | 'approval' | Promise<boolean | 'approval'>) {
  const toolkit = freshToolkit(authorize === undefined ? {} : { authorize });
  toolkit.createToolGroup('admin', 'Admin tools', false);
  toolkit.registerTool(new Reports());
  toolkit.registerTool({
    name: 'purge',
    description: 'Purge everything',
    parameters: { type: 'object', properties: {} },
    behaviour: { scopes: ['admin'] },
    execute: () => 'purged',
  } as AgentTool, { group: 'admin' });
  return toolkit;
}

describe('visibleTools$: the active tools of one caller, as an Observable', () => {
  it('sends each caller only what it may use, at once and on every change that changes its list', () => {
    const toolkit = setup();
    const seen: Record<string, string[][]> = { ann: [], guest: [] };
    const subs = [
      toolkit.visibleTools$({ context: ann }).subscribe((tools) => seen.ann!.push(names(tools))),
      toolkit.visibleTools$({ context: guest }).subscribe((tools) => seen.guest!.push(names(tools))),
    ];
    expect(seen).toEqual({ ann: [['write_report', 'read_reports']], guest: [['read_reports']] });
    toolkit.updateToolGroups(['admin'], true); // purge needs scope 'admin': neither list changes, nothing is sent
    expect(seen).toEqual({ ann: [['write_report', 'read_reports']], guest: [['read_reports']] });
    const root = ToolExecutionContext.of(new Principal('root', { scopes: ['admin'] }));
    expect(names(toolkit.getActiveTools({ context: root }))).toContain('purge');
    toolkit.registerTool({ name: 'ping', description: 'Ping', parameters: { type: 'object', properties: {} }, execute: () => 'pong' } as AgentTool);
    expect(seen.ann!.at(-1)).toEqual(['write_report', 'read_reports', 'ping']);
    expect(seen.guest!.at(-1)).toEqual(['read_reports', 'ping']);
    subs.forEach((sub) => sub.unsubscribe());
  });

  it('in a session: follows the session’s own toggles', () => {
    const toolkit = setup();
    const admin = ToolExecutionContext.of(new Principal('root', { scopes: ['admin'] }));
    const session = toolkit.session('s1');
    const seen: string[][] = [];
    const sub = session.visibleTools$({ context: admin }).subscribe((tools) => seen.push(names(tools)));
    session.updateToolGroups(['admin'], true);
    session.updateToolGroups(['admin'], false);
    expect(seen).toEqual([['read_reports'], ['read_reports', 'purge'], ['read_reports']]);
    expect(names(toolkit.getActiveTools({ context: admin }))).toEqual(['read_reports']);
    sub.unsubscribe();
  });

  it('awaits an asynchronous rule: a tool the rule refuses never appears, even for a moment', async () => {
    jest.useFakeTimers();
    try {
      const answer = (value: boolean, ms: number) => new Promise<boolean>((resolve) => setTimeout(() => resolve(value), ms));
      const toolkit = setup(({ tool, principal }) => (tool.name === 'read_reports' ? answer(principal?.id === 'ann', 50) : true));
      const seen: string[][] = [];
      const sub = toolkit.visibleTools$({ context: guest }).subscribe((tools) => seen.push(names(tools)));
      expect(seen).toEqual([]); // the rule has not answered yet
      await jest.advanceTimersByTimeAsync(50);
      expect(seen).toEqual([[]]);
      const annSeen: string[][] = [];
      const annSub = toolkit.visibleTools$({ context: ann }).subscribe((tools) => annSeen.push(names(tools)));
      await jest.advanceTimersByTimeAsync(50);
      expect(annSeen).toEqual([['write_report', 'read_reports']]);
      sub.unsubscribe();
      annSub.unsubscribe();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a newer list wins over an older one still waiting for the rule', async () => {
    jest.useFakeTimers();
    try {
      let delay = 100;
      const toolkit = setup(({ tool }) => {
        const ms = tool.name === 'purge' ? delay : 1;
        return new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms));
      });
      const root = ToolExecutionContext.of(new Principal('root', { scopes: ['admin', 'reports:write'] }));
      const seen: string[][] = [];
      const sub = toolkit.visibleTools$({ context: root }).subscribe((tools) => seen.push(names(tools)));
      await jest.advanceTimersByTimeAsync(1);
      toolkit.updateToolGroups(['admin'], true); // the rule answers for purge after 100 ms…
      delay = 1;
      await jest.advanceTimersByTimeAsync(10);
      toolkit.updateToolGroups(['admin'], false); // …but this newer list is answered first
      await jest.advanceTimersByTimeAsync(200);
      expect(seen).toEqual([['write_report', 'read_reports']]);
      sub.unsubscribe();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a rule that throws or rejects hides the tool; the stream itself never errors', async () => {
    const toolkit = setup(({ tool }) => {
      if (tool.name === 'read_reports') throw new Error('policy down');
      return tool.name === 'write_report' ? Promise.reject(new Error('policy down')) : true;
    });
    const seen: string[][] = [];
    const errors: unknown[] = [];
    const sub = toolkit.visibleTools$({ context: ann }).subscribe({ next: (tools) => seen.push(names(tools)), error: (e) => errors.push(e) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([[]]);
    expect(errors).toEqual([]);
    sub.unsubscribe();
  });

  it('completes when the session closes', () => {
    const toolkit = setup();
    const session = toolkit.session('s2');
    let completed = false;
    session.visibleTools$({ context: ann }).subscribe({ complete: () => (completed = true) });
    session.close();
    expect(completed).toBe(true);
  });
});
