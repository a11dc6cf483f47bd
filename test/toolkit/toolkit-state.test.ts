import 'reflect-metadata';
import type { Subscription } from 'rxjs';
import { defineSkill, Tool, ToolParam, ToolService, type AgentTool, type ToolView } from '../../src';
import { call, expectAllSchemasMetaValid, names, newToolkit } from '../support/toolkit';
import { thrown } from '../support/errors';
import { recordEvents } from '../support/events';

afterAll(() => expectAllSchemasMetaValid());

@ToolService({ group: 'basic' })
class BasicService {
  @Tool({ description: 'Say hello' })
  hello(@ToolParam({ name: 'who', required: false }) who?: string) {
    return `hello ${who ?? 'world'}`;
  }
}

@ToolService({ group: 'admin' })
class AdminService {
  @Tool({ description: 'Delete a user', annotations: { destructive: true } })
  deleteUser(@ToolParam({ name: 'id' }) id: string) {
    return `deleted ${id}`;
  }

  @Tool({ description: 'Reset everything' })
  reset() {
    return 'reset';
  }
}

class FreeService {
  @Tool({ description: 'Always there' })
  always() {
    return 'here';
  }
}

function setup() {
  const toolkit = newToolkit();
  toolkit.createToolGroup('basic', 'Basic tools', true);
  toolkit.createToolGroup('admin', 'Admin tools', false);
  toolkit.registerTool(BasicService);
  toolkit.registerTool(AdminService);
  toolkit.registerTool(FreeService);
  return toolkit;
}

/** Subscribes to a view's activeTools$ and records each emitted list's names. */
function watch(view: ToolView): { lists: string[][]; raw: (readonly AgentTool[])[]; stop(): void } {
  const raw: (readonly AgentTool[])[] = [];
  const subscription: Subscription = view.activeTools$.subscribe((tools) => raw.push(tools));
  return {
    raw,
    get lists() {
      return raw.map(names);
    },
    stop: () => subscription.unsubscribe(),
  };
}

describe('groups', () => {
  it('lists and calls only tools of active groups (and ungrouped tools)', async () => {
    const toolkit = setup();
    expect(toolkit.getToolGroups()).toEqual([
      { name: 'basic', description: 'Basic tools', active: true },
      { name: 'admin', description: 'Admin tools', active: false },
    ]);
    expect(names(toolkit.getActiveTools())).toEqual(['hello', 'always']);
    expect(toolkit.getToolSchemas().map((s) => s.name)).toEqual(['hello', 'always']);
    expect(names(toolkit.getAllTools())).toEqual(['hello', 'delete_user', 'reset', 'always']);

    const disabled = await call(toolkit, 'delete_user', { id: '1' });
    expect(disabled).toMatchObject({
      isError: true,
      name: 'delete_user',
      error: { code: 'TOOL_DISABLED', message: "Tool 'delete_user' is disabled: its group 'admin' is not active." },
    });

    toolkit.updateToolGroups(['admin'], true);
    expect(toolkit.getActiveGroups()).toEqual(['basic', 'admin']);
    expect(names(toolkit.getActiveTools())).toEqual(['hello', 'delete_user', 'reset', 'always']);
    expect((await call(toolkit, 'delete_user', { id: '1' })).forLLM).toBe('deleted 1');

    toolkit.updateToolGroups(['admin', 'basic'], false);
    expect(names(toolkit.getActiveTools())).toEqual(['always']);
    expect((await call(toolkit, 'hello', {})).error?.code).toBe('TOOL_DISABLED');
    expect((await call(toolkit, 'always', {})).forLLM).toBe('here');
  });

  it('UNKNOWN_GROUP names the unknown and the known groups and changes nothing', () => {
    const toolkit = setup();
    const error = thrown(() => toolkit.updateToolGroups(['admin', 'nope'], true), 'UNKNOWN_GROUP');
    expect(error.message).toBe(
      "Unknown tool group(s): 'nope'. Known groups: basic, admin; create one with toolkit.createToolGroup(name, description, active).",
    );
    expect(toolkit.getActiveGroups()).toEqual(['basic']);
  });

  it('createToolGroup updates an existing group and toggles it in the toolkit view', () => {
    const toolkit = setup();
    toolkit.createToolGroup('basic', 'Renamed', false);
    expect(toolkit.getToolGroups()[0]).toEqual({ name: 'basic', description: 'Renamed', active: false });
    expect(names(toolkit.getActiveTools())).toEqual(['always']);
  });

  it('unknown tools get close-name suggestions', async () => {
    const toolkit = setup();
    const result = await call(toolkit, 'helo', {});
    expect(result.error?.code).toBe('UNKNOWN_TOOL');
    expect(result.forLLM).toBe("Unknown tool 'helo'. Did you mean 'hello'? Available tools: hello, always.");
  });
});

