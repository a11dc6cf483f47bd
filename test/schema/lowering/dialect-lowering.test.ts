import type { ObjectJsonSchema, ToolSchema } from '../../../src';
import { lowerToolSchema } from '../../../src/schema/lowering';
import { checkGemini, checkOpenAIStrict } from './provider-rule-checks';
import { objectSchema } from '../../support/schemas';

/** A draft 2020-12 schema with the keywords the providers lack. */
const shipment: ToolSchema = {
  name: 'ship',
  description: 'Ship a parcel',
  parameters: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      to: { $ref: '#/$defs/Address' },
      size: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }, { type: 'integer' }] },
      labels: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } },
      card: { type: 'string' },
      cvc: { type: 'string' },
    },
    required: ['to'],
    dependentRequired: { card: ['cvc'] },
    unevaluatedProperties: false,
    $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], unevaluatedProperties: false } },
  },
};

const changes = (provider: 'openai' | 'gemini', strict = false) => lowerToolSchema(shipment, provider, { strict }).report.map((c) => [c.path, c.change]);

describe('lowering draft 2020-12 keywords', () => {
  it('OpenAI strict: within the rules; tuples, unevaluatedProperties and dependentRequired reported', () => {
    const { definition } = lowerToolSchema(shipment, 'openai', { strict: true });
    const parameters = definition.function.parameters;
    expect(checkOpenAIStrict(parameters)).toEqual([]);
    expect(parameters.properties?.size).toEqual({ type: ['array', 'null'], items: { anyOf: [{ type: 'number' }, { type: 'integer' }] }, maxItems: 3 });
    expect(parameters.properties?.labels).toEqual({ type: ['array', 'null'], items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } });
    expect(changes('openai', true)).toEqual(
      expect.arrayContaining([
        ['', 'dropped $schema (not supported in strict mode)'],
        ['size', 'the tuple (prefixItems, 3 positions) became items: anyOf its schemas with maxItems 3 (no tuples here; toolwright still checks each position)'],
        ['labels', 'the tuple (prefixItems, 1 positions) became items: anyOf its schemas (no tuples here; toolwright still checks each position)'],
        ['', 'dropped dependentRequired (not supported in strict mode)'],
        ['', 'unevaluatedProperties: false became additionalProperties: false (strict mode)'],
        ['$defs.Address', 'unevaluatedProperties: false became additionalProperties: false (strict mode)'],
      ]),
    );
  });

  it('Gemini: within the rules; $defs inlined, every dropped keyword reported', () => {
    const parameters = lowerToolSchema(shipment, 'gemini').definition.parameters;
    expect(checkGemini(parameters)).toEqual([]);
    expect(parameters?.properties?.to).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
    expect(changes('gemini')).toEqual(
      expect.arrayContaining([
        ['', 'gemini: dropped $schema'],
        ['to', 'gemini: inlined $ref #/$defs/Address'],
        ['to', 'gemini: dropped unevaluatedProperties'],
        ['size', 'gemini: the tuple (prefixItems, 3 positions) became items: anyOf its schemas with maxItems 3 (no tuples here; toolwright still checks each position)'],
        ['', 'gemini: dropped dependentRequired'],
        ['', 'gemini: dropped unevaluatedProperties'],
        ['', 'gemini: dropped $defs'],
      ]),
    );
  });

  it('OpenAI without strict passes 2020-12 keywords through (the root $schema goes; a tuple gets the items: {} it implies)', () => {
    const { definition, report } = lowerToolSchema(shipment, 'openai');
    const { $schema: _dropped, ...rest } = shipment.parameters;
    expect(definition.function.parameters).toEqual({ ...rest, properties: { ...rest.properties, size: { ...objectSchema(rest.properties.size), items: {} } } });
    expect(report.map((c) => [c.path, c.change])).toEqual([
      ['', 'dropped $schema'],
      ['size', 'added items: {} (OpenAI rejects arrays without items)'],
    ]);
  });

  it('MCP declares draft-07 for a tuple schema that does not say so (MCP reads no $schema as 2020-12)', () => {
    const parameters: ObjectJsonSchema = { type: 'object', properties: { at: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } } };
    const { definition, report } = lowerToolSchema({ name: 'old', description: 'Old', parameters }, 'mcp');
    expect(definition.inputSchema).toEqual({ ...parameters, $schema: 'http://json-schema.org/draft-07/schema#' });
    expect(report).toEqual([
      {
        tool: 'old',
        path: '',
        change: "added $schema http://json-schema.org/draft-07/schema# (the schema uses draft-07's tuple form; MCP reads a schema without $schema as 2020-12)",
      },
    ]);
  });
});
