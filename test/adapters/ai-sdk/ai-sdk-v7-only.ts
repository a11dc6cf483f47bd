import 'reflect-metadata';
import { ApprovalManager, contentResult, imageContent, Tool, ToolExecutionContext, ToolParam, ToolService, type ToolEvent } from '../../../src';
import { toAiSdkTools, toAiSdkToolsContext } from '../../../src/adapters/ai-sdk';
import { RED_PIXEL_PNG } from '../../support/content';
import { freshToolkit } from '../../support/toolkit';
import { call, lastToolResults, scriptedModel, type SdkUnderTest } from './ai-sdk-suite';

/**
 * What only `ai` 7 has: a run's context reaches a tool as its entry of `toolsContext`
 * (`experimental_context` is gone), tool-result images are `file` parts, approvals and per-tool
 * timeouts of its own.
 */

class Requester {
  constructor(readonly name: string) {}
}

@ToolService({ group: 'profile' })
class ProfileService {
  readonly ran: string[] = [];

  @Tool({ name: 'whoami', description: 'Who is asking' })
  whoami(requester: Requester): string {
    this.ran.push(requester.name);
    return `asked by ${requester.name}`;
  }
}

@ToolService({ group: 'admin' })
class AdminService {
  readonly ran: string[] = [];

  @Tool({ name: 'delete_user', description: 'Delete a user account' })
  deleteUser(@ToolParam({ name: 'id' }) id: string, requester: Requester): string {
    this.ran.push(`${id} by ${requester.name}`);
    return `deleted ${id}`;
  }
}

class WaitService {
  readonly stopped: unknown[] = [];

  @Tool({ name: 'wait_sdk', description: 'Waits until aborted' })
  waitSdk(signal: AbortSignal): Promise<string> {
    return this.wait(signal);
  }

  @Tool({ name: 'wait_own', description: 'Waits until aborted', timeoutMs: 20 })
  waitOwn(signal: AbortSignal): Promise<string> {
    return this.wait(signal);
  }

  private wait(signal: AbortSignal): Promise<string> {
    return new Promise((_resolve, reject) =>
      signal.addEventListener('abort', () => {
        this.stopped.push(signal.reason);
        reject(new Error('stopped'));
      }),
    );
  }
}

function setup() {
  const toolkit = freshToolkit({ equipToolGroups: true });
  toolkit.createToolGroup('profile', 'Profile', true);
  toolkit.createToolGroup('admin', 'Administration', false);
  const profile = new ProfileService();
  const admin = new AdminService();
  toolkit.registerTool(profile);
  toolkit.registerTool(admin);
  const events: ToolEvent[] = [];
  toolkit.events$.subscribe((e) => events.push(e));
  return { toolkit, profile, admin, events };
}

const grace = (): ToolExecutionContext => ToolExecutionContext.of(new Requester('Grace'));

