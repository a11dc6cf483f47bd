import 'reflect-metadata';
import {
  ApprovalManager,
  defineSkill,
  isPendingApprovalResult,
  Principal,
  runToolLoop,
  ScriptedProvider,
  ToolExecutionContext,
  type Authorize,
  type AuthorizeRequest,
  type ToolResult,
} from '../../../src';
import { Reports } from '../../support/scoped-reports';
import { call, freshToolkit } from '../../support/toolkit';

/**
 * Per-tool authorization: a caller without the tool's scopes (or refused by the toolkit's
 * `authorize` rule) does not see the tool and cannot run it on any path. Each test checks the
 * tool's own side effect, not only the answer.
 */
const as = (id: string, ...scopes: string[]) => ({ context: ToolExecutionContext.of(new Principal(id, { scopes })) });

function setup(options: { authorize?: Authorize } = {}) {
  const toolkit = freshToolkit(options);
  const reports = new Reports();
  toolkit.registerTool(reports);
  return { toolkit, reports };
}

function expectForbidden(result: ToolResult): void {
  expect(result.isError).toBe(true);
  expect(result.error?.code).toBe('FORBIDDEN');
}

describe('authorization: scopes', () => {
  it('direct call without the scope: FORBIDDEN naming only the missing scope, and the tool did not run', async () => {
    const { toolkit, reports } = setup();
    const denied = await call(toolkit, 'write_report', { title: 'q1' }, as('guest', 'reports:read'));
    expectForbidden(denied);
    expect(denied.forLLM).toContain("requires scope 'reports:write'");
    expect(denied.forLLM).not.toContain('reports:read');
    expectForbidden(await call(toolkit, 'write_report', { title: 'q1' }));
    expect(reports.written).toEqual([]);
    expect((await call(toolkit, 'write_report', { title: 'q2' }, as('ann', 'reports:write'))).forLLM).toBe('wrote q2');
    expect(reports.written).toEqual(['q2']);
  });

  it('is refused before validation, hooks and presets: bad arguments still answer FORBIDDEN and no hook runs', async () => {
    const { toolkit, reports } = setup();
    const before = jest.fn();
    toolkit.use({ name: 'spy', before });
    expectForbidden(await call(toolkit, 'write_report', { title: 42 }, as('guest')));
    expect(before).not.toHaveBeenCalled();
    expect(reports.written).toEqual([]);
  });

  it('a batch: the forbidden call is refused, the allowed one runs', async () => {
    const { toolkit, reports } = setup();
    const results = await toolkit.callTools(
      [
        { id: 'a', name: 'write_report', arguments: { title: 'x' } },
        { id: 'b', name: 'read_reports', arguments: {} },
      ],
      as('guest'),
    );
    expectForbidden(results[0]);
    expect(results[1].forLLM).toBe('none');
    expect(reports.written).toEqual([]);
  });

  it('lists hide the tool from a caller without the scope (views, schemas, provider definitions), per caller', () => {
    const { toolkit } = setup();
    const session = toolkit.session('s1');
    const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);
    expect(names(toolkit.getActiveTools())).not.toContain('write_report');
    expect(names(session.getActiveTools(as('guest')))).not.toContain('write_report');
    expect(names(session.getToolSchemas(as('guest')))).not.toContain('write_report');
    expect(session.toProviderDefs('openai', as('guest')).map((d) => d.function.name)).not.toContain('write_report');
    expect(names(session.getActiveTools(as('ann', 'reports:write')))).toContain('write_report');
    expect(session.toProviderDefs('anthropic', as('ann', 'reports:write')).map((d) => d.name)).toContain('write_report');
    expect(session.renderPrompt(as('guest'))).not.toContain('write_report');
    expect(session.renderPrompt(as('ann', 'reports:write'))).toContain('write_report');
  });

  it('a subclass of Principal in the context is found as the principal', async () => {
    class AppUser extends Principal {}
    const { toolkit, reports } = setup();
    const context = ToolExecutionContext.of(new AppUser('ann', { scopes: ['reports:write'] }));
    expect((await call(toolkit, 'write_report', { title: 'sub' }, { context })).forLLM).toBe('wrote sub');
    expect(reports.written).toEqual(['sub']);
  });

  it('malformed scopes are a definition error', () => {
    const toolkit = freshToolkit();
    expect(() =>
      toolkit.registerTool({ name: 'x', description: 'x', parameters: { type: 'object', properties: {} }, behaviour: { scopes: 'admin' as unknown as string[] }, execute: () => 'x' }),
    ).toThrow(/scopes must be an array of non-empty strings/);
  });
});

