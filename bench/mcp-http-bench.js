'use strict';
// MCP over Streamable HTTP on 127.0.0.1, official SDK v2 Client, same run, side by side:
//   - toolwright 2026-07-28: serveMcpHttp(toolkit), client pinned to 2026-07-28 (stateless requests)
//   - SDK McpServer 2026-07-28: the SDK v2's createMcpHandler(factory) with the same tool (zod input schema)
//   - toolwright 2025-11-25: serveMcpHttp(toolkit), client with the 2025 handshake (a session)
// then requests per second of 2026-07-28 calls from 8 concurrent clients against 1 and 2 toolwright processes
// (2: child processes sharing a state secret behind a round-robin proxy in this process).
// Bar: toolwright 2026-07-28 <= 0.9 x the SDK McpServer's CPU time per call. Run through `npm run bench`.
const http = require('node:http');
const { fork } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { Toolkit } = require('../dist/index.js');
const { serveMcpHttp } = require('../dist/mcp/index.js');
const { Client, StreamableHTTPClientTransport } = require('@modelcontextprotocol/client');
const { McpServer, createMcpHandler } = require('@modelcontextprotocol/server');
const { toNodeHandler } = require('@modelcontextprotocol/node');
const { z } = require('zod');
const { ARGS, answer, interleaved, weatherTool } = require('./weather-tool');

const BAR = 0.9;
const WARMUP = 300;
const CALLS = 200;
const ROUNDS = 9;
const THROUGHPUT_MS = 3_000;
const CONCURRENCY = 8;
const PIN = { mode: { pin: '2026-07-28' } };

function weatherToolkit() {
  const toolkit = new Toolkit();
  toolkit.registerTool(weatherTool);
  return toolkit;
}

async function toolwrightServer() {
  const server = await serveMcpHttp(weatherToolkit(), { name: 'toolwright', version: '1.0.0', port: 0, host: '127.0.0.1' });
  return { url: server.url, close: () => server.close() };
}

async function sdkServer() {
  const factory = () => {
    const server = new McpServer({ name: 'sdk', version: '1.0.0' });
    server.registerTool(
      'get_weather',
      { description: 'Get the weather', inputSchema: z.object({ city: z.string().describe('City name'), days: z.number().int().min(1).max(14).optional() }) },
      async ({ city, days }) => ({ content: [{ type: 'text', text: answer(city, days) }] }),
    );
    return server;
  };
  const handler = createMcpHandler(factory);
  const node = toNodeHandler(handler);
  const server = http.createServer((req, res) => void node(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: new URL(`http://127.0.0.1:${server.address().port}/mcp`),
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function connect(url, versionNegotiation) {
  const client = new Client({ name: 'bench', version: '1.0.0' }, versionNegotiation ? { versionNegotiation } : {});
  await client.connect(new StreamableHTTPClientTransport(url));
  await client.listTools();
  return client;
}

async function roundTrips() {
  const tw = await toolwrightServer();
  const sdk = await sdkServer();
  const contenders = [
    ['toolwright 2026-07-28', await connect(tw.url, PIN)],
    ['SDK McpServer 2026-07-28', await connect(sdk.url, PIN)],
    ['toolwright 2025-11-25', await connect(tw.url)],
  ];
  const result = await interleaved(contenders, { warmup: WARMUP, rounds: ROUNDS, calls: CALLS });
  for (const [, client] of contenders) await client.close();
  await tw.close();
  await sdk.close();
  return result;
}

/** A toolwright server in a child process (this file with `serve` as argument); resolves with its URL. */
function child(secret) {
  const proc = fork(__filename, ['serve'], { env: { ...process.env, TOOLWRIGHT_MCP_STATE_SECRET: secret }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    proc.once('message', (url) => resolve({ url: new URL(url), kill: () => proc.kill() }));
    proc.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

/** A round-robin HTTP proxy over the given origins. */
async function proxy(targets) {
  let next = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const target = targets[next++ % targets.length];
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, agent }, (up) => {
      res.writeHead(up.statusCode, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: new URL(`http://127.0.0.1:${server.address().port}/mcp`), close: () => new Promise((resolve) => { agent.destroy(); server.closeAllConnections(); server.close(resolve); }) };
}

async function throughput(url) {
  const clients = await Promise.all(Array.from({ length: CONCURRENCY }, () => connect(url, PIN)));
  let done = 0;
  const until = Date.now() + THROUGHPUT_MS;
  const params = { name: 'get_weather', arguments: ARGS };
  await Promise.all(clients.map(async (client) => {
    while (Date.now() < until) {
      await client.callTool(params);
      done++;
    }
  }));
  await Promise.all(clients.map((client) => client.close()));
  return done / (THROUGHPUT_MS / 1000);
}

async function fleet() {
  const secret = randomBytes(32).toString('base64url');
  const results = [];
  for (const processes of [1, 2]) {
    const servers = await Promise.all(Array.from({ length: processes }, () => child(secret)));
    const front = await proxy(servers.map((s) => s.url));
    results.push([processes, await throughput(front.url)]);
    await front.close();
    for (const s of servers) s.kill();
  }
  return results;
}

async function main() {
  const result = await roundTrips();
  const reference = result.get('SDK McpServer 2026-07-28');
  process.stdout.write(`MCP tools/call round trip over HTTP on 127.0.0.1, SDK v2 Client (median of ${ROUNDS} rounds x ${CALLS} calls; cpu: client and server, one process)\n`);
  process.stdout.write(`  ${''.padEnd(26)} ${'wall µs'.padStart(8)} ${'ratio'.padStart(6)}   ${'cpu µs'.padStart(8)} ${'ratio'.padStart(6)}\n`);
  for (const [name, { wall, cpu }] of result) {
    process.stdout.write(`  ${name.padEnd(26)} ${wall.toFixed(0).padStart(8)} ${(wall / reference.wall).toFixed(2).padStart(5)}x   ${cpu.toFixed(0).padStart(8)} ${(cpu / reference.cpu).toFixed(2).padStart(5)}x\n`);
  }
  process.stdout.write(`\n2026-07-28 calls per second, ${CONCURRENCY} concurrent clients, ${THROUGHPUT_MS / 1000} s, through a round-robin proxy\n`);
  for (const [processes, rate] of await fleet()) process.stdout.write(`  ${processes} process(es): ${rate.toFixed(0)} calls/s\n`);
  const ratio = result.get('toolwright 2026-07-28').cpu / reference.cpu;
  process.stdout.write(`  bar toolwright 2026-07-28: ${ratio.toFixed(2)}x <= ${BAR}x McpServer ${ratio <= BAR ? 'OK' : 'MISSED'}\n`);
  process.exitCode = ratio <= BAR ? 0 : 1;
}

if (process.argv[2] === 'serve') {
  toolwrightServer().then((server) => process.send(server.url.href));
} else {
  main().catch((error) => {
    process.stderr.write(`${error && error.stack ? error.stack : error}\n`);
    process.exitCode = 1;
  });
}
