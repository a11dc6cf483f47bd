import 'reflect-metadata';
import { z } from 'zod';
import { Tool, ToolParam, type JsonSchema, type JsonSchemaDefinition, type ObjectJsonSchema } from '../../src';
import { withMcpOptions } from '../../src/mcp';
import { lowerToolSchema, type ProviderName } from '../../src/schema/lowering';
import { nullStripper } from '../../src/schema/null-optionals';
import { Closer, connectInMemory } from '../support/mcp';
import { thrown } from '../support/errors';
import { call, freshToolkit, recordingTool } from '../support/toolkit';
import { checkGemini, checkOpenAIStrict } from './lowering/provider-rule-checks';

/**
 * JSON Schema allows a boolean wherever a subschema goes (`true`: any value, `false`:
 * none), and zod 4's `z.toJSONSchema` writes `items: false` after `prefixItems` for every tuple.
 * The `JsonSchema` type spells them (this file compiles without casts), and every reader of
 * subschemas takes them: validation, the null rule, each provider's lowering, MCP.
 */
const order: ObjectJsonSchema = {
  type: 'object',
  properties: {
    at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
    legacy: false,
    sku: { type: 'string', not: { const: '' } },
    size: { anyOf: [false, { type: 'string', enum: ['s', 'm'] }] },
    tags: { type: 'array', items: { type: 'string' }, contains: true },
  },
  required: ['sku'],
  additionalProperties: false,
};