describe('activeTools$', () => {
  it('behaves like a BehaviorSubject: the current list at once, then a new list synchronously on every change', () => {
    const toolkit = setup();
    const watcher = watch(toolkit);
    expect(watcher.lists).toEqual([['hello', 'always']]);

    toolkit.updateToolGroups(['admin'], true);
    expect(watcher.lists.at(-1)).toEqual(['hello', 'delete_user', 'reset', 'always']);
    toolkit.updateToolGroups(['admin'], true); // no change, no emission
    expect(watcher.lists).toHaveLength(2);
    toolkit.updateToolGroups(['basic'], false);
    expect(watcher.lists.at(-1)).toEqual(['delete_user', 'reset', 'always']);

    const extra: AgentTool = { name: 'extra', description: 'Extra', parameters: { type: 'object', properties: {} }, execute: () => 'x' };
    toolkit.registerTool(extra);
    expect(watcher.lists.at(-1)).toEqual(['delete_user', 'reset', 'always', 'extra']);
    toolkit.unregisterTool('extra');
    expect(watcher.lists.at(-1)).toEqual(['delete_user', 'reset', 'always']);
    expect(toolkit.unregisterTool('extra')).toBe(false);
    expect(watcher.lists).toHaveLength(5);

    // each emission is a new array, equal to the snapshot getter at that moment
    expect(new Set(watcher.raw).size).toBe(watcher.raw.length);
    expect(watcher.raw.at(-1)).toEqual(toolkit.getActiveTools());

    // a late subscriber gets the current list at once
    const late = watch(toolkit);
    expect(late.lists).toEqual([['delete_user', 'reset', 'always']]);
    late.stop();
    watcher.stop();
  });

  it('emits when a skill is activated and deactivated (synchronously within the call)', async () => {
    const toolkit = setup();
    toolkit.registerSkill(defineSkill({ name: 'greeter', description: 'Greets', tools: ['hello'] }));
    const watcher = watch(toolkit);
    expect(watcher.lists).toEqual([['hello', 'always', 'list_skills', 'invoke_skill']]);
    const activation = toolkit.activateSkill('greeter');
    expect(watcher.lists.at(-1)).toEqual(['hello', 'list_skills', 'invoke_skill']);
    await activation;
    expect((await call(toolkit, 'always', {})).forLLM).toBe("Tool 'always' is disabled: skill 'greeter' is active and does not include it.");
    await toolkit.deactivateSkill();
    expect(watcher.lists.at(-1)).toEqual(['hello', 'always', 'list_skills', 'invoke_skill']);
    expect(watcher.lists).toHaveLength(3);
    watcher.stop();
  });

  it('emits a session-level toggle on the session only', () => {
    const toolkit = setup();
    const session = toolkit.session('s-1');
    const toolkitWatcher = watch(toolkit);
    const sessionWatcher = watch(session);
    session.updateToolGroups(['admin'], true);
    expect(sessionWatcher.lists).toEqual([
      ['hello', 'always'],
      ['hello', 'delete_user', 'reset', 'always'],
    ]);
    expect(toolkitWatcher.lists).toEqual([['hello', 'always']]);
    // a registration changes every view
    toolkit.registerTool({ name: 'extra', description: 'Extra', parameters: { type: 'object', properties: {} }, execute: () => 'x' });
    expect(sessionWatcher.lists.at(-1)).toEqual(['hello', 'delete_user', 'reset', 'always', 'extra']);
    expect(toolkitWatcher.lists.at(-1)).toEqual(['hello', 'always', 'extra']);
    toolkitWatcher.stop();
    sessionWatcher.stop();
  });

  it('is read-only (not a Subject)', () => {
    const toolkit = setup();
    expect((toolkit.activeTools$ as unknown as { next?: unknown }).next).toBeUndefined();
    expect((toolkit.events$ as unknown as { next?: unknown }).next).toBeUndefined();
  });

  it('emits groups_changed and tools_changed events', () => {
    const toolkit = setup();
    const recorder = recordEvents(toolkit);
    toolkit.updateToolGroups(['admin'], true);
    toolkit.session('s').updateToolGroups(['basic'], false);
    recorder.stop();
    expect(recorder.events).toEqual([
      { type: 'groups_changed', timestamp: expect.any(Number), activeGroups: ['basic', 'admin'] },
      { type: 'tools_changed', timestamp: expect.any(Number), tools: ['hello', 'delete_user', 'reset', 'always'] },
      { type: 'groups_changed', sessionId: 's', timestamp: expect.any(Number), activeGroups: ['admin'] },
      { type: 'tools_changed', sessionId: 's', timestamp: expect.any(Number), tools: ['delete_user', 'reset', 'always'] },
    ]);
  });
});

