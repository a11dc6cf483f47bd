import 'reflect-metadata';
import { ApprovalManager, APPROVAL_NOT_PENDING, isPendingApprovalResult } from '../../../src';
import {
  defineSkill,
  ToolExecutionContext,
  ToolkitError,
  type CallFailedEvent,
  type CallProgressEvent,
  type HookContext,
  type SkillContext,
  type ToolResult,
} from '../../../src';
import { recordEvents } from '../../support/events';
import { agentTool, call, names } from '../../support/toolkit';
import { setupToolkit, Tenant } from '../fixtures';
import { objectSchema } from '../../support/schemas';

const convert = defineSkill({
  name: 'convert',
  description: 'Convert euros to dollars',
  tools: [],
  risk: 'low',
  parameters: {
    type: 'object',
    properties: { eur: { type: 'number', minimum: 0 }, note: { type: 'string' } },
    required: ['eur'],
    additionalProperties: false,
  },
  run: ({ eur, note }) => ({ usd: (eur as number) * 2, ...(note !== undefined ? { note } : {}) }),
});

describe('invoke_skill runs executable skills', () => {
  it('validates the parameters against the skill schema and answers with the run output (text and data)', async () => {
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(convert);
    const result = await toolkit.callTool({ id: 'c1', name: 'invoke_skill', arguments: '{"name":"convert","parameters":{"eur":21}}' });
    expect(result).toEqual({ forLLM: '{"usd":42}', data: { usd: 42 }, silent: false, isError: false, async: false, toolCallId: 'c1', name: 'invoke_skill' });
    // a strict-mode model sends null for optionals: absent
    expect((await call(toolkit, 'invoke_skill', { name: 'convert', parameters: { eur: 1, note: null } })).data).toEqual({ usd: 2 });
    // the view's scope does not change
    expect(toolkit.activeSkill).toBeUndefined();
  });

  it.each([
    [{ name: 'convert' }, ["'parameters': is required but missing"]],
    [{ name: 'convert', parameters: { eur: 'ten' } }, ["'parameters.eur': must be number, got string"]],
    [{ name: 'convert', parameters: { eur: -1, cents: 5 } }, ["'parameters.eur': must be >= 0 (got -1)", "'parameters.cents': is not a parameter of this tool (remove it)"]],
    [{ name: 'convert', parameters: {}, extra: 1 }, ["'extra': is not a parameter of this tool (remove it)", "'parameters.eur': is required but missing"]],
  ])('reports each failing field of %j, and the skill does not run', async (args, problems) => {
    const { toolkit } = setupToolkit();
    let runs = 0;
    toolkit.registerSkill(defineSkill({ ...convert, run: () => ++runs }));
    const result = await call(toolkit, 'invoke_skill', args);
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM.split('\n').slice(1, -1).sort()).toEqual(problems.map((p) => `- ${p}`).sort());
    expect(runs).toBe(0);
  });

  it('lists parameters and risk in list_skills and offers them in the invoke_skill schema (strict-mode ready)', async () => {
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(convert);
    const listed = await call(toolkit, 'list_skills');
    expect(listed.forLLM).toBe(
      'Skills (call invoke_skill with the name and, for skills that run, the parameters):\n' +
        `- convert: Convert euros to dollars Runs when invoked with parameters ${JSON.stringify(convert.parameters)}. Risk: low.`,
    );
    const schema = toolkit.getTool('invoke_skill')!.parameters;
    expect(schema.properties.parameters).toEqual({ ...convert.parameters, description: "The skill's parameters, for skills that run (see list_skills)." });
    toolkit.registerSkill(defineSkill({ ...convert, name: 'convert2', parameters: { type: 'object', properties: { x: { type: 'string' } } } }));
    expect(objectSchema(toolkit.getTool('invoke_skill')!.parameters.properties.parameters).anyOf).toHaveLength(2);
    expect(() => toolkit.toProviderDefs('openai', { strict: true })).not.toThrow();
  });

  it('a workflow calls tools through the toolkit: hooks, validation, presets and context apply, in the calling session', async () => {
    const { toolkit } = setupToolkit();
    const seen: string[] = [];
    toolkit.use({ name: 'recorder', before: (ctx: HookContext) => void seen.push(`${ctx.call.id} ${ctx.tool.name} ${ctx.sessionId ?? '-'}`) });
    const results: ToolResult[] = [];
    toolkit.registerSkill(
      defineSkill({
        name: 'ops',
        description: 'Operations workflow',
        tools: ['notify', 'audit', 'web_search'],
        grantGroups: ['admin'],
        run: async (_params, ctx) => {
          results.push(await ctx.callTool('notify', { to: 'ops' })); // preset apiKey filled in
          results.push(await ctx.callTool('notify', { to: 'ops', apiKey: 'mine' })); // presets stay hidden
          results.push(await ctx.callTool('audit')); // admin group is off in the session, but the skill grants it
          results.push(await ctx.callTool('web_search', { query: 42 })); // invalid arguments
          results.push(await ctx.callTool('summarise', { text: 'x' })); // not in the skill
          return `made ${ctx.toolCalls} calls at depth ${ctx.depth} in ${ctx.sessionId}`;
        },
      }),
    );
    const session = toolkit.session('s7');
    const context = ToolExecutionContext.of(new Tenant('acme'));
    const result = await session.callTool({ id: 'w1', name: 'invoke_skill', arguments: { name: 'ops' } }, { context });
    expect(result.forLLM).toBe('made 5 calls at depth 1 in s7');
    expect(results.map((r) => r.forLLM.split('\n')[0])).toEqual([
      'sent to ops with the preset key',
      "Invalid arguments for tool 'notify':",
      'audit of acme',
      "Invalid arguments for tool 'web_search':",
      "Tool 'summarise' is not available to skill 'ops': list it in the skill's tools to call it from the skill.",
    ]);
    expect(results.map((r) => r.toolCallId)).toEqual(['w1.1', 'w1.2', 'w1.3', 'w1.4', 'w1.5']);
    expect(seen).toEqual(['w1 invoke_skill s7', 'w1.1 notify s7', 'w1.3 audit s7']);
  });

  it('streams progress on events$ and to onProgress; the nested calls show up as calls of their own', async () => {
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(
      defineSkill({
        name: 'digest',
        description: 'Search then summarise',
        tools: ['web_search', 'summarise'],
        parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
        steps: [
          { tool: 'web_search', arguments: ({ params }) => ({ query: params.topic }) },
          { tool: 'summarise', arguments: ({ previous }) => ({ text: previous!.forLLM }) },
        ],
      }),
    );
    const recorder = recordEvents(toolkit);
    const progress: string[] = [];
    const result = await toolkit.callTool(
      { id: 'd1', name: 'invoke_skill', arguments: { name: 'digest', parameters: { topic: 'cats' } } },
      { onProgress: (p) => progress.push(`${p.callId} ${p.message}`) },
    );
    recorder.stop();
    expect(result).toMatchObject({ isError: false, forLLM: 'summary(results for cats)' });
    expect(progress).toEqual(['d1 step 1/2: web_search', 'd1 step 2/2: summarise', 'd1 done']);
    expect(recorder.events.filter((e) => e.type !== 'call_progress').map((e) => `${e.type} ${(e as { callId: string }).callId}`)).toEqual([
      'call_started d1',
      'call_started d1.1',
      'call_succeeded d1.1',
      'call_started d1.2',
      'call_succeeded d1.2',
      'call_succeeded d1',
    ]);
    const first = recorder.events.find((e): e is CallProgressEvent => e.type === 'call_progress')!;
    expect(first).toMatchObject({ callId: 'd1', tool: 'invoke_skill', progress: { progress: 0, total: 2, message: 'step 1/2: web_search' } });
  });

  it('a failing step stops the workflow and says which step failed', async () => {
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(
      defineSkill({ name: 'bad', description: 'Bad steps', tools: [], steps: [{ tool: 'web_search', arguments: {} }, { tool: 'summarise', arguments: { text: 'never' } }] }),
    );
    const result = await call(toolkit, 'invoke_skill', { name: 'bad' });
    expect(result.error?.code).toBe('SKILL_FAILED');
    expect(result.forLLM).toMatch(/^Skill 'bad' failed at step 1\/2 \('web_search'\): Invalid arguments for tool 'web_search':\n- 'query': is required but missing/);
  });

  it('an async generator run streams each yield as progress and answers with its return value', async () => {
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(
      defineSkill({
        name: 'count',
        description: 'Counts',
        tools: [],
        run: async function* () {
          yield 'one';
          yield { progress: 2, total: 2 };
          return 'counted';
        },
      }),
    );
    const progress: unknown[] = [];
    const result = await call(toolkit, 'invoke_skill', { name: 'count' }, { onProgress: (p) => progress.push(p.message ?? p.progress) });
    expect(result.forLLM).toBe('counted');
    expect(progress).toEqual(['one', 2]);
  });

  it('what the run throws becomes an EXECUTION_FAILED result naming the skill; the original error travels on events$', async () => {
    const { toolkit } = setupToolkit({ execution: { maxAttempts: 3, initialBackoffMs: 0 } });
    const boom = new Error('boom');
    let runs = 0;
    toolkit.registerSkill(defineSkill({ name: 'explode', description: 'Throws', tools: [], run: () => { runs++; throw boom; } }));
    const recorder = recordEvents(toolkit);
    const result = await call(toolkit, 'invoke_skill', { name: 'explode' });
    recorder.stop();
    expect(result.error).toEqual({ code: 'EXECUTION_FAILED', message: "Tool 'invoke_skill' failed: skill 'explode': boom" });
    expect(runs).toBe(1); // never retried, whatever the toolkit's retry policy
    const failed = recorder.events.find((e): e is CallFailedEvent => e.type === 'call_failed')!;
    expect((failed.cause as Error).cause).toBe(boom);
  });

  it('a workflow cannot activate a scoping skill, and its context stops working once the run ended', async () => {
    const { toolkit } = setupToolkit();
    let kept: SkillContext | undefined;
    toolkit.registerSkill(defineSkill({ name: 'scope', description: 'Scopes', tools: ['web_search'] }));
    toolkit.registerSkill(
      defineSkill({
        name: 'outer',
        description: 'Tries',
        tools: [],
        run: async (_p, ctx) => {
          kept = ctx;
          return (await ctx.invokeSkill('scope')).forLLM;
        },
      }),
    );
    const result = await call(toolkit, 'invoke_skill', { name: 'outer' });
    expect(result.forLLM).toBe("Skill 'scope' only scopes tools; a skill's workflow can invoke only skills that run (with run or steps).");
    expect(toolkit.activeSkill).toBeUndefined();
    const late = await kept!.callTool('web_search', { query: 'x' });
    expect(late.error).toEqual({ code: 'ABORTED', message: "Skill 'outer' has finished; its context cannot call tools any more." });
  });
});

