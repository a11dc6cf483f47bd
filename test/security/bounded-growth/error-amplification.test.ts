import 'reflect-metadata';
import { Contains } from 'class-validator';
import { Tool, ToolParam, type ToolResult } from '../../../src';
import { call, newToolkit } from '../../support/toolkit';

/** The promised bound of an INVALID_ARGUMENTS text. */
const MAX_TEXT = 8 * 1024;
const MAX_LINES = 20;

/** Checks an INVALID_ARGUMENTS text against the bounds; returns its problem lines. */
function boundedProblems(result: ToolResult, lastLine?: string): string[] {
  expect(result.error?.code).toBe('INVALID_ARGUMENTS');
  expect(result.forLLM.length).toBeLessThanOrEqual(MAX_TEXT);
  const lines = result.forLLM.split('\n').filter((line) => line.startsWith('- '));
  expect(lines.length).toBeLessThanOrEqual(MAX_LINES + 1);
  for (const line of lines) expect(line.length).toBeLessThanOrEqual(302);
  if (lastLine !== undefined) {
    expect(lines).toHaveLength(MAX_LINES + 1);
    expect(lines[MAX_LINES]).toBe(lastLine);
  }
  return lines;
}

class TagDto {
  @Contains('#') label!: string;
}

class TagService {
  @Tool({ description: 'Save tags' })
  saveTags(@ToolParam({ name: 'tags', type: () => [TagDto] }) tags: TagDto[]) {
    return `saved ${tags.length}`;
  }
}

const toolkit = newToolkit();
toolkit.registerTool({
  name: 'sum',
  description: 'Sum numbers',
  parameters: {
    type: 'object',
    properties: {
      values: { type: 'array', items: { type: 'number' } },
      code: { type: 'string', maxLength: 8, pattern: '^[A-Z]+$' },
      unit: { enum: ['c', 'f'] },
    },
    additionalProperties: false,
  },
  execute: () => 'ok',
});
toolkit.registerTool(TagService);

describe('item 6: error texts list a fixed number of problems, each bounded', () => {
  it('100k invalid values give 20 lines and a count, within 8 KB, quickly', async () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `bad-${i}`);
    for (const args of [{ values }, JSON.stringify({ values })]) {
      const started = Date.now();
      const result = await call(toolkit, 'sum', args);
      expect(Date.now() - started).toBeLessThan(10_000);
      const lines = boundedProblems(result, '- … and 99980 more problem(s) not listed');
      expect(lines[0]).toBe("- 'values[0]': must be number, got string");
    }
  });

  it('bounds every line: huge values, huge extra keys, huge enum misses', async () => {
    const big = 'A'.repeat(1_000_000);
    const extra = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`${i}${big}`, 1]));
    const result = await call(toolkit, 'sum', { code: big, unit: big, ...extra });
    boundedProblems(result);
    expect(result.forLLM).toContain("'code': must NOT have more than 8 characters (got \"AAAA");
    expect(result.forLLM).toContain('chars): is not a parameter of this tool (remove it)');
  });

  it('DTO arrays: class-validator stops once the list is full', async () => {
    const tags = Array.from({ length: 100_000 }, () => ({ label: 'no hash' }));
    const started = Date.now();
    const result = await call(toolkit, 'save_tags', { tags });
    expect(Date.now() - started).toBeLessThan(15_000);
    const lines = boundedProblems(result, '- … and possibly more problems not listed');
    expect(lines[0]).toBe("- 'tags[0].label': label must contain a # string");
  });
});
