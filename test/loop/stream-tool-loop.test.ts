import 'reflect-metadata';
import { Container } from 'inversify';
import {
  ScriptedProvider,
  Toolkit,
  ToolkitError,
  runToolLoop,
  streamToolLoop,
  type LLMProvider,
  type LoopEvent,
  type Message,
  type ProviderStreamEvent,
} from '../../src';
import { findLeaks } from '../support/leaks';

const user = (content: string): Message[] => [{ role: 'user', content }];
const SECRET = 'sk-live-7a6b5c4d3e2f1a0b';

interface Setup {
  toolkit: Toolkit;
  log: string[];
  aborted: string[];
}

function setup(): Setup {
  const toolkit = new Toolkit({ container: new Container() });
  const log: string[] = [];
  const aborted: string[] = [];
  toolkit.registerTool({
    name: 'lookup',
    description: 'Look a word up',
    parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    execute: (args) => {
      log.push(`run ${String(args.word)}`);
      return `${String(args.word)}: found`;
    },
  });
  toolkit.registerTool({
    name: 'slow',
    description: 'Waits until aborted',
    parameters: { type: 'object', properties: {} },
    execute: async (_args, ctx) => {
      log.push('slow started');
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
      aborted.push('slow');
      return 'aborted';
    },
  });
  toolkit.registerTool(
    {
      name: 'secret_search',
      description: 'Searches with a key',
      parameters: { type: 'object', properties: { apiKey: { type: 'string' }, q: { type: 'string' } }, required: ['apiKey', 'q'] },
      execute: (args, ctx) => {
        ctx.emit({ progress: 1, total: 2, message: `using ${String(args.apiKey)}` });
        return { key: args.apiKey, hits: [String(args.q)] };
      },
    },
    { presets: { secret_search: { apiKey: SECRET } } },
  );
  return { toolkit, log, aborted };
}

