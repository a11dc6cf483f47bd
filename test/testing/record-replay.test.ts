import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { ScriptedProvider, Tool, ToolParam, Toolkit, ToolkitError, runToolLoop, streamToolLoop, type LLMProvider, type LLMRequest, type LoopEvent, type Message } from '../../src';
import { OpenAIProvider } from '../../src/providers/openai';
import { recordProvider, replayProvider } from '../../src/testing';
import { WireServer } from '../providers/wire-server';
import { rejection } from '../support/errors';

class Weather {
  calls = 0;

  @Tool({ name: 'get_weather', description: 'Get the weather of a city' })
  getWeather(@ToolParam({ name: 'city' }) city: string): string {
    this.calls++;
    return `Sunny in ${city}`;
  }
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-cassette-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const user = (content: string): Message[] => [{ role: 'user', content }];

function toolkit(): { toolkit: Toolkit; weather: Weather } {
  const kit = new Toolkit();
  const weather = new Weather();
  kit.registerTool(weather);
  return { toolkit: kit, weather };
}

const script = (): ScriptedProvider => new ScriptedProvider([ScriptedProvider.toolCall('get_weather', { city: 'Paris' }), ScriptedProvider.reply('It is sunny in Paris.')]);

describe('recordProvider / replayProvider', () => {
  test('a runToolLoop run recorded against a scripted model replays with the same answer and no model', async () => {
    const file = path.join(dir, 'nested', 'weather.json');
    const first = toolkit();
    const recorder = recordProvider(script(), file);
    const recorded = await runToolLoop({ provider: recorder, model: 'm', toolkit: first.toolkit, options: { temperature: 0 } }, user('Weather in Paris?'));
    expect(recorder.recorded).toBe(2);

    const cassette = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(cassette).toMatchObject({ format: 'toolwright-cassette', version: 1 });
    expect(cassette.interactions.map((i: { kind: string }) => i.kind)).toEqual(['chat', 'chat']);
    expect(cassette.interactions[0].request.tools.map((t: { name: string }) => t.name)).toEqual(['get_weather']);
    expect(Object.keys(cassette)).toEqual(['format', 'interactions', 'version']);
    expect(fs.readFileSync(file, 'utf8')).toContain('\n  "format"');

    const second = toolkit();
    const replay = replayProvider(file);
    const replayed = await runToolLoop({ provider: replay, model: 'm', toolkit: second.toolkit, options: { temperature: 0 } }, user('Weather in Paris?'));
    expect(replayed.content).toBe(recorded.content);
    expect(replayed.messages).toEqual(recorded.messages);
    expect(second.weather.calls).toBe(1);
    expect(replay.remaining).toBe(0);
  });

  test('the cassette is byte-identical when the same run is recorded twice (stable key order)', async () => {
    const a = path.join(dir, 'a.json');
    const b = path.join(dir, 'b.json');
    await runToolLoop({ provider: recordProvider(script(), a), model: 'm', toolkit: toolkit().toolkit }, user('Weather in Paris?'));
    const scripted = script();
    const reordered: LLMProvider = {
      chat: (request: LLMRequest) => scripted.chat(request).then((r) => ({ finishReason: r.finishReason, toolCalls: r.toolCalls, content: r.content })),
    };
    await runToolLoop({ provider: recordProvider(reordered, b), model: 'm', toolkit: toolkit().toolkit }, user('Weather in Paris?'));
    expect(fs.readFileSync(b, 'utf8')).toBe(fs.readFileSync(a, 'utf8'));
  });

  test('a drifted request fails with the file, the index and a bounded diff of what changed', async () => {
    const file = path.join(dir, 'drift.json');
    await runToolLoop({ provider: recordProvider(script(), file), model: 'm', toolkit: toolkit().toolkit, options: { temperature: 0 } }, user('Weather in Paris?'));

    const message = rejection(runToolLoop({ provider: replayProvider(file), model: 'm', toolkit: toolkit().toolkit, options: { temperature: 0 } }, user('Weather in Rome?' + 'x'.repeat(10_000))));
    await expect(message).resolves.toMatchObject({ code: 'PROVIDER_FAILED' });
    const error = (await message) as ToolkitError;
    expect(error.message).toContain('request 0 differs');
    expect(error.message).toContain(file);
    expect(error.message).toContain('messages[0].content: recorded "Weather in Paris?", got "Weather in Rome?xxx');
    expect(error.message.length).toBeLessThan(1200);

    const options = (await rejection(runToolLoop({ provider: replayProvider(file), model: 'm', toolkit: toolkit().toolkit, options: { temperature: 1 } }, user('Weather in Paris?')))) as Error;
    expect(options.message).toContain('options.temperature: recorded 0, got 1');

    const other = new Toolkit();
    other.registerTool({ name: 'get_weather', description: 'Another description', parameters: { type: 'object', properties: {} }, execute: () => 'x' });
    const tools = (await rejection(runToolLoop({ provider: replayProvider(file), model: 'm', toolkit: other, options: { temperature: 0 } }, user('Weather in Paris?')))) as Error;
    expect(tools.message).toContain('tools[0].description: recorded "Get the weather of a city", got "Another description"');
  });

  test('many differences are listed five at a time and counted', async () => {
    const file = path.join(dir, 'many.json');
    const messages: Message[] = Array.from({ length: 20 }, (_, i) => ({ role: 'user', content: `m${i}` }));
    await recordProvider(script(), file).chat({ model: 'm', messages, tools: [] });
    const error = (await rejection(replayProvider(file).chat({ model: 'm', messages: messages.map((m) => ({ ...m, content: `${m.content}!` })), tools: [] }))) as Error;
    expect(error.message.split('\n')).toHaveLength(7);
    expect(error.message).toContain('… and 15 more differences');
  });

  test('a request past the recording, a missing cassette and a forged one are clear errors naming the file', async () => {
    const file = path.join(dir, 'short.json');
    await runToolLoop({ provider: recordProvider(script(), file), model: 'm', toolkit: toolkit().toolkit }, user('Weather in Paris?'));
    const replay = replayProvider(file);
    await runToolLoop({ provider: replay, model: 'm', toolkit: toolkit().toolkit }, user('Weather in Paris?'));
    const extra = (await rejection(replay.chat({ model: 'm', messages: user('again'), tools: [] }))) as ToolkitError;
    expect(extra.code).toBe('PROVIDER_FAILED');
    expect(extra.message).toBe(`replayProvider: request 2 has no recorded turn in '${file}' (it holds 2); record the cassette again.`);

    const missing = path.join(dir, 'missing.json');
    expect(() => replayProvider(missing)).toThrow(`replayProvider: the cassette '${missing}' cannot be read (ENOENT); record it first with recordProvider.`);

    const forged = path.join(dir, 'forged.json');
    for (const [content, why] of [
      ['{', 'is not JSON'],
      ['{"format":"other"}', 'is not a toolwright cassette'],
      ['{"format":"toolwright-cassette","version":99,"interactions":[]}', 'has version \'99\''],
      ['{"format":"toolwright-cassette","version":1,"interactions":[{"kind":"chat","request":{"model":"m","messages":[],"tools":[]}}]}', 'interaction 0 without exactly one valid response or error'],
      ['{"format":"toolwright-cassette","version":1,"interactions":[{"kind":"telepathy"}]}', 'interaction 0 of an unknown kind'],
    ] as const) {
      fs.writeFileSync(forged, content);
      expect(() => replayProvider(forged)).toThrow(why);
    }
  });

  test('a provider failure is recorded and replayed as a failure at the same turn', async () => {
    const file = path.join(dir, 'failure.json');
    const failing: LLMProvider = {
      chat: () => Promise.reject(new ToolkitError('PROVIDER_FAILED', 'rate limited')),
    };
    await expect(recordProvider(failing, file).chat({ model: 'm', messages: user('hi'), tools: [] })).rejects.toThrow('rate limited');
    const error = (await rejection(replayProvider(file).chat({ model: 'm', messages: user('hi'), tools: [] }))) as ToolkitError;
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toBe("replayProvider: request 0 failed when recorded ('PROVIDER_FAILED'): 'rate limited'");
  });

  test('credentials in options are never written, and replay compares without them', async () => {
    const file = path.join(dir, 'secret.json');
    const options = { max_tokens: 50, apiKey: 'sk-live-123', headers: { Authorization: 'Bearer sk-live-123', 'X-Api-Key': 'sk-live-123', 'x-trace': 'ok' }, extra: { password: 'hunter2', access_token: 'tok-9' } };
    await recordProvider(script(), file).chat({ model: 'm', messages: user('hi'), tools: [], options });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-live-123');
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('tok-9');
    expect(JSON.parse(text).interactions[0].request.options).toEqual({
      apiKey: '[REDACTED]',
      extra: { access_token: '[REDACTED]', password: '[REDACTED]' },
      headers: { Authorization: '[REDACTED]', 'X-Api-Key': '[REDACTED]', 'x-trace': 'ok' },
      max_tokens: 50,
    });
    const other = { ...options, apiKey: 'sk-other', headers: { ...options.headers, Authorization: 'Bearer other' } };
    await expect(replayProvider(file).chat({ model: 'm', messages: user('hi'), tools: [], options: other })).resolves.toMatchObject({ toolCalls: [{ name: 'get_weather' }] });
  });

  test('an aborted request is refused on replay', async () => {
    const file = path.join(dir, 'abort.json');
    await recordProvider(script(), file).chat({ model: 'm', messages: user('hi'), tools: [] });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(replayProvider(file).chat({ model: 'm', messages: user('hi'), tools: [], signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('record against the OpenAI SDK on a local server, replay without it', () => {
  let server: WireServer;
  beforeAll(async () => {
    server = await WireServer.start();
  });
  afterAll(() => server.close());

  const completion = (message: Record<string, unknown>, finish: string) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 },
  });

  test('runToolLoop end to end: the replay needs no server and gives the same run', async () => {
    server.reply(
      { json: completion({ content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] }, 'tool_calls') },
      { json: completion({ content: 'Sunny in Oslo.' }, 'stop') },
    );
    const client = new OpenAI({ apiKey: 'sk-test-secret', baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const file = path.join(dir, 'openai.json');
    const recorded = await runToolLoop({ provider: recordProvider(new OpenAIProvider(client), file), model: 'gpt-test', toolkit: toolkit().toolkit }, user('Oslo?'));
    expect(recorded.content).toBe('Sunny in Oslo.');
    expect(server.requests).toHaveLength(2);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('sk-test-secret');

    const second = toolkit();
    const replayed = await runToolLoop({ provider: replayProvider(file), model: 'gpt-test', toolkit: second.toolkit }, user('Oslo?'));
    expect(server.requests).toHaveLength(2);
    expect(replayed.messages).toEqual(recorded.messages);
    expect(replayed.usage).toEqual(recorded.usage);
    expect(second.weather.calls).toBe(1);
  });
});

describe('recordProvider / replayProvider with streamed turns', () => {
  const streamed = async (provider: LLMProvider, kit: Toolkit): Promise<LoopEvent[]> => {
    const events: LoopEvent[] = [];
    for await (const event of streamToolLoop({ provider, model: 'm', toolkit: kit }, user('Weather in Paris?'))) events.push(event);
    return events;
  };
  const shape = (events: LoopEvent[]) => events.map((event) => (event.type === 'text_delta' ? `text:${event.text}` : event.type));

  test('a streamToolLoop run is recorded as stream turns and replays the same events, with no model', async () => {
    const file = path.join(dir, 'stream.json');
    const first = toolkit();
    const recorder = recordProvider(script(), file);
    const recorded = await streamed(recorder, first.toolkit);
    const cassette = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(cassette.interactions.map((i: { kind: string }) => i.kind)).toEqual(['stream', 'stream']);
    expect(cassette.interactions[0].events.at(-1)).toMatchObject({ type: 'finish' });

    const second = toolkit();
    const replayed = await streamed(replayProvider(file), second.toolkit);
    expect(shape(replayed)).toEqual(shape(recorded));
    expect(replayed.at(-1)).toMatchObject({ type: 'final', result: { content: 'It is sunny in Paris.' } });
    expect(second.weather.calls).toBe(1);
  });

  test('a streamed turn asked through chat, and a drifted streamed request, fail naming the file and the turn', async () => {
    const file = path.join(dir, 'stream.json');
    await streamed(recordProvider(script(), file), toolkit().toolkit);
    const viaChat = await rejection(runToolLoop({ provider: replayProvider(file), model: 'm', toolkit: toolkit().toolkit }, user('Weather in Paris?')));
    expect(String(viaChat)).toMatch(/request 0 was recorded from `stream` .* asked through `chat`/);
    const drifted = replayProvider(file);
    const events: LoopEvent[] = [];
    const failure = await rejection(
      (async () => {
        for await (const event of streamToolLoop({ provider: drifted, model: 'other-model', toolkit: toolkit().toolkit }, user('Weather in Paris?'))) events.push(event);
      })(),
    );
    expect(String(failure)).toContain('request 0 differs');
    expect(String(failure)).toContain('stream.json');
  });

  test('a stream that failed midway is recorded with the events before the failure; the replay sends them, then fails', async () => {
    const file = path.join(dir, 'broken.json');
    const broken: LLMProvider = {
      chat: () => Promise.reject(new Error('not used')),
      async *stream() {
        yield { type: 'text_delta', text: 'Let me ' };
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      },
    };
    const seen: string[] = [];
    const failure = await rejection(
      (async () => {
        for await (const event of streamToolLoop({ provider: recordProvider(broken, file), model: 'm', toolkit: toolkit().toolkit }, user('Hi'))) seen.push(event.type);
      })(),
    );
    expect(String(failure)).toContain('socket hang up');
    const cassette = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(cassette.interactions[0]).toMatchObject({ kind: 'stream', events: [{ type: 'text_delta', text: 'Let me ' }], error: { code: 'ECONNRESET' } });
    const replayedTypes: string[] = [];
    const again = await rejection(
      (async () => {
        for await (const event of streamToolLoop({ provider: replayProvider(file), model: 'm', toolkit: toolkit().toolkit }, user('Hi'))) replayedTypes.push(event.type);
      })(),
    );
    expect(String(again)).toMatch(/request 0 failed when recorded \('ECONNRESET'\)|request 0 failed when recorded \(ECONNRESET\)/);
    expect(replayedTypes).toEqual(seen);
  });
});
