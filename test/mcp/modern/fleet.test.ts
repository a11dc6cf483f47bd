import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { MCP_CONVERSATION_META_KEY } from '../../../src/mcp';
import { ROOT } from '../../support/child-process';
import { eventually } from '../../support/mcp';
import { rawRequest, TASKS } from '../../support/mcp-modern-raw';
import { cleanRedis, REDIS, requireRedis, uniqueQueue } from '../../support/redis';

/**
 * The stateless fleet: two real server processes (test/mcp/modern/fixtures/fleet-server.ts) with
 * the same toolkit, stateSecret, Redis state store and Redis event bus, behind a round-robin HTTP
 * proxy written here; an SDK v2 client pinned to 2026-07-28 whose consecutive requests land on
 * different processes lists, calls, and follows a task to its end — tasks/get and tasks/cancel
 * answered by the process that does not run the task — and hears on one process's
 * subscriptions/listen stream a list change made on the other; a conversation's handle minted on
 * one process opens its equipped group's tool on the other. A task whose process is killed
 * ends failed (its heartbeat stops) on the survivor.
 */

const prefix = `${uniqueQueue('fleet')}:`;
const channel = uniqueQueue('fleet-events');
const children: ChildProcess[] = [];
let proxy: http.Server;
/** The child process behind each backend index of the proxy. */
const backendChildren: ChildProcess[] = [];

/** Resolves once `child` has exited (at once if it has). */
const exited = (child: ChildProcess): Promise<unknown> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
let proxyUrl: URL;
/** Which backend (0 or 1) served each request, with its `Mcp-Method`. */
const served: { backend: number; method: string }[] = [];

function startServer(): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, ['-r', './scripts/swc-register.js', 'test/mcp/modern/fixtures/fleet-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, TW_FLEET_PREFIX: prefix, TW_FLEET_CHANNEL: channel, TW_FLEET_SECRET: 'the-fleet-shares-this-32-byte-key!!' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      const match = /listening (\S+)/.exec(d.toString());
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`fleet server exited with ${String(code)}: ${err}`)));
  });
}

/** Backends the proxy no longer sends to (their process was killed). */
const down = new Set<number>();

/** A proxy that sends each request to the next backend in turn (skipping those that are down). */
function roundRobin(backends: readonly URL[]): http.Server {
  let next = 0;
  return http.createServer((req, res) => {
    let backend = next++ % backends.length;
    while (down.has(backend)) backend = next++ % backends.length;
    served.push({ backend, method: String(req.headers['mcp-method'] ?? req.method) });
    const target = backends[backend];
    const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
}

beforeAll(async () => {
  await requireRedis();
  const servers = await Promise.all([startServer(), startServer()]);
  backendChildren.push(...servers.map((s) => s.child));
  proxy = roundRobin(servers.map((s) => s.url));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = new URL(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map(exited));
  await new Promise((resolve) => proxy?.close(resolve));
  await cleanRedis(`${prefix}*`);
});

/** The result of a tasks-extension method, as the SDK client reads it with a schema of ours. */
const ANY_RESULT = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } } as const;

