import 'reflect-metadata';
import { Tool, ToolParam, type ObjectJsonSchema } from '../../src';
import { schemaDialect } from '../../src/schema/schema-dialect';
import { thrown } from '../support/errors';
import { call, freshToolkit, recordingTool } from '../support/toolkit';

/** A schema literal that is no valid JSON Schema, which the `JsonSchema` type refuses too. */
const invalidSchema = (schema: object): ObjectJsonSchema => schema as ObjectJsonSchema;

const D2020 = 'https://json-schema.org/draft/2020-12/schema';
const D07 = 'http://json-schema.org/draft-07/schema#';

/** A point as a closed tuple in draft 2020-12. */
const point2020: ObjectJsonSchema = {
  $schema: D2020,
  type: 'object',
  properties: { at: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false } },
  required: ['at'],
};

describe('schemaDialect', () => {
  it.each([
    [{ type: 'object' }, '2020-12'],
    [{ $schema: D2020, type: 'object' }, '2020-12'],
    [{ $schema: `${D2020}#`, type: 'object' }, '2020-12'],
    [{ $schema: D07, type: 'object' }, 'draft-07'],
    [{ $schema: 'https://json-schema.org/draft-07/schema', type: 'object' }, 'draft-07'],
    // no $schema and draft-07's tuple form, which 2020-12 forbids: the only reading that makes it valid
    [{ type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } }, 'draft-07'],
    // `items` as a name, and arrays inside enum values, are not the tuple form
    [{ type: 'object', properties: { items: { enum: [{ items: [1] }] } } }, '2020-12'],
  ])('%j → %s', (schema, dialect) => {
    expect(schemaDialect(schema as ObjectJsonSchema)).toEqual({ dialect });
  });

  it('names what it cannot validate: other dialects, a $schema that is no string, mixed forms', () => {
    expect(schemaDialect({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })).toEqual({
      problem: `its $schema "http://json-schema.org/draft-04/schema#" names a JSON Schema dialect toolwright does not validate (use "${D2020}" or "${D07}", or leave $schema out for 2020-12)`,
    });
    expect(schemaDialect({ $schema: 7 as unknown as string, type: 'object' })).toEqual({ problem: 'its $schema is not a string (a dialect URI)' });
    expect(schemaDialect({ type: 'object', properties: { a: { items: [{}] }, b: { prefixItems: [{}] } } })).toEqual({
      problem: `it mixes draft-07's tuple form (items: [...]) with the 2020-12 keyword prefixItems; write the tuple as prefixItems (2020-12), or declare "$schema": "${D07}" and drop prefixItems`,
    });
  });
});