describe('authorization: skills and meta tools', () => {
  it("a skill's steps and run() cannot reach a tool the caller lacks the scope for", async () => {
    const { toolkit, reports } = setup();
    toolkit.registerSkill(defineSkill({ name: 'publish', description: 'Publish', tools: [], steps: [{ tool: 'write_report', arguments: { title: 'step' } }] }));
    toolkit.registerSkill(
      defineSkill({ name: 'publish_run', description: 'Publish from code', tools: ['write_report'], run: async (_p, ctx) => (await ctx.callTool('write_report', { title: 'run' })).forLLM }),
    );
    const steps = await call(toolkit, 'invoke_skill', { name: 'publish' }, as('guest'));
    expect(steps.isError).toBe(true);
    expect(steps.forLLM).toContain('forbidden');
    expect((await call(toolkit, 'invoke_skill', { name: 'publish_run' }, as('guest'))).forLLM).toContain('forbidden');
    expect(reports.written).toEqual([]);
    expect((await call(toolkit, 'invoke_skill', { name: 'publish_run' }, as('ann', 'reports:write'))).forLLM).toBe('wrote run');
    expect(reports.written).toEqual(['run']);
  });

  it('list_skills and invoke_skill do not name a scoped tool to a caller without the scope; activating the skill does not let it run', async () => {
    const { toolkit, reports } = setup();
    toolkit.registerSkill(defineSkill({ name: 'reporting', description: 'Reporting', tools: ['write_report', 'read_reports'] }));
    const listed = await call(toolkit.session('g'), 'list_skills', {}, as('guest'));
    expect(listed.forLLM).toContain('read_reports');
    expect(listed.forLLM).not.toContain('write_report');
    expect(JSON.stringify(listed.data)).not.toContain('write_report');
    const session = toolkit.session('g2');
    const invoked = await call(session, 'invoke_skill', { name: 'reporting' }, as('guest'));
    expect(invoked.forLLM).not.toContain('write_report');
    expectForbidden(await call(session, 'write_report', { title: 'x' }, as('guest')));
    expect((await call(toolkit.session('a'), 'list_skills', {}, as('ann', 'reports:write'))).forLLM).toContain('write_report');
    expect(reports.written).toEqual([]);
  });

  it("equip_tool_groups' answer does not list a tool the caller may not use", async () => {
    const toolkit = freshToolkit({ equipToolGroups: true });
    toolkit.createToolGroup('admin', 'Admin', false);
    const reports = new Reports();
    toolkit.registerTool(reports, { group: 'admin' });
    const equipped = await call(toolkit, 'equip_tool_groups', { add: ['admin'] }, as('guest'));
    expect(equipped.forLLM).toContain('read_reports');
    expect(equipped.forLLM).not.toContain('write_report');
    expectForbidden(await call(toolkit, 'write_report', { title: 'x' }, as('guest')));
    expect(reports.written).toEqual([]);
  });
});

