import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Container } from 'inversify';
import { audioContent, contentResult, embeddedResource, imageContent, runToolLoop, textContent, Toolkit, type ToolEvent } from '../../src';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { GeminiProvider } from '../../src/providers/gemini';
import { OpenAIProvider } from '../../src/providers/openai';
import { RED_PIXEL_PNG, silentWav } from '../support/content';
import { rejection } from '../support/errors';
import { geminiClient, WireServer } from './wire-server';

let server: WireServer;
beforeAll(async () => {
  server = await WireServer.start();
});
afterAll(() => server.close());
let events: ToolEvent[] = [];
beforeEach(() => {
  server.reset();
  events = [];
});

/**
 * What logs and traces are made of holds no bytes: the text of every result the toolkit
 * reported (what OpenTelemetry records) has placeholders only.
 */
function expectNoBytesInTextViews(): void {
  const views = events.flatMap((event) => (event.type === 'call_succeeded' ? [event.result.forLLM] : []));
  expect(views.length).toBeGreaterThan(0);
  for (const view of views) for (const data of [RED_PIXEL_PNG, PDF, WAV]) expect(view).not.toContain(data);
}

/** 'GIF8' … : a GIF header is enough for the wire; what matters is its media type. */
const GIF = Buffer.from('GIF89a').toString('base64');
/** A PDF header stands in for a report file. */
const PDF = Buffer.from('%PDF-1.7 report').toString('base64');
const WAV = silentWav().toString('base64');
const TEXT_VIEW = 'Revenue chart:\n[image: image/png, 70 bytes]\n[image: image/tiff, 3 bytes]\n[resource file:///reports/q3.pdf (application/pdf), 15 bytes]\n[audio: audio/wav, 52 bytes]';

function chartToolkit(): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
  toolkit.events$.subscribe((event) => events.push(event));
  toolkit.registerTool({
    name: 'chart',
    description: 'Draw the chart',
    parameters: { type: 'object', properties: {} },
    execute: () =>
      contentResult([
        'Revenue chart:',
        imageContent(RED_PIXEL_PNG, 'image/png'),
        imageContent(GIF, 'image/gif', { audience: ['user'] }),
        imageContent('AAAA', 'image/tiff'),
        embeddedResource({ uri: 'file:///reports/q3.pdf', mimeType: 'application/pdf', blob: PDF }),
        audioContent(WAV, 'audio/wav'),
        textContent('shown to the user only', { audience: ['user'] }),
      ]),
  });
  return toolkit;
}

