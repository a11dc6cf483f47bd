import 'reflect-metadata';
import { Container } from 'inversify';
import { Toolkit, ToolkitError, streamToolLoop, type LoopEvent, type Message, type ProviderStreamEvent } from '../../src';
import { GeminiProvider } from '../../src/providers/gemini';
import { SseServer, type SseWriter, collect, within } from './sse-server';
import { geminiClient, WEATHER_TOOLS } from './wire-server';

let server: SseServer;
beforeAll(async () => {
  server = await SseServer.start();
});
afterAll(() => server.close());

/** One streamed `GenerateContentResponse` chunk of one candidate. */
function chunk(parts: unknown[], finishReason?: string, usage?: Record<string, number>): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason !== undefined ? { finishReason } : {}) }],
    ...(usage !== undefined ? { usageMetadata: usage } : {}),
    modelVersion: 'gemini-test',
  };
}

const USAGE = { promptTokenCount: 5, candidatesTokenCount: 4, thoughtsTokenCount: 3, totalTokenCount: 12 };

function setup(): { toolkit: Toolkit; runs: string[] } {
  const toolkit = new Toolkit({ container: new Container() });
  const runs: string[] = [];
  toolkit.registerTool({
    name: 'lookup',
    description: 'Look a word up',
    parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    execute: (args) => {
      runs.push(String(args.word));
      return `${String(args.word)}: found`;
    },
  });
  return { toolkit, runs };
}

const user = (content: string): Message[] => [{ role: 'user', content }];

describe('GeminiProvider.stream over generateContentStream', () => {
  test('text parts arrive as deltas (thoughts left out), then the finish reason and usage', async () => {
    server.reply((w: SseWriter) => {
      w.send(chunk([{ text: 'pondering', thought: true }, { text: 'Hello, ' }]));
      w.send(chunk([{ text: 'world.' }], 'STOP', USAGE));
      w.end();
    });
    const provider = new GeminiProvider(geminiClient(server));
    const { events, error } = await collect<ProviderStreamEvent>(
      provider.stream({ model: 'gemini-test', messages: [{ role: 'system', content: 'Be brief.' }, ...user('hi')], tools: [...WEATHER_TOOLS] }),
    );
    expect(error).toBeUndefined();
    expect(server.paths.at(-1)).toBe('/v1/models/gemini-test:streamGenerateContent?alt=sse');
    expect(events).toEqual([
      { type: 'text_delta', text: 'Hello, ' },
      { type: 'text_delta', text: 'world.' },
      { type: 'finish', stopReason: 'STOP', usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 } },
    ]);
    // the same body as generateContent: contents, system instruction, declarations
    expect(server.bodies[0]).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [{ functionDeclarations: [{ name: 'get_weather' }, { name: 'get_time' }] }],
    });
  });

  test('parallel function calls through streamToolLoop: both run, thought signature replayed, results sent back', async () => {
    const { toolkit, runs } = setup();
    server.reply(
      (w) => {
        w.send(chunk([{ text: 'Looking up.' }]));
        w.send(chunk([
          { functionCall: { id: 'fc_a', name: 'lookup', args: { word: 'alpha' } }, thoughtSignature: 'c2lnLWE=' },
          { functionCall: { name: 'lookup', args: { word: 'beta' } } },
        ], 'STOP', USAGE));
        w.end();
      },
      (w) => {
        w.send(chunk([{ text: 'Both found.' }], 'STOP', USAGE));
        w.end();
      },
    );
    const provider = new GeminiProvider(geminiClient(server));
    const { events, error } = await collect<LoopEvent>(streamToolLoop({ provider, model: 'gemini-test', toolkit }, user('alpha and beta?')));
    expect(error).toBeUndefined();
    expect(runs).toEqual(['alpha', 'beta']);
    expect(events.filter((e) => e.type === 'tool_call_delta').map((e) => e.delta)).toEqual(['{"word":"alpha"}', '{"word":"beta"}']);
    expect(events.at(-1)).toMatchObject({ type: 'final', result: { content: 'Both found.', stopReason: 'completed', toolCalls: 2, iterations: 2, usage: { inputTokens: 10, outputTokens: 14 } } });
    const second = server.bodies[server.bodies.length - 1] as { contents: { role: string; parts: Record<string, unknown>[] }[] };
    const model = second.contents.find((c) => c.role === 'model');
    expect(model?.parts).toEqual([
      { text: 'Looking up.' },
      { functionCall: { id: 'fc_a', name: 'lookup', args: { word: 'alpha' } }, thoughtSignature: 'c2lnLWE=' },
      { functionCall: { name: 'lookup', args: { word: 'beta' } } },
    ]);
    const responses = second.contents.at(-1)?.parts.map((p) => p.functionResponse);
    expect(responses).toMatchObject([{ id: 'fc_a', name: 'lookup' }, { name: 'lookup' }]);
    expect(JSON.stringify(second)).not.toContain('toolwright-gemini-');
  });
});

