import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Closer, TestClient, textOf } from '../support/mcp';

/** `npm run mcp` (node -r ./scripts/swc-register.js samples/mcp-server.ts) as an MCP client starts it. */
const ROOT = join(__dirname, '..', '..');
const closer = new Closer();
afterAll(() => closer.closeAll());

test('the sample MCP server serves the sample services over stdio', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', './scripts/swc-register.js', 'samples/mcp-server.ts'],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = closer.add(new TestClient());
  await client.connect(transport);

  const names = await client.toolNames();
  expect(names).toEqual(expect.arrayContaining(['get_weather', 'get_forecast', 'send_email', 'equip_tool_groups']));
  expect(names).not.toContain('set_feature_flag');
  expect(textOf(await client.call('get_weather', { city: 'Paris' }))).toMatch(/^Paris: /);

  const changed = client.nextListChanged();
  await client.call('equip_tool_groups', { add: ['admin'] });
  await changed;
  expect(await client.toolNames()).toContain('set_feature_flag');
  expect(stderr).toMatch(/serving \d+ tools on stdio/);
}, 20_000);
