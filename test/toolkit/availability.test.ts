import 'reflect-metadata';
import { defineSkill, type AgentTool, type ToolAvailability } from '../../src';
import { agentTool, call, names } from '../support/toolkit';
import { setupToolkit } from './fixtures';

function setup() {
  const { toolkit } = setupToolkit();
  toolkit.registerSkill(defineSkill({ name: 'research', description: 'Research', tools: ['web_search', 'summarise'] }));
  return toolkit;
}

describe('one availability model', () => {
  it('says why each enabled tool is enabled: global meta tools, components by group or always on, skill tools', async () => {
    const toolkit = setup();
    expect(toolkit.getAvailability()).toEqual([
      { name: 'web_search', source: 'component', owner: 'search' },
      { name: 'fetch_page', source: 'component', owner: 'search' },
      { name: 'summarise', source: 'component' },
      { name: 'notify', source: 'component' },
      { name: 'list_skills', source: 'global' },
      { name: 'invoke_skill', source: 'global' },
    ]);
    await toolkit.activateSkill('research');
    toolkit.updateToolGroups(['search', 'admin'], true);
    expect(toolkit.getAvailability()).toEqual([
      { name: 'web_search', source: 'skill', owner: 'research' },
      { name: 'fetch_page', source: 'component', owner: 'search' },
      { name: 'delete_user', source: 'component', owner: 'admin' },
      { name: 'audit', source: 'component', owner: 'admin' },
      { name: 'summarise', source: 'skill', owner: 'research' },
      { name: 'list_skills', source: 'global' },
      { name: 'invoke_skill', source: 'global' },
    ]);
    // the enabled tools, their schemas and the call-time check all follow the same model
    const listed = toolkit.getAvailability().map((a) => a.name);
    expect(names(toolkit.getActiveTools())).toEqual(listed);
    expect(toolkit.getToolSchemas().map((s) => s.name)).toEqual(listed);
    for (const tool of toolkit.getAllTools()) {
      const result = await call(toolkit, tool.name, { query: 'q', url: 'u', id: '1', text: 't', to: 'x', name: 'research' });
      expect([tool.name, result.error?.code === 'TOOL_DISABLED']).toEqual([tool.name, !listed.includes(tool.name)]);
    }
  });

  it('availability$ and activeTools$ derive from the same change: current value at once, then each change', async () => {
    const toolkit = setup();
    const seen: { availability: string[]; tools: string[] }[] = [];
    let latestTools: string[] = [];
    const tools = toolkit.activeTools$.subscribe((list) => (latestTools = names(list)));
    const availability = toolkit.availability$.subscribe((list: readonly ToolAvailability[]) => seen.push({ availability: list.map((a) => a.name), tools: latestTools }));
    toolkit.updateToolGroups(['admin'], true);
    await toolkit.activateSkill('research');
    toolkit.registerTool(agentTool('late', () => 'late'));
    await toolkit.deactivateSkill();
    expect(seen).toHaveLength(5);
    for (const entry of seen) expect(entry.availability).toEqual(entry.tools);
    expect(seen.map((s) => s.availability.length)).toEqual([6, 8, 4, 4, 9]);
    expect((toolkit.availability$ as unknown as { next?: unknown }).next).toBeUndefined();
    tools.unsubscribe();
    availability.unsubscribe();
  });

  it('is computed once per state and shared (frozen) between views in the same state; lists handed out are per view and frozen', () => {
    const toolkit = setup();
    const a = toolkit.session('a');
    const b = toolkit.session('b');
    expect(a.getAvailability()).toBe(b.getAvailability());
    expect(a.toProviderDefs('anthropic')).toBe(b.toProviderDefs('anthropic'));
    expect(a.getToolSchemas()).toBe(toolkit.getToolSchemas());
    expect(Object.isFrozen(a.getAvailability())).toBe(true);
    expect(Object.isFrozen(a.toProviderDefs('openai'))).toBe(true);
    expect(Object.isFrozen(a.getToolSchemas())).toBe(true);
    // getActiveTools() is each view's own array, frozen: it cannot be changed, in this view or another
    expect(a.getActiveTools()).not.toBe(b.getActiveTools());
    // typed readonly, and frozen for whoever casts that away
    expect(() => (a.getActiveTools() as AgentTool[]).pop()).toThrow(TypeError);
    expect(names(b.getActiveTools())).toEqual(names(toolkit.getActiveTools()));

    a.updateToolGroups(['admin'], true);
    expect(a.getAvailability()).not.toBe(b.getAvailability());
    const defs = a.toProviderDefs('openai');
    expect(a.toProviderDefs('openai')).toBe(defs);
    // back to the same groups: the same shared computation again
    a.updateToolGroups(['admin'], false);
    expect(a.getAvailability()).toBe(b.getAvailability());
    // a registration changes every view
    const before = b.getAvailability();
    toolkit.registerTool(agentTool('late', () => 'late'));
    expect(b.getAvailability()).not.toBe(before);
    expect(b.getAvailability().at(-1)).toEqual({ name: 'late', source: 'component' });
  });
});