describe('a fleet of two processes behind a round-robin proxy (2026-07-28)', () => {
  it('lists, calls, and runs a task to its end with an SDK v2 client whose requests alternate between the processes', async () => {
    const client = new Client({ name: 'fleet-client', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { extensions: { [TASKS]: {} } } });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['who_am_i', 'slow_report']));
      const first = await client.callTool({ name: 'who_am_i', arguments: {} });
      const second = await client.callTool({ name: 'who_am_i', arguments: {} });
      const pids = [first, second].map((r) => (r.content as { text: string }[])[0].text);
      expect(pids[0]).not.toBe(pids[1]);

      // the SDK v2 client has no client side of the tasks extension: the task is created by hand
      const created = await rawRequest(proxyUrl, 'tools/call', { name: 'slow_report', arguments: { ms: 400 } });
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = created.result?.taskId ?? '';
      const runner = served[served.length - 1].backend;
      let last: Record<string, unknown> = {};
      await eventually(async () => {
        last = (await client.request({ method: 'tasks/get', params: { taskId } }, ANY_RESULT)) as Record<string, unknown>;
        return last.status !== 'working';
      }, 10_000);
      expect(last).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: expect.stringMatching(/^report built by process \d+$/) }] } });
      const gets = served.filter((s) => s.method === 'tasks/get');
      expect(gets.some((s) => s.backend !== runner)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('cancels a task on the process that runs it when tasks/cancel lands on the other one', async () => {
    const created = await rawRequest(proxyUrl, 'tools/call', { name: 'slow_report', arguments: { ms: 60_000 } });
    const taskId = created.result?.taskId ?? '';
    const runner = served[served.length - 1].backend;
    const ack = await rawRequest(proxyUrl, 'tasks/cancel', { taskId });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(served[served.length - 1].backend).not.toBe(runner);
    let status: unknown;
    await eventually(async () => (status = (await rawRequest(proxyUrl, 'tasks/get', { taskId })).result?.status) === 'cancelled', 10_000);
    expect(status).toBe('cancelled');
    // the tool's signal fired on the process that runs it
    const redis = new Redis(REDIS);
    try {
      await eventually(async () => (await redis.get(`${prefix}report-aborted`)) !== null, 10_000);
    } finally {
      redis.disconnect();
    }
  });

  it('delivers a list change made on one process to a subscriptions/listen stream held open by the other (the Redis event bus)', async () => {
    const client = new Client({ name: 'fleet-listener', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    try {
      const subscription = await client.listen({ toolsListChanged: true });
      const listener = served.filter((s) => s.method === 'subscriptions/listen').at(-1)?.backend;
      const toggled = await client.callTool({ name: 'enable_extras', arguments: {} });
      expect(listener).toBeDefined();
      expect(served.filter((s) => s.method === 'tools/call').at(-1)?.backend).not.toBe(listener);
      expect((toggled.content as { text: string }[])[0].text).toMatch(/^extras on in process \d+$/);
      await eventually(() => changed > 0, 10_000);
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  it("keeps a conversation's equipped group on both processes: the handle one minted opens the vault on the other", async () => {
    const client = new Client({ name: 'fleet-conversation', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(proxyUrl));
    try {
      const equipped = await client.callTool({ name: 'equip_tool_groups', arguments: { add: ['vault'] }, _meta: { [MCP_CONVERSATION_META_KEY]: 'new' } });
      const conversation = { [MCP_CONVERSATION_META_KEY]: equipped._meta?.[MCP_CONVERSATION_META_KEY] };
      const opened = [];
      for (let i = 0; i < 2; i++) {
        const result = await client.callTool({ name: 'open_vault', arguments: {}, _meta: conversation });
        opened.push({ text: (result.content as { text: string }[])[0].text, backend: served.at(-1)?.backend });
      }
      expect(opened.map((o) => o.text)).toEqual([expect.stringMatching(/^vault opened by process \d+$/), expect.stringMatching(/^vault opened by process \d+$/)]);
      expect(opened[0].backend).not.toBe(opened[1].backend);
      expect((await client.callTool({ name: 'open_vault', arguments: {} })).isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('ends a task failed when the process running it is killed: the survivor answers tasks/get', async () => {
    const created = await rawRequest(proxyUrl, 'tools/call', { name: 'slow_report', arguments: { ms: 60_000 } });
    const taskId = created.result?.taskId ?? '';
    const runner = served[served.length - 1].backend;
    down.add(runner);
    const child = backendChildren[runner];
    child.kill('SIGKILL');
    await exited(child);
    let answer: Record<string, unknown> | undefined;
    await eventually(async () => (answer = (await rawRequest(proxyUrl, 'tasks/get', { taskId })).result)?.status !== 'working', 15_000);
    expect(answer).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The server process running the task stopped.' } });
  });
});
