import { runToolLoop, ScriptedProvider } from '../../../src/loop';
import type { Toolkit } from '../../../src';
import { call, newToolkit } from '../../support/toolkit';

/** The longest error text any of these echoes may produce (the model's input is megabytes). */
const MAX_TEXT = 2_000;

function toolkitWith(count: number): Toolkit {
  const toolkit = newToolkit();
  for (let i = 0; i < count; i++) {
    toolkit.registerTool({ name: `tool_number_${i}`, description: `Tool ${i}`, parameters: { type: 'object', properties: {} }, execute: () => 'ok' });
  }
  return toolkit;
}

const toolkit = toolkitWith(200);
const huge = 'x'.repeat(4 * 1024 * 1024);

describe('item 5: an unknown tool name costs bounded work and is echoed bounded', () => {
  it('answers a 4 MB unknown name with 200 tools at once, quoting a bounded piece of it', async () => {
    const started = Date.now();
    const result = await call(toolkit, huge, {});
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.error?.code).toBe('UNKNOWN_TOOL');
    expect(result.forLLM.length).toBeLessThan(MAX_TEXT);
    expect(result.forLLM).toContain(`(${huge.length} chars)`);
    expect(result.forLLM).toContain('Available tools: tool_number_0, tool_number_1');
  });

  it('answers near-miss names of every length quickly (edit distance only where lengths are close)', async () => {
    const started = Date.now();
    for (const length of [100, 200, 256, 257, 10_000]) {
      const result = await call(toolkit, `tool_number_${'1'.repeat(length)}`, {});
      expect(result.error?.code).toBe('UNKNOWN_TOOL');
      expect(result.forLLM.length).toBeLessThan(MAX_TEXT);
    }
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('still suggests close names', async () => {
    const typo = await call(toolkit, 'tool_numbr_7', {});
    expect(typo.forLLM).toMatch(/^Unknown tool 'tool_numbr_7'\. Did you mean 'tool_number_7'/);
    const prefixed = await call(toolkit, 'functions.tool_number_42', {});
    expect(prefixed.forLLM).toMatch(/Did you mean [^?]*'tool_number_42'/);
  });

  it('bounds the JSON parse error quoted in MALFORMED_ARGUMENTS', async () => {
    const result = await call(toolkit, 'tool_number_0', `{"a": ${huge}`);
    expect(result.error?.code).toBe('MALFORMED_ARGUMENTS');
    expect(result.forLLM.length).toBeLessThan(MAX_TEXT);
  });

  it('bounds an unknown name in ABORTED texts', async () => {
    const result = await call(toolkit, huge, {}, { signal: AbortSignal.abort() });
    expect(result.error?.code).toBe('ABORTED');
    expect(result.forLLM.length).toBeLessThan(MAX_TEXT);
  });

  it('bounds the group names equip_tool_groups quotes back', async () => {
    const equip = newToolkit({ equipToolGroups: {} });
    const names = Array.from({ length: 1_000 }, (_, i) => `${i}${huge.slice(0, 100_000)}`);
    const result = await call(equip, 'equip_tool_groups', { add: names });
    expect(result.error?.code).toBe('INVALID_ARGUMENTS');
    expect(result.forLLM.length).toBeLessThan(MAX_TEXT);
    expect(result.forLLM).toContain('and 990 more');
  });

  it("bounds the tool name in runToolLoop's refusals", async () => {
    const repeated = { name: huge, arguments: '{}' };
    const provider = new ScriptedProvider([
      ScriptedProvider.toolCalls([repeated, repeated, repeated, repeated]),
      ScriptedProvider.reply('done'),
    ]);
    const result = await runToolLoop({ provider, model: 'm', toolkit, maxCallsPerTool: { [huge]: 1 } }, [{ role: 'user', content: 'hi' }]);
    const refusals = result.messages.filter((m) => m.role === 'tool' && m.content.includes('at most'));
    expect(refusals).toHaveLength(3);
    for (const m of result.messages.filter((m) => m.role === 'tool')) expect(m.content.length).toBeLessThan(MAX_TEXT);
  });
});

describe('security: events and spans bound what the model named', () => {
  it('a 1 MB unknown tool name and call id reach events$ cut short', async () => {
    const toolkit = newToolkit();
    const events: { tool?: string; callId?: string }[] = [];
    toolkit.events$.subscribe((e) => events.push(e as { tool?: string; callId?: string }));
    const huge = 'x'.repeat(1_000_000);
    const result = await toolkit.callTool({ id: huge, name: huge, arguments: {} });
    expect(result.error?.code).toBe('UNKNOWN_TOOL');
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect((event.tool ?? '').length).toBeLessThan(400);
      expect((event.callId ?? '').length).toBeLessThan(400);
    }
  });
});
