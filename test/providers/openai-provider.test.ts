import OpenAI from 'openai';
import type { LLMResponse, LoweringChange, Message, ToolSchema } from '../../src';
import { OpenAIProvider } from '../../src/providers/openai';
import { rejection } from '../support/errors';
import { WEATHER_TOOLS, WireServer } from './wire-server';

let server: WireServer;
let client: OpenAI;

beforeAll(async () => {
  server = await WireServer.start();
  client = new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const STRICT_WEATHER = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather forecast',
    strict: true,
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: ['integer', 'null'], description: 'Forecast days (default: 1)', minimum: 1, maximum: 14 },
        unit: { type: ['string', 'null'], enum: ['C', 'F', null] },
      },
      required: ['city', 'days', 'unit'],
      additionalProperties: false,
    },
  },
};
const STRICT_TIME = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Get the local time',
    strict: true,
    parameters: {
      type: 'object',
      properties: { tz: { type: 'string', description: 'IANA time zone' } },
      required: ['tz'],
      additionalProperties: false,
    },
  },
};

function completion(message: Record<string, unknown>, finishReason: string, usage = { prompt_tokens: 20, completion_tokens: 7, total_tokens: 27 }) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-test',
    choices: [{ index: 0, message: { role: 'assistant', refusal: null, ...message }, finish_reason: finishReason, logprobs: null }],
    usage,
  };
}

function functionCall(id: string, name: string, args: string) {
  return { id, type: 'function', function: { name, arguments: args } };
}

