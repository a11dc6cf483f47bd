import 'reflect-metadata';
import { IsInt, Max } from 'class-validator';
import fc from 'fast-check';
import { ApprovalManager, Tool, ToolParam, ToolService, type AgentTool, type HookContext, type ObjectJsonSchema, type RepairMode, type ToolEvent } from '../../src';
import { thrown } from '../support/errors';
import { freshToolkit, toolCall } from '../support/toolkit';
import { toolkitWith } from './helpers';

const WEATHER: ObjectJsonSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer', minimum: 1, maximum: 14 },
    detailed: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city'],
  additionalProperties: false,
};

function weather(seen: Record<string, unknown>[], repair?: RepairMode): AgentTool {
  return {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: WEATHER,
    ...(repair !== undefined ? { behaviour: { repair } } : {}),
    execute: (args) => {
      seen.push(args);
      return 'sunny';
    },
  };
}

function recording(toolkit: { events$: { subscribe(f: (e: ToolEvent) => void): unknown } }): ToolEvent[] {
  const events: ToolEvent[] = [];
  toolkit.events$.subscribe((event) => events.push(event));
  return events;
}

describe("repair: 'safe'", () => {
  it('is off by default: malformed and mistyped arguments are refused as before', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)]);
    const malformed = await toolkit.callTool(toolCall('get_weather', '{"city": "Paris",}'));
    expect(malformed.error?.code).toBe('MALFORMED_ARGUMENTS');
    const mistyped = await toolkit.callTool(toolCall('get_weather', '{"city": "Paris", "days": "3"}'));
    expect(mistyped.error?.code).toBe('INVALID_ARGUMENTS');
    expect(seen).toEqual([]);
  });

  it('runs the tool with the repaired arguments and emits call_repaired right after call_started', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)], { repair: 'safe' });
    const events = recording(toolkit);
    const result = await toolkit.callTool({ id: 'c1', name: 'get_weather', arguments: "{'city': 'Paris', 'days': '3', 'detailed': 'true', 'tags': 'rain',}" });
    expect(result.isError).toBe(false);
    expect(seen).toEqual([{ city: 'Paris', days: 3, detailed: true, tags: ['rain'] }]);
    expect(events.map((e) => e.type)).toEqual(['call_started', 'call_repaired', 'call_succeeded']);
    expect(events[0]).toMatchObject({ arguments: { city: 'Paris', days: 3, detailed: true, tags: ['rain'] } });
    expect(events[1]).toEqual({
      type: 'call_repaired',
      callId: 'c1',
      tool: 'get_weather',
      timestamp: expect.any(Number),
      changes: [
        { path: '', before: "{'city': 'Paris', 'days': '3', 'detailed': 'true', 'tags': 'rain',}", after: '{"city":"Paris","days":"3","detailed":"true","tags":"rain"}', kind: 'json_syntax' },
        { path: '/days', before: '3', after: 3, kind: 'number_from_string' },
        { path: '/detailed', before: 'true', after: true, kind: 'boolean_from_string' },
        { path: '/tags', before: 'rain', after: ['rain'], kind: 'wrapped_in_array' },
      ],
    });
  });

  it('repairs arguments sent as an object too (adapters, MCP), and leaves a valid call untouched', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)], { repair: 'safe' });
    const events = recording(toolkit);
    await toolkit.callTool(toolCall('get_weather', { city: 'Oslo', days: '2' }));
    await toolkit.callTool(toolCall('get_weather', { city: 'Oslo', days: 2 }));
    expect(seen).toEqual([
      { city: 'Oslo', days: 2 },
      { city: 'Oslo', days: 2 },
    ]);
    expect(events.filter((e) => e.type === 'call_repaired')).toHaveLength(1);
  });

  it('reads arguments encoded twice, and JSON in a string with a null for an optional inside it', async () => {
    const seen: Record<string, unknown>[] = [];
    const tool: AgentTool = {
      name: 'search',
      description: 'Search',
      parameters: { type: 'object', properties: { query: { type: 'string' }, filters: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } } } }, required: ['query'] },
      execute: (args) => {
        seen.push(args);
        return 'found';
      },
    };
    const toolkit = toolkitWith([tool], { repair: 'safe' });
    const events = recording(toolkit);
    await toolkit.callTool(toolCall('search', JSON.stringify(JSON.stringify({ query: 'q' }))));
    await toolkit.callTool(toolCall('search', { query: 'q', filters: '{"from": "2024", "to": null}' }));
    expect(seen).toEqual([{ query: 'q' }, { query: 'q', filters: { from: '2024' } }]);
    const changes = events.flatMap((e) => (e.type === 'call_repaired' ? e.changes : []));
    expect(changes).toEqual([
      { path: '', before: '"{\\"query\\":\\"q\\"}"', after: '{"query":"q"}', kind: 'json_from_string' },
      { path: '/filters', before: '{"from": "2024", "to": null}', after: { from: '2024' }, kind: 'json_from_string' },
      { path: '/filters/to', before: null, after: undefined, kind: 'null_dropped' },
    ]);
  });

  it('a tool decides for itself: repair on a tool wins over the toolkit, both ways', async () => {
    const on: Record<string, unknown>[] = [];
    const off: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(on, 'safe'), { ...weather(off, 'off'), name: 'strict_weather' }]);
    expect((await toolkit.callTool(toolCall('get_weather', '{"city": "Rome",}'))).isError).toBe(false);
    expect(on).toEqual([{ city: 'Rome' }]);

    const safeToolkit = toolkitWith([{ ...weather(off, 'off'), name: 'strict_weather' }], { repair: 'safe' });
    expect((await safeToolkit.callTool(toolCall('strict_weather', '{"city": "Rome",}'))).error?.code).toBe('MALFORMED_ARGUMENTS');
    expect(off).toEqual([]);
  });

  it('works on decorated tools: @Tool({ repair })', async () => {
    @ToolService()
    class Orders {
      static seen: unknown[] = [];
      @Tool({ description: 'Place an order', repair: 'safe' })
      placeOrder(@ToolParam({ name: 'sku' }) sku: string, @ToolParam({ name: 'qty', integer: true }) qty: number): string {
        Orders.seen.push([sku, qty]);
        return 'placed';
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Orders);
    expect((await toolkit.callTool(toolCall('place_order', "{sku: 'A1', qty: '2'}"))).isError).toBe(false);
    expect(Orders.seen).toEqual([['A1', 2]]);
  });

  it('refuses an unknown repair mode on the toolkit and on a tool', () => {
    expect(thrown(() => toolkitWith([], { repair: 'on' as RepairMode }))).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining("repair must be 'safe' or 'off'") });
    expect(thrown(() => toolkitWith([weather([], true as unknown as RepairMode)]))).toMatchObject({
      code: 'INVALID_DEFINITION',
      message: "AgentTool 'get_weather': repair must be 'safe' or 'off', got true.",
    });
  });

  it('still invalid after repair: the usual answer, quoting what the model sent, and no call_repaired', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)], { repair: 'safe' });
    const events = recording(toolkit);
    const invalid = await toolkit.callTool(toolCall('get_weather', '{"city": "Paris", "days": "3", "detailed": "maybe"}'));
    expect(invalid.error?.code).toBe('INVALID_ARGUMENTS');
    expect(invalid.forLLM).toContain("'days': must be integer, got string");
    expect(invalid.forLLM).toContain("'detailed': must be boolean, got string");
    const malformed = await toolkit.callTool(toolCall('get_weather', '{"city": "Par'));
    const plain = await toolkitWith([weather([])]).callTool(toolCall('get_weather', '{"city": "Par'));
    expect(malformed.error).toEqual(plain.error);
    expect(seen).toEqual([]);
    expect(events.some((e) => e.type === 'call_repaired')).toBe(false);
  });

  it('hooks see the repaired arguments and the changes', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)], { repair: 'safe' });
    const contexts: HookContext[] = [];
    toolkit.use({ name: 'look', before: (ctx) => void contexts.push(ctx) });
    await toolkit.callTool(toolCall('get_weather', '{"city": "Paris", "days": "4"}'));
    expect(contexts[0].arguments).toEqual({ city: 'Paris', days: 4 });
    expect(contexts[0].repairs).toEqual([{ path: '/days', before: '4', after: 4, kind: 'number_from_string' }]);
  });

  it('runs before approval: the person approves, and the tool gets, the repaired arguments', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)], { repair: 'safe' });
    const approvals = new ApprovalManager({ tools: ['get_weather'] });
    toolkit.use(approvals.hook);
    await toolkit.callTool(toolCall('get_weather', "{'city': 'Paris', 'days': '5',}"));
    const [pending] = approvals.pending();
    expect(pending.arguments).toEqual({ city: 'Paris', days: 5 });
    expect(seen).toEqual([]);
    await approvals.approve(pending.id, { toolkit });
    expect(seen).toEqual([{ city: 'Paris', days: 5 }]);
  });

  it('never touches a preset name, and never shows a preset value in call_repaired', async () => {
    const SECRET = 'pg-secret-4711';
    const seen: Record<string, unknown>[] = [];
    const tool: AgentTool = {
      name: 'query_db',
      description: 'Run SQL',
      parameters: { type: 'object', properties: { sql: { type: 'string' }, limit: { type: 'integer' }, password: { type: 'string' } }, required: ['sql', 'password'] },
      execute: (args) => {
        seen.push(args);
        return 'rows';
      },
    };
    const toolkit = freshToolkit({ repair: 'safe' });
    toolkit.registerTool(tool, { presets: { query_db: { password: SECRET } } });
    const events = recording(toolkit);
    // refused as without repair: malformed text stays malformed, a preset name stays a problem
    expect((await toolkit.callTool(toolCall('query_db', "{'sql': 'select 1', 'password': 'guess',}"))).error?.code).toBe('MALFORMED_ARGUMENTS');
    const named = await toolkit.callTool(toolCall('query_db', '{"sql": "select 1", "password": "guess", "limit": "3"}'));
    expect(named.error?.code).toBe('INVALID_ARGUMENTS');
    expect(named.forLLM).toContain("'password': is not a parameter of this tool");
    expect(seen).toEqual([]);
    await toolkit.callTool(toolCall('query_db', `{'sql': 'select ${SECRET}', 'limit': '2',}`));
    expect(seen).toEqual([{ sql: `select ${SECRET}`, limit: 2, password: SECRET }]);
    const repaired = events.filter((e) => e.type === 'call_repaired');
    expect(repaired).toHaveLength(1);
    expect(JSON.stringify(repaired)).not.toContain(SECRET);
  });

  it('never shows part of a preset value where call_repaired cuts a long text', async () => {
    const SECRET = 'pg-secret-4711-abcdefghijklmnop';
    const tool: AgentTool = {
      name: 'query_db',
      description: 'Run SQL',
      parameters: { type: 'object', properties: { sql: { type: 'string' }, password: { type: 'string' } }, required: ['sql', 'password'] },
      execute: () => 'rows',
    };
    const toolkit = freshToolkit({ repair: 'safe' });
    toolkit.registerTool(tool, { presets: { query_db: { password: SECRET } } });
    const events = recording(toolkit);
    // the secret starts a few characters before the 4096th, where the quoted text is cut
    const head = '{"sql": "';
    const text = `${head}${'x'.repeat(4090 - head.length)}${SECRET}",}`;
    expect((await toolkit.callTool(toolCall('query_db', text))).isError).toBe(false);
    const repaired = JSON.stringify(events.filter((e) => e.type === 'call_repaired'));
    expect(repaired).toContain('[REDA');
    expect(repaired).not.toContain(SECRET.slice(0, 5));
  });

  it("keeps a '__proto__' key as data: repaired arguments inherit no value the schema did not check", async () => {
    const seen: Record<string, unknown>[] = [];
    const tool: AgentTool = {
      name: 'grant',
      description: 'Grant',
      parameters: { type: 'object', properties: { city: { type: 'string' }, n: { type: 'integer' }, role: { type: 'string', enum: ['user'] } } },
      execute: (args) => (seen.push(args), 'ok'),
    };
    const toolkit = freshToolkit({ repair: 'safe' });
    toolkit.registerTool(tool);
    for (const text of ["{'city': 'x', '__proto__': {'role': 'admin'},}", '{"city": "x", "n": "3", "__proto__": {"role": "admin"}}']) {
      expect((await toolkit.callTool(toolCall('grant', text))).isError).toBe(false);
    }
    expect(seen).toHaveLength(2);
    for (const args of seen) {
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(args.role).toBeUndefined();
    }
  });

  it("never reads a call written in the text as its argument: not(true), negate(500), exclude('admin')", async () => {
    const seen: Record<string, unknown>[] = [];
    const tool: AgentTool = {
      name: 'transfer',
      description: 'Transfer',
      parameters: { type: 'object', properties: { confirm: { type: 'boolean' }, amount: { type: 'number' }, scope: { type: 'string' } } },
      execute: (args) => (seen.push(args), 'ok'),
    };
    const toolkit = freshToolkit({ repair: 'safe' });
    toolkit.registerTool(tool);
    for (const text of ['{"confirm": not(true)}', '{"amount": negate(500)}', '{"amount": minus(5),}', "{'scope': exclude('admin')}", '{"confirm": Boolean(false)}']) {
      expect((await toolkit.callTool(toolCall('transfer', text))).error?.code).toBe('MALFORMED_ARGUMENTS');
    }
    expect(seen).toEqual([]);
  });

  it('a subscriber that throws on call_repaired does not stop the call', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)], { repair: 'safe' });
    const failures: ToolEvent[] = [];
    toolkit.events$.subscribe((event) => {
      if (event.type === 'callback_failed') failures.push(event);
      if (event.type === 'call_repaired') throw new Error('subscriber broke');
    });
    expect((await toolkit.callTool(toolCall('get_weather', '{"city": "Paris",}'))).isError).toBe(false);
    expect(seen).toEqual([{ city: 'Paris' }]);
    expect(failures).toHaveLength(1);
  });

  it('DTO parameters: arguments class-validator refuses after repair get the answer about what was sent', async () => {
    class Range {
      @IsInt() @Max(10) to!: number;
    }
    @ToolService()
    class Charts {
      static seen: unknown[] = [];
      @Tool({ description: 'Plot a range', repair: 'safe' })
      plot(@ToolParam({ name: 'range' }) range: Range): string {
        Charts.seen.push(range);
        return 'plotted';
      }
    }
    const toolkit = freshToolkit();
    toolkit.registerTool(Charts);
    const events = recording(toolkit);
    const refused = await toolkit.callTool(toolCall('plot', '{"range": {"to": "99"}}'));
    expect(refused.error?.code).toBe('INVALID_ARGUMENTS');
    expect(refused.forLLM).toContain("'range.to': must be integer, got string");
    expect(events.some((e) => e.type === 'call_repaired')).toBe(false);
    expect((await toolkit.callTool(toolCall('plot', '{"range": {"to": "7"}}'))).isError).toBe(false);
    expect(Charts.seen).toEqual([expect.objectContaining({ to: 7 })]);
    expect(Charts.seen[0]).toBeInstanceOf(Range);
  });

  it('bounds its work: a 1 MB malformed text is refused at once, as without repair', async () => {
    const toolkit = toolkitWith([weather([])], { repair: 'safe' });
    const huge = `{"city": "${'x'.repeat(1_048_576)}",}`;
    const started = performance.now();
    const result = await toolkit.callTool(toolCall('get_weather', huge));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.error?.code).toBe('MALFORMED_ARGUMENTS');
  });

  it('bounds its work: no repair past 2,000 strings and numbers or 64 levels of nesting', async () => {
    const seen: Record<string, unknown>[] = [];
    const counts: AgentTool = { name: 'counts', description: 'Counts', parameters: { type: 'object', properties: {}, additionalProperties: {} }, execute: (args) => void seen.push(args) };
    const toolkit = toolkitWith([counts], { repair: 'safe' });
    const members = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join(', ');
    expect((await toolkit.callTool(toolCall('counts', `{${members(2_000)},}`))).isError).toBe(false);
    const started = performance.now();
    expect((await toolkit.callTool(toolCall('counts', `{${members(2_001)},}`))).error?.code).toBe('MALFORMED_ARGUMENTS');
    expect((await toolkit.callTool(toolCall('counts', `{${members(6_000)},}`))).error?.code).toBe('MALFORMED_ARGUMENTS');
    expect(performance.now() - started).toBeLessThan(1_000);
    const nested = (depth: number): string => `{"a": ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)},}`;
    expect((await toolkit.callTool(toolCall('counts', nested(64)))).isError).toBe(false);
    expect((await toolkit.callTool(toolCall('counts', nested(65)))).error?.code).toBe('MALFORMED_ARGUMENTS');
    expect((await toolkit.callTool(toolCall('counts', nested(20_000)))).error?.code).toBe('MALFORMED_ARGUMENTS');
    expect(seen).toHaveLength(2);
  });

  it('never changes a valid call (property)', async () => {
    const seen: Record<string, unknown>[] = [];
    const toolkit = toolkitWith([weather(seen)], { repair: 'safe' });
    const events = recording(toolkit);
    const validArgs = fc.record(
      {
        city: fc.string({ maxLength: 20 }),
        days: fc.integer({ min: 1, max: 14 }),
        detailed: fc.boolean(),
        tags: fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('true', '3', '["a"]', '{"a":1}', 'null', '')), { maxLength: 4 }),
      },
      { requiredKeys: ['city'] },
    );
    await fc.assert(
      fc.asyncProperty(validArgs, fc.boolean(), async (args, asText) => {
        seen.length = 0;
        const result = await toolkit.callTool(toolCall('get_weather', asText ? JSON.stringify(args) : args));
        expect(result.isError).toBe(false);
        expect(seen).toEqual([args]);
      }),
      { numRuns: 300 },
    );
    expect(events.some((e) => e.type === 'call_repaired')).toBe(false);
  });
});
