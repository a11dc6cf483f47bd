import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

/**
 * What a hostile or broken stdio client can send first, against serveMcpStdio in a real child
 * process: an endless first line, garbage, a legacy handshake after 2026-07-28 requests, a forged
 * `requestState`. Raw JSON-RPC lines on the child's stdin; answers read line by line from stdout.
 */

const SERVER = join(__dirname, 'fixtures', 'stdio-server.js');
const ROOT = join(__dirname, '..', '..', '..');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

type Answer = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };

class RawChild {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<number | null>;
  private pending = '';
  private readonly lines: string[] = [];
  private waiter: (() => void) | undefined;

  constructor(env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [SERVER], { cwd: ROOT, env: { ...process.env, ...env } });
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.pending += chunk.toString('utf8');
      const parts = this.pending.split('\n');
      this.pending = parts.pop()!;
      this.lines.push(...parts.filter((l) => l.trim() !== ''));
      this.waiter?.();
    });
  }

  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** The next line the child writes, parsed. */
  async next(): Promise<Answer> {
    while (this.lines.length === 0) {
      if (this.child.exitCode !== null) throw new Error(`the child exited (${this.child.exitCode}) without answering`);
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        this.child.once('exit', () => resolve());
      });
    }
    return JSON.parse(this.lines.shift()!) as Answer;
  }

  /** Ends stdin and resolves with the exit code. */
  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }
}

const children: RawChild[] = [];
const raw = (env?: Record<string, string>): RawChild => {
  const child = new RawChild(env);
  children.push(child);
  return child;
};
afterEach(() => {
  for (const c of children.splice(0)) if (c.child.exitCode === null) c.child.kill();
});

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

test('a first line of 10 MB without a newline gets one bounded parse error; the connection then serves, and ends cleanly with stdin', async () => {
  const child = raw();
  const chunk = 'x'.repeat(1024 * 1024);
  for (let i = 0; i < 11; i++) child.child.stdin.write(chunk);
  const refused = await child.next();
  expect(refused).toMatchObject({ id: null, error: { code: -32700 } });
  expect(refused.error!.message).toMatch(/longer than 10485760 bytes/);
  expect(JSON.stringify(refused).length).toBeLessThan(300);
  // more of the same line is dropped as it arrives, without a second error
  child.child.stdin.write(chunk);
  child.send(''); // the newline that ends the oversized line
  child.send(INITIALIZE);
  expect(await child.next()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'toolwright-test' } } });
  expect(await child.end()).toBe(0);
}, 30_000);

test('a garbage first line and a non-request get JSON-RPC errors; the first real message still decides', async () => {
  const child = raw();
  child.send('{this is not json');
  expect(await child.next()).toMatchObject({ id: null, error: { code: -32700 } });
  child.send({ jsonrpc: '2.0', id: 7, result: {} });
  expect(await child.next()).toMatchObject({ id: 7, error: { code: -32600 } });
  child.send({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: META } });
  const discovered = await child.next();
  expect(discovered).toMatchObject({ id: 2, result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
  expect(await child.end()).toBe(0);
}, 30_000);

test('an initialize after 2026-07-28 requests is refused with the unsupported-version error; the connection keeps serving 2026-07-28', async () => {
  const child = raw();
  child.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'modern' }, _meta: META } });
  expect(await child.next()).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'echo: modern' }] } });
  child.send({ ...INITIALIZE, id: 2 });
  const refused = await child.next();
  expect(refused).toMatchObject({ id: 2, error: { code: -32022, data: { supported: ['2026-07-28'] } } });
  child.send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META } });
  expect(await child.next()).toMatchObject({ id: 3, result: { tools: expect.arrayContaining([expect.objectContaining({ name: 'echo' })]) } });
  expect(await child.end()).toBe(0);
}, 30_000);

