import 'reflect-metadata';
import { z } from 'zod';
import { Tool, ToolParam, ToolService, type ToolEvent } from '../../src';
import { newToolkit, toolCall } from '../support/toolkit';

/** A tool whose parameter is owned by zod: a refinement JSON Schema cannot state, and a transform. */
function shop() {
  @ToolService()
  class Shop {
    seen: unknown[] = [];
    @Tool({ name: 'place_order', description: 'Place an order', repair: 'safe' })
    place(
      @ToolParam({ name: 'order', schema: z.object({ sku: z.string().refine((s) => s.startsWith('SKU-'), 'must start with SKU-').transform((s) => s.toUpperCase()), quantity: z.number().int() }) })
      order: unknown,
      @ToolParam({ name: 'copies', required: false, type: () => Number }) copies: number | undefined,
    ): string {
      this.seen.push(copies === undefined ? order : { order, copies });
      return 'placed';
    }
  }
  return new Shop();
}

describe('repaired arguments of a Standard Schema tool', () => {
  it.each([
    ['malformed JSON', '{"order": {"sku": "bogus", "quantity": 2},}', 'MALFORMED_ARGUMENTS'],
    ['a mistyped value', '{"order": {"sku": "bogus", "quantity": 2}, "copies": "3"}', 'INVALID_ARGUMENTS'],
  ])('are still validated by the library, and refused as sent (%s)', async (_, text, code) => {
    const toolkit = newToolkit();
    const service = shop();
    toolkit.registration().tool(service).apply();
    const events: ToolEvent[] = [];
    toolkit.events$.subscribe((event) => events.push(event));
    const result = await toolkit.callTool(toolCall('place_order', text));
    expect(result.error?.code).toBe(code);
    if (code === 'INVALID_ARGUMENTS') expect(result.forLLM).toContain('must start with SKU-');
    expect(service.seen).toEqual([]);
    expect(events.map((e) => e.type)).not.toContain('call_repaired');
  });

  it.each([
    ['malformed JSON', '{"order": {"sku": "SKU-a", "quantity": 2},}', { sku: 'SKU-A', quantity: 2 }],
    ['a mistyped value', '{"order": {"sku": "SKU-a", "quantity": 2}, "copies": "3"}', { order: { sku: 'SKU-A', quantity: 2 }, copies: 3 }],
  ])("get the library's output, as valid arguments do (%s)", async (_, text, expected) => {
    const toolkit = newToolkit();
    const service = shop();
    toolkit.registration().tool(service).apply();
    const result = await toolkit.callTool(toolCall('place_order', text));
    expect(result).toMatchObject({ isError: false, forLLM: 'placed' });
    expect(service.seen).toEqual([expected]);
  });
});