/** Boolean schemas where a provider's schema wants objects: properties, items, union branches. */
function booleanSubschemas(schema: unknown, path = ''): string[] {
  if (typeof schema === 'boolean') return [path];
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, unknown>)) found.push(...booleanSubschemas(child, `${path}.${name}`));
  if (node.items !== undefined) found.push(...booleanSubschemas(node.items, `${path}[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((branch, i) => found.push(...booleanSubschemas(branch, `${path}.${key}[${i}]`)));
  }
  return found;
}

describe('boolean subschemas (JsonSchemaDefinition)', () => {
  it('zod 4 tuples are JsonSchema fragments as they are: a @ToolParam schema without a cast', async () => {
    const pair: JsonSchema = z.toJSONSchema(z.tuple([z.number(), z.string()]));
    expect(pair).toMatchObject({ prefixItems: [{ type: 'number' }, { type: 'string' }], items: false });
    class Geo {
      @Tool({ name: 'mark', description: 'Mark a point' })
      mark(@ToolParam({ name: 'at', schema: z.toJSONSchema(z.tuple([z.number(), z.string()])) }) at: [number, string]): string {
        return at.join('/');
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Geo);
    expect((await call(toolkit, 'mark', { at: [1, 'a'] })).forLLM).toBe('1/a');
    expect((await call(toolkit, 'mark', { at: [1, 'a', 2] })).forLLM).toContain("'at': must NOT have more than 2 items");
  });

  it('validates them, and tells the model what a false schema means', async () => {
    const seen: unknown[] = [];
    const toolkit = freshToolkit();
    toolkit.registerTool(recordingTool('order', order, seen));
    expect((await call(toolkit, 'order', { sku: 'a1', at: [1, 2], size: 's', tags: ['x'] })).forLLM).toBe('ok');
    const legacy = await call(toolkit, 'order', { sku: 'a1', legacy: 1 });
    expect(legacy.error?.code).toBe('INVALID_ARGUMENTS');
    expect(legacy.forLLM).toContain("'legacy': no value is allowed here (remove it)");
    expect(legacy.forLLM).not.toContain('boolean schema is false');
    expect((await call(toolkit, 'order', { sku: 'a1', size: 'xl' })).error?.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toHaveLength(1);
  });

  it('the null rule: a null for an optional false property means absent; for a true one it is a value', async () => {
    const schema: ObjectJsonSchema = { type: 'object', properties: { gone: false, anything: true, $defs: { type: 'string' } } };
    expect(nullStripper(schema)!({ gone: null, anything: null, $defs: null })).toEqual({ anything: null });
    const toolkit = freshToolkit();
    const seen: unknown[] = [];
    toolkit.registerTool(recordingTool('loose', schema, seen));
    expect((await call(toolkit, 'loose', { gone: null, anything: null })).forLLM).toBe('ok');
    expect(seen).toEqual([{ anything: null }]);
  });

  it.each<ProviderName>(['openai', 'openai-responses', 'anthropic', 'mcp'])('%s keeps or rewrites them losslessly', (provider) => {
    const { definition } = lowerToolSchema({ name: 'order', description: 'Place an order', parameters: order }, provider);
    const parameters = ('function' in definition ? definition.function.parameters : 'input_schema' in definition ? definition.input_schema : 'inputSchema' in definition ? definition.inputSchema : definition.parameters) as JsonSchema;
    expect(objectSchemaAt(parameters, 'at')).toMatchObject({ items: false });
    // MCP's SDK clients want an object for each property: `false` is written as the schema that means the same
    expect(parameters.properties?.legacy).toEqual(provider === 'mcp' ? { not: {} } : false);
  });

  it('OpenAI strict and Gemini drop a false property and a false union branch, each reported, and emit no boolean subschema', () => {
    const tool = { name: 'order', description: 'Place an order', parameters: order };
    const strict = lowerToolSchema(tool, 'openai', { strict: true });
    const strictParameters = strict.definition.function.parameters;
    expect(checkOpenAIStrict(strictParameters)).toEqual([]);
    expect(booleanSubschemas(strictParameters)).toEqual([]);
    expect(Object.keys(strictParameters.properties ?? {})).toEqual(['at', 'sku', 'size', 'tags']);
    expect(strict.report.map((c) => [c.path, c.change])).toEqual(
      expect.arrayContaining([
        ['legacy', 'dropped the property: its schema is false (it accepts no value)'],
        ['size.anyOf[0]', 'dropped the anyOf branch false (it matches nothing)'],
      ]),
    );
    const gemini = lowerToolSchema(tool, 'gemini');
    expect(checkGemini(gemini.definition.parameters)).toEqual([]);
    expect(booleanSubschemas(gemini.definition.parameters)).toEqual([]);
    expect(Object.keys(gemini.definition.parameters?.properties ?? {})).toEqual(['at', 'sku', 'size', 'tags']);
    expect(gemini.report.map((c) => [c.path, c.change])).toEqual(
      expect.arrayContaining([
        ['legacy', 'gemini: dropped the property: its schema is false (it accepts no value)'],
        ['size', 'gemini: dropped the anyOf branch false (it matches nothing)'],
      ]),
    );
  });

  it.each<[string, JsonSchemaDefinition, string]>([
    ['a true property', true, 'the schema at "x" has no type'],
    ['a false $defs entry it refers to', { $ref: '#/$defs/never' }, 'is the schema false (it accepts no value)'],
    ['a single allOf member false', { allOf: [false] }, 'is the schema false (it accepts no value)'],
  ])('OpenAI strict and Gemini refuse what they cannot express: %s, naming the path', (_case, x, message) => {
    const parameters: ObjectJsonSchema = { type: 'object', properties: { x }, $defs: { never: false } };
    for (const options of [['openai', { strict: true }], ['gemini', {}]] as const) {
      const error = thrown(() => lowerToolSchema({ name: 't', description: 'T', parameters }, options[0], options[1]), 'INVALID_DEFINITION');
      expect(error.message).toContain(message);
    }
  });

  it('an MCP client lists them: each property and output property an object schema', async () => {
    const closer = new Closer();
    try {
      const toolkit = freshToolkit();
      toolkit.registerTool(
        withMcpOptions(recordingTool('order', order), { outputSchema: { type: 'object', properties: { id: { type: 'string' }, internal: false, meta: true } } }),
      );
      const { client } = await connectInMemory(toolkit, closer);
      // the SDK client checks the listing with its own schema, which wants objects there
      const [listed] = (await client.client.listTools()).tools;
      expect(listed.inputSchema.properties).toMatchObject({ legacy: { not: {} }, at: { items: false } });
      expect(listed.outputSchema?.properties).toEqual({ id: { type: 'string' }, internal: { not: {} }, meta: {} });
    } finally {
      await closer.closeAll();
    }
  });
});

function objectSchemaAt(schema: JsonSchema, property: string): JsonSchema {
  const found = schema.properties?.[property];
  if (typeof found !== 'object') throw new Error(`no object schema at ${property}`);
  return found;
}
