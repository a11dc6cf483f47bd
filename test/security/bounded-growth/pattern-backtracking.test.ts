import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { Tool, ToolParam } from '../../../src';
import { importMcpTools } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { call, newToolkit } from '../../support/toolkit';
import { hostileMcpServer } from '../../support/hostile-mcp-server';

const EVIL = '^(a|a)+$';
/** 2^29 paths for a backtracking engine: seconds to minutes on JavaScript's own. */
const HOSTILE = `${'a'.repeat(29)}!`;
const FAST_MS = 1_000;

class EvilService {
  @Tool({ description: 'Check a code' })
  check(@ToolParam({ name: 'code', schema: { pattern: EVIL } }) code: string) {
    return `ok ${code.length}`;
  }
}

const closer = new Closer();
afterEach(() => closer.closeAll());

const serve = (tools: McpTool[]) => hostileMcpServer(closer, () => ({ tools }));

async function expectFastRejection(run: () => Promise<{ error?: { code: string }; forLLM: string }>): Promise<void> {
  const started = Date.now();
  const result = await run();
  expect(Date.now() - started).toBeLessThan(FAST_MS);
  expect(result.error?.code).toBe('INVALID_ARGUMENTS');
  expect(result.forLLM).toContain('must match pattern');
}

describe('pattern risk: patterns run in linear time (RE2JS)', () => {
  it('a decorated @ToolParam pattern answers a hostile string at once', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool(EvilService);
    await expectFastRejection(() => call(toolkit, 'check', { code: HOSTILE }));
    expect((await call(toolkit, 'check', { code: 'aaaa' })).forLLM).toBe('ok 4');
  });

  it('an AgentTool schema pattern, patternProperties included', async () => {
    const toolkit = newToolkit();
    toolkit.registerTool({
      name: 'tags',
      description: 'Tags',
      parameters: {
        type: 'object',
        properties: { code: { type: 'string', pattern: EVIL }, map: { type: 'object', patternProperties: { [EVIL]: { type: 'number' } } } },
      },
      execute: () => 'ok',
    });
    await expectFastRejection(() => call(toolkit, 'tags', { code: HOSTILE }));
    const started = Date.now();
    const map = await call(toolkit, 'tags', { map: { [HOSTILE]: 1, aaa: 'not a number' } });
    expect(Date.now() - started).toBeLessThan(FAST_MS);
    expect(map.forLLM).toContain("'map.aaa': must be number");
  });

  it('an imported MCP tool with the same pattern answers at once too', async () => {
    const client = await serve([{ name: 'evil', inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: EVIL } } } }]);
    const toolkit = newToolkit();
    const imported = closer.add(await importMcpTools(client, toolkit));
    expect(imported.names.get('evil')).toBe('evil');
    await expectFastRejection(() => call(toolkit, 'evil', { code: HOSTILE }));
    expect((await call(toolkit, 'evil', { code: 'aa' })).forLLM).toBe('remote ran');
  });

  it('an imported pattern that needs backtracking (lookaround, backreference) is skipped, with the reason', async () => {
    const client = await serve([
      { name: 'lookahead', inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: `^(?=a)${EVIL.slice(1)}` } } } },
      { name: 'backref', inputSchema: { type: 'object', patternProperties: { '^(a+)\\1$': { type: 'string' } } } },
      { name: 'fine', inputSchema: { type: 'object', properties: { code: { type: 'string', pattern: '^[a-z]+$' } } } },
    ]);
    const toolkit = newToolkit();
    const imported = closer.add(await importMcpTools(client, toolkit));
    expect([...imported.names.keys()]).toEqual(['fine']);
    expect(imported.skipped.map((s) => s.name)).toEqual(['lookahead', 'backref']);
    for (const { reason } of imported.skipped) expect(reason).toMatch(/^its pattern '.+' needs a backtracking regular expression engine/);
  });

  it("a developer's lookaround pattern still works (JavaScript's engine), with one warning", async () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const toolkit = newToolkit();
      const pattern = '^(?!admin$)[a-z]+$';
      toolkit.registerTool({ name: 'user', description: 'User', parameters: { type: 'object', properties: { login: { type: 'string', pattern } } }, execute: () => 'ok' });
      expect((await call(toolkit, 'user', { login: 'admin' })).error?.code).toBe('INVALID_ARGUMENTS');
      expect((await call(toolkit, 'user', { login: 'ada' })).forLLM).toBe('ok');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toContain('backtracking');
    } finally {
      warn.mockRestore();
    }
  });
});