describe('provider definitions', () => {
  it('renders each provider form of the active tools', () => {
    const toolkit = setup();
    const hello = {
      type: 'object',
      properties: { who: { type: 'string' } },
      additionalProperties: false,
    };
    expect(toolkit.getToolSchemas()[0]).toEqual({ name: 'hello', description: 'Say hello', parameters: hello });
    expect(toolkit.toProviderDefs('openai')[0]).toEqual({
      type: 'function',
      function: { name: 'hello', description: 'Say hello', parameters: hello },
    });
    expect(toolkit.toProviderDefs('openai', { strict: true })[0]).toEqual({
      type: 'function',
      function: {
        name: 'hello',
        description: 'Say hello',
        strict: true,
        parameters: { type: 'object', properties: { who: { type: ['string', 'null'] } }, required: ['who'], additionalProperties: false },
      },
    });
    expect(toolkit.toProviderDefs('openai-responses')[0]).toEqual({ type: 'function', name: 'hello', description: 'Say hello', parameters: hello, strict: false });
    expect(toolkit.toProviderDefs('anthropic')[0]).toEqual({ name: 'hello', description: 'Say hello', input_schema: hello });
    expect(toolkit.toProviderDefs('gemini')[0]).toEqual({
      name: 'hello',
      description: 'Say hello',
      parameters: { type: 'object', properties: { who: { type: 'string' } } },
    });
    for (const provider of ['openai', 'openai-responses', 'anthropic', 'gemini'] as const) {
      expect(toolkit.toProviderDefs(provider)).toHaveLength(2);
    }
  });

  it('caches each form: the same array until a change, a new one after', () => {
    const toolkit = setup();
    const forms = () =>
      [
        toolkit.toProviderDefs('openai'),
        toolkit.toProviderDefs('openai', { strict: true }),
        toolkit.toProviderDefs('openai-responses'),
        toolkit.toProviderDefs('anthropic'),
        toolkit.toProviderDefs('gemini'),
      ] as unknown[][];
    const first = forms();
    expect(new Set(first).size).toBe(5);
    expect(forms()).toEqual(first);
    forms().forEach((defs, i) => expect(defs).toBe(first[i]));
    const schemas = toolkit.getToolSchemas();
    expect(toolkit.getToolSchemas()).toBe(schemas);

    const changes: (() => void)[] = [
      () => toolkit.updateToolGroups(['admin'], true),
      () => toolkit.registerTool({ name: 'extra', description: 'Extra', parameters: { type: 'object', properties: {} }, execute: () => 'x' }),
      () => toolkit.unregisterTool('extra'),
      () => toolkit.updateToolGroups(['admin'], false),
    ];
    let previous = first;
    for (const change of changes) {
      change();
      const next = forms();
      next.forEach((defs, i) => expect(defs).not.toBe(previous[i]));
      forms().forEach((defs, i) => expect(defs).toBe(next[i]));
      previous = next;
    }
    expect(toolkit.getToolSchemas()).not.toBe(schemas);
    // a session toggle does not invalidate the toolkit's cache
    toolkit.session('s').updateToolGroups(['admin'], true);
    forms().forEach((defs, i) => expect(defs).toBe(previous[i]));
  });
});

describe('registration', () => {
  it('registration() builder: several tools, a group, presets; registerTool(instance); registerTool(AgentTool)', async () => {
    const toolkit = newToolkit();
    toolkit.createToolGroup('ops', 'Ops', false);
    const registered = toolkit.registration().tool(AdminService).tool(new FreeService()).group('ops').apply();
    expect(names(registered)).toEqual(['delete_user', 'reset', 'always']);
    expect(registered.every((t) => t.behaviour?.group === 'ops')).toBe(true);
    expect(names(toolkit.getActiveTools())).toEqual([]);
    toolkit.updateToolGroups(['ops'], true);
    expect(names(toolkit.getActiveTools())).toEqual(['delete_user', 'reset', 'always']);
    expect((await call(toolkit, 'always', {})).forLLM).toBe('here');
  });

  it('a group named by a tool is created active (also in open sessions)', async () => {
    const toolkit = newToolkit();
    const session = toolkit.session('early');
    toolkit.registerTool(BasicService);
    expect(toolkit.getToolGroups()).toEqual([{ name: 'basic', description: '', active: true }]);
    expect(names(toolkit.getActiveTools())).toEqual(['hello']);
    expect(names(session.getActiveTools())).toEqual(['hello']);
    expect((await call(session, 'hello', {})).forLLM).toBe('hello world');
  });
});

