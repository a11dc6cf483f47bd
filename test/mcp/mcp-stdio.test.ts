import { join } from 'node:path';
import { describeConformance } from './conformance';
import { Closer, connectStdio, textOf, type TestClient } from '../support/mcp';

/**
 * A real child process: `node test/mcp/fixtures/stdio-server.js` compiles the TypeScript sources
 * on the fly (scripts/swc-register.js) and serves the test toolkit over stdio with sessions on.
 * stdio is one connection per process and startup compiles the sources (~1-2 s), so one child
 * serves the whole file: its state (groups, abort count) carries over and tests restore what
 * they change. The progress test here is the regression test of `progressBarrier`: without it
 * the SDK client drops progress that shares a stdout chunk with the response.
 */
const SERVER = join(__dirname, 'fixtures', 'stdio-server.js');
const closer = new Closer();
let shared: TestClient | undefined;
let stderr = (): string => '';

beforeAll(async () => {
  ({ client: shared, stderr } = await connectStdio(closer, [SERVER]));
}, 20_000);

afterAll(() => closer.closeAll());

describe('serveMcpStdio in a child process (official StdioClientTransport)', () => {
  describeConformance(async () => shared!);

  test('the child writes nothing but protocol to stdout and reports its server info', async () => {
    expect(shared!.client.getServerVersion()).toMatchObject({ name: 'toolwright-test', version: '0.0.0' });
    expect(shared!.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
    expect(textOf(await shared!.call('echo', { text: 'still alive' }))).toBe('echo: still alive');
    expect(stderr()).not.toMatch(/Error/);
  });
});
