import { Tool, ToolParam, Toolkit } from '../../src';
import { truncateText } from '../../src/executor/call/convert';

class Logs {
  @Tool({ name: 'read_log', description: 'Read the log', maxResultChars: 120 })
  read(@ToolParam({ name: 'lines' }) lines: number): string {
    return Array.from({ length: lines }, (_, i) => `line ${String(i).padStart(4, '0')}`).join('\n');
  }

  @Tool({ name: 'read_all', description: 'Read everything' })
  readAll(): string {
    return 'x'.repeat(5_000);
  }
}

describe('maxResultChars', () => {
  it('keeps the head and the tail of a long result and says how much was cut', async () => {
    const toolkit = new Toolkit();
    toolkit.registerTool(Logs);
    const result = await toolkit.callTool({ id: 't1', name: 'read_log', arguments: { lines: 500 } });
    expect(result.forLLM.length).toBeLessThanOrEqual(120);
    expect(result.forLLM.startsWith('line 0000\nline 0001')).toBe(true);
    expect(result.forLLM.endsWith('line 0499')).toBe(true);
    const cut = Number(/\[… (\d+) characters truncated …\]/.exec(result.forLLM)?.[1]);
    const original = Array.from({ length: 500 }, (_, i) => `line ${String(i).padStart(4, '0')}`).join('\n');
    expect(cut).toBeGreaterThan(original.length - 120);
    expect(original.length - cut).toBeLessThanOrEqual(120);

    const short = await toolkit.callTool({ id: 't2', name: 'read_log', arguments: { lines: 3 } });
    expect(short.forLLM).toBe('line 0000\nline 0001\nline 0002');
  });

  it('applies the toolkit default to tools without their own limit', async () => {
    const toolkit = new Toolkit({ maxResultChars: 300 });
    toolkit.registerTool(Logs);
    const result = await toolkit.callTool({ id: 't3', name: 'read_all', arguments: '{}' });
    expect(result.forLLM.length).toBeLessThanOrEqual(300);
    expect(result.forLLM).toContain('characters truncated');
  });

  it('never exceeds a limit too small for the note', () => {
    expect(truncateText('abcdefghijklmnopqrstuvwxyz'.repeat(4), 10)).toBe('abcdefghij');
    expect(truncateText('short', 10)).toBe('short');
  });
});

describe('getActiveTools()', () => {
  it('returns a frozen list, so callers cannot corrupt the shared cache', () => {
    const toolkit = new Toolkit();
    toolkit.registerTool(Logs);
    const tools = toolkit.getActiveTools();
    expect(Object.isFrozen(tools)).toBe(true);
    expect(() => (tools as unknown[]).push('x')).toThrow(TypeError);
    expect(toolkit.getActiveTools().map((t) => t.name)).toEqual(['read_log', 'read_all']);
  });
});
