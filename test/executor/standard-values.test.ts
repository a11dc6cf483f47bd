import 'reflect-metadata';
import { type } from 'arktype';
import type { StandardSchemaLike } from '../../src';
import { newToolkit, toolCall } from '../support/toolkit';

describe("a Standard Schema tool input's output", () => {
  it("keeps a '__proto__' key the model sent as data: the arguments' prototype stays Object.prototype, no unvalidated value is inherited", async () => {
    const toolkit = newToolkit();
    const got: Record<string, unknown>[] = [];
    const input = type({ sku: 'string', 'role?': "'user'", '+': 'ignore' }) as unknown as StandardSchemaLike;
    toolkit.registerTool({ name: 'order', description: 'Order', parameters: input, execute: (args) => (got.push(args), 'ok') });
    const result = await toolkit.callTool(toolCall('order', '{"sku": "a", "__proto__": {"role": "admin"}}'));
    expect(result.isError).toBe(false);
    expect(Object.getPrototypeOf(got[0])).toBe(Object.prototype);
    expect(got[0]!.role).toBeUndefined();
  });

  it('a hostile validator whose output holds an own __proto__ sets no prototype either', async () => {
    const toolkit = newToolkit();
    const got: Record<string, unknown>[] = [];
    const hostile = {
      '~standard': { version: 1, vendor: 'hostile', validate: () => ({ value: JSON.parse('{"a": 1, "__proto__": {"isAdmin": true}}') as unknown }), jsonSchema: { input: () => ({ type: 'object' }) } },
    } as unknown as StandardSchemaLike;
    toolkit.registerTool({ name: 'h', description: 'H', parameters: hostile, execute: (args) => (got.push(args), 'ok') });
    expect(await toolkit.callTool(toolCall('h', { a: 1 }))).toMatchObject({ isError: false });
    expect(Object.getPrototypeOf(got[0])).toBe(Object.prototype);
    expect(got[0]!.isAdmin).toBeUndefined();
    expect(Object.keys(got[0]!)).toEqual(['a', '__proto__']);
  });
});
