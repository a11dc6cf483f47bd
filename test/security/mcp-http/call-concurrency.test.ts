import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Toolkit, ToolkitError } from '../../../src';
import { createMcpServer, serveMcpHttp } from '../../../src/mcp';
import { Closer, connectStdio, eventually, textOf } from '../../support/mcp';
import { sdkClient } from '../../support/mcp-http';

/**
 * Security item 11: `tools/call` concurrency per MCP session was unbounded — one client could
 * start any number of calls at once. `maxConcurrentCalls` (default 32) caps the calls running on
 * one connection (an HTTP session, a stdio connection): one more is an `isError` result at once
 * and its tool does not run; other sessions are not affected.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

/** A toolkit whose `hold` tool runs until the test releases it, counting its starts. */
function holdingToolkit(): { toolkit: Toolkit; started: () => number; release: () => void } {
  const toolkit = new Toolkit();
  let started = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  toolkit.registerTool({
    name: 'hold',
    description: 'Runs until released',
    parameters: { type: 'object', properties: {} },
    execute: async () => {
      started++;
      await released;
      return 'finished';
    },
  });
  return { toolkit, started: () => started, release };
}

describe('MCP tools/call concurrency per session', () => {
  test('over HTTP: calls beyond maxConcurrentCalls get an error result at once and never run; the session recovers', async () => {
    const { toolkit, started, release } = holdingToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'cap', version: '0', maxConcurrentCalls: 3 }));
    const { client } = await sdkClient(closer, http.url);
    const calls = Array.from({ length: 5 }, () => client.call('hold'));
    const answered: CallToolResult[] = [];
    for (const call of calls) void call.then((result) => answered.push(result));
    await eventually(() => started() === 3 && answered.length === 2);
    // the two answered while three calls were still held: refused, not run
    expect(answered.every((result) => result.isError === true)).toBe(true);
    expect(textOf(answered[0])).toMatch(/Too many tool calls at once: 3 requests of this MCP session are still running.*maxConcurrentCalls.*'hold' did not run/);
    expect(started()).toBe(3);
    release();
    const results = await Promise.all(calls);
    expect(results.filter((r) => !r.isError).map(textOf)).toEqual(['finished', 'finished', 'finished']);
    expect(textOf(await client.call('hold'))).toBe('finished');
    expect(started()).toBe(4);
  });

  test('the cap is per session: another client still runs calls while one is at its cap', async () => {
    const { toolkit, started, release } = holdingToolkit();
    const http = closer.add(await serveMcpHttp(toolkit, { name: 'cap', version: '0', maxConcurrentCalls: 2 }));
    const first = await sdkClient(closer, http.url);
    const held = [first.client.call('hold'), first.client.call('hold')];
    await eventually(() => started() === 2);
    expect((await first.client.call('hold')).isError).toBe(true);
    const second = await sdkClient(closer, http.url);
    const other = second.client.call('hold');
    await eventually(() => started() === 3);
    release();
    expect(textOf(await other)).toBe('finished');
    expect((await Promise.all(held)).map(textOf)).toEqual(['finished', 'finished']);
  });

  test('over stdio (a real child process): the same cap per connection', async () => {
    const { client } = await connectStdio(closer, [join(__dirname, 'fixtures', 'holding-stdio-server.js')], { ...process.env, MAX_CALLS: '2' } as Record<string, string>);
    const aborts = [new AbortController(), new AbortController()];
    const held = aborts.map((abort) => client.call('hold', {}, undefined, abort.signal).catch(() => undefined));
    await eventually(async () => {
      const refused = await client.call('hold');
      return refused.isError === true && /Too many tool calls at once: 2 requests/.test(textOf(refused));
    }, 20_000);
    for (const abort of aborts) abort.abort();
    await Promise.all(held);
    let count = '';
    await eventually(async () => {
      const result = await client.call('started');
      count = textOf(result);
      return !result.isError;
    }, 20_000);
    expect(count).toBe('2');
  }, 30_000);

  test('maxConcurrentCalls must be a whole number >= 1 or Infinity', () => {
    expect(() => createMcpServer(new Toolkit(), { name: 'x', version: '0', maxConcurrentCalls: 0 })).toThrow(ToolkitError);
    expect(() => createMcpServer(new Toolkit(), { name: 'x', version: '0', maxConcurrentCalls: 2.5 })).toThrow(/maxConcurrentCalls must be a whole number >= 1/);
    expect(() => createMcpServer(new Toolkit(), { name: 'x', version: '0', maxConcurrentCalls: Infinity })).not.toThrow();
  });
});
