import 'reflect-metadata';
import { toJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { InjectContext, Tool, ToolExecutionContext, ToolkitError, ToolParam, ToolService, type StandardSchemaLike, type Toolkit } from '../../src';
import { isStandardSchema } from '../../src/model/standard-schema';
import { expectAllSchemasMetaValid, newToolkit } from '../support/toolkit';

class Caller {
  constructor(readonly id: string) {}
}

/** One library under test: its schema of an order, and the message it gives for a quantity below 1. */
interface Library {
  readonly vendor: string;
  readonly order: StandardSchemaLike;
  readonly tooSmall: RegExp;
}

const LIBRARIES: readonly Library[] = [
  { vendor: 'zod', order: z.object({ sku: z.string().min(3), quantity: z.number().int().min(1).default(1) }), tooSmall: /Too small: expected number to be >=1/ },
  {
    vendor: 'valibot',
    order: v.object({ sku: v.pipe(v.string(), v.minLength(3)), quantity: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1) }),
    tooSmall: /Invalid value: Expected >=1 but received 0/,
  },
  { vendor: 'arktype', order: type({ sku: 'string >= 3', 'quantity?': 'number.integer >= 1' }) as unknown as StandardSchemaLike, tooSmall: /must be at least 1 \(was 0\)/ },
];

/** A decorated service whose `order` parameter is the library's schema, beside a preset and an injected context. */
function serviceFor(schema: StandardSchemaLike) {
  @ToolService()
  class Shop {
    seen: unknown[] = [];
    @Tool({ name: 'place_order', description: 'Place an order' })
    place(
      @ToolParam({ name: 'order', schema }) order: unknown,
      @ToolParam({ name: 'note', required: false, type: () => String }) note: string | undefined,
      @ToolParam({ name: 'apiKey', preset: true }) apiKey: string,
      @InjectContext(Caller) caller: Caller,
    ): string {
      this.seen.push({ order, note, apiKey, caller: caller.id });
      return 'placed';
    }
  }
  return new Shop();
}

function call(toolkit: Toolkit, name: string, args: unknown) {
  return toolkit.callTool({ id: 'c1', name, arguments: args as Record<string, unknown> }, { context: ToolExecutionContext.of(new Caller('u1')) });
}

afterAll(() => expectAllSchemasMetaValid());

describe.each(LIBRARIES)('Standard Schema parameters: $vendor', ({ vendor, order, tooSmall }) => {
  test('a @ToolParam schema: listed as its JSON Schema, validated by its library, beside a preset and a context', async () => {
    const toolkit = newToolkit();
    const shop = serviceFor(order);
    toolkit.registration().tool(shop).presetParameters({ place_order: { apiKey: 'sk-secret-1234567890' } }).apply();
    const [schema] = toolkit.getToolSchemas();
    expect(schema!.parameters).toMatchObject({
      type: 'object',
      properties: { order: { type: 'object', properties: { sku: { type: 'string', minLength: 3 } } }, note: { type: 'string' } },
      required: ['order'],
    });
    expect(JSON.stringify(schema)).not.toContain('apiKey');
    expect(JSON.stringify(schema)).not.toContain('$schema');

    const ok = await call(toolkit, 'place_order', { order: { sku: 'abc', quantity: 2 } });
    expect(ok).toMatchObject({ isError: false, forLLM: 'placed' });
    expect(shop.seen[0]).toEqual({ order: { sku: 'abc', quantity: 2 }, note: undefined, apiKey: 'sk-secret-1234567890', caller: 'u1' });

    const bad = await call(toolkit, 'place_order', { order: { sku: 'abc', quantity: 0 } });
    expect(bad.isError).toBe(true);
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.forLLM).toMatch(tooSmall);
    expect(bad.forLLM).toContain("'order.quantity'");
    expect(shop.seen).toHaveLength(1);
  });

  test('a hostile argument: many problems and a huge value give a bounded answer, no preset named', async () => {
    const toolkit = newToolkit();
    toolkit.registration().tool(serviceFor(order)).presetParameters({ place_order: { apiKey: 'sk-secret-1234567890' } }).apply();
    const huge = 'x'.repeat(100_000);
    const bad = await call(toolkit, 'place_order', { order: { sku: 7, quantity: huge, [huge]: 1 }, apiKey: 'forged' });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.forLLM.length).toBeLessThan(4000);
    expect(bad.forLLM).toContain("'apiKey': is not a parameter of this tool");
    expect(bad.forLLM).not.toContain('sk-secret');
  });

  test('a whole AgentTool input: the model sees the conversion, execute gets the library output', async () => {
    const toolkit = newToolkit();
    const got: unknown[] = [];
    const [tool] = toolkit.registerTool({ name: 'order', description: 'Order', parameters: order, execute: (args) => (got.push(args), 'ok') });
    expect(tool!.parameters).toMatchObject({ type: 'object', properties: { sku: { type: 'string', minLength: 3 } }, required: ['sku'] });
    expect(await call(toolkit, 'order', { sku: 'abcd' })).toMatchObject({ isError: false });
    // zod and valibot fill the default; arktype has none
    expect(got[0]).toEqual(vendor === 'arktype' ? { sku: 'abcd' } : { sku: 'abcd', quantity: 1 });
    const bad = await call(toolkit, 'order', { sku: 'abcd', quantity: 0 });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.forLLM).toMatch(tooSmall);
    expect(bad.forLLM).toContain("'quantity'");
  });
});

