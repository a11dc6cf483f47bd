import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { Container } from 'inversify';
import OpenAI from 'openai';
import { Toolkit, ToolkitError, streamToolLoop, type LLMProvider, type Message } from '../../src';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { OpenAIProvider } from '../../src/providers/openai';
import { SseServer, type SseWriter, chatChunk, chatToolDelta, collect, within } from './sse-server';

/** How one vendor's stream is written on the wire. */
interface Wire {
  readonly name: string;
  provider(origin: string): LLMProvider;
  start(w: SseWriter): void;
  text(w: SseWriter, text: string): void;
  callStart(w: SseWriter, index: number, id: string, name: string): void;
  argDelta(w: SseWriter, index: number, id: string, piece: string): void;
  callDone(w: SseWriter, index: number, id: string, name: string, args: string): void;
  finish(w: SseWriter, reason: 'tools' | 'stop'): void;
}

const chatCompletions: Wire = {
  name: 'OpenAI Chat Completions',
  provider: (origin) => new OpenAIProvider(new OpenAI({ apiKey: 'test', baseURL: `${origin}/v1`, maxRetries: 0 })),
  start: (w) => w.send(chatChunk({ role: 'assistant', content: '' })),
  text: (w, text) => w.send(chatChunk({ content: text })),
  callStart: (w, index, id, name) => w.send(chatToolDelta(index, { id, name, arguments: '' })),
  argDelta: (w, index, _id, piece) => w.send(chatToolDelta(index, { arguments: piece })),
  // the API says nothing when a call is complete: the next call or the finish says it
  callDone: () => undefined,
  finish: (w, reason) => {
    w.send(chatChunk({}, reason === 'tools' ? 'tool_calls' : 'stop'));
    w.send({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'gpt-test', choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } });
    w.send('[DONE]');
    w.end();
  },
};

const responses: Wire = {
  name: 'OpenAI Responses',
  provider: (origin) => new OpenAIProvider(new OpenAI({ apiKey: 'test', baseURL: `${origin}/v1`, maxRetries: 0 }), { api: 'responses' }),
  start: (w) => w.typed({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', status: 'in_progress', output: [] } }),
  text: (w, text) => w.typed({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: text, sequence_number: 1 }),
  callStart: (w, index, id, name) =>
    w.typed({ type: 'response.output_item.added', output_index: index, sequence_number: 1, item: { type: 'function_call', id: `fc_${id}`, call_id: id, name, arguments: '', status: 'in_progress' } }),
  argDelta: (w, index, id, piece) => w.typed({ type: 'response.function_call_arguments.delta', item_id: `fc_${id}`, output_index: index, delta: piece, sequence_number: 1 }),
  callDone: (w, index, id, name, args) =>
    w.typed({ type: 'response.output_item.done', output_index: index, sequence_number: 1, item: { type: 'function_call', id: `fc_${id}`, call_id: id, name, arguments: args, status: 'completed' } }),
  finish: (w) => {
    w.typed({ type: 'response.completed', sequence_number: 9, response: { id: 'resp_1', status: 'completed', output: [], usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 } } });
    w.end();
  },
};

const anthropic: Wire = {
  name: 'Anthropic Messages',
  provider: (origin) => new AnthropicProvider(new Anthropic({ apiKey: 'test', baseURL: origin, maxRetries: 0 })),
  start: (w) =>
    w.typed({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }),
  text: (w, text) => {
    w.typed({ type: 'content_block_start', index: 90, content_block: { type: 'text', text: '' } });
    w.typed({ type: 'content_block_delta', index: 90, delta: { type: 'text_delta', text } });
    w.typed({ type: 'content_block_stop', index: 90 });
  },
  callStart: (w, index, id, name) => w.typed({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }),
  argDelta: (w, index, _id, piece) => w.typed({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }),
  callDone: (w, index) => w.typed({ type: 'content_block_stop', index }),
  finish: (w, reason) => {
    w.typed({ type: 'message_delta', delta: { stop_reason: reason === 'tools' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } });
    w.typed({ type: 'message_stop' });
    w.end();
  },
};

let server: SseServer;
beforeAll(async () => {
  server = await SseServer.start();
});
afterAll(() => server.close());

function setup(): { toolkit: Toolkit; runs: { word: string; at: number }[] } {
  const toolkit = new Toolkit({ container: new Container() });
  const runs: { word: string; at: number }[] = [];
  toolkit.registerTool({
    name: 'lookup',
    description: 'Look a word up',
    parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    execute: (args) => {
      runs.push({ word: String(args.word), at: performance.now() });
      return `${String(args.word)}: found`;
    },
  });
  return { toolkit, runs };
}

const user = (content: string): Message[] => [{ role: 'user', content }];

describe.each([chatCompletions, responses, anthropic])('$name stream through the real SDK client', (wire) => {
  it('runs two parallel calls, the first starting before the second one\'s arguments are complete', async () => {
    const { toolkit, runs } = setup();
    let secondDoneAt = 0;
    server.reply(
      async (w) => {
        wire.start(w);
        wire.text(w, 'Looking up.');
        wire.callStart(w, 0, 'call_a', 'lookup');
        wire.argDelta(w, 0, 'call_a', '{"word":');
        wire.argDelta(w, 0, 'call_a', '"alpha"}');
        wire.callDone(w, 0, 'call_a', 'lookup', '{"word":"alpha"}');
        wire.callStart(w, 1, 'call_b', 'lookup');
        wire.argDelta(w, 1, 'call_b', '{"word":');
        // hold the rest of the second call until the first one ran (loose bound: 5 s)
        await within(
          (async () => {
            while (runs.length === 0) await new Promise((r) => setTimeout(r, 5));
          })(),
          5_000,
        );
        secondDoneAt = performance.now();
        wire.argDelta(w, 1, 'call_b', '"beta"}');
        wire.callDone(w, 1, 'call_b', 'lookup', '{"word":"beta"}');
        wire.finish(w, 'tools');
      },
      (w) => {
        wire.start(w);
        wire.text(w, 'Both found.');
        wire.finish(w, 'stop');
      },
    );
    const { events, error } = await collect(streamToolLoop({ provider: wire.provider(server.origin), model: 'test-model', toolkit }, user('alpha and beta?')));
    expect(error).toBeUndefined();
    expect(runs.map((r) => r.word)).toEqual(['alpha', 'beta']);
    expect(runs[0].at).toBeLessThan(secondDoneAt);
    expect(events.filter((e) => e.type === 'text_delta').map((e) => e.text)).toEqual(['Looking up.', 'Both found.']);
    expect(events.filter((e) => e.type === 'tool_call_delta').map((e) => e.delta)).toEqual(['{"word":', '"alpha"}', '{"word":', '"beta"}']);
    const final = events.at(-1);
    expect(final).toMatchObject({ type: 'final', result: { content: 'Both found.', stopReason: 'completed', toolCalls: 2, iterations: 2, usage: { inputTokens: 10, outputTokens: 14 } } });
    expect(server.bodies.at(-1)).toMatchObject({ stream: true });
    const last = final?.type === 'final' ? final.result.messages : [];
    expect(last.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['alpha: found', 'beta: found']);
  });

  it('a stream cut inside a call\'s arguments fails with PROVIDER_FAILED and the half-formed call never runs', async () => {
    const { toolkit, runs } = setup();
    server.reply((w) => {
      wire.start(w);
      wire.callStart(w, 0, 'call_cut', 'lookup');
      wire.argDelta(w, 0, 'call_cut', '{"word":"hal');
      setTimeout(() => w.cut(), 20);
    });
    const { events, error } = await collect(streamToolLoop({ provider: wire.provider(server.origin), model: 'test-model', toolkit }, user('cut')));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/stream failed because|ended inside the arguments of tool call 'call_cut'/);
    expect((error as Error).message.length).toBeLessThan(600);
    expect(runs).toEqual([]);
    expect(events.some((e) => e.type === 'tool_result')).toBe(false);
  });

  it('10 MB of argument deltas: refused at the argument cap, the request stopped, nothing run', async () => {
    const { toolkit, runs } = setup();
    const piece = 'x'.repeat(64 * 1024);
    let sent = 0;
    server.reply(async (w) => {
      wire.start(w);
      wire.callStart(w, 0, 'call_big', 'lookup');
      wire.argDelta(w, 0, 'call_big', '{"word":"');
      while (sent < 10 * 1024 * 1024 && !w.closed) {
        wire.argDelta(w, 0, 'call_big', piece);
        sent += piece.length;
        await w.drain();
      }
      w.end();
    });
    const { error } = await collect(streamToolLoop({ provider: wire.provider(server.origin), model: 'test-model', toolkit }, user('big')));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^The model stream sent more than 1000000 characters of arguments for tool call 'call_big' \(tool 'lookup'\)/);
    expect(await within(server.clientGone, 5_000)).toBe(true);
    expect(sent).toBeLessThan(10 * 1024 * 1024);
    expect(runs).toEqual([]);
  });
});