export function describeAiSdk7(load: () => SdkUnderTest, describeIt: jest.Describe): void {
  describeIt('toolwright/ai-sdk with ai 7 only', () => {
    let sdk: SdkUnderTest;
    beforeAll(() => {
      sdk = load();
    });
    const generate = (tools: unknown, model: unknown, extra: Record<string, unknown> = {}) =>
      sdk.generateText({ model, tools, prompt: 'help', stopWhen: sdk.stepCountIs(6), ...extra });

    it('toolsContext from toAiSdkToolsContext reaches every tool, also one enabled during the run', async () => {
      const { toolkit, profile, admin } = setup();
      const session = toolkit.session('s');
      const tools = toAiSdkTools(session);
      const { model, seen } = scriptedModel(sdk, [
        { calls: [call('whoami', {})] },
        { calls: [call('equip_tool_groups', { add: ['admin'] })] },
        { calls: [call('delete_user', { id: 'u1' })] },
        { text: 'done' },
      ]);
      await generate(tools, model, { toolsContext: toAiSdkToolsContext(tools, grace()) });

      expect(profile.ran).toEqual(['Grace']);
      expect(admin.ran).toEqual(['u1 by Grace']);
      expect(lastToolResults(seen[3]!)[0]!.output).toEqual({ type: 'text', value: 'deleted u1' });
    });

    it.each([
      ['experimental_context', { experimental_context: grace() }],
      ['runtimeContext', { runtimeContext: grace() }],
      ['a plain toolsContext entry', { toolsContext: { whoami: { name: 'Grace' } } }],
    ])('a context given as %s does not reach the tool in ai 7: it does not run, and the error says how to pass it', async (_how, extra) => {
      const { toolkit, profile, events } = setup();
      const { model, seen } = scriptedModel(sdk, [{ calls: [call('whoami', {})] }, { text: 'done' }]);
      await generate(toAiSdkTools(toolkit), model, extra);

      expect(profile.ran).toEqual([]);
      const [answer] = lastToolResults(seen[1]!);
      expect(answer!.output.type).toBe('error-text');
      const text = String(answer!.output.value);
      expect(text).toContain('needs a Requester context object');
      expect(text).toContain('toolsContext: toAiSdkToolsContext(tools, context)');
      expect(text.length).toBeLessThan(800);
      expect(events.find((e) => e.type === 'call_failed')).toMatchObject({ tool: 'whoami', error: { code: 'CONTEXT_MISSING' } });
    });

    it('toAiSdkTools(view, { context }) needs no toolsContext; a toolsContext entry is merged over it', async () => {
      const { toolkit, profile } = setup();
      const tools = toAiSdkTools(toolkit, { context: ToolExecutionContext.of(new Requester('Ada')) });
      await generate(tools, scriptedModel(sdk, [{ calls: [call('whoami', {})] }, { text: 'done' }]).model);
      await generate(tools, scriptedModel(sdk, [{ calls: [call('whoami', {})] }, { text: 'done' }]).model, { toolsContext: toAiSdkToolsContext(tools, grace()) });
      expect(profile.ran).toEqual(['Ada', 'Grace']);
    });

    it('toAiSdkToolsContext is read-only, lists the set’s tools and refuses what is not a ToolExecutionContext', () => {
      const { toolkit } = setup();
      const tools = toAiSdkTools(toolkit);
      const context = grace();
      const toolsContext = toAiSdkToolsContext(tools, context);
      expect(Object.keys(toolsContext)).toEqual(Object.keys(tools));
      expect(toolsContext.whoami).toBe(context);
      expect(toolsContext.delete_user).toBeUndefined();
      expect(Object.hasOwn(toolsContext, 'toString')).toBe(false);
      expect(() => {
        (toolsContext as Record<string, unknown>).whoami = {};
      }).toThrow(TypeError);
      toolkit.updateToolGroups(['admin'], true);
      expect(toolsContext.delete_user).toBe(context);
      expect(() => toAiSdkToolsContext(tools, { name: 'Grace' } as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    });

    it('an image goes to the model as a file part with its mediaType, and ai 7 prints no deprecation warning', async () => {
      const { toolkit } = setup();
      toolkit.registerTool({
        name: 'chart',
        description: 'Draw the chart',
        parameters: { type: 'object', properties: {} },
        execute: () => contentResult(['Revenue:', imageContent(RED_PIXEL_PNG, 'image/png')]),
      });
      // the SDK's own warning hook gets every warning (its default logger prints each code once per process)
      const warnings: unknown[] = [];
      const global = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
      global.AI_SDK_LOG_WARNINGS = (options: { warnings: unknown[] }) => warnings.push(...options.warnings);
      try {
        const { model, seen } = scriptedModel(sdk, [{ calls: [call('chart', {})] }, { text: 'A red square.' }]);
        await generate(toAiSdkTools(toolkit), model);
        const output = lastToolResults(seen[1]!)[0]!.output as { type: string; value: { type: string }[] };
        expect(output.value.map((part) => part.type)).toEqual(['text', 'file']);
        expect(warnings).toEqual([]);
      } finally {
        delete global.AI_SDK_LOG_WARNINGS;
      }
    });

    it('timeouts: toolwright’s timeoutMs answers TIMEOUT; ai 7’s timeout.toolMs stops the tool through its abortSignal (ABORTED)', async () => {
      const { toolkit, events } = setup();
      const waits = new WaitService();
      toolkit.registerTool(waits);
      const { model, seen } = scriptedModel(sdk, [{ calls: [call('wait_own', {}), call('wait_sdk', {})] }, { text: 'done' }]);
      await generate(toAiSdkTools(toolkit), model, { timeout: { tools: { wait_sdkMs: 20 } } });

      expect(waits.stopped).toHaveLength(2);
      // toolwright's own deadline (a TIMEOUT ToolkitError) and the SDK's AbortSignal.timeout (a TimeoutError)
      expect(waits.stopped).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'TIMEOUT' }), expect.objectContaining({ name: 'TimeoutError' })]));
      const ends = events.filter((e) => e.type === 'call_timed_out' || e.type === 'call_aborted').map((e) => [(e as { tool: string }).tool, e.type]);
      expect(ends.sort()).toEqual([
        ['wait_own', 'call_timed_out'],
        ['wait_sdk', 'call_aborted'],
      ]);
      const answers = lastToolResults(seen[1]!).map((r) => String(r.output.value));
      expect(answers[0]).toContain("'wait_own' timed out");
      expect(answers[1]).toContain("'wait_sdk' was aborted");
    });

    it('approval: toolwright’s ApprovalManager holds the call (no SDK approval request); approved later, it runs as its requester', async () => {
      const { toolkit, admin } = setup();
      toolkit.updateToolGroups(['admin'], true);
      const approvals = new ApprovalManager({ tools: ['delete_user'] });
      toolkit.use(approvals.hook);
      const tools = toAiSdkTools(toolkit);
      const { model, seen } = scriptedModel(sdk, [{ calls: [call('delete_user', { id: 'u2' })] }, { text: 'waiting' }]);
      const result = await generate(tools, model, { toolsContext: toAiSdkToolsContext(tools, grace()) });

      const parts = result.steps.flatMap((step) => step.content.map((part) => part.type));
      expect(parts).not.toContain('tool-approval-request');
      expect(admin.ran).toEqual([]);
      const [pending] = approvals.pending();
      expect(String(lastToolResults(seen[1]!)[0]!.output.value)).toContain(pending!.id);
      await approvals.approve(pending!.id);
      expect(admin.ran).toEqual(['u2 by Grace']);
    });
  });
}