describe('OpenAIProvider over Chat Completions (strict)', () => {
  test('three turns with parallel calls: exact request bodies and mapped responses', async () => {
    const provider = new OpenAIProvider(client, {
      strict: true,
      parallelToolCalls: true,
      defaultOptions: { temperature: 0 },
    });
    const messages: Message[] = [
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
    ];

    // turn 1: two parallel tool calls; the model sends null for the optionals (strict mode)
    server.reply({
      json: completion(
        {
          content: null,
          tool_calls: [
            functionCall('call_w1', 'get_weather', '{"city":"Paris","days":null,"unit":null}'),
            functionCall('call_t1', 'get_time', '{"tz":"Asia/Tokyo"}'),
          ],
        },
        'tool_calls',
      ),
    });
    const turn1 = await provider.chat({ model: 'gpt-test', messages, tools: [...WEATHER_TOOLS], options: { max_tokens: 300 } });
    expect(server.requests[0].method).toBe('POST');
    expect(server.requests[0].path).toBe('/v1/chat/completions');
    expect(server.requests[0].headers.authorization).toBe('Bearer test');
    expect(server.body(0)).toEqual({
      parallel_tool_calls: true,
      temperature: 0,
      max_tokens: 300,
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
      ],
      tools: [STRICT_WEATHER, STRICT_TIME],
    });
    expect(turn1).toEqual<LLMResponse>({
      content: '',
      toolCalls: [
        { id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }, // nulls for optionals removed
        { id: 'call_t1', name: 'get_time', arguments: { tz: 'Asia/Tokyo' } },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 20, outputTokens: 7, totalTokens: 27 },
    });

    // turn 2: the results go back; one more call with every property set
    messages.push(
      { role: 'assistant', content: '', toolCalls: turn1.toolCalls },
      { role: 'tool', toolCallId: 'call_w1', name: 'get_weather', content: 'Paris: 21°C, sunny' },
      { role: 'tool', toolCallId: 'call_t1', name: 'get_time', content: '2026-11-02T18:00+09:00' },
    );
    server.reply({
      json: completion(
        { content: 'Checking the weekend too.', tool_calls: [functionCall('call_w2', 'get_weather', '{"city":"Paris","days":3,"unit":"F"}')] },
        'tool_calls',
      ),
    });
    const turn2 = await provider.chat({ model: 'gpt-test', messages, tools: [...WEATHER_TOOLS] });
    expect(server.body(1)).toEqual({
      parallel_tool_calls: true,
      temperature: 0,
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            functionCall('call_w1', 'get_weather', '{"city":"Paris"}'),
            functionCall('call_t1', 'get_time', '{"tz":"Asia/Tokyo"}'),
          ],
        },
        { role: 'tool', tool_call_id: 'call_w1', content: 'Paris: 21°C, sunny' },
        { role: 'tool', tool_call_id: 'call_t1', content: '2026-11-02T18:00+09:00' },
      ],
      tools: [STRICT_WEATHER, STRICT_TIME],
    });
    expect(turn2).toEqual<LLMResponse>({
      content: 'Checking the weekend too.',
      toolCalls: [{ id: 'call_w2', name: 'get_weather', arguments: { city: 'Paris', days: 3, unit: 'F' } }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 20, outputTokens: 7, totalTokens: 27 },
    });

    // turn 3: final answer
    messages.push(
      { role: 'assistant', content: turn2.content, toolCalls: turn2.toolCalls },
      { role: 'tool', toolCallId: 'call_w2', content: 'Error: upstream timeout', isError: true },
    );
    server.reply({ json: completion({ content: 'Paris is 21°C and sunny; it is 18:00 in Tokyo.' }, 'stop') });
    const turn3 = await provider.chat({ model: 'gpt-test', messages, tools: [...WEATHER_TOOLS] });
    const body3 = server.body(2);
    expect((body3.messages as unknown[]).slice(5)).toEqual([
      {
        role: 'assistant',
        content: 'Checking the weekend too.',
        tool_calls: [functionCall('call_w2', 'get_weather', '{"city":"Paris","days":3,"unit":"F"}')],
      },
      { role: 'tool', tool_call_id: 'call_w2', content: 'Error: upstream timeout' },
    ]);
    expect(turn3).toEqual<LLMResponse>({
      content: 'Paris is 21°C and sunny; it is 18:00 in Tokyo.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 20, outputTokens: 7, totalTokens: 27 },
    });
    expect(server.requests).toHaveLength(3);
  });

  test('reports what strict lowering changed, once per tool', async () => {
    const reports: unknown[] = [];
    const provider = new OpenAIProvider(client, { strict: true, onLoweringReport: (r) => reports.push(...r) });
    server.reply({ json: completion({ content: 'a' }, 'stop') }, { json: completion({ content: 'b' }, 'stop') });
    await provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], tools: [...WEATHER_TOOLS] });
    await provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'y' }], tools: [...WEATHER_TOOLS] });
    expect(reports).toEqual([
      { tool: 'get_weather', path: 'days', change: 'dropped default (strict mode rejects it); noted it in the description' },
      { tool: 'get_weather', path: 'days', change: 'made required and nullable for strict mode' },
      { tool: 'get_weather', path: 'unit', change: 'made required and nullable for strict mode' },
      { tool: 'get_weather', path: '', change: 'added additionalProperties: false (strict mode)' },
      { tool: 'get_time', path: '', change: 'added additionalProperties: false (strict mode)' },
    ]);
  });
});

describe('OpenAIProvider over Chat Completions (default, non-strict)', () => {
  test('tools pass through, arguments stay the model text, no tools means no tools field', async () => {
    const provider = new OpenAIProvider(client);
    server.reply(
      { json: completion({ content: null, tool_calls: [functionCall('c1', 'get_time', '{"tz":"UTC"}')] }, 'tool_calls') },
      { json: completion({ content: 'Hello' }, 'stop') },
    );
    const turn = await provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'time?' }], tools: [WEATHER_TOOLS[1]] });
    expect(server.body(0)).toEqual({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'time?' }],
      tools: [{ type: 'function', function: { name: 'get_time', description: 'Get the local time', parameters: WEATHER_TOOLS[1].parameters } }],
    });
    expect(turn.toolCalls).toEqual([{ id: 'c1', name: 'get_time', arguments: '{"tz":"UTC"}' }]);

    await provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: [], options: { stream: true } });
    expect(server.body(1)).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  });
});

