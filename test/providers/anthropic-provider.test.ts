import Anthropic from '@anthropic-ai/sdk';
import { Toolkit, type LLMResponse, type LoweringChange, type Message, type ToolEvent } from '../../src';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { rejection } from '../support/errors';
import { WEATHER_TOOLS, WireServer } from './wire-server';

let server: WireServer;
let client: Anthropic;

beforeAll(async () => {
  server = await WireServer.start();
  client = new Anthropic({ apiKey: 'test', baseURL: server.origin, maxRetries: 0 });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const TOOLS = [
  { name: 'get_weather', description: 'Get the weather forecast', input_schema: WEATHER_TOOLS[0].parameters },
  { name: 'get_time', description: 'Get the local time', input_schema: WEATHER_TOOLS[1].parameters },
];

function message(content: unknown[], stopReason: string, usage: Record<string, number | null> = {}) {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 40, output_tokens: 12, cache_creation_input_tokens: null, cache_read_input_tokens: null, ...usage },
  };
}
function toolUse(id: string, name: string, input: Record<string, unknown>) {
  return { type: 'tool_use', id, name, input };
}

describe('AnthropicProvider over the Messages API', () => {
  test('three turns with parallel tool_use: exact request bodies and mapped responses', async () => {
    const provider = new AnthropicProvider(client, {
      maxTokens: 1024,
      disableParallelToolUse: false,
      defaultOptions: { temperature: 0.2 },
    });
    const messages: Message[] = [
      { role: 'system', content: 'You are a weather bot.' },
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
    ];

    // turn 1: text + two parallel tool_use blocks
    server.reply({
      json: message(
        [
          { type: 'text', text: 'Let me look both up.' },
          toolUse('toolu_1', 'get_weather', { city: 'Paris' }),
          toolUse('toolu_2', 'get_time', { tz: 'Asia/Tokyo' }),
        ],
        'tool_use',
        { cache_read_input_tokens: 8 },
      ),
    });
    const turn1 = await provider.chat({ model: 'claude-test', messages, tools: [...WEATHER_TOOLS] });
    expect(server.requests[0].method).toBe('POST');
    expect(server.requests[0].path).toBe('/v1/messages');
    expect(server.requests[0].headers['anthropic-version']).toEqual(expect.any(String));
    expect(server.body(0)).toEqual({
      max_tokens: 1024,
      temperature: 0.2,
      model: 'claude-test',
      system: 'You are a weather bot.\n\nAnswer in English.',
      messages: [{ role: 'user', content: 'Weather in Paris and the time in Tokyo?' }],
      tools: TOOLS,
    });
    expect(turn1).toEqual<LLMResponse>({
      content: 'Let me look both up.',
      toolCalls: [
        { id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'toolu_2', name: 'get_time', arguments: { tz: 'Asia/Tokyo' } },
      ],
      finishReason: 'tool_use',
      usage: { inputTokens: 48, outputTokens: 12, totalTokens: 60 },
    });

    // turn 2: both results in ONE user message of tool_result blocks, one marked as an error
    messages.push(
      { role: 'assistant', content: turn1.content, toolCalls: turn1.toolCalls },
      { role: 'tool', toolCallId: 'toolu_1', name: 'get_weather', content: 'Paris: 21°C, sunny' },
      { role: 'tool', toolCallId: 'toolu_2', name: 'get_time', content: 'Unknown time zone', isError: true },
    );
    server.reply({ json: message([toolUse('toolu_3', 'get_time', { tz: 'Asia/Tokyo' })], 'tool_use') });
    const turn2 = await provider.chat({ model: 'claude-test', messages, tools: [...WEATHER_TOOLS], options: { max_tokens: 256 } });
    expect(server.body(1)).toEqual({
      max_tokens: 256,
      temperature: 0.2,
      model: 'claude-test',
      system: 'You are a weather bot.\n\nAnswer in English.',
      messages: [
        { role: 'user', content: 'Weather in Paris and the time in Tokyo?' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look both up.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_time', input: { tz: 'Asia/Tokyo' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Paris: 21°C, sunny' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Unknown time zone', is_error: true },
          ],
        },
      ],
      tools: TOOLS,
    });
    expect(turn2).toEqual<LLMResponse>({
      content: '',
      toolCalls: [{ id: 'toolu_3', name: 'get_time', arguments: { tz: 'Asia/Tokyo' } }],
      finishReason: 'tool_use',
      usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
    });

    // turn 3: a tool_use without text is replayed as a tool_use block only; string arguments are parsed
    messages.push(
      { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_3', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}' }] },
      { role: 'tool', toolCallId: 'toolu_3', content: '18:00' },
      { role: 'user', content: 'Thanks, summarise please.' },
    );
    server.reply({
      json: message(
        [
          { type: 'text', text: 'Paris is 21°C and sunny. ' },
          { type: 'text', text: 'It is 18:00 in Tokyo.' },
        ],
        'end_turn',
      ),
    });
    const turn3 = await provider.chat({ model: 'claude-test', messages, tools: [...WEATHER_TOOLS] });
    expect((server.body(2).messages as unknown[]).slice(3)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_3', name: 'get_time', input: { tz: 'Asia/Tokyo' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_3', content: '18:00' }] },
      { role: 'user', content: 'Thanks, summarise please.' },
    ]);
    expect(turn3).toEqual<LLMResponse>({
      content: 'Paris is 21°C and sunny. It is 18:00 in Tokyo.',
      toolCalls: [],
      finishReason: 'end_turn',
      usage: { inputTokens: 40, outputTokens: 12, totalTokens: 52 },
    });
    expect(server.requests).toHaveLength(3);
  });

  test('tool_use input that is no object reaches the toolkit as sent: MALFORMED_ARGUMENTS, with the text in call_started', async () => {
    const toolkit = new Toolkit();
    let runs = 0;
    toolkit.registerTool({ name: 'get_time', description: 'Get the local time', parameters: { type: 'object', properties: {} }, execute: () => String(++runs) });
    const events: ToolEvent[] = [];
    toolkit.events$.subscribe((e) => events.push(e));
    server.reply({ json: message([{ type: 'tool_use', id: 'toolu_9', name: 'get_time', input: 'Asia/Tokyo' }], 'tool_use') });
    const turn = await new AnthropicProvider(client, { maxTokens: 64 }).chat({ model: 'claude-test', messages: [{ role: 'user', content: 'time?' }], tools: [...WEATHER_TOOLS] });
    expect(turn.toolCalls).toEqual([{ id: 'toolu_9', name: 'get_time', arguments: '"Asia/Tokyo"' }]);
    const result = await toolkit.callTool(turn.toolCalls[0]);
    expect(result.error).toEqual({ code: 'MALFORMED_ARGUMENTS', message: "Arguments for tool 'get_time' must be a JSON object, got string." });
    expect(runs).toBe(0);
    expect(events.find((e) => e.type === 'call_started')).toMatchObject({ callId: 'toolu_9', arguments: {}, rawArguments: '"Asia/Tokyo"' });
    // replayed to the API, the turn still carries an object input
    const replay = new AnthropicProvider(client, { maxTokens: 64 });
    server.reply({ json: message([{ type: 'text', text: 'ok' }], 'end_turn') });
    await replay.chat({
      model: 'claude-test',
      messages: [
        { role: 'user', content: 'time?' },
        { role: 'assistant', content: '', toolCalls: turn.toolCalls },
        { role: 'tool', toolCallId: 'toolu_9', content: result.forLLM, isError: true },
      ],
      tools: [],
    });
    expect((server.body(1) as { messages: { content: unknown }[] }).messages[1].content).toEqual([{ type: 'tool_use', id: 'toolu_9', name: 'get_time', input: {} }]);
  });

  test('disableParallelToolUse sends tool_choice auto with disable_parallel_tool_use; no tools, no tool fields', async () => {
    const provider = new AnthropicProvider(client, { disableParallelToolUse: true });
    server.reply({ json: message([{ type: 'text', text: 'ok' }], 'end_turn') }, { json: message([{ type: 'text', text: 'ok' }], 'end_turn') });
    await provider.chat({ model: 'claude-test', messages: [{ role: 'user', content: 'x' }], tools: [WEATHER_TOOLS[1]] });
    expect(server.body(0)).toEqual({
      max_tokens: 4096,
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      model: 'claude-test',
      messages: [{ role: 'user', content: 'x' }],
      tools: [TOOLS[1]],
    });
    await provider.chat({ model: 'claude-test', messages: [{ role: 'user', content: 'y' }], tools: [] });
    expect(server.body(1)).toEqual({ max_tokens: 4096, model: 'claude-test', messages: [{ role: 'user', content: 'y' }] });
  });
});

