import type { Message } from '../../src';
import { toAnthropicMessages } from '../../src/providers/anthropic';
import { toGeminiContents } from '../../src/providers/gemini';
import { toChatMessages, toResponsesInput } from '../../src/providers/openai';
import { thrown } from '../support/errors';

/**
 * The exported message converters refuse, with a `PROVIDER_FAILED` that names the message, what
 * the vendor's API cannot take; their success paths are covered through the providers' tests.
 */
const converters: readonly [string, string, (messages: readonly Message[]) => unknown][] = [
  ['toChatMessages', 'OpenAI', toChatMessages],
  ['toResponsesInput', 'OpenAI', toResponsesInput],
  ['toAnthropicMessages', 'Anthropic', toAnthropicMessages],
  ['toGeminiContents', 'Gemini', toGeminiContents],
];

const user: Message = { role: 'user', content: 'Hi' };

describe.each(converters)('%s', (_name, vendor, convert) => {
  test('a tool message without toolCallId: PROVIDER_FAILED naming its index', () => {
    const error = thrown(() => convert([user, { role: 'tool', content: '21°C', name: 'get_weather' }]), 'PROVIDER_FAILED');
    expect(error.message).toBe(
      `${vendor}: messages[1] is a "tool" message without toolCallId; every tool result must name the call it answers (ToolResult.toolCallId).`,
    );
  });

  test('a message of an unknown role: PROVIDER_FAILED naming its index and role', () => {
    const error = thrown(() => convert([user, user, { role: 'developer', content: 'x' } as unknown as Message]), 'PROVIDER_FAILED');
    expect(error.message).toBe(`${vendor}: messages[2] has an unknown role "developer".`);
  });
});

test('toGeminiContents: a tool message without a name, answering no earlier call, is refused (Gemini matches responses by name)', () => {
  const error = thrown(() => toGeminiContents([user, { role: 'tool', content: 'x', toolCallId: 'ghost' }]), 'PROVIDER_FAILED');
  expect(error.message).toBe(
    'Gemini: messages[1] is a "tool" message without name, answering a call no earlier assistant message made; Gemini matches function responses by name, so set Message.name.',
  );
  // the same message is fine once an earlier assistant message made the call (its name is taken from there)
  expect(() => toGeminiContents([user, { role: 'assistant', content: '', toolCalls: [{ id: 'ghost', name: 'get_time', arguments: {} }] }, { role: 'tool', content: 'x', toolCallId: 'ghost' }])).not.toThrow();
});