describe('Standard Schema: converters and async validation', () => {
  test("zod's z.toJSONSchema output (a JSON Schema with a hidden ~standard) stays a JSON Schema", () => {
    expect(isStandardSchema(z.toJSONSchema(z.object({ a: z.string() })))).toBe(false);
    expect(isStandardSchema(z.object({ a: z.string() }))).toBe(true);
    expect(isStandardSchema(v.string())).toBe(true);
    expect(isStandardSchema(type('string'))).toBe(true);
    expect(isStandardSchema({ '~standard': { vendor: 'x' } })).toBe(false);
  });

  test("valibot's converter is the one @valibot/to-json-schema gives", () => {
    const toolkit = newToolkit();
    const schema = v.object({ city: v.pipe(v.string(), v.maxLength(40)) });
    const [tool] = toolkit.registerTool({ name: 'city', description: 'City', parameters: schema, execute: () => 'ok' });
    const { $schema: _d, ...expected } = toJsonSchema(schema) as Record<string, unknown>;
    expect(tool!.parameters).toEqual(expected);
  });

  test('an async validate is awaited; its output replaces the argument', async () => {
    const schema: StandardSchemaLike & { '~standard': { jsonSchema: { input: () => unknown } } } = {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: async (value) => (typeof value === 'string' && value.length > 0 ? { value: value.toUpperCase() } : { issues: [{ message: 'must be a non-empty string' }] }),
        jsonSchema: { input: () => ({ type: 'string' }) },
      },
    };
    @ToolService()
    class Shout {
      @Tool({ description: 'Shout' })
      shout(@ToolParam({ name: 'text', schema }) text: string): string {
        return text;
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(Shout);
    expect(await call(toolkit, 'shout', { text: 'hi' })).toMatchObject({ isError: false, forLLM: 'HI' });
    expect((await call(toolkit, 'shout', { text: '' })).forLLM).toContain("'text': must be a non-empty string");
  });

  test('hostile validators: thrown, no result, issues not a list, 10,000 issues: bounded answers, the process stays up', async () => {
    const hostile = (validate: (value: unknown) => unknown): StandardSchemaLike =>
      ({ '~standard': { version: 1, vendor: 'hostile', validate, jsonSchema: { input: () => ({ type: 'object' }) } } }) as unknown as StandardSchemaLike;
    const answer = async (validate: (value: unknown) => unknown) => {
      const toolkit = newToolkit();
      let ran = false;
      toolkit.registerTool({ name: 'h', description: 'H', parameters: hostile(validate), execute: () => ((ran = true), 'ran') });
      const result = await call(toolkit, 'h', { a: 1 });
      expect(ran).toBe(false);
      return result;
    };
    const thrown = await answer(() => {
      throw new Error('validator exploded');
    });
    expect(thrown.isError).toBe(true);
    expect(thrown.error?.code).toBe('EXECUTION_FAILED');
    expect((await answer(() => undefined)).isError).toBe(true);
    expect((await answer(() => ({ issues: 'nope' }))).forLLM).toContain('arguments: is invalid');
    const many = await answer(() => ({ issues: Array.from({ length: 10_000 }, (_, i) => ({ message: 'm'.repeat(10_000), path: [`k${i}`] })) }));
    expect(many.error?.code).toBe('INVALID_ARGUMENTS');
    expect(many.forLLM.length).toBeLessThan(8000);
    expect(many.forLLM).toContain('and 9980 more problem(s)');
  });

  test("arguments a hook rewrites are checked against the library's JSON Schema conversion", async () => {
    const toolkit = newToolkit();
    let got: unknown;
    toolkit.registerTool({ name: 'qty', description: 'Q', parameters: z.object({ n: z.number().min(1) }), execute: (args) => ((got = args), 'ok') });
    let rewrite: Record<string, unknown> = { n: 0 };
    toolkit.use({ name: 'rewriter', before: () => ({ action: 'rewrite', arguments: rewrite }) });
    const bad = await call(toolkit, 'qty', { n: 5 });
    expect(bad.error?.code).toBe('INVALID_ARGUMENTS');
    expect(bad.forLLM).toContain("'n': must be >= 1");
    rewrite = { n: 3 };
    expect(await call(toolkit, 'qty', { n: 5 })).toMatchObject({ isError: false });
    expect(got).toEqual({ n: 3 });
  });

  test("a schema whose '~standard' getter throws is a definition error at registration, for an AgentTool and a decorated parameter", () => {
    const hostile = Object.defineProperty({}, '~standard', {
      enumerable: true,
      get() {
        throw new Error('getter exploded');
      },
    }) as StandardSchemaLike;
    const toolkit = newToolkit();
    let ran = 0;
    expect(() => toolkit.registerTool({ name: 'h', description: 'H', parameters: hostile, execute: () => String(++ran) })).toThrow(
      expect.objectContaining({ code: 'INVALID_DEFINITION', message: expect.stringContaining("'~standard' property threw (getter exploded)") }),
    );
    @ToolService()
    class Hostile {
      @Tool({ description: 'Hostile parameter schema' })
      take(@ToolParam({ name: 'x', schema: hostile }) x: unknown): string {
        ran++;
        return String(x);
      }
    }
    expect(() => toolkit.registerTool(Hostile)).toThrow(expect.objectContaining({ code: 'INVALID_DEFINITION' }));
    expect([toolkit.getTool('h'), toolkit.getTool('take')]).toEqual([undefined, undefined]);
    expect(ran).toBe(0);
  });

  test('a vendor without a converter, or a schema the converter cannot express, is a clear definition error', () => {
    const toolkit = newToolkit();
    const unknown: StandardSchemaLike = { '~standard': { version: 1, vendor: 'mystery', validate: (value) => ({ value }) } };
    const error = (() => {
      try {
        toolkit.registerTool({ name: 'm', description: 'M', parameters: unknown, execute: () => 'ok' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(ToolkitError.is(error) && error.code).toBe('INVALID_DEFINITION');
    expect((error as Error).message).toContain("vendor 'mystery' has no JSON Schema converter");
    expect(() => toolkit.registerTool({ name: 'n', description: 'N', parameters: z.string(), execute: () => 'ok' })).toThrow(/must describe an object/);
    expect(() => toolkit.registerTool({ name: 'f', description: 'F', parameters: z.object({ at: z.date() }), execute: () => 'ok' })).toThrow(
      /AgentTool 'f': the zod schema cannot be converted to JSON Schema/,
    );
  });
});
