'use strict';
// What a hostile Streamable HTTP client can make the server hold (security items 7 and 9). Server
// and clients share this process; every figure is the server's heap (after two GCs) or the process RSS.
//   1. session flood: FLOOD initialize requests (raw fetch, on 127.0.0.1) against serveMcpHttp
//      with its defaults, from FLOOD principals (fills maxSessions) and from one principal (held to
//      maxSessionsPerPrincipal): statuses, open sessions, heap and RSS, and whether another
//      principal still gets in;
//   2. stalled bodies: STALLED initialize requests that send half their body and wait: whether a
//      client still gets in, the heap they cost, and how they end (bodyTimeoutMs);
//   3. slow reader: one tools/call whose tool emits EMITS progress notifications while the client
//      never reads the response: the heap and RSS peak while the call runs.
// Stops by itself. Run through `npm run bench` (builds dist/ first) or `node --expose-gc` after a build.
const http = require('node:http');
const { Toolkit } = require('../dist/index.js');
const { bearerAuth, McpPrincipal, serveMcpHttp } = require('../dist/mcp/index.js');
const { heapUsed } = require('./heap.js');

const FLOOD = 2_000;
const STALLED = 500;
const STALL_TIMEOUT_MS = 2_000;
const EMITS = 200_000;
let toolRuns = 0;
const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});

/** A tool that emits EMITS progress notifications of ~120 bytes, then counts its run. */
const chatty = {
  name: 'chatty',
  description: 'Emits many progress notifications',
  parameters: { type: 'object', properties: {} },
  async *execute() {
    for (let i = 1; i <= EMITS; i++) {
      yield { progress: i, total: EMITS, message: `step ${i} ${'x'.repeat(100)}` };
      // let timers (the memory sampler) and sockets run now and then
      if (i % 1_000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    toolRuns++;
    return 'done';
  },
};

function newToolkit() {
  const toolkit = new Toolkit();
  toolkit.registerTool(chatty);
  return toolkit;
}

async function initialize(url, token) {
  const res = await fetch(url, { method: 'POST', headers: { ...HEADERS, authorization: `Bearer ${token}` }, body: INITIALIZE });
  await res.text();
  return res.status;
}

/** FLOOD initializes, the i-th with the token `tokenOf(i)`; then one from `bob`. */
async function sessionFlood(label, tokenOf) {
  const server = await serveMcpHttp(newToolkit(), { name: 'flood', version: '0', authenticate: bearerAuth((token) => new McpPrincipal(token)) });
  const before = heapUsed();
  const rssBefore = process.memoryUsage().rss;
  const statuses = new Map();
  for (let i = 0; i < FLOOD; i += 50) {
    const batch = Array.from({ length: 50 }, async (_, j) => {
      const status = await initialize(server.url, tokenOf(i + j));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
    await Promise.all(batch);
  }
  const sessions = server.handler.sessionCount;
  const heap = heapUsed() - before;
  const rss = process.memoryUsage().rss;
  const bob = await initialize(server.url, 'bob');
  console.log(`session flood (${label}): ${FLOOD} initialize requests -> statuses ${JSON.stringify(Object.fromEntries(statuses))}; then another principal: ${bob}`);
  console.log(`  open sessions ${sessions}; server heap +${MB(heap)} (${(heap / Math.max(sessions, 1) / 1024).toFixed(1)} KB/session); RSS ${MB(rss)} (+${MB(rss - rssBefore)})`);
  await server.close();
}

async function stalledBodies() {
  const server = await serveMcpHttp(newToolkit(), { name: 'stalled', version: '0', maxSessions: 10, bodyTimeoutMs: STALL_TIMEOUT_MS });
  const before = heapUsed();
  const started = Date.now();
  const ends = new Map();
  const stalled = Array.from({ length: STALLED }, () => {
    const req = http.request(server.url, { method: 'POST', headers: { ...HEADERS, 'content-length': String(INITIALIZE.length) } });
    req.on('error', () => undefined);
    req.write(INITIALIZE.slice(0, INITIALIZE.length >> 1));
    return new Promise((resolve) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('close', () => resolve('closed'));
    }).then((end) => ends.set(end, (ends.get(end) ?? 0) + 1));
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const heap = heapUsed() - before;
  const res = await fetch(server.url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
  await res.text();
  await Promise.all(stalled);
  console.log(`stalled bodies: ${STALLED} initialize requests sending half their body -> meanwhile a client's initialize: ${res.status}; server heap +${MB(heap)} while they hang`);
  console.log(`  they ended after ${Date.now() - started} ms (bodyTimeoutMs ${STALL_TIMEOUT_MS}): ${JSON.stringify(Object.fromEntries(ends))}; open sessions ${server.handler.sessionCount}`);
  await server.close();
}

async function slowReader() {
  const server = await serveMcpHttp(newToolkit(), { name: 'slow', version: '0' });
  const init = await fetch(server.url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
  await init.text();
  const sessionId = init.headers.get('mcp-session-id');
  const headers = { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
  await fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  const before = heapUsed();
  const rssBefore = process.memoryUsage().rss;
  let peakHeap = 0;
  let peakRss = 0;
  // what stays reachable while the call runs (after GCs, so garbage does not count)
  const sample = setInterval(() => {
    peakHeap = Math.max(peakHeap, heapUsed() - before);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 250);
  const started = Date.now();
  // a client that sends the call and never reads the response
  const req = http.request(server.url, { method: 'POST', headers });
  req.on('response', (res) => res.pause());
  req.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'chatty', arguments: {}, _meta: { progressToken: 't' } } }));
  // the tool ends by itself; wait until it did (or 60 s)
  while (Date.now() - started < 60_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (toolRuns > 0) break;
  }
  clearInterval(sample);
  const afterCall = heapUsed() - before;
  console.log(`slow reader: ${EMITS} progress notifications to a client that does not read (${Date.now() - started} ms)`);
  console.log(`  server heap (reachable) peak +${MB(peakHeap)}, +${MB(afterCall)} held after the call; RSS peak ${MB(peakRss)} (+${MB(peakRss - rssBefore)})`);
  req.destroy();
  await server.close();
}

async function main() {
  await sessionFlood('many principals', (i) => `user${i}`);
  await sessionFlood('one principal', () => 'mallory');
  await stalledBodies();
  await slowReader();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