describe('limits', () => {
  afterEach(() => jest.useRealTimers());

  it('times out a run (default 60 s): the result is TIMEOUT and the nested call in flight is aborted', async () => {
    jest.useFakeTimers();
    const { toolkit } = setupToolkit();
    const aborted: string[] = [];
    toolkit.registerTool(
      agentTool('wait', (_a, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => (aborted.push(ctx.callId), reject(ctx.signal.reason))))),
    );
    toolkit.registerSkill(defineSkill({ name: 'slow', description: 'Waits', tools: ['wait'], run: async (_p, ctx) => (await ctx.callTool('wait')).forLLM }));
    toolkit.registerSkill(defineSkill({ name: 'quick', description: 'Waits less', tools: ['wait'], timeoutMs: 50, run: async (_p, ctx) => (await ctx.callTool('wait')).forLLM }));
    const slow = toolkit.callTool({ id: 's', name: 'invoke_skill', arguments: { name: 'slow' } });
    const quick = toolkit.callTool({ id: 'q', name: 'invoke_skill', arguments: { name: 'quick' } });
    await jest.advanceTimersByTimeAsync(50);
    expect((await quick).error?.code).toBe('TIMEOUT');
    expect((await quick).forLLM).toMatch(/^Tool 'invoke_skill' timed out after 50 ms/);
    expect(aborted).toEqual(['q.1']);
    await jest.advanceTimersByTimeAsync(59_950);
    expect((await slow).error?.message).toMatch(/timed out after 60000 ms/);
    expect(aborted).toEqual(['q.1', 's.1']);
  });

  it('caps the tool calls of a run: the call over the cap stops it with SKILL_LIMIT_EXCEEDED', async () => {
    const { toolkit } = setupToolkit({ skills: { maxToolCalls: 5 } });
    let searches = 0;
    let signal: AbortSignal | undefined;
    toolkit.registerTool(agentTool('tick', () => ++searches));
    toolkit.registerSkill(
      defineSkill({
        name: 'loop',
        description: 'Loops',
        tools: ['tick'],
        maxToolCalls: 3,
        run: async (_p, ctx) => {
          signal = ctx.signal;
          for (let i = 0; i < 10; i++) await ctx.callTool('tick');
          return 'finished';
        },
      }),
    );
    const result = await call(toolkit, 'invoke_skill', { name: 'loop' });
    expect(result.error).toEqual({
      code: 'SKILL_LIMIT_EXCEEDED',
      message: "Skill 'loop' was stopped: it tried to make more than 3 tool calls (its limit). Invoke it with a smaller request, or raise maxToolCalls in its definition.",
    });
    expect(searches).toBe(3);
    expect(signal?.aborted).toBe(true);
    // the toolkit-wide default applies to skills without their own cap
    toolkit.registerSkill(defineSkill({ name: 'batch', description: 'Batches', tools: ['tick'], run: async (_p, ctx) => (await ctx.callTools(Array.from({ length: 6 }, () => ({ name: 'tick' })))).map((r) => r.isError) }));
    searches = 0;
    const batch = await call(toolkit, 'invoke_skill', { name: 'batch' });
    expect(batch.error?.code).toBe('SKILL_LIMIT_EXCEEDED');
    expect(searches).toBe(5);
  });

  it('limits the composition depth of skills invoking skills (default 3)', async () => {
    const depths: number[] = [];
    const recurse = defineSkill({
      name: 'recurse',
      description: 'Invokes itself',
      tools: [],
      run: async (_p: Record<string, unknown>, ctx: SkillContext): Promise<string> => {
        depths.push(ctx.depth);
        const inner = await ctx.invokeSkill('recurse');
        return `${ctx.depth}(${inner.isError ? inner.error!.code : inner.forLLM})`;
      },
    });
    const { toolkit } = setupToolkit();
    toolkit.registerSkill(recurse);
    const result = await call(toolkit, 'invoke_skill', { name: 'recurse' });
    expect(result.forLLM).toBe('1(2(3(SKILL_LIMIT_EXCEEDED)))');
    expect(depths).toEqual([1, 2, 3]);

    const shallow = setupToolkit({ skills: { maxDepth: 1 } }).toolkit;
    shallow.registerSkill(recurse);
    let message = '';
    shallow.registerSkill(defineSkill({ name: 'probe', description: 'Probe', tools: [], run: async (_p, ctx) => (message = (await ctx.invokeSkill('recurse')).forLLM) }));
    await call(shallow, 'invoke_skill', { name: 'probe' });
    expect(message).toBe("Skill 'recurse' was not run: skills invoking skills (probe > recurse) would nest 2 deep; the limit is 1.");
  });

  it('a caller abort stops the run and its nested calls', async () => {
    const { toolkit } = setupToolkit();
    const controller = new AbortController();
    const seen: string[] = [];
    toolkit.registerTool(agentTool('hang', (_a, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => (seen.push('nested aborted'), reject(new Error('stop')))))));
    toolkit.registerSkill(defineSkill({ name: 'hangs', description: 'Hangs', tools: ['hang'], run: async (_p, ctx) => (await ctx.callTool('hang')).forLLM }));
    const pending = call(toolkit, 'invoke_skill', { name: 'hangs' }, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('user left'));
    expect((await pending).error?.code).toBe('ABORTED');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['nested aborted']);
  });
});