describe('sessions', () => {
  it('are isolated from each other and from the toolkit', async () => {
    const toolkit = setup();
    const a = toolkit.session('a');
    const b = toolkit.session('b');
    expect(toolkit.session('a')).toBe(a);
    expect(a.id).toBe('a');
    a.updateToolGroups(['admin'], true);
    b.updateToolGroups(['basic'], false);
    expect(names(a.getActiveTools())).toEqual(['hello', 'delete_user', 'reset', 'always']);
    expect(names(b.getActiveTools())).toEqual(['always']);
    expect(names(toolkit.getActiveTools())).toEqual(['hello', 'always']);
    expect((await call(a, 'delete_user', { id: '7' })).forLLM).toBe('deleted 7');
    expect((await call(b, 'delete_user', { id: '7' })).error?.code).toBe('TOOL_DISABLED');
    expect((await call(toolkit, 'delete_user', { id: '7' })).error?.code).toBe('TOOL_DISABLED');
    expect((await call(b, 'hello', {})).error?.code).toBe('TOOL_DISABLED');

    // the toolkit's later toggles do not reach existing sessions
    toolkit.updateToolGroups(['basic'], false);
    expect(names(a.getActiveTools())).toEqual(['hello', 'delete_user', 'reset', 'always']);
    // a new session starts from the toolkit's current groups
    expect(names(toolkit.session('c').getActiveTools())).toEqual(['always']);
    expect(toolkit.getSessionIds()).toEqual(['a', 'b', 'c']);
    expect(a.toProviderDefs('anthropic')).not.toBe(b.toProviderDefs('anthropic'));
    expect(a.toProviderDefs('anthropic')).toHaveLength(4);
  });

  it('skills are per session', async () => {
    const toolkit = setup();
    toolkit.registerSkill(defineSkill({ name: 'greeter', description: 'Greets', tools: ['hello'] }));
    const a = toolkit.session('a');
    const b = toolkit.session('b');
    await a.activateSkill('greeter');
    expect(a.activeSkill).toBe('greeter');
    expect(b.activeSkill).toBeUndefined();
    expect(toolkit.activeSkill).toBeUndefined();
    expect((await call(a, 'always', {})).error?.code).toBe('TOOL_DISABLED');
    expect((await call(b, 'always', {})).forLLM).toBe('here');
  });

  it('expire after their TTL; a lookup extends it', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const toolkit = newToolkit({ sessionTtlMs: 1_000 });
      const a = toolkit.session('a');
      toolkit.session('b', { ttlMs: 5_000 });
      toolkit.session('forever', { ttlMs: Infinity });
      let completed = false;
      a.activeTools$.subscribe({ complete: () => (completed = true) });
      jest.setSystemTime(1_000_900);
      expect(toolkit.session('a')).toBe(a); // extends a to 1_001_900
      jest.setSystemTime(1_001_500);
      expect(toolkit.getSessionIds()).toEqual(['a', 'b', 'forever']);
      jest.setSystemTime(1_001_900);
      expect(toolkit.getSessionIds()).toEqual(['b', 'forever']);
      expect(completed).toBe(true);
      expect(toolkit.session('a')).not.toBe(a);
      jest.setSystemTime(1_010_000);
      expect(toolkit.getSessionIds()).toEqual(['forever']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('tag calls and events with the session id; close() completes its activeTools$', async () => {
    const toolkit = setup();
    const session = toolkit.session('s-9');
    const recorder = recordEvents(toolkit);
    const result = await call(session, 'hello', { who: 'x' });
    expect(result.forLLM).toBe('hello x');
    expect(recorder.events.map((e) => [e.type, e.sessionId])).toEqual([
      ['call_started', 's-9'],
      ['call_succeeded', 's-9'],
    ]);
    recorder.stop();
    let completed = false;
    session.activeTools$.subscribe({ complete: () => (completed = true) });
    session.close();
    expect(completed).toBe(true);
    expect(toolkit.getSessionIds()).toEqual([]);
  });
});