function anthropicMessage(content: unknown[], stopReason: string) {
  return { id: 'msg', type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
}

describe('rich tool results reach the model through the providers', () => {
  it('AnthropicProvider: the text, then the images meant for the model (of the media types the API takes) as image blocks', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: server.origin, maxRetries: 0 });
    server.reply(
      { json: anthropicMessage([{ type: 'tool_use', id: 'toolu_1', name: 'chart', input: {} }], 'tool_use') },
      { json: anthropicMessage([{ type: 'text', text: 'A red square.' }], 'end_turn') },
    );
    const result = await runToolLoop({ provider: new AnthropicProvider(client), model: 'claude-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
    expect(result.content).toBe('A red square.');
    const messages = (server.body(1) as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: TEXT_VIEW },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: RED_PIXEL_PNG } },
          ],
        },
      ],
    });
    expect(JSON.stringify(server.body(1))).not.toContain('shown to the user only');
  });

  it('OpenAIProvider over Chat Completions: the text in the tool message, then the images and PDFs in one user message', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const completion = (message: Record<string, unknown>, finish: string) => ({
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
    });
    const call = (id: string) => ({ id, type: 'function', function: { name: 'chart', arguments: '{}' } });
    server.reply(
      { json: completion({ tool_calls: [call('call_1'), call('call_2')] }, 'tool_calls') },
      { json: completion({ content: 'A red square.' }, 'stop') },
    );
    await runToolLoop({ provider: new OpenAIProvider(client), model: 'gpt-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
    const messages = (server.body(1) as { messages: Record<string, unknown>[] }).messages;
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: TEXT_VIEW },
      { role: 'tool', tool_call_id: 'call_2', content: TEXT_VIEW },
      {
        role: 'user',
        content: ['call_1', 'call_2'].flatMap((id) => [
          { type: 'text', text: `Attachments of the tool result ${id} (chart):` },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${RED_PIXEL_PNG}` } },
          { type: 'file', file: { filename: 'q3.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
        ]),
      },
    ]);
    expect(JSON.stringify(server.body(1))).not.toContain('shown to the user only');
    expectNoBytesInTextViews();

    server.reset();
    server.reply(
      { json: completion({ tool_calls: [call('call_1')] }, 'tool_calls') },
      { json: completion({ content: 'ok' }, 'stop') },
    );
    await runToolLoop({ provider: new OpenAIProvider(client, { chatToolMedia: 'omit' }), model: 'gpt-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
    expect((server.body(1) as { messages: unknown[] }).messages.slice(2)).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: TEXT_VIEW }]);
  });

  it('OpenAIProvider over the Responses API: function_call_output of input_text, input_image and input_file parts', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const response = (output: unknown[]) => ({ id: 'resp', object: 'response', created_at: 0, model: 'gpt-test', status: 'completed', output, error: null, incomplete_details: null });
    server.reply(
      { json: response([{ type: 'function_call', id: 'fc', call_id: 'call_1', name: 'chart', arguments: '{}', status: 'completed' }]) },
      { json: response([{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'A red square.', annotations: [] }] }]) },
    );
    const result = await runToolLoop({ provider: new OpenAIProvider(client, { api: 'responses' }), model: 'gpt-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
    expect(result.content).toBe('A red square.');
    const input = (server.body(1) as { input: unknown[] }).input;
    expect(input[2]).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: TEXT_VIEW },
        { type: 'input_image', image_url: `data:image/png;base64,${RED_PIXEL_PNG}` },
        { type: 'input_file', filename: 'q3.pdf', file_data: `data:application/pdf;base64,${PDF}` },
      ],
    });
    expect(JSON.stringify(server.body(1))).not.toContain(GIF);
    expectNoBytesInTextViews();
  });

  it('GeminiProvider: a functionResponse with the text as output and the images and PDFs as inline data parts', async () => {
    const reply = (parts: unknown[]) => ({ json: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] } });
    server.reply(reply([{ functionCall: { id: 'fc_1', name: 'chart', args: {} } }]), reply([{ text: 'A red square.' }]));
    const result = await runToolLoop({ provider: new GeminiProvider(geminiClient(server)), model: 'gemini-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
    expect(result.content).toBe('A red square.');
    const contents = (server.body(1) as { contents: unknown[] }).contents;
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'fc_1',
            name: 'chart',
            response: { output: TEXT_VIEW },
            parts: [{ inlineData: { mimeType: 'image/png', data: RED_PIXEL_PNG } }, { inlineData: { mimeType: 'application/pdf', data: PDF } }],
          },
        },
      ],
    });
    expect(JSON.stringify(server.body(1))).not.toContain('shown to the user only');
    expectNoBytesInTextViews();

    server.reset();
    server.reply(reply([{ functionCall: { id: 'fc_1', name: 'chart', args: {} } }]), reply([{ text: 'ok' }]));
    await runToolLoop({ provider: new GeminiProvider(geminiClient(server), { toolMedia: 'omit' }), model: 'gemini-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
    expect((server.body(1) as { contents: unknown[] }).contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'fc_1', name: 'chart', response: { output: TEXT_VIEW } } }],
    });
  });

  it('a provider that rejects the rich request fails with an error that quotes none of the bytes', async () => {
    const reply = (parts: unknown[]) => ({ json: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] } });
    server.reply(reply([{ functionCall: { id: 'fc_1', name: 'chart', args: {} } }]), {
      status: 400,
      json: { error: { code: 400, message: 'Unable to process input image.', status: 'INVALID_ARGUMENT' } },
    });
    const failure = await rejection(
      runToolLoop({ provider: new GeminiProvider(geminiClient(server)), model: 'gemini-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]),
      'PROVIDER_FAILED',
    );
    expect(JSON.stringify(server.body(1))).toContain(RED_PIXEL_PNG);
    const described = `${failure.message} ${String((failure.cause as Error).message)} ${String(failure.stack)}`;
    expect(failure.message).toContain('HTTP 400 INVALID_ARGUMENT: Unable to process input image.');
    for (const data of [RED_PIXEL_PNG, PDF, WAV]) expect(described).not.toContain(data);
  });

  describe('a preset secret in the bytes of a part never reaches the wire; clean parts still do', () => {
    const SECRET = 'svc-token-7d2e91c4ab';
    /** The UTF-8 text of every base64 run in `body` (data URLs included): what the vendor decodes. */
    const decoded = (body: unknown): string =>
      (JSON.stringify(body).match(/[A-Za-z0-9+/]{16,}={0,2}/g) ?? []).map((run) => Buffer.from(run, 'base64').toString('utf8')).join('\n');

    function leakyToolkit(): Toolkit {
      const toolkit = new Toolkit({ container: new Container() });
      toolkit
        .registration()
        .tool({
          name: 'chart',
          description: 'Draw the chart',
          parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
          execute: (args) =>
            contentResult([
              'Chart:',
              imageContent(Buffer.concat([Buffer.from(RED_PIXEL_PNG, 'base64'), Buffer.from(`tEXtComment\0${String(args.key)}`)]), 'image/png'),
              embeddedResource({ uri: 'file:///q3.pdf', mimeType: 'application/pdf', blob: Buffer.from(`%PDF-1.7 ${String(args.key)}`) }),
              imageContent(RED_PIXEL_PNG, 'image/png'),
            ]),
        })
        .presetParameters({ chart: { key: SECRET } })
        .apply();
      return toolkit;
    }

    const responsesReply = (output: unknown[]) => ({ json: { id: 'r', object: 'response', created_at: 0, model: 'm', status: 'completed', output, error: null, incomplete_details: null } });
    const chatReply = (message: Record<string, unknown>) => ({
      json: { id: 'c', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: 'stop' }] },
    });
    const geminiReply = (parts: unknown[]) => ({ json: { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] } });
    const openai = () => new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const cases = {
      'OpenAI Responses': () => {
        server.reply(responsesReply([{ type: 'function_call', id: 'fc', call_id: 'call_1', name: 'chart', arguments: '{}', status: 'completed' }]), responsesReply([]));
        return new OpenAIProvider(openai(), { api: 'responses' });
      },
      'OpenAI Chat Completions': () => {
        server.reply(chatReply({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'chart', arguments: '{}' } }] }), chatReply({ content: 'ok' }));
        return new OpenAIProvider(openai());
      },
      Gemini: () => {
        server.reply(geminiReply([{ functionCall: { id: 'fc_1', name: 'chart', args: {} } }]), geminiReply([{ text: 'ok' }]));
        return new GeminiProvider(geminiClient(server));
      },
    };
    it.each(Object.keys(cases) as (keyof typeof cases)[])('%s', async (name) => {
      const provider = cases[name]();
      await runToolLoop({ provider, model: 'm', toolkit: leakyToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
      const body = server.body(1);
      expect(JSON.stringify(body)).not.toContain(SECRET);
      expect(decoded(body)).not.toContain(SECRET);
      expect(JSON.stringify(body)).toContain('[REDACTED]');
      expect(JSON.stringify(body)).toContain(RED_PIXEL_PNG);
      expect(JSON.stringify(body)).not.toContain('application/pdf;base64');
    });
  });
});
