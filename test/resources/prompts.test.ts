import { Prompt, PromptArg, ToolExecutionContext, ToolService, type PromptMessageInput } from '../../src';
import { recordEvents } from '../support/events';
import { freshToolkit } from '../support/toolkit';
import { rejection } from '../support/errors';

class Team {
  constructor(readonly members: readonly string[]) {}
}

const cities = Array.from({ length: 150 }, (_, i) => `city-${String(i).padStart(3, '0')}`);

@ToolService({ group: 'review' })
class ReviewPrompts {
  @Prompt({ name: 'review', title: 'Code review', description: 'Review a pull request' })
  review(
    @PromptArg({ name: 'pr', description: 'Pull request number', integer: true, complete: (value) => ['41', '42', '7'].filter((v) => v.startsWith(value)) }) pr: number,
    @PromptArg({ name: 'style', description: 'How thorough', enum: ['short', 'thorough'], required: false }) style: string | undefined,
  ): string {
    return `Review pull request #${pr} (${typeof pr}), ${style ?? 'short'}.`;
  }

  @Prompt({ description: 'A conversation with an image and a resource' })
  conversation(): { description: string; messages: PromptMessageInput[] } {
    return {
      description: 'Two turns',
      messages: [
        { role: 'user', content: 'Look at this' },
        { role: 'assistant', content: { type: 'image', data: new Uint8Array([1, 2, 3]), mimeType: 'image/png', annotations: { audience: ['user'] } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'docs://readme', text: '# Hi' } } },
        { role: 'user', content: { type: 'resource_link', uri: 'docs://pages/intro', name: 'intro', mimeType: 'text/markdown' } },
      ],
    };
  }

  @Prompt({ description: 'Pick a city' })
  travel(
    @PromptArg({ name: 'country', description: 'Country' }) country: string,
    @PromptArg({
      name: 'city',
      description: 'City',
      complete: (value, { arguments: args, context }) => (args.country === 'none' ? [] : cities.filter((c) => c.startsWith(value)).concat(context.get(Team)?.members ?? [])),
    })
    city: string,
  ): PromptMessageInput[] {
    return [{ role: 'user', content: `Plan a trip to ${city}, ${country}.` }];
  }

  @Prompt({ description: 'A completion that fails' })
  broken(
    @PromptArg({
      name: 'x',
      complete: (value) => {
        if (value === 'throw') throw new Error('completion exploded');
        if (value === 'reject') return Promise.reject(new Error('completion rejected'));
        if (value === 'hang') return new Promise(() => undefined);
        return 'not a list' as unknown as string[];
      },
    })
    x: string,
  ): string {
    return x;
  }
}

function toolkitWithPrompts() {
  const toolkit = freshToolkit({ execution: { timeoutMs: 200 } });
  toolkit.registerTool(ReviewPrompts);
  return toolkit;
}

