import { Ajv2020 } from 'ajv/dist/2020';
import fc from 'fast-check';
import type { JsonSchema, ObjectJsonSchema } from '../../src';
import { lowerToolSchema, restoreArguments } from '../../src/schema/lowering';
import { nullStripper } from '../../src/schema/null-optionals';
import { deepFreeze } from '../support/schemas';
import { call, freshToolkit, recordingTool } from '../support/toolkit';

/**
 * The null rule ("a null for an optional property that does not accept null means
 * absent") in tuples. An item is a value, never an absent property: a `null` at a tuple position
 * stays there (positions never shift); an object at a position follows the rule with that
 * position's schema, and the items past the tuple with the schema of the rest.
 */
const line: JsonSchema = { type: 'object', properties: { sku: { type: 'string' }, note: { type: 'string' } }, required: ['sku'], additionalProperties: false };
const extra: JsonSchema = { type: 'object', properties: { label: { type: 'string' } }, additionalProperties: false };

/** `route`: [origin, waypoint or null, destination, …extras] in 2020-12; the same tuple in draft-07's form. */
const route2020: ObjectJsonSchema = {
  type: 'object',
  properties: {
    route: {
      type: 'array',
      prefixItems: [line, { anyOf: [line, { type: 'null' }] }, line],
      items: extra,
    },
    pair: { type: 'array', prefixItems: [{ type: ['number', 'null'] }, { type: 'string' }], items: false },
  },
  additionalProperties: false,
};
const route07: ObjectJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    route: { type: 'array', items: [line, { anyOf: [line, { type: 'null' }] }, line], additionalItems: extra },
    pair: { type: 'array', items: [{ type: ['number', 'null'] }, { type: 'string' }], additionalItems: false },
  },
  additionalProperties: false,
};

/** What a strict-mode model sends (every optional present, null) and what it means. */
const sent = {
  route: [{ sku: 'a', note: null }, null, { sku: 'c', note: 'fragile' }, { label: null }, { label: 'x' }],
  pair: [null, 'b'],
};
const meant = {
  route: [{ sku: 'a' }, null, { sku: 'c', note: 'fragile' }, {}, { label: 'x' }],
  pair: [null, 'b'],
};

describe.each([
  ['2020-12 (prefixItems + items)', route2020],
  ['draft-07 (items: [...] + additionalItems)', route07],
])('the null rule in tuples, %s', (_form, schema) => {
  it('strips the nulls of optional properties at each position with that position’s schema, and keeps null items in place', () => {
    const args = deepFreeze(structuredClone(sent));
    expect(nullStripper(schema)!(args)).toEqual(meant);
    expect(args).toEqual(sent); // never mutated
  });

  it('does not apply the schema of the items past the tuple to its positions, nor a position’s schema past it', () => {
    const strip = nullStripper(schema)!;
    // `label` is optional only past the tuple, `note` only at positions 0 and 2: elsewhere a null is a value
    const crossed = { route: [{ sku: 'a', label: null }, { sku: 'b', note: null }, { sku: 'c' }, { note: null, label: null }] };
    expect(strip(crossed)).toEqual({ route: [{ sku: 'a', label: null }, { sku: 'b' }, { sku: 'c' }, { note: null }] });
  });

  it('whatever the model sends, items keep their count and places, and only objects change (hostile keys included)', () => {
    const strip = nullStripper(schema)!;
    const key = fc.constantFrom('sku', 'note', 'label', '__proto__', 'constructor');
    const item = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(key, fc.oneof(fc.constant(null), fc.string({ maxLength: 3 }))));
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), fc.array(item, { maxLength: 4 }), (route, pair) => {
        const out = strip({ route, pair });
        for (const [before, after] of [[route, out.route], [pair, out.pair]] as [unknown[], unknown][]) {
          expect(Array.isArray(after) && after.length === before.length).toBe(true);
          (after as unknown[]).forEach((value, i) => {
            if (typeof before[i] !== 'object' || before[i] === null || Array.isArray(before[i])) expect(value).toBe(before[i]);
          });
        }
        expect(({} as Record<string, unknown>).sku).toBeUndefined(); // no prototype pollution
      }),
      { numRuns: 300 },
    );
  });

  it('validation and restoreArguments agree: the tool gets what restoreArguments returns', async () => {
    const seen: unknown[] = [];
    const toolkit = freshToolkit();
    toolkit.registerTool(recordingTool('plan', schema, seen));
    expect((await call(toolkit, 'plan', sent)).forLLM).toBe('ok');
    expect(seen).toEqual([restoreArguments(schema, sent, 'openai', { strict: true })]);
    expect(seen).toEqual([meant]);
    // and a null that is no absent property is still checked: a null item where an object is required
    const wrong = await call(toolkit, 'plan', { route: [null, null, { sku: 'c' }] });
    expect(wrong.error?.code).toBe('INVALID_ARGUMENTS');
    expect(wrong.forLLM).toContain("'route[0]'");
  });
});

describe('a tuple lowered for OpenAI strict mode comes back through the null rule', () => {
  it('the model’s nulls inside tuple positions are removed; its null items are kept', () => {
    const { definition } = lowerToolSchema({ name: 'plan', description: 'Plan a route', parameters: route2020 }, 'openai', { strict: true });
    const lowered = definition.function.parameters;
    // what the strict model may send: every property present, `null` for the optional ones
    const strictArgs = { route: [{ sku: 'a', note: null }, null, { sku: 'c', note: null }], pair: [null, 'b'] };
    expect(new Ajv2020({ strict: false }).validate(lowered, strictArgs)).toBe(true);
    expect(restoreArguments(route2020, strictArgs, 'openai', { strict: true })).toEqual({
      route: [{ sku: 'a' }, null, { sku: 'c' }],
      pair: [null, 'b'],
    });
  });
});
