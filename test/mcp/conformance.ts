import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { eventually, textOf, type TestClient } from '../support/mcp';

/** One connected client per test, over some transport, serving `createTestToolkit()`. */
export type ConnectClient = () => Promise<TestClient>;

function strictlyIncreasing(values: readonly number[]): boolean {
  return values.every((v, i) => i === 0 || v > values[i - 1]);
}

/**
 * The behaviour every transport must show with the official SDK client: list, call, error
 * results, progress, cancellation and list_changed. The server side is `createTestToolkit()`.
 */
export function describeConformance(connect: ConnectClient): void {
  let client: TestClient;
  beforeEach(async () => {
    client = await connect();
  });

  test('tools/list: active tools with raw JSON Schemas, annotations and output schemas', async () => {
    const { tools } = await client.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()]).toEqual(['echo', 'count', 'wait_for_abort', 'abort_count', 'explode', 'stats', 'set_group', 'add']);
    expect(byName.get('echo')).toEqual({
      name: 'echo',
      description: 'Echo the text back',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'Text to echo' } },
        required: ['text'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true },
    });
    expect(byName.get('explode')!.annotations).toEqual({ destructiveHint: true, openWorldHint: false });
    expect(byName.get('count')!.inputSchema.properties).toEqual({
      to: { type: 'integer', minimum: 1, maximum: 50 },
      mode: { type: 'string', enum: ['own', 'none', 'repeat'] },
    });
    expect(byName.get('stats')!.outputSchema).toMatchObject({ type: 'object', required: ['count', 'mean', 'sum'] });
    expect(byName.get('add')).toMatchObject({
      title: 'Adder',
      annotations: { title: 'Adder' },
      outputSchema: { type: 'object', properties: { result: { type: 'number' } }, required: ['result'] },
    });
    expect(byName.has('reset_all')).toBe(false); // its group is off
  });

  test('tools/call runs the tool through the toolkit', async () => {
    const result = await client.call('echo', { text: 'hi' });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }]);
  });

  test('structured results: structuredContent for tools with an output type (validated by the client)', async () => {
    const stats = await client.call('stats', { values: [1, 2, 3] });
    expect(stats.structuredContent).toEqual({ count: 3, sum: 6, mean: 2 });
    expect(JSON.parse(textOf(stats))).toEqual({ count: 3, sum: 6, mean: 2 });
    const sum = await client.call('add', { a: 2, b: 40 });
    expect(sum.structuredContent).toEqual({ result: 42 });
    expect(textOf(sum)).toBe('42');
  });

  test('faults are isError results, never JSON-RPC errors: unknown tool, invalid arguments, thrown error', async () => {
    const unknown = await client.call('ecko', { text: 'x' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/Unknown tool 'ecko'.*Did you mean 'echo'/s);

    const invalid = await client.call('count', { to: 'many' });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/Invalid arguments for tool 'count'/);
    expect(textOf(invalid)).toMatch(/to/);

    const thrown = await client.call('explode', { reason: 'test' });
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toMatch(/kaboom: test/);

    const disabled = await client.call('reset_all');
    expect(disabled.isError).toBe(true);
    expect(textOf(disabled)).toMatch(/disabled/);
  });

  test('progress from ToolEmitter: strictly increasing, all before the response', async () => {
    const own: Progress[] = [];
    const result = await client.call('count', { to: 5 }, (p) => own.push(p));
    expect(textOf(result)).toBe('counted to 5');
    // the client drops progress that arrives after the response: all five arrived before it
    expect(own.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5]);
    expect(own[0]).toMatchObject({ total: 5, message: 'step 1' });

    const counter: Progress[] = [];
    await client.call('count', { to: 4, mode: 'none' }, (p) => counter.push(p));
    expect(counter.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(counter.map((p) => p.message)).toEqual(['step 1', 'step 2', 'step 3', 'step 4']);

    const repeated: Progress[] = [];
    await client.call('count', { to: 4, mode: 'repeat' }, (p) => repeated.push(p));
    expect(repeated).toHaveLength(4);
    expect(strictlyIncreasing(repeated.map((p) => p.progress))).toBe(true);
  });

  test("cancellation reaches the tool's AbortSignal", async () => {
    const before = Number(textOf(await client.call('abort_count')));
    const controller = new AbortController();
    const call = client.call('wait_for_abort', {}, () => controller.abort('user pressed stop'), controller.signal);
    await expect(call).rejects.toThrow();
    await eventually(async () => Number(textOf(await client.call('abort_count'))) === before + 1);
  });

  test('notifications/tools/list_changed when the active set changes', async () => {
    const changed = client.nextListChanged();
    const on = await client.call('set_group', { group: 'admin', active: true });
    expect(on.isError).toBeFalsy();
    await changed;
    expect(await client.toolNames()).toContain('reset_all');
    expect(textOf(await client.call('reset_all'))).toBe('reset done');

    const changedAgain = client.nextListChanged();
    await client.call('set_group', { group: 'admin', active: false });
    await changedAgain;
    expect(await client.toolNames()).not.toContain('reset_all');
  });
}
