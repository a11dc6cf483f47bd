import { Anthropic } from '@anthropic-ai/sdk';
import { OpenAI } from 'openai';
import type { Toolkit } from '../../src';
import { anthropicTextReply, WireServer } from '../providers/wire-server';
import { freshToolkit } from '../support/toolkit';
import { handOver, MUTATIONS } from './fixtures/frozen-values';

/**
 * What the toolkit hands out deep-frozen is typed readonly (exact-optional.test.ts
 * type-checks fixtures/frozen-values.ts: each change there fails to compile). Here the same
 * changes run, and each throws; and the frozen definitions go through the real SDK clients as
 * they are.
 */
function weatherToolkit(): Toolkit {
  const toolkit = freshToolkit();
  toolkit.registerTool({
    name: 'get_weather',
    description: 'Get the weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    },
    execute: () => 'sunny',
  });
  return toolkit;
}

describe('frozen values', () => {
  it.each(MUTATIONS)('%s throws at run time (and does not compile)', (_name, mutate) => {
    const toolkit = weatherToolkit();
    expect(() => mutate(toolkit)).toThrow(TypeError);
  });

  describe('reach the SDKs as they are', () => {
    let server: WireServer;
    beforeAll(async () => {
      server = await WireServer.start();
    });
    afterAll(() => server.close());

    it('OpenAI Chat Completions and Anthropic Messages send the frozen definitions unchanged', async () => {
      const toolkit = weatherToolkit();
      const { chat, anthropic, responses, mutable } = handOver(toolkit);
      expect(Object.isFrozen(chat.tools![0]) && Object.isFrozen(anthropic.tools![0]) && Object.isFrozen(responses[0]) && Object.isFrozen(mutable)).toBe(true);
      server.reply(
        {
          json: {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1_700_000_000,
            model: 'gpt-test',
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'stop', logprobs: null }],
          },
        },
        anthropicTextReply('ok'),
      );
      const openai = new OpenAI({ apiKey: 'test', baseURL: `${server.origin}/v1`, maxRetries: 0 });
      const claude = new Anthropic({ apiKey: 'test', baseURL: server.origin, maxRetries: 0 });
      await openai.chat.completions.create(chat);
      await claude.messages.create(anthropic);
      const [chatRequest, anthropicRequest] = server.requests;
      expect(chatRequest!.body.tools).toEqual(toolkit.toProviderDefs('openai', { strict: true }));
      expect(anthropicRequest!.body.tools).toEqual(toolkit.toProviderDefs('anthropic'));
    });
  });
});
