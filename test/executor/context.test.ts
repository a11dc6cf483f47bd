import 'reflect-metadata';
import { Container } from 'inversify';
import {
  Tool,
  ToolEmitter,
  ToolExecutionContext,
  ToolParam,
  type AgentTool,
  type CallProgress,
  type ToolEvent,
} from '../../src';
import { call, expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';
import { recordEvents } from '../support/events';

afterAll(() => expectAllSchemasMetaValid());

class UserContext {
  constructor(readonly userId: string) {}
}

class TenantContext {
  constructor(readonly tenant: string) {}
}

const aborts: unknown[] = [];

abstract class Clock {
  abstract now(): string;
}

class AccountService {
  @Tool({ description: 'Who is calling' })
  whoami(user: UserContext, @ToolParam({ name: 'greeting', required: false }) greeting?: string) {
    return `${greeting ?? 'hi'} ${user.userId}`;
  }

  @Tool({ description: 'User and tenant' })
  where(tenant: TenantContext, user: UserContext) {
    return `${user.userId}@${tenant.tenant}`;
  }

  @Tool({ description: 'Time through an abstract context key' })
  time(clock: Clock) {
    return clock.now();
  }

  @Tool({ description: 'Import rows', timeoutMs: 5_000 })
  async importRows(@ToolParam({ name: 'rows', integer: true }) rows: number, emitter: ToolEmitter, signal: AbortSignal) {
    for (let i = 1; i <= rows; i++) {
      emitter.emit({ progress: i, total: rows, message: `row ${i}` });
      await Promise.resolve();
    }
    emitter.emit('done');
    return `imported ${rows} (aborted: ${signal.aborted})`;
  }

  @Tool({ description: 'Wait until aborted' })
  async wait(signal: AbortSignal) {
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    aborts.push(signal.reason);
    return 'stopped';
  }

  @Tool({ description: 'Wait until the timeout aborts it', timeoutMs: 30 })
  async waitForTimeout(signal: AbortSignal) {
    return this.wait(signal);
  }
}

function setup(options: { toolkitUser?: string; container?: Container } = {}) {
  const context = options.toolkitUser
    ? ToolExecutionContext.builder().register(new UserContext(options.toolkitUser)).register(new TenantContext('toolkit-tenant')).build()
    : undefined;
  const toolkit = newToolkit({ container: options.container ?? new Container(), ...(context ? { context } : {}) });
  toolkit.registerTool(AccountService);
  return toolkit;
}

describe('ToolExecutionContext', () => {
  it('builds an immutable bag keyed by class, symbol or string', () => {
    const TOKEN = Symbol('token');
    const builder = ToolExecutionContext.builder().register(new UserContext('u-1')).register(TOKEN, 42).register('plain', 'text');
    const context = builder.build();
    builder.register(new UserContext('u-2'));
    expect(context.get(UserContext)?.userId).toBe('u-1');
    expect(context.get<number>(TOKEN)).toBe(42);
    expect(context.get<string>('plain')).toBe('text');
    expect(context.has(TenantContext)).toBe(false);
    expect(context.size).toBe(3);
    expect(context.keys()).toEqual([UserContext, TOKEN, 'plain']);
    expect(context.toBuilder().register(new TenantContext('t')).build().size).toBe(4);
    expect(ToolExecutionContext.of(new UserContext('x')).get(UserContext)?.userId).toBe('x');
    expect(() => ToolExecutionContext.builder().register(5 as unknown as object)).toThrow(expect.objectContaining({ code: 'INVALID_CONTEXT' }));
  });

  it('merges levels, later levels winning', () => {
    const toolkitLevel = ToolExecutionContext.of(new UserContext('toolkit'), new TenantContext('acme'));
    const callLevel = ToolExecutionContext.of(new UserContext('call'));
    const merged = ToolExecutionContext.merge(toolkitLevel, undefined, callLevel);
    expect(merged.get(UserContext)?.userId).toBe('call');
    expect(merged.get(TenantContext)?.tenant).toBe('acme');
    expect(merged.size).toBe(2);
    expect(ToolExecutionContext.merge(undefined, callLevel, ToolExecutionContext.EMPTY)).toBe(callLevel);
    expect(ToolExecutionContext.merge()).toBe(ToolExecutionContext.EMPTY);
  });
});

describe('context injection by type', () => {
  it('injects a context object by its class from the call context', async () => {
    const toolkit = setup();
    const context = ToolExecutionContext.builder().register(new UserContext('u-42')).build();
    expect((await call(toolkit, 'whoami', { greeting: 'hello' }, { context })).forLLM).toBe('hello u-42');
  });

  it('follows the chain: call over agent over toolkit over container bindings', async () => {
    const container = new Container();
    container.bind(UserContext).toConstantValue(new UserContext('container-user'));
    container.bind(TenantContext).toConstantValue(new TenantContext('container-tenant'));
    const bare = setup({ container });
    expect((await call(bare, 'where', {})).forLLM).toBe('container-user@container-tenant');

    const toolkit = setup({ toolkitUser: 'toolkit-user', container });
    const agentContext = ToolExecutionContext.of(new UserContext('agent-user'));
    const context = ToolExecutionContext.of(new UserContext('call-user'));
    expect((await call(toolkit, 'where', {})).forLLM).toBe('toolkit-user@toolkit-tenant');
    expect((await call(toolkit, 'where', {}, { agentContext })).forLLM).toBe('agent-user@toolkit-tenant');
    expect((await call(toolkit, 'where', {}, { agentContext, context })).forLLM).toBe('call-user@toolkit-tenant');
    expect((await call(toolkit, 'where', {}, { context })).forLLM).toBe('call-user@toolkit-tenant');
    // sessions use the same chain
    expect((await call(toolkit.session('s'), 'where', {}, { context })).forLLM).toBe('call-user@toolkit-tenant');
  });

  it('resolves an abstract class key registered explicitly', async () => {
    const toolkit = setup();
    const context = ToolExecutionContext.builder().register(Clock, { now: () => 'noon' }).build();
    expect((await call(toolkit, 'time', {}, { context })).forLLM).toBe('noon');
  });

  it('a missing context object is a CONTEXT_MISSING result naming the class and the fix', async () => {
    const toolkit = setup();
    const result = await call(toolkit, 'where', {}, { context: ToolExecutionContext.of(new UserContext('u')) });
    expect(result).toMatchObject({ isError: true, name: 'where', error: { code: 'CONTEXT_MISSING' } });
    expect(result.forLLM).toContain('TenantContext');
    expect(result.forLLM).toContain('ToolExecutionContext.builder().register(new TenantContext(…))');
    const noClock = await call(toolkit, 'time', {});
    expect(noClock.error?.code).toBe('CONTEXT_MISSING');
    expect(noClock.forLLM).toContain('Clock');
  });

  it('context parameters are not model parameters', () => {
    const toolkit = setup();
    expect(toolkit.getTool('whoami')!.parameters).toEqual({
      type: 'object',
      properties: { greeting: { type: 'string' } },
      additionalProperties: false,
    });
    expect(toolkit.getTool('where')!.parameters.properties).toEqual({});
    expect(toolkit.getTool('import_rows')!.parameters).toEqual({
      type: 'object',
      properties: { rows: { type: 'integer' } },
      required: ['rows'],
      additionalProperties: false,
    });
  });

  it('the model cannot reach a context object by naming it', async () => {
    const toolkit = setup();
    const result = await call(toolkit, 'whoami', { user: { userId: 'admin' } }, { context: ToolExecutionContext.of(new UserContext('u')) });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
  });

  it('AgentTools read the chain through ctx.context', async () => {
    const tool: AgentTool = {
      name: 'ctx_reader',
      description: 'Reads the context',
      parameters: { type: 'object', properties: {} },
      execute: (_args, ctx) => `${ctx.context.get(UserContext)?.userId}@${ctx.context.get(TenantContext)?.tenant}`,
    };
    const toolkit = newToolkit({ context: ToolExecutionContext.of(new TenantContext('acme')) });
    toolkit.registerTool(tool);
    expect((await call(toolkit, 'ctx_reader', {}, { context: ToolExecutionContext.of(new UserContext('ann')) })).forLLM).toBe('ann@acme');
  });
});

describe('ToolEmitter and AbortSignal', () => {
  it('streams progress to events$ and onProgress, tagged with the call id, in order', async () => {
    const toolkit = setup();
    const recorder = recordEvents(toolkit);
    const progress: CallProgress[] = [];
    const result = await toolkit.callTool(
      { id: 'import-1', name: 'import_rows', arguments: { rows: 3 } },
      { onProgress: (p) => progress.push(p) },
    );
    recorder.stop();
    expect(result.forLLM).toBe('imported 3 (aborted: false)');
    expect(progress.map(({ callId, tool, progress: p, total, message }) => ({ callId, tool, p, total, message }))).toEqual([
      { callId: 'import-1', tool: 'import_rows', p: 1, total: 3, message: 'row 1' },
      { callId: 'import-1', tool: 'import_rows', p: 2, total: 3, message: 'row 2' },
      { callId: 'import-1', tool: 'import_rows', p: 3, total: 3, message: 'row 3' },
      { callId: 'import-1', tool: 'import_rows', p: undefined, total: undefined, message: 'done' },
    ]);
    const progressEvents = recorder.events.filter((e): e is Extract<ToolEvent, { type: 'call_progress' }> => e.type === 'call_progress');
    expect(progressEvents.map((e) => [e.callId, e.tool, e.progress.message])).toEqual([
      ['import-1', 'import_rows', 'row 1'],
      ['import-1', 'import_rows', 'row 2'],
      ['import-1', 'import_rows', 'row 3'],
      ['import-1', 'import_rows', 'done'],
    ]);
    const types = recorder.events.map((e) => e.type);
    expect(types[0]).toBe('call_started');
    expect(types.at(-1)).toBe('call_succeeded');
  });

  it('keeps the progress of concurrent calls apart', async () => {
    const toolkit = setup();
    const progress: CallProgress[] = [];
    await toolkit.callTools(
      [
        { id: 'a', name: 'import_rows', arguments: { rows: 2 } },
        { id: 'b', name: 'import_rows', arguments: { rows: 3 } },
      ],
      { onProgress: (p) => progress.push(p) },
    );
    expect(progress.filter((p) => p.callId === 'a').map((p) => p.message)).toEqual(['row 1', 'row 2', 'done']);
    expect(progress.filter((p) => p.callId === 'b').map((p) => p.message)).toEqual(['row 1', 'row 2', 'row 3', 'done']);
  });

  it("injects the call's AbortSignal: a caller abort reaches the tool and the result is ABORTED", async () => {
    const toolkit = setup();
    const controller = new AbortController();
    aborts.length = 0;
    const pending = toolkit.callTool({ id: 'w-1', name: 'wait', arguments: {} }, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    const result = await pending;
    expect(result).toMatchObject({ isError: true, toolCallId: 'w-1', error: { code: 'ABORTED' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(aborts).toEqual([reason]);
  });

  it('the injected AbortSignal fires on timeout and the result is TIMEOUT', async () => {
    const toolkit = setup();
    aborts.length = 0;
    const result = await call(toolkit, 'wait_for_timeout', {});
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.forLLM).toMatch(/^Tool 'wait_for_timeout' timed out after 30 ms/);
    await new Promise((resolve) => setImmediate(resolve));
    expect(aborts).toHaveLength(1);
  });

  it('an already-aborted signal never starts the tool', async () => {
    const toolkit = setup();
    const result = await call(toolkit, 'import_rows', { rows: 1 }, { signal: AbortSignal.abort('too late') });
    expect(result.error?.code).toBe('ABORTED');
  });
});

describe('a ToolExecutionContext parameter', () => {
  it('receives the merged chain: call over agent over toolkit', async () => {
    class Tenant {
      constructor(readonly id: string) {}
    }
    class Who {
      constructor(readonly name: string) {}
    }
    class Inspect {
      @Tool({ name: 'inspect', description: 'Inspect the context' })
      inspect(context: ToolExecutionContext): string {
        return `${context.get(Tenant)?.id}/${context.get(Who)?.name}/${context.size}`;
      }
    }
    const toolkit = newToolkit({ context: ToolExecutionContext.of(new Tenant('t-1'), new Who('toolkit')) });
    toolkit.registerTool(Inspect);
    const result = await toolkit.callTool(
      { id: 'i1', name: 'inspect', arguments: {} },
      { agentContext: ToolExecutionContext.of(new Who('agent')), context: ToolExecutionContext.of(new Who('call')) },
    );
    expect(result.forLLM).toBe('t-1/call/2');
  });
});
