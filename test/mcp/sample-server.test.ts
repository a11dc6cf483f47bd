import { Closer, connectStdio, textOf } from '../support/mcp';

/** `npm run mcp` (node -r ./scripts/swc-register.js examples/demo/mcp-server.ts) as an MCP client starts it. */
const closer = new Closer();
afterAll(() => closer.closeAll());

test('the sample MCP server serves the sample services over stdio', async () => {
  const { client, stderr } = await connectStdio(closer, ['-r', './scripts/swc-register.js', 'examples/demo/mcp-server.ts']);

  const names = await client.toolNames();
  expect(names).toEqual(expect.arrayContaining(['get_weather', 'get_forecast', 'send_email', 'equip_tool_groups']));
  expect(names).not.toContain('set_feature_flag');
  expect(textOf(await client.call('get_weather', { city: 'Paris' }))).toMatch(/^Paris: /);

  const changed = client.nextListChanged();
  await client.call('equip_tool_groups', { add: ['admin'] });
  await changed;
  expect(await client.toolNames()).toContain('set_feature_flag');
  expect(stderr()).toMatch(/serving \d+ tools on stdio/);
}, 20_000);