describe('AgentTools declaring draft 2020-12 register and validate by 2020-12 rules', () => {
  it('registers (no raw Ajv error) and checks prefixItems with items: false', async () => {
    const seen: unknown[] = [];
    const toolkit = freshToolkit();
    toolkit.registerTool(recordingTool('locate', point2020, seen));
    expect(toolkit.getToolSchemas()[0].parameters.$schema).toBe(D2020);
    expect((await call(toolkit, 'locate', { at: [1.5, 'north'] })).forLLM).toBe('ok');
    const extra = await call(toolkit, 'locate', { at: [1.5, 'north', 'extra'] });
    expect(extra.forLLM).toBe("Invalid arguments for tool 'locate':\n- 'at': must NOT have more than 2 items\nFix these and call the tool again.");
    const swapped = await call(toolkit, 'locate', { at: ['north', 1.5] });
    expect(swapped.forLLM.split('\n').slice(1, -1)).toEqual(["- 'at[0]': must be number, got string", "- 'at[1]': must be string, got number"]);
    expect(seen).toEqual([{ at: [1.5, 'north'] }]);
  });

  it('also without $schema (the MCP default), with $defs, unevaluatedProperties and dependentRequired', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(
      recordingTool('ship', {
        type: 'object',
        properties: { to: { $ref: '#/$defs/Address' }, card: { type: 'string' }, cvc: { type: 'string' } },
        dependentRequired: { card: ['cvc'] },
        unevaluatedProperties: false,
        $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      }),
    );
    expect((await call(toolkit, 'ship', { to: { city: 'Oslo' }, card: '4242', cvc: '123' })).forLLM).toBe('ok');
    const bad = await call(toolkit, 'ship', { to: {}, card: '4242', tip: 1 });
    expect(bad.forLLM.split('\n').slice(1, -1).sort()).toEqual(
      ["- 'to.city': is required but missing", "- arguments: must have property cvc when property card is present", "- arguments: must NOT have unevaluated properties"].sort(),
    );
  });

  it('validates a draft-07 schema by draft-07 rules: its tuple form, additionalItems', async () => {
    const toolkit = freshToolkit();
    const parameters: ObjectJsonSchema = {
      $schema: D07,
      type: 'object',
      properties: { at: { type: 'array', items: [{ type: 'number' }, { type: 'string' }], additionalItems: false } },
    };
    toolkit.registerTool(recordingTool('locate07', parameters));
    // the same tuple without $schema is read as draft-07 too (2020-12 forbids items: [...])
    const { $schema: _declared, ...bare } = parameters;
    toolkit.registerTool(recordingTool('locate07_bare', bare));
    for (const name of ['locate07', 'locate07_bare']) {
      expect((await call(toolkit, name, { at: [1, 'a'] })).forLLM).toBe('ok');
      expect((await call(toolkit, name, { at: [1, 'a', 2] })).forLLM).toContain("'at': must NOT have more than 2 items");
      expect((await call(toolkit, name, { at: ['a', 1] })).error?.code).toBe('INVALID_ARGUMENTS');
    }
    // under draft-07 rules prefixItems means nothing (an unknown keyword), as the schema's author declared
    toolkit.registerTool(recordingTool('declared07', { $schema: D07, type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'number' }] } } }));
    expect((await call(toolkit, 'declared07', { t: ['not a number'] })).forLLM).toBe('ok');
  });

  it('refuses a dialect it does not validate, and an invalid 2020-12 schema, naming the dialect', () => {
    const toolkit = freshToolkit();
    const unknown = thrown(() => toolkit.registerTool(recordingTool('old', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: {} })), 'INVALID_DEFINITION');
    expect(unknown.message).toBe(
      `AgentTool 'old': parameters is not a valid JSON Schema: its $schema "http://json-schema.org/draft-04/schema#" names a JSON Schema dialect toolwright does not validate (use "${D2020}" or "${D07}", or leave $schema out for 2020-12).`,
    );
    const invalid = thrown(() => toolkit.registerTool(recordingTool('bad', invalidSchema({ $schema: D2020, type: 'object', properties: { t: { prefixItems: {} } } }))), 'INVALID_DEFINITION');
    expect(invalid.message).toBe("AgentTool 'bad': parameters is not a valid JSON Schema: schema/properties/t/prefixItems must be array.");
  });
});

describe('@ToolParam schema fragments in draft 2020-12', () => {
  class Geo {
    @Tool({ name: 'route', description: 'Route between two points' })
    route(
      @ToolParam({ name: 'from', schema: { $schema: D2020, type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 } }) from: number[],
      @ToolParam({ name: 'to', schema: { prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 } }) to: number[],
    ): string {
      return `${from.join(',')}→${to.join(',')}`;
    }
  }

  it('keeps prefixItems (no item type needed), drops the fragment’s own $schema, validates positions', async () => {
    const toolkit = freshToolkit();
    toolkit.registerTool(Geo);
    const { properties } = toolkit.getToolSchemas()[0].parameters;
    expect(properties.from).toEqual({ type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 });
    expect(properties.to).toEqual(properties.from);
    expect((await call(toolkit, 'route', { from: [1, 2], to: [3, 4] })).forLLM).toBe('1,2→3,4');
    const bad = await call(toolkit, 'route', { from: [1, 2, 3], to: [3] });
    expect(bad.forLLM.split('\n').slice(1, -1).sort()).toEqual(["- 'from': must NOT have more than 2 items", "- 'to': must NOT have fewer than 2 items"]);
  });

  it('refuses a fragment declaring a dialect it does not validate', () => {
    class Old {
      @Tool({ description: 'Old' })
      old(@ToolParam({ name: 'x', schema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' } }) x: string): string {
        return x;
      }
    }
    expect(thrown(() => freshToolkit().registerTool(Old), 'INVALID_DEFINITION').message).toContain('names a JSON Schema dialect toolwright does not validate');
  });
});