function response(output: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    model: 'gpt-test',
    output,
    error: null,
    incomplete_details: null,
    usage: {
      input_tokens: 30,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 39,
    },
    ...extra,
  };
}
function fnCall(callId: string, name: string, args: string) {
  return { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: args, status: 'completed' };
}
function outputMessage(text: string) {
  return { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
}

describe('OpenAIProvider over the Responses API', () => {
  test('three turns with parallel calls: exact input items, tools and mapped responses', async () => {
    const provider = new OpenAIProvider(client, { api: 'responses', strict: true, parallelToolCalls: false });
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Paris weather and Tokyo time?' },
    ];
    const strictTools = [STRICT_WEATHER, STRICT_TIME].map(({ function: f }) => ({
      type: 'function',
      name: f.name,
      description: f.description,
      parameters: f.parameters,
      strict: true,
    }));

    server.reply({
      json: response([
        fnCall('call_1', 'get_weather', '{"city":"Paris","days":2,"unit":null}'),
        fnCall('call_2', 'get_time', '{"tz":"Asia/Tokyo"}'),
      ]),
    });
    const turn1 = await provider.chat({ model: 'gpt-test', messages, tools: [...WEATHER_TOOLS] });
    expect(server.requests[0].path).toBe('/v1/responses');
    expect(server.body(0)).toEqual({
      parallel_tool_calls: false,
      model: 'gpt-test',
      input: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Paris weather and Tokyo time?' },
      ],
      tools: strictTools,
    });
    expect(turn1).toEqual<LLMResponse>({
      content: '',
      toolCalls: [
        { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris', days: 2 } },
        { id: 'call_2', name: 'get_time', arguments: { tz: 'Asia/Tokyo' } },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 30, outputTokens: 9, totalTokens: 39 },
    });

    messages.push(
      { role: 'assistant', content: '', toolCalls: turn1.toolCalls },
      { role: 'tool', toolCallId: 'call_1', content: 'Sunny, 21°C' },
      { role: 'tool', toolCallId: 'call_2', content: '18:00' },
    );
    server.reply({ json: response([outputMessage('Let me double-check.'), fnCall('call_3', 'get_time', '{"tz":"Europe/Paris"}')]) });
    const turn2 = await provider.chat({ model: 'gpt-test', messages, tools: [...WEATHER_TOOLS] });
    expect(server.body(1).input).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Paris weather and Tokyo time?' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris","days":2}' },
      { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'Sunny, 21°C' },
      { type: 'function_call_output', call_id: 'call_2', output: '18:00' },
    ]);
    expect(turn2.content).toBe('Let me double-check.');
    expect(turn2.toolCalls).toEqual([{ id: 'call_3', name: 'get_time', arguments: { tz: 'Europe/Paris' } }]);

    messages.push(
      { role: 'assistant', content: turn2.content, toolCalls: turn2.toolCalls },
      { role: 'tool', toolCallId: 'call_3', content: '11:00' },
    );
    server.reply({ json: response([outputMessage('Paris: sunny, 21°C. Tokyo: 18:00.')]) });
    const turn3 = await provider.chat({ model: 'gpt-test', messages, tools: [...WEATHER_TOOLS] });
    expect((server.body(2).input as unknown[]).slice(6)).toEqual([
      { role: 'assistant', content: 'Let me double-check.' },
      { type: 'function_call', call_id: 'call_3', name: 'get_time', arguments: '{"tz":"Europe/Paris"}' },
      { type: 'function_call_output', call_id: 'call_3', output: '11:00' },
    ]);
    expect(turn3).toEqual<LLMResponse>({
      content: 'Paris: sunny, 21°C. Tokyo: 18:00.',
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 30, outputTokens: 9, totalTokens: 39 },
    });
  });

  test('non-strict Responses tools say strict: false explicitly (the API defaults to true)', async () => {
    const provider = new OpenAIProvider(client, { api: 'responses' });
    server.reply({ json: response([outputMessage('ok')], { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }) });
    const turn = await provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], tools: [WEATHER_TOOLS[1]] });
    expect(server.body(0).tools).toEqual([
      { type: 'function', name: 'get_time', description: 'Get the local time', parameters: WEATHER_TOOLS[1].parameters, strict: false },
    ]);
    expect(turn.finishReason).toBe('max_output_tokens');
  });
});

