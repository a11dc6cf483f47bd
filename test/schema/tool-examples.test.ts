import 'reflect-metadata';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { lowerToolSchemas, runToolLoop, ScriptedProvider, Tool, ToolkitError, ToolParam, ToolService, type LoweringChange, type ToolSchema } from '../../src';
import { AnthropicProvider } from '../../src/providers/anthropic';
import { lowerToolSchema } from '../../src/schema/lowering';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { toAiSdkTools } from '../../src/adapters/ai-sdk';
import { toLangChainTools } from '../../src/adapters/langchain';
import { toOpenAIAgentsTools } from '../../src/adapters/openai-agents';
import { anthropicTextReply, WireServer } from '../providers/wire-server';
import { expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';

@ToolService()
class Flights {
  @Tool({
    name: 'search_flights',
    description: 'Search flights',
    examples: [{ from: 'CDG', to: 'JFK', passengers: 2 }, { from: 'LHR', to: 'SFO' }],
  })
  search(
    @ToolParam({ name: 'from', schema: { type: 'string', pattern: '^[A-Z]{3}$' } }) from: string,
    @ToolParam({ name: 'to', schema: { type: 'string', pattern: '^[A-Z]{3}$' } }) to: string,
    @ToolParam({ name: 'passengers', required: false, schema: { type: 'integer', minimum: 1 } }) passengers: number | undefined,
    @ToolParam({ name: 'apiKey', preset: true }) apiKey: string,
  ): string {
    return `${from}-${to} x${passengers ?? 1} ${apiKey.length}`;
  }
}

/** The definition error `register` throws. */
function definitionError(register: () => unknown): ToolkitError {
  try {
    register();
  } catch (error) {
    if (ToolkitError.is(error)) return error;
    throw error;
  }
  throw new Error('registered without a definition error');
}

afterAll(() => expectAllSchemasMetaValid());

describe('@Tool({ examples })', () => {
  test('listed with the tool schema, frozen, checked at registration', () => {
    const toolkit = newToolkit();
    toolkit.registration().tool(Flights).presetParameters({ search_flights: { apiKey: 'sk-1234567890' } }).apply();
    const [schema] = toolkit.getToolSchemas();
    expect(schema!.examples).toEqual([{ from: 'CDG', to: 'JFK', passengers: 2 }, { from: 'LHR', to: 'SFO' }]);
    expect(Object.isFrozen(schema!.examples![0])).toBe(true);
    // what MCP tools/list serves, and the Anthropic definitions
    expect(toolkit.toProviderDefs('mcp')[0]!.description).toBe(
      'Search flights\n\nExamples of arguments:\n{"from":"CDG","to":"JFK","passengers":2}\n{"from":"LHR","to":"SFO"}',
    );
    expect(toolkit.toProviderDefs('anthropic')[0]!.input_examples).toEqual(schema!.examples);
  });

  test('an invalid example is a definition error naming its index and the failing path', () => {
    @ToolService()
    class Bad {
      @Tool({ description: 'Book', examples: [{ seats: 2 }, { seats: 0 }] })
      book(@ToolParam({ name: 'seats', schema: { type: 'integer', minimum: 1 } }) seats: number): number {
        return seats;
      }
    }
    const error = definitionError(() => newToolkit().registerTool(Bad));
    expect(error.code).toBe('INVALID_DEFINITION');
    expect(error.message).toContain('Bad.book: example #1 does not fit');
    expect(error.message).toContain("'seats'");
    expect(error.message).toContain('>= 1');
  });

  test('an example naming a preset parameter is a definition error (presets are hidden)', () => {
    @ToolService()
    class Leaky {
      @Tool({ description: 'Send', examples: [{ to: 'a@b.c', token: 'tok-123' }] })
      send(@ToolParam({ name: 'to' }) to: string, @ToolParam({ name: 'token', preset: true }) token: string): string {
        return to + token;
      }
    }
    const error = definitionError(() => newToolkit().registration().tool(Leaky).presetParameters({ send: { token: 'x' } }).apply());
    expect(error.message).toContain("example #0 names the preset parameter 'token'");
    // an AgentTool's preset too
    const agentError = definitionError(() =>
      newToolkit()
        .registration()
        .tool({
          name: 'mail',
          description: 'Mail',
          parameters: { type: 'object', properties: { to: { type: 'string' }, key: { type: 'string' } } },
          behaviour: { examples: [{ to: 'x', key: 'k' }] },
          execute: () => 'ok',
        })
        .presetParameters({ mail: { key: 'secret' } })
        .apply(),
    );
    expect(agentError.message).toContain("AgentTool 'mail': example #0 names the preset parameter 'key'");
  });

  test("an example showing a preset's value, in any form, is a definition error that does not quote it", () => {
    const SECRET = 'sk-live-0123456789abcdef';
    const register = (example: Record<string, unknown>) =>
      definitionError(() =>
        newToolkit()
          .registration()
          .tool({
            name: 'mail',
            description: 'Mail',
            parameters: { type: 'object', properties: { to: { type: 'string' }, note: { type: 'string' }, key: { type: 'string' } } },
            behaviour: { examples: [{ to: 'x' }, example] },
            execute: () => 'ok',
          })
          .presetParameters({ mail: { key: SECRET } })
          .apply(),
      );
    for (const example of [{ to: 'x', note: `use ${SECRET}` }, { to: SECRET }, { to: encodeURIComponent(`a ${SECRET}/`) }]) {
      const error = register(example);
      expect(error.code).toBe('INVALID_DEFINITION');
      expect(error.message).toContain("AgentTool 'mail': example #1 shows the value of a preset parameter");
      expect(error.message).not.toContain(SECRET);
    }
  });

  test('an example that is not JSON data (a cycle, a bigint) or is over 4,096 characters of JSON is a definition error', () => {
    const base = { name: 't', description: 'T', parameters: { type: 'object' as const, properties: { n: { type: 'number' }, s: { type: 'string' } } }, execute: () => 'ok' };
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    expect(definitionError(() => newToolkit().registerTool({ ...base, behaviour: { examples: [cyclic] } })).message).toContain('example #0 is not JSON data');
    expect(definitionError(() => newToolkit().registerTool({ ...base, behaviour: { examples: [{ n: 1, big: 10n }] } })).message).toContain('example #0 is not JSON data');
    const huge = definitionError(() => newToolkit().registerTool({ ...base, behaviour: { examples: [{ s: 'x'.repeat(1_000_000) }] } }));
    expect(huge.message).toContain('example #0 is 1000008 characters of JSON, over the 4096 an example may have');
    expect(huge.message.length).toBeLessThan(300);
  });

  test('hostile examples: not an array, not objects, too many, a Standard Schema tool checked by its conversion', () => {
    const base = { name: 't', description: 'T', parameters: { type: 'object' as const, properties: { n: { type: 'number' } } }, execute: () => 'ok' };
    expect(definitionError(() => newToolkit().registerTool({ ...base, behaviour: { examples: 'n=1' as never } })).message).toContain('examples must be an array');
    expect(definitionError(() => newToolkit().registerTool({ ...base, behaviour: { examples: [null as never] } })).message).toContain('example #0 must be an object');
    expect(definitionError(() => newToolkit().registerTool({ ...base, behaviour: { examples: Array.from({ length: 21 }, () => ({ n: 1 })) } })).message).toContain('at most 20');
    const zodTool = { name: 'z', description: 'Z', parameters: z.object({ n: z.number().max(5) }), behaviour: { examples: [{ n: 9 }] }, execute: () => 'ok' };
    expect(definitionError(() => newToolkit().registerTool(zodTool)).message).toMatch(/example #0 does not fit[\s\S]*'n'/);
  });
});

describe('examples in provider definitions', () => {
  const tool: ToolSchema = {
    name: 'search_flights',
    description: 'Search flights',
    parameters: { type: 'object' as const, properties: { from: { type: 'string' }, to: { type: 'string' } } },
    examples: [{ from: 'CDG', to: 'JFK' }, { from: 'LHR', to: 'SFO' }],
  };

  test('Anthropic gets input_examples; the others get them in the description, reported', () => {
    expect(lowerToolSchema(tool, 'anthropic').definition).toEqual({
      name: 'search_flights',
      description: 'Search flights',
      input_schema: tool.parameters,
      input_examples: tool.examples,
    });
    const { definitions, report } = lowerToolSchemas([tool], 'openai');
    expect(definitions[0]!.function.description).toBe('Search flights\n\nExamples of arguments:\n{"from":"CDG","to":"JFK"}\n{"from":"LHR","to":"SFO"}');
    expect(report).toContainEqual({ tool: 'search_flights', path: '', change: '2 example(s) rendered into the description (the provider has no examples field)' });
    expect(lowerToolSchema(tool, 'gemini').definition.description).toContain('{"from":"LHR","to":"SFO"}');
  });

  test('the budget: whole examples only, the ones left out reported; 0 renders none', () => {
    const long: ToolSchema = { ...tool, examples: [{ from: 'CDG', to: 'JFK' }, { from: 'x'.repeat(5000), to: 'y' }, { from: 'AMS', to: 'BER' }] };
    const { definition, report } = lowerToolSchema(long, 'openai-responses');
    expect(definition.description).toContain('{"from":"AMS","to":"BER"}');
    expect(definition.description).not.toContain('xxxx');
    expect(definition.description.length).toBeLessThan(long.description.length + 1000 + 1);
    expect(report).toContainEqual<LoweringChange>({ tool: 'search_flights', path: '', change: 'examples #1 left out of the description: over the 1000-character examples budget' });
    const none = lowerToolSchema(long, 'openai', { examplesBudget: 0 });
    expect(none.definition.function.description).toBe('Search flights');
    expect(none.report.map((r) => r.change)).toEqual(['examples #0, #1, #2 left out of the description: over the 0-character examples budget']);
  });

  test('the real @anthropic-ai/sdk client sends input_examples on the wire', async () => {
    const server = await WireServer.start();
    try {
      server.reply(anthropicTextReply('done'));
      const toolkit = newToolkit();
      toolkit.registration().tool(Flights).presetParameters({ search_flights: { apiKey: 'sk-1234567890' } }).apply();
      const provider = new AnthropicProvider(new Anthropic({ apiKey: 'test', baseURL: server.origin, maxRetries: 0 }));
      await runToolLoop({ provider, model: 'claude-test', toolkit }, [{ role: 'user', content: 'Flights?' }]);
      const [sent] = server.body(0).tools as Record<string, unknown>[];
      expect(sent).toEqual({
        name: 'search_flights',
        description: 'Search flights',
        input_schema: expect.objectContaining({ type: 'object' }),
        input_examples: [{ from: 'CDG', to: 'JFK', passengers: 2 }, { from: 'LHR', to: 'SFO' }],
      });
      expect(JSON.stringify(server.body(0))).not.toContain('sk-1234567890');
    } finally {
      await server.close();
    }
  });

  test('the scripted provider (no examples field) sees the canonical schema with its examples', async () => {
    const toolkit = newToolkit();
    toolkit.registration().tool(Flights).presetParameters({ search_flights: { apiKey: 'sk-1234567890' } }).apply();
    const provider = new ScriptedProvider([ScriptedProvider.reply('ok')]);
    await runToolLoop({ provider, model: 'm', toolkit }, [{ role: 'user', content: 'hi' }]);
    expect(provider.requests[0]!.tools[0]!.examples).toHaveLength(2);
  });
});

describe('examples through the framework adapters', () => {
  const rendered = 'Search flights\n\nExamples of arguments:\n{"from":"CDG","to":"JFK","passengers":2}\n{"from":"LHR","to":"SFO"}';
  const flights = () => {
    const toolkit = newToolkit();
    toolkit.registration().tool(Flights).presetParameters({ search_flights: { apiKey: 'sk-1234567890' } }).apply();
    return toolkit;
  };

  test('OpenAI Agents SDK and LangChain (no examples field): in the description', () => {
    const reports: LoweringChange[] = [];
    const [agentsTool] = toOpenAIAgentsTools(flights(), { onLoweringReport: (report) => reports.push(...report) });
    expect(agentsTool!.description).toBe(rendered);
    expect(reports.map((r) => r.change)).toContain('2 example(s) rendered into the description (the provider has no examples field)');
    const [langchainTool] = toLangChainTools(flights());
    expect(langchainTool!.description).toBe(rendered);
  });

  test("AI SDK: the tool's inputExamples, which reach the model call", async () => {
    let offered: unknown;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        offered = options.tools;
        return {
          content: [{ type: 'text', text: 'ok' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } },
          warnings: [],
        };
      },
    });
    await generateText({ model, tools: toAiSdkTools(flights()), stopWhen: stepCountIs(1), prompt: 'go' });
    expect(offered).toEqual([
      expect.objectContaining({
        name: 'search_flights',
        description: 'Search flights',
        inputExamples: [{ input: { from: 'CDG', to: 'JFK', passengers: 2 } }, { input: { from: 'LHR', to: 'SFO' } }],
      }),
    ]);
  });
});