test('a server/discover probe decides nothing: a fallback initialize on the same connection opens 2025-11-25', async () => {
  const child = raw();
  child.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
  expect(await child.next()).toMatchObject({ id: 1, result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
  child.send({ jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: META } });
  expect(await child.next()).toMatchObject({ id: 2, result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
  child.send({ ...INITIALIZE, id: 3 });
  expect(await child.next()).toMatchObject({ id: 3, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'toolwright-test' } } });
  child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  child.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'old' } } });
  expect(await child.next()).toMatchObject({ id: 4, result: { content: [{ type: 'text', text: 'echo: old' }] } });
  // the connection is 2025-11-25 now: a later probe is not served as 2026-07-28
  child.send({ jsonrpc: '2.0', id: 5, method: 'server/discover', params: { _meta: META } });
  expect(await child.next()).toMatchObject({ id: 5, error: expect.any(Object) });
  expect(await child.end()).toBe(0);
}, 30_000);

test('a connection that only probes ends cleanly with stdin', async () => {
  const child = raw();
  child.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
  expect(await child.next()).toMatchObject({ id: 1, result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
  expect(await child.end()).toBe(0);
}, 30_000);

test('after a server/discover probe, the first 2026-07-28 request commits the connection: a later initialize is refused, naming 2026-07-28', async () => {
  const child = raw();
  child.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
  expect(await child.next()).toMatchObject({ id: 1, result: { supportedVersions: expect.arrayContaining(['2026-07-28']) } });
  child.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'modern' }, _meta: META } });
  expect(await child.next()).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'echo: modern' }] } });
  child.send({ ...INITIALIZE, id: 3 });
  expect(await child.next()).toMatchObject({ id: 3, error: { code: -32022, data: { supported: ['2026-07-28'] } } });
  expect(await child.end()).toBe(0);
}, 30_000);

test('a forged or foreign requestState is refused over stdio as over HTTP, and the tool does not complete', async () => {
  const child = raw();
  child.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: {}, _meta: META } });
  const asked = await child.next();
  expect(asked.result).toMatchObject({ resultType: 'input_required' });
  const state = asked.result!.requestState as string;
  const [key] = Object.keys(asked.result!.inputRequests as Record<string, unknown>);
  const answer = { [key!]: { action: 'accept', content: { name: 'Mallory' } } };

  const tampered = `${state.slice(0, -2)}${state.endsWith('A') ? 'BB' : 'AA'}`;
  child.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: {}, requestState: tampered, inputResponses: answer, _meta: META } });
  expect(await child.next()).toMatchObject({ id: 2, error: { code: -32602 } });
  // the same state for other arguments: bound to the call it was minted for
  child.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, requestState: state, inputResponses: answer, _meta: META } });
  expect(await child.next()).toMatchObject({ id: 3, error: { code: -32602 } });
  // the genuine retry completes
  child.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'greet', arguments: {}, requestState: state, inputResponses: answer, _meta: META } });
  expect(await child.next()).toMatchObject({ id: 4, result: { content: [{ type: 'text', text: 'Hello, Mallory!' }] } });
  expect(await child.end()).toBe(0);
}, 30_000);

test('2026-07-28 over stdio: notifications only with a log level or progress token, cancellation reaches the tool', async () => {
  const child = raw();
  const abortCount = async (id: number): Promise<unknown> => {
    child.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'abort_count', arguments: {}, _meta: META } });
    return (await child.next()).result?.content;
  };
  child.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {}, _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'debug', progressToken: 'p1' } } });
  expect(await child.next()).toMatchObject({ method: expect.stringMatching(/^notifications\/(message|progress)$/) });
  child.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'stop', _meta: META } });
  expect(await abortCount(2)).toEqual([{ type: 'text', text: '1' }]);
  // quiet without a log level or progress token: the next line is the call's answer
  child.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'count', arguments: { to: 2, mode: 'none' }, _meta: META } });
  expect(await child.next()).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'counted to 2' }] } });
  expect(await child.end()).toBe(0);
}, 30_000);

test('without SDK v2, a 2026-07-28 first request gets the unsupported-version error naming 2025-11-25, and the handshake still works', async () => {
  const child = raw({ WITHOUT_SDK2: '1' });
  child.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } });
  expect(await child.next()).toMatchObject({ id: 1, error: { code: -32022, data: { supported: ['2025-11-25'], requested: '2026-07-28' } } });
  child.send({ ...INITIALIZE, id: 2 });
  expect(await child.next()).toMatchObject({ id: 2, result: { protocolVersion: '2025-11-25' } });
  expect(await child.end()).toBe(0);
}, 30_000);
