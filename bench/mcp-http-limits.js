'use strict';
// What a hostile Streamable HTTP client can make the server hold (security item 7). Server and
// clients share this process; every figure is the server's heap (after two GCs) or the process RSS.
//   1. session flood: FLOOD initialize requests (raw fetch, on 127.0.0.1) against serveMcpHttp
//      with its defaults: how many are accepted, how many refused, heap and RSS at the cap;
//   2. slow reader: one tools/call whose tool emits EMITS progress notifications while the client
//      never reads the response: the heap and RSS peak while the call runs.
// Stops by itself. Run through `npm run bench` (builds dist/ first) or `node --expose-gc` after a build.
const http = require('node:http');
const { Toolkit } = require('../dist/index.js');
const { serveMcpHttp } = require('../dist/mcp/index.js');
const { heapUsed } = require('./heap.js');

const FLOOD = 2_000;
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

async function sessionFlood() {
  const server = await serveMcpHttp(newToolkit(), { name: 'flood', version: '0' });
  const before = heapUsed();
  const rssBefore = process.memoryUsage().rss;
  const statuses = new Map();
  for (let i = 0; i < FLOOD; i += 50) {
    const batch = Array.from({ length: 50 }, async () => {
      const res = await fetch(server.url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
      await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    });
    await Promise.all(batch);
  }
  const sessions = server.handler.sessionCount;
  const heap = heapUsed() - before;
  const rss = process.memoryUsage().rss;
  console.log(`session flood: ${FLOOD} initialize requests -> statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  console.log(`  open sessions ${sessions}; server heap +${MB(heap)} (${(heap / Math.max(sessions, 1) / 1024).toFixed(1)} KB/session); RSS ${MB(rss)} (+${MB(rss - rssBefore)})`);
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
  await sessionFlood();
  await slowReader();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
