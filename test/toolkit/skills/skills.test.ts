import 'reflect-metadata';
import { Container } from 'inversify';
import { defineSkill, Toolkit, ToolkitError, type SkillDefinition, type ToolView } from '../../../src';
import { rejection, thrown } from '../../support/errors';
import { recordEvents } from '../../support/events';
import { call, names } from '../../support/toolkit';
import { setupToolkit } from '../fixtures';
import { objectSchema } from '../../support/schemas';

const research = defineSkill({
  name: 'research',
  description: 'Look things up on the web',
  tools: ['web_search'],
  requiredTools: ['fetch_page'],
  instructions: 'Cite every source.',
});
const writing = defineSkill({ name: 'writing', description: 'Write summaries', tools: ['summarise'] });

function setup() {
  const { toolkit, admin } = setupToolkit();
  toolkit.registerSkill(research);
  toolkit.registerSkill(writing);
  return { toolkit, admin };
}

const activeNames = (view: ToolView) => names(view.getActiveTools());

describe('defineSkill / registerSkill', () => {
  it('freezes the definition and keeps every field', () => {
    const onActivate = () => undefined;
    const skill = defineSkill({ name: 'a', description: 'A', tools: ['x'], requiredTools: ['y'], instructions: 'Do.', onActivate });
    expect(Object.isFrozen(skill)).toBe(true);
    expect(Object.isFrozen(skill.tools)).toBe(true);
    expect(skill).toEqual({ name: 'a', description: 'A', tools: ['x'], requiredTools: ['y'], instructions: 'Do.', onActivate });
  });

  it.each([
    [{ name: 'bad name', description: 'x', tools: [] }, "the name must be 1-64 letters, digits, '_' or '-'."],
    [{ name: 'a', description: ' ', tools: [] }, 'needs a description'],
    [{ name: 'a', description: 'x', tools: 'web_search' }, 'tools must be an array of tool names.'],
    [{ name: 'a', description: 'x', tools: [], requiredTools: [1] }, 'requiredTools must be an array of tool names.'],
    [{ name: 'a', description: 'x', tools: [], parameters: { type: 'object', properties: {} } }, 'parameters are for executable skills'],
    [{ name: 'a', description: 'x', tools: [], run: (): number => 1, steps: [{ tool: 't' }] }, 'define run or steps, not both.'],
    [{ name: 'a', description: 'x', tools: [], steps: [] }, 'steps must be a non-empty array'],
    [{ name: 'a', description: 'x', tools: [], run: (): number => 1, parameters: { type: 'string' } }, "type 'object' at the root"],
    [{ name: 'a', description: 'x', tools: [], run: (): number => 1, parameters: { type: 'object', properties: { n: { type: 'nope' } } } }, 'not a valid JSON Schema'],
    [{ name: 'a', description: 'x', tools: [], run: (): number => 1, risk: 'extreme' }, "risk must be 'low', 'medium' or 'high'"],
    [{ name: 'a', description: 'x', tools: [], run: (): number => 1, maxToolCalls: -1 }, 'maxToolCalls must be a number >= 0.'],
  ])('rejects a malformed skill with INVALID_DEFINITION naming the field (%#)', (skill, message) => {
    const error = thrown(() => defineSkill(skill as unknown as SkillDefinition), 'INVALID_DEFINITION');
    expect(error.message).toContain(message);
    // registerSkill checks plain objects the same way
    const { toolkit } = setupToolkit();
    expect(thrown(() => toolkit.registerSkill(skill as unknown as SkillDefinition), 'INVALID_DEFINITION').message).toBe(error.message);
  });

  it('checks requiredTools at registration with MISSING_REQUIRED_TOOLS and registers nothing', () => {
    const toolkit = new Toolkit({ container: new Container() });
    const error = thrown(() => toolkit.registerSkill(research), 'MISSING_REQUIRED_TOOLS');
    expect(error.message).toBe(
      "Skill 'research' requires tool(s) 'fetch_page' that are not registered. Register them (toolkit.registerTool) before the skill, or remove them from requiredTools. Registered tools: (none).",
    );
    expect(toolkit.getSkills()).toEqual([]);
    expect(toolkit.getAllTools()).toEqual([]); // no meta tools either
  });

  it('rejects a second skill of the same name', () => {
    const { toolkit } = setup();
    expect(thrown(() => toolkit.registerSkill(research), 'INVALID_DEFINITION').message).toBe(
      "Skill 'research' is already registered; skill names are unique.",
    );
    expect(toolkit.getSkills().map((s) => s.name)).toEqual(['research', 'writing']);
    expect(toolkit.getSkill('writing')).toBe(writing);
  });

  it('offers list_skills and invoke_skill once the first skill is registered', () => {
    const { toolkit } = setupToolkit();
    expect(activeNames(toolkit)).toEqual(['web_search', 'fetch_page', 'summarise', 'notify']);
    toolkit.registerSkill(writing);
    expect(activeNames(toolkit)).toEqual(['web_search', 'fetch_page', 'summarise', 'notify', 'list_skills', 'invoke_skill']);
    expect(toolkit.getAvailability().filter((a) => a.source === 'global')).toEqual([
      { name: 'list_skills', source: 'global' },
      { name: 'invoke_skill', source: 'global' },
    ]);
  });

  it('refuses to take over a tool of yours named like a meta tool (DUPLICATE_TOOL), and registers nothing', () => {
    const { toolkit } = setupToolkit();
    toolkit.registerTool({ name: 'invoke_skill', description: 'Mine', parameters: { type: 'object', properties: {} }, execute: () => 'mine' });
    expect(thrown(() => toolkit.registerSkill(writing), 'DUPLICATE_TOOL').message).toContain("Tool name 'invoke_skill' is taken: AgentTool 'invoke_skill'");
    expect(toolkit.getSkills()).toEqual([]);
    expect(toolkit.getTool('invoke_skill')?.description).toBe('Mine');
  });
});

