import type { ObjectJsonSchema, ToolSchema } from '../../../src';
import { deepFreeze } from '../../support/schemas';

function tool(name: string, parameters: ObjectJsonSchema, description = `The ${name} tool`): ToolSchema {
  return { name, description, parameters };
}

/** Canonical schemas covering what the schema builder and the manifest produce. Deep-frozen. */
export const FIXTURES: readonly ToolSchema[] = deepFreeze([
  tool('primitives', {
    type: 'object',
    properties: {
      s: { type: 'string', description: 'A string' },
      n: { type: 'number' },
      i: { type: 'integer' },
      b: { type: 'boolean' },
    },
    required: ['s', 'n', 'i', 'b'],
  }),
  tool('get_weather', {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      days: { type: 'integer', description: 'Forecast days', minimum: 1, maximum: 14, default: 3 },
      unit: { type: 'string', enum: ['C', 'F'] },
    },
    required: ['city'],
  }),
  tool('enums', {
    type: 'object',
    properties: {
      color: { type: 'string', enum: ['red', 'green'] },
      size: { enum: [1, 2, 3] },
      level: { type: 'integer', enum: [1, 2, 3] },
    },
    required: ['color'],
  }),
  tool('nested', {
    type: 'object',
    properties: {
      owner: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          contact: {
            type: 'object',
            properties: { email: { type: 'string' }, phone: { type: 'string' } },
            required: ['email'],
          },
        },
        required: ['name'],
      },
      address: {
        type: 'object',
        description: 'Where',
        properties: { street: { type: 'string' }, zip: { type: 'string' } },
        required: ['street'],
      },
    },
    required: ['owner'],
  }),
  tool('array_of_objects', {
    type: 'object',
    properties: {
      lines: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            sku: { type: 'string' },
            qty: { type: 'integer', minimum: 1 },
            note: { type: 'string' },
          },
          required: ['sku', 'qty'],
        },
      },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    },
    required: ['lines'],
  }),
  tool('formats', {
    type: 'object',
    properties: {
      email: { type: 'string', format: 'email', minLength: 3, maxLength: 100 },
      when: { type: 'string', format: 'date-time' },
      id: { type: 'string', format: 'uuid' },
      url: { type: 'string', format: 'uri' },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
    required: ['email', 'when', 'id', 'url', 'code'],
  }),
  tool('bounds', {
    type: 'object',
    properties: {
      temp: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 100 },
      step: { type: 'number', multipleOf: 0.5, minimum: 0 },
      ratio: { type: 'number', minimum: 0.2, exclusiveMinimum: 0.1 },
    },
    required: ['temp', 'step', 'ratio'],
  }),
  tool('consts', {
    type: 'object',
    properties: {
      kind: { const: 'order' },
      version: { type: 'integer', const: 2 },
    },
    required: ['kind'],
  }),
  tool('nullables', {
    type: 'object',
    properties: {
      nick: { type: ['string', 'null'] },
      middle: { type: 'string', nullable: true },
      parent: {
        anyOf: [{ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, { type: 'null' }],
      },
    },
    required: ['nick', 'parent'],
  }),
  tool('refs', {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      home: { $ref: '#/$defs/Address' },
      work: { $ref: '#/$defs/Address', description: 'Office' },
    },
    required: ['home'],
    additionalProperties: false,
    $defs: {
      Address: {
        type: 'object',
        properties: { city: { type: 'string' }, zip: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  }),
  tool('no_params', { type: 'object', properties: {} }),
  tool('unions', {
    type: 'object',
    properties: {
      target: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      mixed: { type: ['string', 'number'] },
    },
    required: ['target', 'mixed'],
  }),
  tool('annotations', {
    type: 'object',
    properties: {
      q: { type: 'string', title: 'Query', examples: ['paris'], deprecated: true },
    },
    required: ['q'],
  }),
]);

/** The fixture named `name`. */
export function fixture(name: string): ToolSchema {
  const found = FIXTURES.find((t) => t.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}
