import type { GoogleGenAI } from '@google/genai';
import { Container } from 'inversify';
import { runToolLoop, Toolkit, toolResult, type LLMResponse, type LoweringChange, type ToolSchema } from '../../src';
import { GeminiProvider, toGeminiContents } from '../../src/providers/gemini';
import { rejection } from '../support/errors';
import { geminiClient, WEATHER_TOOLS, WireServer } from './wire-server';

let server: WireServer;
let client: GoogleGenAI;

beforeAll(async () => {
  server = await WireServer.start();
  client = geminiClient(server);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** The weather tools as Gemini receives them (the SDK upper-cases the types). */
const DECLARATIONS = [
  {
    name: 'get_weather',
    description: 'Get the weather forecast',
    parameters: {
      type: 'OBJECT',
      properties: {
        city: { type: 'STRING', description: 'City name' },
        days: { type: 'INTEGER', description: 'Forecast days', minimum: 1, maximum: 14, default: 1 },
        unit: { type: 'STRING', enum: ['C', 'F'] },
      },
      required: ['city'],
    },
  },
  { name: 'get_time', description: 'Get the local time', parameters: { type: 'OBJECT', properties: { tz: { type: 'STRING', description: 'IANA time zone' } }, required: ['tz'] } },
];

/** A `generateContent` reply of one candidate. */
function reply(parts: unknown[], finishReason = 'STOP', usage: Record<string, number> = { promptTokenCount: 30, candidatesTokenCount: 7, totalTokenCount: 37 }) {
  return { json: { candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }], usageMetadata: usage, modelVersion: 'gemini-test' } };
}

