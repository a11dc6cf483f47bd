import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../support/child-process';
import { Closer, connectStdio, eventually, textOf } from '../support/mcp';

/**
 * Real child processes serving over stdio (test/observability/fixtures/stdio-logging-server.js),
 * spoken to by the official SDK client: the server logs to stderr by default, never to stdout.
 */
const SERVER = join(__dirname, 'fixtures', 'stdio-logging-server.js');
const closer = new Closer();
afterAll(() => closer.closeAll());

describe('serveMcpStdio logs to stderr', () => {
  it('by default: serving, the connection opening and closing, at info, on stderr', async () => {
    const { client, stderr } = await connectStdio(closer, [SERVER, 'default']);
    expect(textOf(await client.call('echo', { text: 'hi' }))).toBe('echo: hi');
    await eventually(() => stderr().includes('MCP connection opened'));
    expect(stderr()).toMatch(/^\S+Z toolwright info: MCP server logging-test 1\.2\.3 serving over stdio \{"event":"mcp_stdio_serving","server":"logging-test","version":"1\.2\.3","tools":1\}$/m);
    expect(stderr()).toMatch(/toolwright info: MCP connection opened \{"event":"mcp_connection_opened","server":"logging-test","transport":"StdioServerTransport"\}/);
    // calls are the toolkit's to log (it has no logger here), and debug lines are below info
    expect(stderr()).not.toMatch(/echo|debug/);
    await client.close();
  }, 30_000);

  it('with logger: false, stderr stays empty', async () => {
    const { client, stderr } = await connectStdio(closer, [SERVER, 'off']);
    expect(textOf(await client.call('echo', { text: 'quiet' }))).toBe('echo: quiet');
    expect(stderr()).toBe('');
    await client.close();
  }, 30_000);

  it("with one stderrLogger for both, the toolkit's call lines join the server's", async () => {
    const { client, stderr } = await connectStdio(closer, [SERVER, 'shared']);
    await client.call('echo', { text: 'logged' });
    await client.call('echo', {});
    await eventually(() => stderr().includes('call echo failed'));
    expect(stderr()).toMatch(/toolwright debug: call echo succeeded in \d+ ms \{"event":"call_succeeded","callId":"[^"]+","tool":"echo"/);
    expect(stderr()).toMatch(/toolwright warn: call echo failed: INVALID_ARGUMENTS \(\d+ ms\)/);
    expect(stderr()).not.toContain('logged'); // arguments are never logged
    await client.close();
  }, 30_000);

  it('stdout carries nothing but JSON-RPC messages, also while it logs', async () => {
    const child = spawn(process.execPath, [SERVER, 'shared'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    await eventually(() => stdout.includes('"id":1'), 20_000);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'missing', arguments: {} } });
    await eventually(() => stdout.includes('"id":3') && stderr.includes('call missing failed'), 10_000);
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(stderr).toContain('MCP connection opened');
    expect(stderr).toContain('MCP connection closed');
  }, 30_000);
});
