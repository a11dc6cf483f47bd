import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { Toolkit } from '../../../src';
import { McpPrincipal, createMcpHttpHandler, serveMcpHttp, type McpHttpServeOptions } from '../../../src/mcp';
import { Closer } from '../../support/mcp';
import { INITIALIZE, listen, post } from '../../support/mcp-http';

/**
 * Security item 7: listening beyond loopback without `authenticate` emits one process warning
 * (code TOOLWRIGHT_MCP_HTTP_UNAUTHENTICATED) naming the fix; loopback or authenticated servers
 * emit none.
 */
const closer = new Closer();
afterEach(() => closer.closeAll());

const CODE = 'TOOLWRIGHT_MCP_HTTP_UNAUTHENTICATED';
const ours = (calls: unknown[][]) => calls.filter(([, options]) => (options as { code?: string } | undefined)?.code === CODE);

async function warningsOf(options: Partial<McpHttpServeOptions>): Promise<unknown[][]> {
  const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  try {
    const http = closer.add(await serveMcpHttp(new Toolkit(), { name: 'exposed', version: '0', ...options }));
    // requests do not repeat it
    await post(new URL(`http://127.0.0.1:${http.url.port}/mcp`), INITIALIZE);
    await post(new URL(`http://127.0.0.1:${http.url.port}/mcp`), INITIALIZE);
    return ours(spy.mock.calls);
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

  test('createMcpHttpHandler warns once, when it serves a request that came in on a non-loopback interface', async () => {
    const spy = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const handler = closer.add(createMcpHttpHandler(new Toolkit(), { name: 'exposed', version: '0' }));
      const url = await listen(createServer((req, res) => handler(req, res)), closer, '0.0.0.0');
      const port = url.port;
      await post(url, INITIALIZE);
      expect(ours(spy.mock.calls)).toHaveLength(0);
      // the machine's own non-loopback address: the test needs one (CI containers have one)
      const external = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && !i.internal && i.family === 'IPv4');
      if (external === undefined) throw new Error('This test needs a non-loopback IPv4 interface to reach the server on; the machine has none.');
      await post(new URL(`http://${external.address}:${port}/mcp`), INITIALIZE);
      await post(new URL(`http://${external.address}:${port}/mcp`), INITIALIZE);
      expect(ours(spy.mock.calls)).toHaveLength(1);
      expect(String(ours(spy.mock.calls)[0][0])).toContain(external.address);
    } finally {
      spy.mockRestore();
    }
  });
});
