import { Toolkit } from '../../src';
import { McpPrincipal, serveMcpHttp, type McpHttpServeOptions } from '../../src/mcp';
import { Closer } from '../mcp/helpers';
import { INITIALIZE, post } from './mcp-http-helpers';

/**
 * Security item 7: listening beyond loopback without `authenticate` emits one process warning
 * (code TOOLWRIGHT_MCP_HTTP_UNAUTHENTICATED) naming the fix; loopback or authenticated servers
 * emit none.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

async function warningsOf(options: Partial<McpHttpServeOptions>): Promise<unknown[][]> {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    const http = closer.add(await serveMcpHttp(new Toolkit(), { name: 'exposed', version: '0', ...options }));
    // requests do not repeat it
    await post(new URL(`http://127.0.0.1:${http.url.port}/mcp`), INITIALIZE);
    await post(new URL(`http://127.0.0.1:${http.url.port}/mcp`), INITIALIZE);
    return spy.mock.calls.filter(([, options]) => (options as { code?: string } | undefined)?.code === 'TOOLWRIGHT_MCP_HTTP_UNAUTHENTICATED');
  } finally {
    spy.mockRestore();
  }
}

describe('MCP HTTP exposure warning', () => {
  test("0.0.0.0 without authenticate: one warning naming the fix", async () => {
    const warnings = await warningsOf({ host: '0.0.0.0' });
    expect(warnings).toHaveLength(1);
    const [message] = warnings[0] as [string];
    expect(message).toMatch(/without authentication/);
    expect(message).toMatch(/authenticate/);
    expect(message).toMatch(/127\.0\.0\.1/);
  });

  test('0.0.0.0 with authenticate, or a loopback address: no warning', async () => {
    expect(await warningsOf({ host: '0.0.0.0', authenticate: () => new McpPrincipal('ops') })).toHaveLength(0);
    expect(await warningsOf({ host: '127.0.0.1' })).toHaveLength(0);
    expect(await warningsOf({})).toHaveLength(0);
  });
});