describe('activateSkill / deactivateSkill', () => {
  it('scopes the view to the skill (tools and requiredTools) plus global tools; calls outside the scope are disabled', async () => {
    const { toolkit } = setup();
    toolkit.updateToolGroups(['admin'], true);
    await toolkit.activateSkill('research');
    expect(toolkit.activeSkill).toBe('research');
    expect(activeNames(toolkit)).toEqual(['web_search', 'fetch_page', 'list_skills', 'invoke_skill']);
    expect((await call(toolkit, 'web_search', { query: 'q' })).forLLM).toBe('results for q');
    const disabled = await call(toolkit, 'summarise', { text: 't' });
    expect(disabled.error).toEqual({ code: 'TOOL_DISABLED', message: "Tool 'summarise' is disabled: skill 'research' is active and does not include it." });
    expect((await call(toolkit, 'delete_user', { id: '1' })).error?.code).toBe('TOOL_DISABLED');
  });

  it('deactivation restores the previous state: groups switched on during the skill belong to it and end with it', async () => {
    const { toolkit } = setup();
    const before = { groups: toolkit.getActiveGroups(), tools: activeNames(toolkit) };
    expect(before.groups).toEqual(['search']);

    await toolkit.activateSkill('research');
    // the skill starts with no groups of its own
    expect(toolkit.getActiveGroups()).toEqual([]);
    expect(toolkit.getToolGroups().map((g) => [g.name, g.active])).toEqual([
      ['search', false],
      ['admin', false],
    ]);
    // switching a group on during the skill adds its tools to the skill's scope …
    toolkit.updateToolGroups(['admin'], true);
    expect(toolkit.getActiveGroups()).toEqual(['admin']);
    expect(activeNames(toolkit)).toEqual(['web_search', 'fetch_page', 'delete_user', 'audit', 'list_skills', 'invoke_skill']);
    expect(toolkit.getAvailability().find((a) => a.name === 'delete_user')).toEqual({ name: 'delete_user', source: 'component', owner: 'admin' });
    // … switching it on again changes nothing for the skill's own tools
    toolkit.updateToolGroups(['search'], true);
    expect(activeNames(toolkit)).toContain('web_search');

    await toolkit.deactivateSkill();
    expect(toolkit.activeSkill).toBeUndefined();
    expect({ groups: toolkit.getActiveGroups(), tools: activeNames(toolkit) }).toEqual(before);
    // deactivating again is a no-op
    await toolkit.deactivateSkill();
    expect(activeNames(toolkit)).toEqual(before.tools);
  });

  it('toolkit-level toggles made before the skill come back; a skill replaced by another restores the same base', async () => {
    const { toolkit } = setup();
    toolkit.updateToolGroups(['admin'], true);
    await toolkit.activateSkill('research');
    toolkit.updateToolGroups(['search'], true);
    await toolkit.activateSkill('writing'); // replaces research; its layer (search) is dropped
    expect(toolkit.activeSkill).toBe('writing');
    expect(activeNames(toolkit)).toEqual(['summarise', 'list_skills', 'invoke_skill']);
    await toolkit.deactivateSkill();
    expect(toolkit.getActiveGroups()).toEqual(['search', 'admin']);
  });

  it('re-activating the active skill changes nothing (its layer stays)', async () => {
    const { toolkit } = setup();
    const recorder = recordEvents(toolkit);
    await toolkit.activateSkill('research');
    toolkit.updateToolGroups(['admin'], true);
    await toolkit.activateSkill('research');
    expect(toolkit.getActiveGroups()).toEqual(['admin']);
    recorder.stop();
    expect(recorder.events.filter((e) => e.type === 'skill_changed')).toHaveLength(1);
  });

  it('rejects UNKNOWN_SKILL, and MISSING_REQUIRED_TOOLS when a required tool was unregistered since', async () => {
    const { toolkit } = setup();
    expect((await rejection(toolkit.activateSkill('nope'), 'UNKNOWN_SKILL')).message).toBe("Unknown skill 'nope'. Skills: research, writing.");
    toolkit.unregisterTool('fetch_page');
    const error = await rejection(toolkit.activateSkill('research'), 'MISSING_REQUIRED_TOOLS');
    expect(error.message).toContain("Skill 'research' cannot be activated: it requires tool(s) 'fetch_page' that are not registered any more.");
    expect(toolkit.activeSkill).toBeUndefined();
  });

  it('changes the view synchronously; hooks of one view run in order, after the change, with the view', async () => {
    const { toolkit } = setupToolkit();
    const log: string[] = [];
    const slow = (label: string) => async (view: ToolView) => {
      log.push(`${label} start (${view.activeSkill ?? '-'})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`${label} end`);
    };
    toolkit.registerSkill(defineSkill({ name: 'a', description: 'A', tools: ['web_search'], onActivate: slow('a+'), onDeactivate: slow('a-') }));
    toolkit.registerSkill(defineSkill({ name: 'b', description: 'B', tools: ['summarise'], onActivate: slow('b+'), onDeactivate: slow('b-') }));
    const first = toolkit.activateSkill('a');
    expect(toolkit.activeSkill).toBe('a');
    const second = toolkit.activateSkill('b');
    expect(toolkit.activeSkill).toBe('b');
    const third = toolkit.deactivateSkill();
    expect(toolkit.activeSkill).toBeUndefined();
    await Promise.all([first, second, third]);
    expect(log).toEqual(['a+ start (-)', 'a+ end', 'a- start (-)', 'a- end', 'b+ start (-)', 'b+ end', 'b- start (-)', 'b- end']);
  });

  it('a failing onActivate rejects with SKILL_FAILED and deactivates the skill again; a failing onDeactivate still deactivates', async () => {
    const { toolkit } = setupToolkit();
    const cause = new Error('no licence');
    toolkit.registerSkill(defineSkill({ name: 'broken', description: 'B', tools: ['web_search'], onActivate: () => Promise.reject(cause) }));
    toolkit.registerSkill(defineSkill({ name: 'sticky', description: 'S', tools: ['web_search'], onDeactivate: () => { throw new Error('nope'); } }));
    const error = await rejection(toolkit.activateSkill('broken'), 'SKILL_FAILED');
    expect(error.message).toBe("Skill 'broken': onActivate failed because no licence. The skill was deactivated again.");
    expect(error.cause).toBe(cause);
    expect(toolkit.activeSkill).toBeUndefined();
    expect(activeNames(toolkit)).toContain('summarise');

    await toolkit.activateSkill('sticky');
    expect((await rejection(toolkit.deactivateSkill(), 'SKILL_FAILED')).message).toBe("Skill 'sticky': onDeactivate failed because nope.");
    expect(toolkit.activeSkill).toBeUndefined();
  });
});

describe('activeSkill$', () => {
  it('behaves like a read-only BehaviorSubject: the current skill at once, then each change, synchronously', async () => {
    const { toolkit } = setup();
    const seen: (string | undefined)[] = [];
    const subscription = toolkit.activeSkill$.subscribe((s) => seen.push(s));
    expect(seen).toEqual([undefined]);
    void toolkit.activateSkill('research');
    expect(seen).toEqual([undefined, 'research']);
    toolkit.updateToolGroups(['admin'], true); // not a skill change
    void toolkit.activateSkill('writing');
    await toolkit.deactivateSkill();
    expect(seen).toEqual([undefined, 'research', 'writing', undefined]);
    const late: (string | undefined)[] = [];
    await toolkit.activateSkill('research');
    toolkit.activeSkill$.subscribe((s) => late.push(s)).unsubscribe();
    expect(late).toEqual(['research']);
    expect((toolkit.activeSkill$ as unknown as { next?: unknown }).next).toBeUndefined();
    expect(toolkit.activeSkill$).toBe(toolkit.activeSkill$);
    subscription.unsubscribe();
  });

  it('emits skill_changed and tools_changed events tagged with the session', async () => {
    const { toolkit } = setup();
    const recorder = recordEvents(toolkit);
    const session = toolkit.session('s1');
    await session.activateSkill('research');
    await session.activateSkill('writing');
    await session.deactivateSkill();
    recorder.stop();
    expect(recorder.events.map((e) => (e.type === 'skill_changed' ? [e.type, e.sessionId, e.previous, e.skill] : [e.type, e.sessionId]))).toEqual([
      ['skill_changed', 's1', undefined, 'research'],
      ['tools_changed', 's1'],
      ['skill_changed', 's1', 'research', 'writing'],
      ['tools_changed', 's1'],
      ['skill_changed', 's1', 'writing', undefined],
      ['tools_changed', 's1'],
    ]);
  });
});

describe('list_skills and invoke_skill', () => {
  it('list_skills describes every skill (text and data), marking the one active in the calling view', async () => {
    const { toolkit } = setup();
    const session = toolkit.session('s1');
    await session.activateSkill('writing');
    const listed = await call(session, 'list_skills');
    expect(listed.forLLM).toBe(
      'Skills (call invoke_skill with the name):\n' +
        '- research: Look things up on the web Tools: web_search, fetch_page.\n' +
        '- writing (active): Write summaries Tools: summarise.',
    );
    expect(listed.data).toEqual([
      { name: 'research', description: 'Look things up on the web', tools: ['web_search', 'fetch_page'], executable: false, active: false },
      { name: 'writing', description: 'Write summaries', tools: ['summarise'], executable: false, active: true },
    ]);
    expect((await call(toolkit, 'list_skills')).forLLM).not.toContain('(active)');
  });

  it('invoke_skill activates the skill in the CALLING session only and returns its instructions', async () => {
    const { toolkit } = setup();
    const a = toolkit.session('a');
    const b = toolkit.session('b');
    const result = await call(a, 'invoke_skill', '{"name":"research"}');
    expect(result).toMatchObject({
      isError: false,
      name: 'invoke_skill',
      forLLM: "Skill 'research' is active. Tools: web_search, fetch_page.\n\nCite every source.",
    });
    expect(a.activeSkill).toBe('research');
    expect(b.activeSkill).toBeUndefined();
    expect(toolkit.activeSkill).toBeUndefined();
    expect(activeNames(a)).toEqual(['web_search', 'fetch_page', 'list_skills', 'invoke_skill']);
    expect(activeNames(b)).toEqual(['web_search', 'fetch_page', 'summarise', 'notify', 'list_skills', 'invoke_skill']);
    // the toolkit's own view
    await call(toolkit, 'invoke_skill', { name: 'writing' });
    expect(toolkit.activeSkill).toBe('writing');
    expect(a.activeSkill).toBe('research');
  });

  it('invoke_skill of an unknown skill lists the skills (validation); missing required tools come back as an error result', async () => {
    const { toolkit } = setup();
    const unknown = await call(toolkit, 'invoke_skill', { name: 'nope' });
    expect(unknown.error?.code).toBe('INVALID_ARGUMENTS');
    expect(unknown.forLLM).toContain('\'name\': must be one of ["research","writing"], got "nope"');
    toolkit.unregisterTool('fetch_page');
    const missing = await call(toolkit, 'invoke_skill', { name: 'research' });
    expect(missing.error?.code).toBe('MISSING_REQUIRED_TOOLS');
    expect(toolkit.activeSkill).toBeUndefined();
  });

  it("reads invoke_skill's arguments once: routing to the skill's entry and validation share one parse", async () => {
    const { toolkit } = setup();
    let reads = 0;
    const args = {
      get name(): string {
        reads++;
        return 'writing';
      },
    };
    expect((await toolkit.callTool({ id: 'once', name: 'invoke_skill', arguments: args })).isError).toBe(false);
    expect(toolkit.activeSkill).toBe('writing');
    expect(reads).toBe(1);
  });

  it('the meta tools run without routing too (tool.execute by hand, in the session named by the context)', async () => {
    const { toolkit } = setup();
    const invoke = toolkit.getTool('invoke_skill')!;
    const ctx = { callId: 'x', toolName: 'invoke_skill', signal: new AbortController().signal, attempt: 1, sessionId: 'hand', context: { get: () => undefined }, emit: () => undefined };
    await invoke.execute({ name: 'writing' }, ctx);
    expect(toolkit.session('hand').activeSkill).toBe('writing');
    await expect(Promise.resolve().then(() => invoke.execute({ name: 'nope' }, ctx))).rejects.toThrow("Unknown skill 'nope'. Call list_skills to see the skills.");
    const list = toolkit.getTool('list_skills')!;
    expect(String((list.execute({}, ctx) as { forLLM: string }).forLLM)).toContain('writing (active)');
  });
});

describe('equip_tool_groups (opt-in)', () => {
  it('is off by default', async () => {
    const { toolkit } = setup();
    expect(toolkit.getTool('equip_tool_groups')).toBeUndefined();
    expect((await call(toolkit, 'equip_tool_groups', { add: ['admin'] })).error?.code).toBe('UNKNOWN_TOOL');
  });

  it('new Toolkit({ equipToolGroups: true }) offers it; it adds and removes groups in the calling session only', async () => {
    const { toolkit } = setupToolkit({ equipToolGroups: true });
    const tool = toolkit.getTool('equip_tool_groups')!;
    expect(tool.description).toBe(
      'Switch tool groups on (add) or off (remove) for this conversation; their tools appear or disappear. ' +
        'Call it with no arguments to see which groups are on. Groups: search (Web search), admin (Administration).',
    );
    expect(tool.parameters.properties.add).toEqual({ type: 'array', items: { type: 'string', enum: ['search', 'admin'] }, uniqueItems: true, description: 'Groups to switch on.' });
    const a = toolkit.session('a');
    const b = toolkit.session('b');
    const added = await call(a, 'equip_tool_groups', { add: ['admin'], remove: ['search'] });
    // registered by the constructor, equip_tool_groups comes first
    expect(added.forLLM).toBe('Active groups: admin. Available tools: equip_tool_groups, delete_user, audit, summarise, notify.');
    expect(added.data).toEqual({ activeGroups: ['admin'] });
    expect(a.getActiveGroups()).toEqual(['admin']);
    expect(b.getActiveGroups()).toEqual(['search']);
    expect(toolkit.getActiveGroups()).toEqual(['search']);
    // no arguments: just report
    expect((await call(b, 'equip_tool_groups', {})).forLLM).toBe('Active groups: search. Available tools: equip_tool_groups, web_search, fetch_page, summarise, notify.');
  });

  it('enableEquipToolGroups({ groups }) limits what the model may switch; errors name the allowed groups', async () => {
    const { toolkit } = setup();
    toolkit.enableEquipToolGroups({ groups: ['search'] });
    const schema = toolkit.getTool('equip_tool_groups')!.parameters;
    expect(objectSchema(schema.properties.add).items).toEqual({ type: 'string', enum: ['search'] });
    const refused = await call(toolkit, 'equip_tool_groups', { add: ['admin'] });
    expect(refused.error?.code).toBe('INVALID_ARGUMENTS'); // the enum already refuses it
    expect(refused.forLLM).toBe("Invalid arguments for tool 'equip_tool_groups':\n- 'add[0]': must be one of [\"search\"], got \"admin\"\nFix these and call the tool again.");
    // a listed group that does not exist is left out
    toolkit.enableEquipToolGroups({ groups: ['search', 'ghost'] });
    expect(objectSchema(toolkit.getTool('equip_tool_groups')!.parameters.properties.remove).items).toEqual({ type: 'string', enum: ['search'] });
    const both = await call(toolkit, 'equip_tool_groups', { add: ['search'], remove: ['search'] });
    expect(both.error?.message).toBe("Group(s) 'search' are both in add and remove; name each group once.");
    expect(toolkit.disableEquipToolGroups()).toBe(true);
    expect(toolkit.disableEquipToolGroups()).toBe(false);
    expect(toolkit.getTool('equip_tool_groups')).toBeUndefined();
  });

  it('lists groups created later, stays enabled under a skill, and its toggles end with the skill', async () => {
    const { toolkit } = setup();
    toolkit.enableEquipToolGroups();
    const watcher: string[][] = [];
    const subscription = toolkit.activeTools$.subscribe((tools) => watcher.push(names(tools)));
    toolkit.createToolGroup('ops', 'Operations', false);
    expect(toolkit.getTool('equip_tool_groups')!.description).toContain('Groups: search (Web search), admin (Administration), ops (Operations).');
    expect(watcher).toHaveLength(2); // the tool's definition changed
    await toolkit.activateSkill('writing');
    const result = await call(toolkit, 'equip_tool_groups', { add: ['admin'] });
    expect(result.forLLM).toBe(
      "Active groups: admin. Available tools: delete_user, audit, summarise, list_skills, invoke_skill, equip_tool_groups. Skill 'writing' is active: groups switched on now stay on only until it is deactivated.",
    );
    await toolkit.deactivateSkill();
    expect(toolkit.getActiveGroups()).toEqual(['search']);
    subscription.unsubscribe();
  });

  it('refuses to replace a tool of yours with the same name', () => {
    const { toolkit } = setupToolkit();
    toolkit.registerTool({ name: 'equip_tool_groups', description: 'Mine', parameters: { type: 'object', properties: {} }, execute: () => 'mine' });
    expect(thrown(() => toolkit.enableEquipToolGroups(), 'DUPLICATE_TOOL').tool).toBe('equip_tool_groups');
    expect(() => new Toolkit({ equipToolGroups: { groups: 'admin' as unknown as string[] } })).toThrow(ToolkitError);
  });
});

describe('renderPrompt', () => {
  it('renders the tools, groups and skills of the view', () => {
    const { toolkit } = setup();
    toolkit.enableEquipToolGroups();
    const lines = toolkit.renderPrompt().split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '## Available tools',
      '- web_search (group search): Search the web',
      '- fetch_page (group search): Fetch a page',
      '- summarise: Summarise a text',
      '- notify: Send a message with the API key preset',
    ]);
    expect(lines.slice(lines.indexOf('## Tool groups'))).toEqual([
      '## Tool groups',
      '- search (on): Web search',
      '- admin (off): Administration',
      'Switch groups on or off with equip_tool_groups.',
      '',
      '## Skills',
      '- research: Look things up on the web',
      '- writing: Write summaries',
      'Activate or run a skill with invoke_skill; list_skills shows their tools and parameters.',
    ]);
  });

  it("renders the active skill's instructions first and marks its tools; options leave sections out and cut descriptions", async () => {
    const { toolkit } = setup();
    const session = toolkit.session('s');
    await session.activateSkill('research');
    expect(session.renderPrompt({ groups: false, maxDescriptionChars: 20 })).toBe(
      [
        '## Active skill: research',
        'Look things up on t…',
        '',
        'Cite every source.',
        '',
        '## Available tools',
        '- web_search (skill research): Search the web',
        '- fetch_page (skill research): Fetch a page',
        '- list_skills: List the skills you…',
        '- invoke_skill: Invoke a skill by n…',
        '',
        '## Skills',
        '- research (active): Look things up on t…',
        '- writing: Write summaries',
        'Activate or run a skill with invoke_skill; list_skills shows their tools and parameters.',
      ].join('\n'),
    );
    expect(session.renderPrompt({ tools: false, groups: false, skills: false })).toBe('## Active skill: research\nLook things up on the web\n\nCite every source.');
    expect(new Toolkit({ container: new Container() }).renderPrompt()).toBe('');
  });
});