async function collect(events: AsyncIterable<LoopEvent>): Promise<LoopEvent[]> {
  const out: LoopEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function failure(events: AsyncIterable<LoopEvent>): Promise<{ error: unknown; seen: LoopEvent[] }> {
  const seen: LoopEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (error) {
    return { error, seen };
  }
  throw new Error('the loop did not fail');
}

describe('streamToolLoop', () => {
  it('streams text, calls, results and steps, and ends with what runToolLoop resolves to', async () => {
    const script = () => [
      ScriptedProvider.chunks([
        { type: 'text_delta', text: 'Let me ' },
        { type: 'text_delta', text: 'check.' },
        { type: 'tool_call_started', id: 'c1', name: 'lookup' },
        { type: 'tool_call_delta', id: 'c1', delta: '{"word":' },
        { type: 'tool_call_delta', id: 'c1', delta: '"apple"}' },
        { type: 'tool_call_complete', id: 'c1', name: 'lookup', arguments: '{"word":"apple"}' },
        { type: 'finish', stopReason: 'tool_calls', usage: { inputTokens: 3, outputTokens: 4 } },
      ]),
      ScriptedProvider.reply('Apple: found.'),
    ];
    const { toolkit } = setup();
    const events = await collect(streamToolLoop({ provider: new ScriptedProvider(script()), model: 'm', toolkit }, user('apple?')));
    expect(events.map((e) => e.type)).toEqual([
      'text_delta',
      'text_delta',
      'tool_call_started',
      'tool_call_delta',
      'tool_call_delta',
      'tool_result',
      'step_finished',
      'text_delta',
      'step_finished',
      'final',
    ]);
    const final = events.at(-1) as Extract<LoopEvent, { type: 'final' }>;
    const same = await runToolLoop({ provider: new ScriptedProvider(script()), model: 'm', toolkit: setup().toolkit }, user('apple?'));
    expect(final.result).toEqual(same);
    expect(final.result).toMatchObject({ content: 'Apple: found.', stopReason: 'completed', toolCalls: 1, iterations: 2 });
    expect(final.result.messages[1]).toEqual({ role: 'assistant', content: 'Let me check.', toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"word":"apple"}' }] });
  });

  it('tells a chat-only provider answer as events', async () => {
    const { toolkit } = setup();
    const scripted = new ScriptedProvider([ScriptedProvider.toolCall('lookup', { word: 'pear' }, 'One moment'), ScriptedProvider.reply('Done')]);
    const chatOnly: LLMProvider = { chat: (request) => scripted.chat(request) };
    const events = await collect(streamToolLoop({ provider: chatOnly, model: 'm', toolkit }, user('pear?')));
    expect(events.filter((e) => e.type !== 'step_finished').map((e) => (e.type === 'text_delta' ? e.text : e.type === 'tool_call_delta' ? e.delta : e.type))).toEqual([
      'One moment',
      'tool_call_started',
      '{"word":"pear"}',
      'tool_result',
      'Done',
      'final',
    ]);
  });

  it('starts a call as soon as its arguments are complete, while the model still writes the next', async () => {
    const { toolkit, log } = setup();
    const provider = new ScriptedProvider([
      ScriptedProvider.chunks(async function* (): AsyncIterable<ProviderStreamEvent> {
        yield { type: 'tool_call_started', id: 'a', name: 'lookup' };
        yield { type: 'tool_call_complete', id: 'a', name: 'lookup', arguments: '{"word":"first"}' };
        yield { type: 'tool_call_started', id: 'b', name: 'lookup' };
        // the first call runs while the second one's arguments are still coming
        for (let i = 0; i < 50 && !log.includes('run first'); i++) await new Promise((r) => setTimeout(r, 10));
        log.push('second complete');
        yield { type: 'tool_call_complete', id: 'b', name: 'lookup', arguments: '{"word":"second"}' };
        yield { type: 'finish' };
      }),
      ScriptedProvider.reply('ok'),
    ]);
    const events = await collect(streamToolLoop({ provider, model: 'm', toolkit }, user('two')));
    expect(log).toEqual(['run first', 'second complete', 'run second']);
    const firstResult = events.findIndex((e) => e.type === 'tool_result');
    const secondStarted = events.findIndex((e) => e.type === 'tool_call_started' && e.callId === 'b');
    expect(firstResult).toBeGreaterThan(-1);
    expect(secondStarted).toBeLessThan(events.findIndex((e) => e.type === 'step_finished'));
  });

  it('a stream that ends inside a call fails clearly, and the half-formed call never runs', async () => {
    const { toolkit, log } = setup();
    const provider = new ScriptedProvider([
      ScriptedProvider.chunks([
        { type: 'tool_call_started', id: 'c1', name: 'lookup' },
        { type: 'tool_call_delta', id: 'c1', delta: '{"word":"ha' },
      ]),
    ]);
    const { error } = await failure(streamToolLoop({ provider, model: 'm', toolkit }, user('cut')));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toBe("The model stream ended inside the arguments of tool call 'c1' (tool 'lookup'); that call was not run.");
    expect(log).toEqual([]);
  });

  it('refuses arguments beyond maxArgumentChars and stops the model stream', async () => {
    const { toolkit, log } = setup();
    let sent = 0;
    let stopped = false;
    const provider = new ScriptedProvider([
      ScriptedProvider.chunks(async function* (): AsyncIterable<ProviderStreamEvent> {
        try {
          yield { type: 'tool_call_started', id: 'big', name: 'lookup' };
          for (;;) {
            sent += 1000;
            yield { type: 'tool_call_delta', id: 'big', delta: 'x'.repeat(1000) };
          }
        } finally {
          stopped = true;
        }
      }),
    ]);
    const { error } = await failure(streamToolLoop({ provider, model: 'm', toolkit, maxArgumentChars: 10_000 }, user('big')));
    expect((error as Error).message).toMatch(/^The model stream sent more than 10000 characters of arguments for tool call 'big' \(tool 'lookup'\)/);
    expect(sent).toBe(11_000);
    expect(stopped).toBe(true);
    expect(log).toEqual([]);
  });

  it('breaking out of the iteration stops the model stream and aborts running tools', async () => {
    const { toolkit, log, aborted } = setup();
    let streamSignal: AbortSignal | undefined;
    const provider = new ScriptedProvider([
      ScriptedProvider.chunks(async function* (_request, signal): AsyncIterable<ProviderStreamEvent> {
        streamSignal = signal;
        yield { type: 'tool_call_started', id: 's', name: 'slow' };
        yield { type: 'tool_call_complete', id: 's', name: 'slow', arguments: '{}' };
        yield { type: 'text_delta', text: 'still writing' };
        await new Promise(() => undefined);
      }),
    ]);
    for await (const event of streamToolLoop({ provider, model: 'm', toolkit }, user('go'))) {
      if (event.type === 'text_delta') break;
    }
    expect(log).toEqual(['slow started']);
    expect(aborted).toEqual(['slow']);
    expect(streamSignal?.aborted).toBe(true);
  });

  it('the caller signal aborts the loop with its reason', async () => {
    const { toolkit } = setup();
    const controller = new AbortController();
    const provider = new ScriptedProvider([
      ScriptedProvider.chunks(async function* (_request, signal): AsyncIterable<ProviderStreamEvent> {
        yield { type: 'text_delta', text: 'hi' };
        yield { type: 'text_delta', text: 'after the abort' };
        await new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
      }),
    ]);
    const reason = new Error('user left');
    const events = streamToolLoop({ provider, model: 'm', toolkit, signal: controller.signal }, user('go'));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of events) {
          seen.push(event.type);
          controller.abort(reason);
        }
      })(),
    ).rejects.toBe(reason);
    expect(seen).toEqual(['text_delta']);
  }, 10_000);

  it('shares runToolLoop guards: repeated calls and the tool-call budget', async () => {
    const { toolkit, log } = setup();
    const again = ScriptedProvider.toolCall('lookup', { word: 'x' });
    const provider = new ScriptedProvider([again, again, ScriptedProvider.reply('fine')]);
    const events = await collect(streamToolLoop({ provider, model: 'm', toolkit, maxRepeatedCalls: 1 }, user('x')));
    const results = events.filter((e): e is Extract<LoopEvent, { type: 'tool_result' }> => e.type === 'tool_result');
    expect(results.map((r) => r.result.error?.code ?? 'ok')).toEqual(['ok', 'REPEATED_CALL']);
    expect(log).toEqual(['run x']);

    const budget = new ScriptedProvider([ScriptedProvider.toolCalls([{ name: 'lookup', arguments: { word: 'a' } }, { name: 'lookup', arguments: { word: 'b' } }])]);
    const final = (await collect(streamToolLoop({ provider: budget, model: 'm', toolkit, maxToolCalls: 1 }, user('ab')))).at(-1);
    expect(final).toMatchObject({ type: 'final', result: { stopReason: 'max_tool_calls', toolCalls: 1 } });
  });

  it('events never carry preset values, from results or progress', async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([ScriptedProvider.toolCall('secret_search', { q: 'cats' }), ScriptedProvider.reply('done')]);
    const events = await collect(streamToolLoop({ provider, model: 'm', toolkit }, user('cats')));
    expect(events.some((e) => e.type === 'tool_progress')).toBe(true);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { isError: false } });
    expect(findLeaks(events, [SECRET])).toEqual([]);
  });

  it('a provider stream that sends arguments for a call it never started fails clearly', async () => {
    const { toolkit, log } = setup();
    const provider = new ScriptedProvider([ScriptedProvider.chunks([{ type: 'tool_call_delta', id: 'ghost', delta: '{}' }])]);
    const { error } = await failure(streamToolLoop({ provider, model: 'm', toolkit }, user('x')));
    expect((error as Error).message).toBe("The model stream sent arguments for the unknown tool call 'ghost'.");
    expect(log).toEqual([]);
  });

  it('the time budget ends a stream that hangs, as time_budget', async () => {
    const { toolkit } = setup();
    const provider = new ScriptedProvider([
      ScriptedProvider.chunks(async function* (_request, signal): AsyncIterable<ProviderStreamEvent> {
        yield { type: 'text_delta', text: 'thinking' };
        await new Promise((_resolve, reject) => {
          if (signal?.aborted) reject(signal.reason);
          signal?.addEventListener('abort', () => reject(signal.reason));
        });
      }),
    ]);
    const events = await collect(streamToolLoop({ provider, model: 'm', toolkit, timeBudgetMs: 50 }, user('x')));
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'final']);
    expect(events[1]).toMatchObject({ type: 'final', result: { stopReason: 'time_budget', iterations: 1 } });
  });

  it('a result of an early call goes out while the model is still silent', async () => {
    const { toolkit } = setup();
    let resultSeen!: () => void;
    const seen = new Promise<void>((resolve) => (resultSeen = resolve));
    let waited = false;
    const provider = new ScriptedProvider([
      ScriptedProvider.chunks(async function* (): AsyncIterable<ProviderStreamEvent> {
        yield { type: 'tool_call_started', id: 'a', name: 'lookup' };
        yield { type: 'tool_call_complete', id: 'a', name: 'lookup', arguments: '{"word":"early"}' };
        // the model says nothing more until the consumer has the result (bounded: 2 s)
        waited = await Promise.race([seen.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 2_000))]);
        yield { type: 'text_delta', text: 'and more' };
        yield { type: 'finish' };
      }),
      ScriptedProvider.reply('done'),
    ]);
    const order: string[] = [];
    for await (const event of streamToolLoop({ provider, model: 'm', toolkit }, user('x'))) {
      order.push(event.type);
      if (event.type === 'tool_result') resultSeen();
    }
    expect(waited).toBe(true);
    expect(order.slice(0, 3)).toEqual(['tool_call_started', 'tool_result', 'text_delta']);
  });
});