describe('hostile stream servers', () => {
  const long = 'overloaded '.repeat(1_000);

  it('a Responses `error` event fails the turn with a bounded PROVIDER_FAILED', async () => {
    const { toolkit, runs } = setup();
    server.reply((w) => {
      responses.start(w);
      responses.callStart(w, 0, 'call_x', 'lookup');
      w.typed({ type: 'error', code: 'server_error', message: long, param: null, sequence_number: 2 });
      w.end();
    });
    const { error } = await collect(streamToolLoop({ provider: responses.provider(server.origin), model: 'test-model', toolkit }, user('x')));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^OpenAI responses.create stream failed: server_error: overloaded/);
    expect((error as Error).message.length).toBeLessThan(600);
    expect(runs).toEqual([]);
  });

  it('an Anthropic `error` event mid-stream fails the turn with PROVIDER_FAILED', async () => {
    const { toolkit, runs } = setup();
    server.reply((w) => {
      anthropic.start(w);
      anthropic.callStart(w, 0, 'toolu_1', 'lookup');
      w.send({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error');
      w.end();
    });
    const { error } = await collect(streamToolLoop({ provider: anthropic.provider(server.origin), model: 'test-model', toolkit }, user('x')));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^Anthropic messages.create stream failed because .*Overloaded/);
    expect(runs).toEqual([]);
  });

  it('Chat Completions arguments for a call index never started are refused, not run', async () => {
    const { toolkit, runs } = setup();
    server.reply((w) => {
      chatCompletions.start(w);
      // a forged continuation: no id, no name, for a call that never began
      w.send(chatToolDelta(3, { arguments: '{"word":"forged"}' }));
      chatCompletions.finish(w, 'tools');
    }, (w) => {
      chatCompletions.start(w);
      chatCompletions.text(w, 'ok');
      chatCompletions.finish(w, 'stop');
    });
    const { events, error } = await collect(streamToolLoop({ provider: chatCompletions.provider(server.origin), model: 'test-model', toolkit }, user('x')));
    expect(error).toBeUndefined();
    // the nameless call reaches the toolkit, which answers it as an unknown tool; nothing runs
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ result: { isError: true, error: { code: 'UNKNOWN_TOOL' } } });
    expect(runs).toEqual([]);
  });
});