describe('prompts: registered with their service, got through a view', () => {
  test('listed with their arguments (required, described)', () => {
    const toolkit = toolkitWithPrompts();
    expect(toolkit.prompts.list()).toEqual([
      {
        name: 'review',
        title: 'Code review',
        description: 'Review a pull request',
        arguments: [
          { name: 'pr', description: 'Pull request number', required: true },
          { name: 'style', description: 'How thorough', required: false },
        ],
      },
      { name: 'conversation', description: 'A conversation with an image and a resource', arguments: [] },
      { name: 'travel', description: 'Pick a city', arguments: [{ name: 'country', description: 'Country', required: true }, { name: 'city', description: 'City', required: true }] },
      { name: 'broken', description: 'A completion that fails', arguments: [{ name: 'x', required: true }] },
    ]);
  });

  test('a string is one user message; arguments arrive typed', async () => {
    const toolkit = toolkitWithPrompts();
    expect(await toolkit.prompts.get('review', { pr: '42' })).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'Review pull request #42 (number), short.' } }] });
    expect((await toolkit.prompts.get('review', { pr: '7', style: 'thorough' })).messages[0].content).toEqual({ type: 'text', text: 'Review pull request #7 (number), thorough.' });
  });

  test('messages with images (bytes as base64), embedded resources and links, and a description', async () => {
    const toolkit = toolkitWithPrompts();
    expect(await toolkit.prompts.get('conversation')).toEqual({
      description: 'Two turns',
      messages: [
        { role: 'user', content: { type: 'text', text: 'Look at this' } },
        { role: 'assistant', content: { type: 'image', data: 'AQID', mimeType: 'image/png', annotations: { audience: ['user'] } } },
        { role: 'user', content: { type: 'resource', resource: { uri: 'docs://readme', text: '# Hi' } } },
        { role: 'user', content: { type: 'resource_link', uri: 'docs://pages/intro', name: 'intro', mimeType: 'text/markdown' } },
      ],
    });
  });

  test('a missing, invalid or unknown argument is INVALID_ARGUMENTS naming it; an unknown prompt lists the others', async () => {
    const toolkit = toolkitWithPrompts();
    expect((await rejection(toolkit.prompts.get('review', {}), 'INVALID_ARGUMENTS')).message).toBe("Invalid arguments for prompt 'review':\n- 'pr': is required but missing");
    expect((await rejection(toolkit.prompts.get('review', { pr: 'x', style: 'long', extra: '1' }), 'INVALID_ARGUMENTS')).message).toBe(
      "Invalid arguments for prompt 'review':\n- 'extra': is not an argument of prompt 'review' (remove it)\n- 'pr': must be integer, got string\n- 'style': must be one of [\"short\",\"thorough\"], got \"long\"",
    );
    expect((await rejection(toolkit.prompts.get('review', { pr: 1 } as never), 'INVALID_ARGUMENTS')).message).toContain("'pr': must be text");
    expect((await rejection(toolkit.prompts.get('reveiw'), 'UNKNOWN_PROMPT')).message).toBe("Prompt 'reveiw' not found. Prompts: 'review', 'conversation', 'travel', 'broken'.");
  });

  test('a prompt method returning something else is EXECUTION_FAILED saying what to return', async () => {
    @ToolService()
    class Bad {
      @Prompt({ description: 'a number' })
      number() {
        return 42;
      }

      @Prompt({ description: 'a bad role' })
      role() {
        return [{ role: 'system', content: 'x' }];
      }

      @Prompt({ description: 'a bad content type' })
      video() {
        return [{ role: 'user', content: { type: 'video', url: 'x' } }];
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Bad);
    expect((await rejection(toolkit.prompts.get('number'), 'EXECUTION_FAILED')).message).toBe(
      "prompt 'number' returned 42: return a string, an array of { role, content } messages, or { description?, messages }.",
    );
    expect((await rejection(toolkit.prompts.get('role'), 'EXECUTION_FAILED')).message).toContain("message #0 that is not { role: 'user' | 'assistant', content }");
    expect((await rejection(toolkit.prompts.get('video'), 'EXECUTION_FAILED')).message).toContain('message #0.content of type "video"; use text, image, audio, resource or resource_link.');
  });
});

describe('completion of prompt arguments', () => {
  test('the callback sees the typed prefix, the other arguments and the context; an enum completes by itself', async () => {
    const toolkit = toolkitWithPrompts();
    expect(await toolkit.prompts.complete('review', 'pr', '4')).toEqual({ values: ['41', '42'], total: 2, hasMore: false });
    expect(await toolkit.prompts.complete('review', 'style', 'TH')).toEqual({ values: ['thorough'], total: 1, hasMore: false });
    expect(await toolkit.prompts.complete('travel', 'city', 'x', { arguments: { country: 'none' } })).toEqual({ values: [], total: 0, hasMore: false });
    const team = await toolkit.prompts.complete('travel', 'city', 'zz', { context: ToolExecutionContext.of(new Team(['zurich'])) });
    expect(team.values).toEqual(['zurich']);
  });

  test('at most 100 values, the total counted, hasMore set', async () => {
    const toolkit = toolkitWithPrompts();
    const result = await toolkit.prompts.complete('travel', 'city', 'city-');
    expect(result.values).toHaveLength(100);
    expect(result.values[0]).toBe('city-000');
    expect(result).toMatchObject({ total: 150, hasMore: true });
  });

  test('unknown arguments and arguments without a callback complete to nothing; an unknown prompt is UNKNOWN_PROMPT', async () => {
    const toolkit = toolkitWithPrompts();
    expect(await toolkit.prompts.complete('travel', 'country', 'fr')).toEqual({ values: [], total: 0, hasMore: false });
    expect(await toolkit.prompts.complete('travel', 'nothing', 'fr')).toEqual({ values: [], total: 0, hasMore: false });
    await rejection(toolkit.prompts.complete('nope', 'x', ''), 'UNKNOWN_PROMPT');
  });

  test('a callback that throws, rejects, hangs or answers no list: no values, a callback_failed event, no crash', async () => {
    const toolkit = toolkitWithPrompts();
    const recording = recordEvents(toolkit);
    for (const value of ['throw', 'reject', 'hang', 'other']) {
      expect(await toolkit.prompts.complete('broken', 'x', value)).toEqual({ values: [], total: 0, hasMore: false });
    }
    const failures = recording.of('callback_failed');
    expect(failures.map((f) => f.source)).toEqual(Array(4).fill("complete(prompt 'broken', 'x')"));
    expect(failures.map((f) => (f.error as Error).message)).toEqual([
      'completion exploded',
      'completion rejected',
      "Completing 'x' of prompt 'broken' timed out after 200 ms.",
      'the completion callback returned string, not an array of strings',
    ]);
    recording.stop();
  });
});