describe('approval by risk level', () => {
  function approvalSetup() {
    const { toolkit, admin } = setupToolkit();
    const approvals = new ApprovalManager({ minRisk: 'high' });
    toolkit.use(approvals.hook);
    let wipes = 0;
    toolkit.registerSkill(
      defineSkill({
        name: 'wipe',
        description: 'Wipe a tenant',
        tools: [],
        risk: 'high',
        parameters: { type: 'object', properties: { tenant: { type: 'string' } }, required: ['tenant'] },
        run: ({ tenant }) => `wiped ${String(tenant)} (${++wipes})`,
      }),
    );
    toolkit.registerSkill(convert);
    toolkit.registerSkill(
      defineSkill({
        name: 'cleanup',
        description: 'Deletes users step by step',
        tools: ['delete_user', 'summarise'],
        grantGroups: ['admin'],
        steps: [{ tool: 'summarise', arguments: { text: 'plan' } }, { tool: 'delete_user', arguments: { id: 'u1' } }, { tool: 'summarise', arguments: { text: 'done' } }],
      }),
    );
    return { toolkit, admin, approvals, wipes: () => wipes };
  }

  it("holds invoke_skill of a skill whose risk meets the policy; approve runs it once and answers the original call", async () => {
    const { toolkit, approvals, wipes } = approvalSetup();
    const session = toolkit.session('s1');
    const held = await session.callTool({ id: 'w1', name: 'invoke_skill', arguments: { name: 'wipe', parameters: { tenant: 'acme' } } });
    expect(isPendingApprovalResult(held)).toBe(true);
    expect(wipes()).toBe(0);
    const [pending] = approvals.pending();
    expect(pending).toMatchObject({
      toolName: 'invoke_skill',
      arguments: { name: 'wipe', parameters: { tenant: 'acme' } },
      sessionId: 's1',
      reason: "tool 'invoke_skill' has risk level 'high'",
    });
    // a low-risk skill runs at once
    expect((await session.callTool({ id: 'c1', name: 'invoke_skill', arguments: { name: 'convert', parameters: { eur: 1 } } })).forLLM).toBe('{"usd":2}');

    const approved = await approvals.approve(pending.id, { toolkit });
    expect(approved).toMatchObject({ isError: false, forLLM: 'wiped acme (1)', toolCallId: 'w1', name: 'invoke_skill' });
    await expect(approvals.approve(pending.id, { toolkit })).rejects.toMatchObject({ code: APPROVAL_NOT_PENDING });
    expect(wipes()).toBe(1);
  });

  it('a rejected skill never runs', async () => {
    const { toolkit, approvals, wipes } = approvalSetup();
    await call(toolkit, 'invoke_skill', { name: 'wipe', parameters: { tenant: 'acme' } });
    const rejection = await approvals.reject(approvals.pending()[0].id, 'not today');
    expect(rejection.error?.code).toBe('APPROVAL_REJECTED');
    expect(wipes()).toBe(0);
  });

  it("a workflow's own calls go through approval too: a held step stops the workflow and names the approval", async () => {
    const { toolkit, admin, approvals } = approvalSetup();
    const result = await call(toolkit.session('s2'), 'invoke_skill', { name: 'cleanup' });
    const [pending] = approvals.pending();
    expect(pending).toMatchObject({ toolName: 'delete_user', arguments: { id: 'u1' }, sessionId: 's2' });
    expect(result.error?.code).toBe('APPROVAL_PENDING');
    expect(result.forLLM).toBe(
      `Skill 'cleanup' stopped at step 2/3 ('delete_user'): the call needs a person's approval (approval id '${pending.id}'). ` +
        'The remaining steps did not run; invoke the skill again once the call is approved.',
    );
    expect(admin.deleted).toEqual([]);
    // approved, it runs once, in the scope of the skill run that asked (its grant included)
    expect((await approvals.approve(pending.id)).forLLM).toBe('deleted u1');
    expect(admin.deleted).toEqual(['u1']);
  });
});

describe('types', () => {
  it('a skill is a typed value; run params are typed by the caller', () => {
    const skill = defineSkill<{ name: string; description: string; tools: string[]; run: (p: { eur: number }) => number }>({
      name: 'typed',
      description: 'Typed',
      tools: [],
      run: (p) => p.eur,
    });
    expect(skill.run({ eur: 3 })).toBe(3);
    expect(names([{ name: 'x' }])).toEqual(['x']);
    expect(ToolkitError.is(new ToolkitError('SKILL_FAILED', 'x'), 'SKILL_FAILED')).toBe(true);
  });
});
