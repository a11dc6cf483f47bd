import {
  ScriptedProvider,
  Tool,
  ToolExecutionContext,
  ToolParam,
  Toolkit,
  ToolkitError,
  runToolLoop,
  type LLMProvider,
  type LoopTurn,
  type Message,
  type ToolResult,
} from '../../src';

class UserContext {
  constructor(readonly name: string) {}
}

class Greeter {
  calls = 0;

  @Tool({ name: 'greet', description: 'Greet someone' })
  greet(@ToolParam({ name: 'who' }) who: string, user: UserContext): string {
    this.calls++;
    return `Hello ${who}, from ${user.name}`;
  }

  @Tool({ name: 'boom', description: 'Always fails' })
  boom(): string {
    throw 'kaboom';
  }
}

function setup(): { toolkit: Toolkit; greeter: Greeter } {
  const toolkit = new Toolkit({ context: ToolExecutionContext.of(new UserContext('toolkit')) });
  const greeter = new Greeter();
  toolkit.registerTool(greeter);
  return { toolkit, greeter };
}

const user = (content: string): Message[] => [{ role: 'user', content }];

describe('runToolLoop', () => {
  it('runs model → tools → model until a reply without tool calls', async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([
      ScriptedProvider.toolCalls([
        { name: 'greet', arguments: '{"who":"Ada"}' },
        { name: 'greet', arguments: { who: 'Bob' } },
      ]),
      ScriptedProvider.reply('Greeted both.'),
    ]);
    const turns: LoopTurn[] = [];
    const result = await runToolLoop({ provider, model: 'm', toolkit, onTurn: (t) => turns.push(t) }, user('hi'));

    expect(result.content).toBe('Greeted both.');
    expect(result.iterations).toBe(2);
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls).toBe(2);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(result.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_1', content: 'Hello Ada, from toolkit' });
    expect(result.messages[3]).toMatchObject({ role: 'tool', toolCallId: 'call_2', content: 'Hello Bob, from toolkit' });
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(['greet', 'boom']);
    expect(provider.requests[1].messages).toHaveLength(4);
    expect(turns.map((t) => t.results.length)).toEqual([2, 0]);
  });

  it('uses its context as the agent level of the chain (over the toolkit context)', async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([ScriptedProvider.toolCall('greet', { who: 'Ada' }), ScriptedProvider.reply('ok')]);
    const result = await runToolLoop(
      { provider, model: 'm', toolkit, context: ToolExecutionContext.of(new UserContext('agent')) },
      user('hi'),
    );
    expect(result.messages[2].content).toBe('Hello Ada, from agent');
  });

  it('sends bad tool calls back to the model as error results, never up the stack', async () => {
    const { toolkit, greeter } = setup();
    const provider = new ScriptedProvider([
      ScriptedProvider.toolCalls([
        { name: 'gret', arguments: '{}' },
        { name: 'greet', arguments: '{"who":' },
        { name: 'greet', arguments: { who: 5 } },
        { name: 'boom', arguments: {} },
      ]),
      ScriptedProvider.reply('sorry'),
    ]);
    const result = await runToolLoop({ provider, model: 'm', toolkit }, user('hi'));
    const tools = result.messages.filter((m) => m.role === 'tool');
    expect(tools.every((m) => m.isError)).toBe(true);
    expect(tools[0].content).toContain("Did you mean 'greet'");
    expect(tools[1].content).toContain('not valid JSON');
    expect(tools[2].content).toContain("'who': must be string");
    expect(tools[3].content).toContain('kaboom');
    expect(greeter.calls).toBe(0);
    expect(result.content).toBe('sorry');
  });

  it('stops at maxIterations without an extra model call, returning the last text', async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([
      ScriptedProvider.toolCall('greet', { who: 'a' }, 'first'),
      ScriptedProvider.toolCall('greet', { who: 'b' }, 'second'),
      ScriptedProvider.reply('never asked'),
    ]);
    const result = await runToolLoop({ provider, model: 'm', toolkit, maxIterations: 2 }, user('hi'));
    expect(result).toMatchObject({ iterations: 2, content: 'second', stopReason: 'max_iterations' });
    expect(provider.remaining).toBe(1);
  });

  it('makes one summary turn without tools when asked to', async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([ScriptedProvider.toolCall('greet', { who: 'a' }), ScriptedProvider.reply('summary')]);
    const result = await runToolLoop({ provider, model: 'm', toolkit, maxIterations: 1, finalSummary: true }, user('hi'));
    expect(result).toMatchObject({ iterations: 2, content: 'summary', stopReason: 'max_iterations' });
    expect(provider.requests[1].tools).toEqual([]);
  });

  it('refuses repeated identical calls, per-tool caps and the total budget', async () => {
    const { toolkit, greeter } = setup();
    const same = ScriptedProvider.toolCall('greet', { who: 'Ada' });
    const provider = new ScriptedProvider([same, same, same, ScriptedProvider.reply('done')]);
    const codes: (string | undefined)[] = [];
    const onToolResult = (r: ToolResult): number => codes.push(r.error?.code);
    const result = await runToolLoop({ provider, model: 'm', toolkit, maxRepeatedCalls: 2, onToolResult }, user('hi'));
    const last = result.messages.filter((m) => m.role === 'tool').pop()!;
    expect(last.isError).toBe(true);
    expect(last.content).toContain('already called');
    expect(greeter.calls).toBe(2);
    expect(codes).toEqual([undefined, undefined, 'REPEATED_CALL']);

    const capped = new ScriptedProvider([
      ScriptedProvider.toolCalls([
        { name: 'greet', arguments: { who: '1' } },
        { name: 'greet', arguments: { who: '2' } },
      ]),
      ScriptedProvider.reply('ok'),
    ]);
    codes.length = 0;
    const perTool = await runToolLoop({ provider: capped, model: 'm', toolkit, maxCallsPerTool: { greet: 1 }, onToolResult }, user('hi'));
    expect(perTool.messages.filter((m) => m.role === 'tool').map((m) => m.isError ?? false)).toEqual([false, true]);
    expect(codes).toEqual([undefined, 'TOOL_BUDGET_EXCEEDED']);

    const budget = new ScriptedProvider([
      ScriptedProvider.toolCalls([
        { name: 'greet', arguments: { who: 'x' } },
        { name: 'greet', arguments: { who: 'y' } },
      ]),
      ScriptedProvider.reply('unused'),
    ]);
    codes.length = 0;
    const total = await runToolLoop({ provider: budget, model: 'm', toolkit, maxToolCalls: 1, onToolResult }, user('hi'));
    expect(total.stopReason).toBe('max_tool_calls');
    expect(total.toolCalls).toBe(1);
    expect(codes).toEqual([undefined, 'TOOL_BUDGET_EXCEEDED']);
  });

  it('sums usage and stops on the time budget', async () => {
    const { toolkit } = setup();
    const slow: LLMProvider = {
      chat: ({ signal }) =>
        new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted by budget')))),
    };
    const timed = await runToolLoop({ provider: slow, model: 'm', toolkit, timeBudgetMs: 30 }, user('hi'));
    expect(timed.stopReason).toBe('time_budget');

    const counting = new ScriptedProvider([
      async () => ({ content: '', toolCalls: [{ id: 'a', name: 'greet', arguments: { who: 'u' } }], usage: { inputTokens: 10, outputTokens: 2 } }),
      async () => ({ content: 'done', toolCalls: [], usage: { inputTokens: 20, outputTokens: 3 } }),
    ]);
    const result = await runToolLoop({ provider: counting, model: 'm', toolkit }, user('hi'));
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 5, totalTokens: 35 });
  });

  it('rejects when the caller aborts, and wraps provider failures', async () => {
    const { toolkit } = setup();
    const controller = new AbortController();
    const hanging: LLMProvider = {
      chat: ({ signal }) => new Promise((_r, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const pending = runToolLoop({ provider: hanging, model: 'm', toolkit, signal: controller.signal }, user('hi'));
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');

    const failing: LLMProvider = { chat: async () => Promise.reject(new Error('503 from upstream')) };
    const error = await runToolLoop({ provider: failing, model: 'm', toolkit }, user('hi')).catch((e: unknown) => e);
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toContain('503 from upstream');
  });

  it('fails clearly when a scripted model runs out of turns', async () => {
    const { toolkit } = setup();
    const error = await runToolLoop({ provider: new ScriptedProvider([]), model: 'm', toolkit }, user('hi')).catch((e: unknown) => e);
    expect((error as Error).message).toContain('ScriptedProvider: the script has no turn 1');
  });
});