describe('AnthropicProvider failures', () => {
  test('HTTP 400 rejects with PROVIDER_FAILED carrying the API error', async () => {
    server.reply({
      status: 400,
      json: { type: 'error', error: { type: 'invalid_request_error', message: 'messages: text content blocks must be non-empty' } },
    });
    const error = await rejection(
      new AnthropicProvider(client).chat({ model: 'claude-test', messages: [{ role: 'user', content: 'x' }], tools: [] }),
    );
    expect(error.code).toBe('PROVIDER_FAILED');
    expect(error.message).toBe(
      'Anthropic messages.create failed because HTTP 400 invalid_request_error: messages: text content blocks must be non-empty',
    );
    expect((error.cause as { status?: number }).status).toBe(400);
  });

  test('HTTP 500 rejects with PROVIDER_FAILED, without retries', async () => {
    server.reply({ status: 500, json: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } });
    const error = await rejection(
      new AnthropicProvider(client).chat({ model: 'claude-test', messages: [{ role: 'user', content: 'x' }], tools: [] }),
    );
    expect(error.message).toBe('Anthropic messages.create failed because HTTP 500 api_error: Internal server error');
    expect(server.requests).toHaveLength(1);
  });

  test('an aborted signal aborts the request in flight', async () => {
    server.reply({ delayMs: 10_000, json: message([{ type: 'text', text: 'late' }], 'end_turn') });
    const controller = new AbortController();
    const pending = new AnthropicProvider(client).chat({
      model: 'claude-test',
      messages: [{ role: 'user', content: 'x' }],
      tools: [],
      signal: controller.signal,
    });
    await server.received(1);
    controller.abort();
    const error = await rejection(pending);
    expect(error.code).toBe('ABORTED');
    expect(error.message).toContain('Anthropic messages.create was aborted');
  });

  test('a name with a dot is left out of the request and reported, naming the Anthropic pattern', async () => {
    const tool = { ...WEATHER_TOOLS[1], name: 'clock.now' };
    const reports: LoweringChange[] = [];
    const provider = new AnthropicProvider(client, { onLoweringReport: (report) => reports.push(...report) });
    server.reply({ json: message([{ type: 'text', text: 'ok' }], 'end_turn') });
    await provider.chat({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], tools: [tool, WEATHER_TOOLS[0]] });
    expect((server.body(0) as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['get_weather']);
    expect(reports).toEqual([expect.objectContaining({ tool: 'clock.now', omitted: true, provider: 'anthropic', code: 'INVALID_NAME', change: expect.stringContaining('/^[a-zA-Z0-9_-]{1,128}$/') })]);
  });
});
