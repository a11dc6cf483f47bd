import 'reflect-metadata';
import { IsString, Validate, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';
import { Tool, ToolParam, type StandardSchemaLike } from '../../src';
import { newToolkit, toolCall } from '../support/toolkit';

/** A validator that never answers must not hold a call past the tool's timeout: the call ends TIMEOUT and the tool never runs. */
const never = new Promise<never>(() => undefined);

@ValidatorConstraint({ async: true })
class NeverAnswers implements ValidatorConstraintInterface {
  validate(): Promise<boolean> {
    return never;
  }
}

class Order {
  @IsString()
  @Validate(NeverAnswers)
  sku!: string;
}

describe('asynchronous argument checks run within the tool timeout', () => {
  it('a Standard Schema whose validate never resolves: TIMEOUT naming validation, the tool does not run', async () => {
    const toolkit = newToolkit();
    const ran: unknown[] = [];
    const hanging = {
      '~standard': { version: 1, vendor: 'hanging', validate: () => never, jsonSchema: { input: () => ({ type: 'object', properties: { sku: { type: 'string' } } }) } },
    } as unknown as StandardSchemaLike;
    toolkit.registerTool({ name: 'order', description: 'Order', parameters: hanging, behaviour: { timeoutMs: 40 }, execute: (args) => (ran.push(args), 'ok') });
    const result = await toolkit.callTool(toolCall('order', { sku: 'a' }));
    expect(result.error).toMatchObject({ code: 'TIMEOUT' });
    expect(result.error?.message).toContain('while its arguments were validated');
    expect(ran).toEqual([]);
  });

  it('a class-validator constraint that never answers (a DTO parameter): TIMEOUT, the tool does not run', async () => {
    const ran: Order[] = [];
    class Shop {
      @Tool({ description: 'Place an order', timeoutMs: 40 })
      place(@ToolParam({ name: 'order', type: () => Order }) order: Order) {
        ran.push(order);
        return 'placed';
      }
    }
    const toolkit = newToolkit();
    toolkit.registerTool(new Shop());
    const result = await toolkit.callTool(toolCall('place', { order: { sku: 'a' } }));
    expect(result.error).toMatchObject({ code: 'TIMEOUT' });
    expect(ran).toEqual([]);
  });

  it('without a timeout the checks are awaited as before (a slow but answering validator)', async () => {
    const toolkit = newToolkit();
    const slow = {
      '~standard': {
        version: 1,
        vendor: 'slow',
        validate: (value: unknown) => new Promise((resolve) => setTimeout(() => resolve({ value }), 30)),
        jsonSchema: { input: () => ({ type: 'object', properties: { sku: { type: 'string' } } }) },
      },
    } as unknown as StandardSchemaLike;
    toolkit.registerTool({ name: 'order', description: 'Order', parameters: slow, execute: (args) => `ordered ${String(args.sku)}` });
    expect(await toolkit.callTool(toolCall('order', { sku: 'a' }))).toMatchObject({ isError: false, forLLM: 'ordered a' });
  });
});