describe('OpenAIProvider failures', () => {
  test('HTTP 500 rejects with PROVIDER_FAILED carrying the status and message', async () => {
    server.reply({ status: 500, json: { error: { message: 'The server had an error', type: 'server_error' } } });
    const error = await rejection(new OpenAIProvider(client).chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], tools: [] }));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toBe('OpenAI chat.completions.create failed because HTTP 500 server_error: The server had an error');
    expect((error.cause as { status?: number }).status).toBe(500);
    expect(server.requests).toHaveLength(1); // maxRetries: 0
  });

  test('HTTP 400 from the Responses API rejects with the API message', async () => {
    server.reply({ status: 400, json: { error: { message: "Invalid 'tools[0].name'", type: 'invalid_request_error', param: 'tools[0].name' } } });
    const provider = new OpenAIProvider(client, { api: 'responses' });
    const error = await rejection(provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], tools: [] }));
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toBe("OpenAI responses.create failed because HTTP 400 invalid_request_error: Invalid 'tools[0].name'");
  });

  test('an aborted signal aborts the request in flight', async () => {
    server.reply({ delayMs: 10_000, json: completion({ content: 'late' }, 'stop') });
    const controller = new AbortController();
    const pending = new OpenAIProvider(client).chat({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'x' }],
      tools: [],
      signal: controller.signal,
    });
    await server.received(1);
    const started = Date.now();
    controller.abort(new Error('user cancelled'));
    const error = await rejection(pending);
    expect(error.code).toBe('ABORTED');
    expect(error.message).toContain('user cancelled');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('a tool OpenAI cannot take is left out of the request and reported; the others are sent', async () => {
    const badName = { ...WEATHER_TOOLS[1], name: 'time.now' };
    const map: ToolSchema = {
      name: 'tag_map',
      description: 'Tags by key',
      parameters: { type: 'object', properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } } },
    };
    const reports: LoweringChange[][] = [];
    const provider = new OpenAIProvider(client, { strict: true, onLoweringReport: (report) => reports.push([...report]) });
    server.reply({ json: completion({ content: 'ok' }, 'stop') }, { json: completion({ content: 'again' }, 'stop') });
    await provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: [badName, map, WEATHER_TOOLS[0]] });
    expect((server.body(0) as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name)).toEqual(['get_weather']);
    const omitted = reports.flat().filter((c) => c.omitted);
    expect(omitted).toEqual([
      expect.objectContaining({ tool: 'time.now', provider: 'openai', code: 'INVALID_NAME', change: expect.stringMatching(/^left out of the OpenAI \(Chat Completions\) definitions: .*\^\[a-zA-Z0-9_-\]\{1,64\}\$/) }),
      expect.objectContaining({ tool: 'tag_map', provider: 'openai', code: 'INVALID_DEFINITION', change: expect.stringContaining('tags') }),
    ]);
    // each tool is lowered (and reported) once
    await provider.chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: [badName, map, WEATHER_TOOLS[0]] });
    expect(reports.flat().filter((c) => c.omitted)).toHaveLength(2);
  });

  test('without onLoweringReport a tool left out is a TOOLWRIGHT_TOOL_SKIPPED warning', async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      server.reply({ json: completion({ content: 'ok' }, 'stop') });
      await new OpenAIProvider(client).chat({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: [{ ...WEATHER_TOOLS[1], name: 'time.now' }] });
      expect(warn.mock.calls).toEqual([[expect.stringContaining("OpenAIProvider left tool 'time.now' out"), { code: 'TOOLWRIGHT_TOOL_SKIPPED' }]]);
    } finally {
      warn.mockRestore();
    }
    expect(server.body(0)).not.toHaveProperty('tools');
  });

  test('a tool message without toolCallId is a clear error', async () => {
    const error = await rejection(
      new OpenAIProvider(client).chat({ model: 'gpt-test', messages: [{ role: 'tool', content: 'r' }], tools: [] }),
    );
    expect(error.message).toContain('messages[0] is a "tool" message without toolCallId');
  });
});