describe('hostile Gemini streams', () => {
  const long = 'overloaded '.repeat(1_000);

  test('an error chunk mid-stream fails the turn with a bounded PROVIDER_FAILED; nothing runs', async () => {
    const { toolkit, runs } = setup();
    server.reply((w) => {
      w.send(chunk([{ text: 'Start.' }]));
      w.send({ error: { code: 503, message: long, status: 'UNAVAILABLE' } });
      w.end();
    });
    const provider = new GeminiProvider(geminiClient(server));
    const { events, error } = await collect<LoopEvent>(streamToolLoop({ provider, model: 'gemini-test', toolkit }, user('x')));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^Gemini models.generateContentStream stream failed because HTTP 503 UNAVAILABLE: overloaded/);
    // the API's message is cut at 1000 characters
    expect((error as Error).message.length).toBeLessThan(1_200);
    expect(events.filter((e) => e.type === 'text_delta').map((e) => e.text)).toEqual(['Start.']);
    expect(runs).toEqual([]);
  });

  test.each([
    ['ends cleanly', (w: SseWriter) => w.end()],
    ['is cut by the network', (w: SseWriter) => setTimeout(() => w.cut(), 20)],
  ])('a stream that %s before its finish reason fails with PROVIDER_FAILED', async (_name, close) => {
    server.reply((w) => {
      w.send(chunk([{ text: 'Half' }]));
      close(w);
    });
    const provider = new GeminiProvider(geminiClient(server));
    const { events, error } = await collect<ProviderStreamEvent>(provider.stream({ model: 'gemini-test', messages: user('x'), tools: [] }));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/^Gemini models.generateContentStream stream/);
    expect(events).toEqual([{ type: 'text_delta', text: 'Half' }]);
  });

  test('a forged chunk of the wrong shape and a nameless call are refused with PROVIDER_FAILED', async () => {
    server.reply(
      (w) => {
        w.send({ candidates: [{ content: { parts: 'not parts' } }] });
        w.end();
      },
      (w) => {
        w.send(chunk([{ functionCall: { args: { word: 'x' } } }], 'STOP'));
        w.end();
      },
    );
    const provider = new GeminiProvider(geminiClient(server));
    const first = await collect(provider.stream({ model: 'gemini-test', messages: user('x'), tools: [] }));
    expect(ToolkitError.is(first.error, 'PROVIDER_FAILED')).toBe(true);
    expect((first.error as Error).message).toBe('Gemini models.generateContentStream returned a malformed response: candidates[0].content.parts is not an array.');
    const second = await collect(provider.stream({ model: 'gemini-test', messages: user('x'), tools: [] }));
    expect((second.error as Error).message).toBe('Gemini models.generateContentStream returned a malformed response: a functionCall has no name.');
  });

  test('a blocked prompt names its block reason', async () => {
    server.reply((w) => {
      w.send({ promptFeedback: { blockReason: 'SAFETY' } });
      w.end();
    });
    const { error } = await collect(new GeminiProvider(geminiClient(server)).stream({ model: 'gemini-test', messages: user('x'), tools: [] }));
    expect(ToolkitError.is(error, 'PROVIDER_FAILED')).toBe(true);
    expect((error as Error).message).toBe('Gemini models.generateContentStream blocked the prompt: SAFETY.');
  });

  test('aborting mid-stream rejects with ABORTED and drops the request', async () => {
    const controller = new AbortController();
    server.reply((w) => {
      w.send(chunk([{ text: 'Working' }]));
      // never finishes: only the abort ends this turn
    });
    const provider = new GeminiProvider(geminiClient(server));
    const seen: ProviderStreamEvent[] = [];
    const run = (async () => {
      for await (const event of provider.stream({ model: 'gemini-test', messages: user('x'), tools: [] }, { signal: controller.signal })) {
        seen.push(event);
        controller.abort();
      }
    })();
    const error = await run.then(() => undefined, (e: unknown) => e);
    expect(ToolkitError.is(error, 'ABORTED')).toBe(true);
    expect(seen).toEqual([{ type: 'text_delta', text: 'Working' }]);
    expect(await within(server.clientGone, 5_000)).toBe(true);
  });
});