describe('GeminiProvider over generateContent', () => {
  test('one turn: the request on the wire and the mapped response', async () => {
    const provider = new GeminiProvider(client, { defaultOptions: { temperature: 0.1 } });
    server.reply(reply([{ text: 'Checking.' }, { functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } } }], 'STOP', {
      promptTokenCount: 30,
      toolUsePromptTokenCount: 2,
      candidatesTokenCount: 7,
      thoughtsTokenCount: 5,
      totalTokenCount: 44,
    }));
    const turn = await provider.chat({
      model: 'gemini-test',
      messages: [
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [...WEATHER_TOOLS],
    });
    expect(server.requests[0].method).toBe('POST');
    expect(server.requests[0].path).toMatch(/^\/v1\/models\/gemini-test:generateContent/);
    expect(server.requests[0].headers['x-goog-api-key']).toBe('test-key');
    expect(server.body(0)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
      systemInstruction: { role: 'user', parts: [{ text: 'You are a weather bot.' }] },
      tools: [{ functionDeclarations: DECLARATIONS }],
      generationConfig: { temperature: 0.1 },
    });
    expect(turn).toEqual<LLMResponse>({
      content: 'Checking.',
      toolCalls: [{ id: 'fc_1', name: 'get_weather', arguments: { city: 'Paris' } }],
      finishReason: 'STOP',
      usage: { inputTokens: 32, outputTokens: 12, totalTokens: 44 },
    });
  });

  test('parallel calls without ids through runToolLoop: one content of function responses, matched by name, thought signature replayed', async () => {
    const toolkit = new Toolkit({ container: new Container() });
    toolkit.registerTool({ name: 'get_weather', description: 'Weather', parameters: WEATHER_TOOLS[0].parameters, execute: (a) => toolResult(`sunny in ${String(a.city)}`) });
    toolkit.registerTool({
      name: 'get_time',
      description: 'Time',
      parameters: WEATHER_TOOLS[1].parameters,
      execute: () => {
        throw new Error('clock is down');
      },
    });
    server.reply(
      reply([
        { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLTE=' },
        { functionCall: { name: 'get_time', args: { tz: 'Asia/Tokyo' } } },
      ]),
      reply([{ text: 'Sunny; the clock is down.' }]),
    );
    const result = await runToolLoop({ provider: new GeminiProvider(client), model: 'gemini-test', toolkit }, [{ role: 'user', content: 'Weather and time?' }]);
    expect(result.content).toBe('Sunny; the clock is down.');
    const contents = (server.body(1) as { contents: unknown[] }).contents;
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLTE=' },
          { functionCall: { name: 'get_time', args: { tz: 'Asia/Tokyo' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: 'sunny in Paris' } } },
          { functionResponse: { name: 'get_time', response: { error: expect.stringContaining('clock is down') } } },
        ],
      },
    ]);
  });

  test('call ids Gemini sends are answered by id and name', () => {
    const { contents } = toGeminiContents([
      { role: 'assistant', content: '', toolCalls: [{ id: 'fc_7', name: 'get_time', arguments: '{"tz":"UTC"}' }] },
      { role: 'tool', content: '12:00', toolCallId: 'fc_7' },
    ]);
    expect(contents).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'fc_7', name: 'get_time', args: { tz: 'UTC' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'fc_7', name: 'get_time', response: { output: '12:00' } } }] },
    ]);
  });

  test('a tool message whose call is unknown and that has no name is refused before sending', async () => {
    const error = await rejection(
      new GeminiProvider(client).chat({ model: 'gemini-test', messages: [{ role: 'tool', content: 'x', toolCallId: 'ghost' }], tools: [] }),
      'PROVIDER_FAILED',
    );
    expect(error.message).toContain('messages[0]');
    expect(error.message).toContain('Message.name');
    expect(server.requests).toHaveLength(0);
  });

  test('arguments that are not an object reach the toolkit as JSON text; a part thought is not text', async () => {
    server.reply(
      reply([{ text: 'hidden reasoning', thought: true }, { functionCall: { id: 'fc_1', name: 'get_time', args: ['UTC'] } }], 'STOP', {
        promptTokenCount: '9' as unknown as number,
        candidatesTokenCount: 3,
      }),
    );
    const turn = await new GeminiProvider(client).chat({ model: 'gemini-test', messages: [{ role: 'user', content: 'time' }], tools: [...WEATHER_TOOLS] });
    expect(turn.content).toBe('');
    expect(turn.toolCalls).toEqual([{ id: 'fc_1', name: 'get_time', arguments: '["UTC"]' }]);
    expect(turn.usage).toEqual({ inputTokens: 0, outputTokens: 3, totalTokens: 3 });
  });

  test('malformed replies: parts not an array, a call without a name, no candidates, a blocked prompt', async () => {
    const provider = new GeminiProvider(client);
    const ask = () => provider.chat({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], tools: [] });
    server.reply({ json: { candidates: [{ content: { role: 'model', parts: 'oops' }, finishReason: 'STOP' }] } });
    expect((await rejection(ask(), 'PROVIDER_FAILED')).message).toBe('Gemini models.generateContent returned a malformed response: candidates[0].content.parts is not an array.');
    server.reply(reply([{ functionCall: { args: {} } }]));
    expect((await rejection(ask(), 'PROVIDER_FAILED')).message).toContain('a functionCall has no name');
    server.reply({ json: { candidates: [] } });
    expect((await rejection(ask(), 'PROVIDER_FAILED')).message).toBe('Gemini models.generateContent returned no candidates.');
    server.reply({ json: { promptFeedback: { blockReason: 'SAFETY' } } });
    expect((await rejection(ask(), 'PROVIDER_FAILED')).message).toBe('Gemini models.generateContent blocked the prompt: SAFETY.');
  });

  test('an API error names the status and the API message, bounded; the SDK error is the cause', async () => {
    server.reply({ status: 400, json: { error: { code: 400, message: `API key not valid. ${'x'.repeat(5000)}`, status: 'INVALID_ARGUMENT' } } });
    const error = await rejection(
      new GeminiProvider(client).chat({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], tools: [] }),
      'PROVIDER_FAILED',
    );
    expect(error.message).toMatch(/^Gemini models\.generateContent failed because HTTP 400 INVALID_ARGUMENT: API key not valid\. x+/);
    expect(error.message.length).toBeLessThan(1200);
    expect((error.cause as { status?: number }).status).toBe(400);
  });

  test('an aborted signal rejects with ABORTED', async () => {
    server.reply({ ...reply([{ text: 'late' }]), delayMs: 10_000 });
    const controller = new AbortController();
    const pending = new GeminiProvider(client).chat({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], tools: [], signal: controller.signal });
    await server.received(1);
    controller.abort(new Error('user left'));
    expect((await rejection(pending, 'ABORTED')).message).toContain('user left');
  });

  test('a tool Gemini cannot take is left out and reported; the others are sent', async () => {
    const reports: LoweringChange[][] = [];
    const recursive: ToolSchema = {
      name: 'tree',
      description: 'Tree',
      parameters: { type: 'object', properties: { node: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } } },
    };
    server.reply(reply([{ text: 'ok' }]));
    await new GeminiProvider(client, { onLoweringReport: (r) => reports.push([...r]) }).chat({
      model: 'gemini-test',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [recursive, WEATHER_TOOLS[1]],
    });
    expect((server.body(0) as { tools: { functionDeclarations: { name: string }[] }[] }).tools[0].functionDeclarations.map((d) => d.name)).toEqual(['get_time']);
    expect(reports.flat().some((change) => change.tool === 'tree' && change.omitted === true)).toBe(true);
  });

  test('hostile call fields: a non-string id gets a made-up one, a non-string signature is dropped; the signature store keeps the last 1,024 calls', async () => {
    const provider = new GeminiProvider(client);
    const calls = Array.from({ length: 1025 }, (_, i) => ({ functionCall: { id: `fc_${i}`, name: 'get_time', args: { tz: 'UTC' } }, thoughtSignature: `sig-${i}` }));
    server.reply(reply([{ functionCall: { id: 42, name: 'get_time', args: {} }, thoughtSignature: { forged: true } }, ...calls]), reply([{ text: 'done' }]));
    const turn = await provider.chat({ model: 'gemini-test', messages: [{ role: 'user', content: 'time' }], tools: [] });
    expect(turn.toolCalls[0].id).toMatch(/^toolwright-gemini-[0-9a-f-]{36}$/);
    const replayed = [turn.toolCalls[0], turn.toolCalls[1], turn.toolCalls[1025]];
    await provider.chat({ model: 'gemini-test', messages: [{ role: 'user', content: 'time' }, { role: 'assistant', content: '', toolCalls: replayed }], tools: [] });
    const parts = (server.body(1) as { contents: { parts: Record<string, unknown>[] }[] }).contents[1].parts;
    expect(parts).toEqual([
      { functionCall: { name: 'get_time', args: {} } },
      { functionCall: { id: 'fc_0', name: 'get_time', args: { tz: 'UTC' } } },
      { functionCall: { id: 'fc_1024', name: 'get_time', args: { tz: 'UTC' } }, thoughtSignature: 'sig-1024' },
    ]);
  });
});