describe('authorization: the authorize rule', () => {
  it('sees the tool, principal, context and validated arguments; false refuses before hooks', async () => {
    const seen: AuthorizeRequest[] = [];
    const { toolkit, reports } = setup({
      authorize: (request) => {
        seen.push(request);
        return request.arguments === undefined || request.arguments.title !== 'secret';
      },
    });
    const before = jest.fn();
    toolkit.use({ name: 'spy', before });
    expectForbidden(await call(toolkit, 'write_report', { title: 'secret' }, as('ann', 'reports:write')));
    expect(before).not.toHaveBeenCalled();
    expect(reports.written).toEqual([]);
    const atCall = seen.find((r) => r.arguments !== undefined)!;
    expect(atCall.tool.name).toBe('write_report');
    expect(atCall.principal?.id).toBe('ann');
    expect(atCall.context.get(Principal)?.id).toBe('ann');
    expect((await call(toolkit, 'write_report', { title: 'open' }, as('ann', 'reports:write'))).forLLM).toBe('wrote open');
  });

  it('an async rule: refused at call time, hidden by getVisibleTools, shown by the synchronous lists', async () => {
    const { toolkit, reports } = setup({ authorize: async ({ tool, principal }) => tool.name !== 'read_reports' || principal?.id === 'ann' });
    expectForbidden(await call(toolkit, 'read_reports', {}, as('guest')));
    expect((await toolkit.getVisibleTools(as('guest'))).map((t) => t.name)).not.toContain('read_reports');
    expect((await toolkit.getVisibleTools(as('ann'))).map((t) => t.name)).toContain('read_reports');
    expect(toolkit.getActiveTools(as('guest')).map((t) => t.name)).toContain('read_reports');
    expect(reports.written).toEqual([]);
  });

  it('a throwing rule refuses (fails closed)', async () => {
    const { toolkit, reports } = setup({
      authorize: () => {
        throw new Error('policy store down');
      },
    });
    const failures: string[] = [];
    const subscription = toolkit.events$.subscribe((event) => {
      if (event.type === 'callback_failed') failures.push(`${event.source}: ${String(event.error)}`);
    });
    const result = await call(toolkit, 'write_report', { title: 'x' }, as('ann', 'reports:write'));
    subscription.unsubscribe();
    expectForbidden(result);
    expect(result.forLLM).not.toContain('policy store down');
    expect(failures).toEqual([expect.stringContaining('policy store down')]);
    expect(reports.written).toEqual([]);
  });

  it("'approval' without an ApprovalManager: FORBIDDEN saying approval is required, nothing runs", async () => {
    const { toolkit, reports } = setup({ authorize: () => 'approval' });
    const result = await call(toolkit, 'write_report', { title: 'x' }, as('ann', 'reports:write'));
    expectForbidden(result);
    expect(result.forLLM).toContain('approval');
    expect(reports.written).toEqual([]);
  });

  it("'approval' holds the call; approved, it runs once; resumed after the principal lost the right, it is refused", async () => {
    let allowed = true;
    const { toolkit, reports } = setup({ authorize: ({ tool }) => (tool.name !== 'write_report' ? true : allowed ? 'approval' : false) });
    const approvals = new ApprovalManager();
    toolkit.use(approvals.hook);
    const held = await call(toolkit, 'write_report', { title: 'a' }, as('ann', 'reports:write'));
    expect(isPendingApprovalResult(held)).toBe(true);
    expect(reports.written).toEqual([]);
    const [first] = approvals.pending();
    expect((await approvals.approve(first.id)).forLLM).toBe('wrote a');
    expect(reports.written).toEqual(['a']);

    await call(toolkit, 'write_report', { title: 'b' }, as('ann', 'reports:write'));
    const [second] = approvals.pending();
    allowed = false;
    expectForbidden(await approvals.approve(second.id));
    expect(reports.written).toEqual(['a']);
  });

  it('a caller without the scope is refused before the approval hook: nothing is held for a person to approve', async () => {
    const { toolkit, reports } = setup();
    const approvals = new ApprovalManager({ tools: ['write_report'] });
    toolkit.use(approvals.hook);
    expectForbidden(await call(toolkit, 'write_report', { title: 'a' }, as('guest')));
    expect(approvals.pending()).toEqual([]);
    expect(reports.written).toEqual([]);
  });

  it('runToolLoop offers only the tools the agent context may use, and refuses a forged call', async () => {
    const { toolkit, reports } = setup();
    const provider = new ScriptedProvider([{ toolCalls: [{ id: 'c1', name: 'write_report', arguments: { title: 'loop' } }] }, { content: 'done' }]);
    const result = await runToolLoop({ provider, model: 'm', toolkit, context: ToolExecutionContext.of(new Principal('guest')) }, [{ role: 'user', content: 'go' }]);
    expect(provider.requests[0].tools.map((t) => t.name)).not.toContain('write_report');
    expect(result.content).toBe('done');
    expect(result.messages.find((m) => m.role === 'tool')?.content).toContain('forbidden');
    expect(reports.written).toEqual([]);
  });
});
