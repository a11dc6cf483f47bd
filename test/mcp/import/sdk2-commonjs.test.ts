import { runChildFixture } from '../../support/child-process';

test('the MCP SDK 2 client loads from CommonJS (its require export, as toolwright’s CommonJS dist loads it) and imports through it', async () => {
  const run = await runChildFixture<{ commonjs: boolean; resolved: string; loaded: number; protocolVersion: string; forLLM: string }>('test/mcp/import/fixtures/sdk2-commonjs-import.ts');
  expect(run).toEqual({ commonjs: true, resolved: expect.stringMatching(/client[/\\]dist[/\\]index\.cjs$/), loaded: expect.any(Number), protocolVersion: '2025-11-25', forLLM: 'echo: from CommonJS' });
  expect(run.loaded).toBeGreaterThan(0);
}, 60_000);
