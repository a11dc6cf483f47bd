import { z } from 'zod';
import type { AgentTool, ObjectJsonSchema, ToolSchema } from '../../src';
import { lowerToolSchema, type ProviderName } from '../../src/schema/lowering';
import { call, freshToolkit } from '../support/toolkit';
import { checkGemini, checkObjectRoot, checkOpenAIStrict } from './lowering/provider-rule-checks';

/** What a zod 4 user writes: a zod object, its JSON Schema from `z.toJSONSchema` (draft 2020-12 by default). */
const Order = z.strictObject({
  sku: z.string().min(3).describe('Stock keeping unit'),
  qty: z.number().int().min(1).max(99),
  unit: z.enum(['box', 'piece']).optional(),
  email: z.email().optional(),
  at: z.tuple([z.number(), z.number()]).optional().describe('Latitude, longitude'),
  note: z.string().nullable().optional(),
  shipping: z
    .discriminatedUnion('kind', [z.object({ kind: z.literal('pickup'), store: z.string() }), z.object({ kind: z.literal('post'), zip: z.string().regex(/^[0-9]{5}$/) })])
    .optional(),
});

const draft2020 = z.toJSONSchema(Order) as ObjectJsonSchema;
const draft07 = z.toJSONSchema(Order, { target: 'draft-7' }) as ObjectJsonSchema;

function orderTool(name: string, parameters: ObjectJsonSchema, seen: unknown[]): AgentTool {
  return {
    name,
    description: 'Place an order',
    parameters,
    execute: (args) => {
      seen.push(args);
      return 'placed';
    },
  };
}

describe('schemas made by zod 4 toJSONSchema', () => {
  it('are what the test means: 2020-12 with prefixItems, or draft-07 with items: [...]', () => {
    expect(draft2020.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(draft2020.properties.at).toMatchObject({ prefixItems: [{ type: 'number' }, { type: 'number' }], items: false });
    expect(draft07.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(draft07.properties.at).toMatchObject({ items: [{ type: 'number' }, { type: 'number' }], additionalItems: false });
  });

  it.each([
    ['order_2020', draft2020],
    ['order_07', draft07],
  ])('%s registers as an AgentTool and validates what zod itself validates', async (name, parameters) => {
    const seen: unknown[] = [];
    const toolkit = freshToolkit();
    toolkit.registerTool(orderTool(name, parameters, seen));
    const valid = [
      { sku: 'abc', qty: 2 },
      { sku: 'abc', qty: 2, unit: 'box', email: 'a@b.co', at: [59.9, 10.7], note: null, shipping: { kind: 'post', zip: '01234' } },
    ];
    for (const args of valid) {
      expect(Order.safeParse(args).success).toBe(true);
      expect((await call(toolkit, name, args)).forLLM).toBe('placed');
    }
    const invalid: [Record<string, unknown>, string[]][] = [
      [{ sku: 'ab', qty: 0 }, ["- 'sku': must NOT have fewer than 3 characters (got \"ab\")", "- 'qty': must be >= 1 (got 0)"]],
      [{ sku: 'abc', qty: 1, at: [1, 2, 3] }, ["- 'at': must NOT have more than 2 items"]],
      [{ sku: 'abc', qty: 1, at: ['x', 2] }, ["- 'at[0]': must be number, got string"]],
      [{ sku: 'abc', qty: 1, extra: true }, ["- 'extra': is not a parameter of this tool (remove it)"]],
      [{ sku: 'abc', qty: 1, email: 'nope' }, ["- 'email': must match format \"email\" (got \"nope\")"]],
    ];
    for (const [args, lines] of invalid) {
      expect(Order.safeParse(args).success).toBe(false);
      const result = await call(toolkit, name, args);
      expect(result.error?.code).toBe('INVALID_ARGUMENTS');
      for (const line of lines) expect(result.forLLM.split('\n')).toContain(line);
    }
    // the union arms: oneOf of two closed objects
    expect((await call(toolkit, name, { sku: 'abc', qty: 1, shipping: { kind: 'post', zip: 'x' } })).error?.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toHaveLength(valid.length);
  });

  const providers: [ProviderName, boolean, (parameters: unknown) => string[]][] = [
    ['openai', true, checkOpenAIStrict],
    ['openai-responses', true, checkOpenAIStrict],
    ['anthropic', false, checkObjectRoot],
    ['gemini', false, checkGemini],
    ['mcp', false, checkObjectRoot],
  ];

  it.each(providers)('lower for %s (strict: %s) within the provider rules, every change reported', (provider, strict, check) => {
    for (const parameters of [draft2020, draft07]) {
      const tool: ToolSchema = { name: 'order', description: 'Place an order', parameters };
      const { definition, report } = lowerToolSchema(tool, provider, { strict });
      const lowered = 'function' in definition ? definition.function.parameters : 'input_schema' in definition ? definition.input_schema : 'inputSchema' in definition ? definition.inputSchema : definition.parameters;
      expect(check(lowered)).toEqual([]);
      if (provider === 'anthropic' || provider === 'mcp') {
        // the schema goes as it is, $schema included (MCP reads the declared dialect)
        expect(lowered).toEqual(parameters);
        expect(report).toEqual([]);
      } else {
        const label = provider === 'gemini' ? 'gemini: ' : '';
        const form = parameters === draft2020 ? 'prefixItems' : 'items: [...]';
        expect(report).toContainEqual({
          tool: 'order',
          path: 'at',
          change: `${label}the tuple (${form}, 2 positions) became items: one schema with maxItems 2 (no tuples here; toolwright still checks each position)`,
        });
      }
    }
  });

  it('the strict form of the tuple: one item schema, the length kept', () => {
    const { definition } = lowerToolSchema({ name: 'order', description: 'Place an order', parameters: draft2020 }, 'openai', { strict: true });
    expect(definition.function.parameters.properties?.at).toEqual({
      type: ['array', 'null'],
      description: 'Latitude, longitude',
      items: { type: 'number' },
      minItems: 2,
      maxItems: 2,
    });
  });

  it('a record (free-form keys) is refused by OpenAI strict and Gemini with a message naming it', () => {
    const parameters = z.toJSONSchema(z.object({ tags: z.record(z.string(), z.number()) })) as ObjectJsonSchema;
    const tool: ToolSchema = { name: 'tagged', description: 'Tagged', parameters };
    expect(() => lowerToolSchema(tool, 'openai', { strict: true })).toThrow(/Tool "tagged" cannot be sent to OpenAI in strict mode: the schema at "tags" is a map/);
    expect(() => lowerToolSchema(tool, 'gemini')).toThrow(/Tool "tagged" cannot be sent to Gemini: the schema at "tags" is an object without properties/);
  });
});
