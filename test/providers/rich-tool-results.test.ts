import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Container } from 'inversify';
import { contentResult, imageContent, runToolLoop, textContent, Toolkit } from '../../src';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { OpenAIProvider } from '../../src/providers/openai';
import { RED_PIXEL_PNG } from '../support/content';
import { WireServer } from './wire-server';

let server: WireServer;
beforeAll(async () => {
  server = await WireServer.start();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** 'GIF8' … : a GIF header is enough for the wire; what matters is its media type. */
const GIF = Buffer.from('GIF89a').toString('base64');

function chartToolkit(): Toolkit {
  const toolkit = new Toolkit({ container: new Container() });
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
        textContent('shown to the user only', { audience: ['user'] }),
      ]),
  });
  return toolkit;
}

function anthropicMessage(content: unknown[], stopReason: string) {
  return { id: 'msg', type: 'message', role: 'assistant', model: 'claude-test', content, stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
}

describe('rich tool results reach the model through the providers', () => {
  it('AnthropicProvider: the text view, then the images meant for the model (of the media types the API takes) as image blocks', async () => {
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
            { type: 'text', text: 'Revenue chart:\n[image: image/png, 70 bytes]\n[image: image/tiff, 3 bytes]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: RED_PIXEL_PNG } },
          ],
        },
      ],
    });
    expect(JSON.stringify(server.body(1))).not.toContain('shown to the user only');
  });

  it('OpenAIProvider (Chat Completions takes text only in tool messages): the text view', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const completion = (message: Record<string, unknown>, finish: string) => ({
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finish }],
    });
    server.reply(
      { json: completion({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'chart', arguments: '{}' } }] }, 'tool_calls') },
      { json: completion({ content: 'A red square.' }, 'stop') },
    );
    await runToolLoop({ provider: new OpenAIProvider(client), model: 'gpt-test', toolkit: chartToolkit() }, [{ role: 'user', content: 'Show the chart' }]);
    const messages = (server.body(1) as { messages: Record<string, unknown>[] }).messages;
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'Revenue chart:\n[image: image/png, 70 bytes]\n[image: image/tiff, 3 bytes]' });
  });
});
