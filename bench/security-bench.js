'use strict';
// What a hostile party can make toolwright spend (SECURITY.md, "everything a hostile party can grow
// is bounded"): answer time and text size for a 4 MB unknown tool name with 200 tools, for 100k
// invalid values in one argument, an endless `nextCursor` chain from an imported MCP server (time
// and heap until the import gives up), and `^(a|a)+$` against a hostile 30-character string on a
// local and an imported tool. Run through `npm run bench` (builds dist/ first).
const { Toolkit } = require('../dist/index.js');
const { importMcpTools } = require('../dist/mcp/index.js');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { ListToolsRequestSchema, CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const { heapUsed } = require('./heap.js');

/** Gives up on a scenario that has not answered after this long (the unbounded behaviour). */
const GIVE_UP_MS = 10_000;

const out = (line) => process.stdout.write(`${line}\n`);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function timed(run) {
  const start = process.hrtime.bigint();
  let timer;
  const gaveUp = new Promise((resolve) => (timer = setTimeout(() => resolve('gave up'), GIVE_UP_MS)));
  const value = await Promise.race([run(), gaveUp]);
  clearTimeout(timer);
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

function toolkitWith(count) {
  const toolkit = new Toolkit();
  for (let i = 0; i < count; i++) {
    toolkit.registerTool({
      name: `tool_number_${i}`,
      description: `Tool ${i}`,
      parameters: { type: 'object', properties: { values: { type: 'array', items: { type: 'number' } } } },
      execute: () => 'ok',
    });
  }
  return toolkit;
}

async function unknownToolName() {
  const toolkit = toolkitWith(200);
  for (const size of [1, 4]) {
    const name = 'x'.repeat(size * 1024 * 1024);
    const { value, ms } = await timed(() => toolkit.callTool({ id: 'c', name, arguments: {} }));
    out(`unknown tool name of ${size} MB, 200 tools: ${ms.toFixed(0)} ms, message ${value.forLLM.length} chars (${value.error.code})`);
  }
}

async function errorAmplification() {
  const toolkit = toolkitWith(1);
  const values = Array.from({ length: 100_000 }, (_, i) => `bad-${i}`);
  for (const [label, args] of [['object', { values }], ['JSON text', JSON.stringify({ values })]]) {
    const { value, ms } = await timed(() => toolkit.callTool({ id: 'c', name: 'tool_number_0', arguments: args }));
    out(`100k invalid values (${label}): ${ms.toFixed(0)} ms, message ${value.forLLM.length} chars (${value.error.code})`);
  }
}

async function hostileServer(onList, onCall = () => ({ content: [{ type: 'text', text: 'ok' }] })) {
  const server = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, onList);
  server.setRequestHandler(CallToolRequestSchema, onCall);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, close: async () => { await client.close(); await server.close(); } };
}

async function endlessCursor() {
  let page = 0;
  // each page after a macrotask, as over a real transport (the in-memory one runs on microtasks alone)
  const { client, close } = await hostileServer(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return { tools: [{ name: `t${page}`, description: 'x'.repeat(10_000), inputSchema: { type: 'object' } }], nextCursor: String(++page) };
  });
  const before = heapUsed();
  const { value, ms } = await timed(() => importMcpTools(client, new Toolkit()).then(() => 'resolved', (e) => e));
  const grown = heapUsed() - before;
  const outcome = typeof value === 'string' ? value : `${value.code}: ${value.message}`;
  out(`endless nextCursor: ${ms.toFixed(0)} ms, ${page} pages, heap +${mb(grown)}; ${outcome}`);
  await close();
}

const EVIL = '^(a|a)+$';
const HOSTILE = `${'a'.repeat(29)}!`;

async function evilPattern() {
  const toolkit = new Toolkit();
  toolkit.registerTool({
    name: 'local_evil',
    description: 'A developer-declared pattern',
    parameters: { type: 'object', properties: { text: { type: 'string', pattern: EVIL } }, required: ['text'] },
    execute: () => 'ok',
  });
  let local = await timed(() => toolkit.callTool({ id: 'c', name: 'local_evil', arguments: { text: HOSTILE } }));
  out(`local pattern ${EVIL} on a hostile 30-char string: ${local.ms.toFixed(0)} ms (${local.value.error?.code ?? 'ok'})`);
  const { client, close } = await hostileServer(() => ({
    tools: [{ name: 'evil', description: 'evil', inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: EVIL } } } }],
  }));
  const imported = await timed(async () => {
    const handle = await importMcpTools(client, toolkit);
    const name = handle.names.get('evil');
    return name === undefined ? `skipped: ${handle.skipped.map((s) => s.reason).join('; ')}` : toolkit.callTool({ id: 'c', name, arguments: { text: HOSTILE } });
  });
  const summary = typeof imported.value === 'string' ? imported.value : imported.value.error?.code ?? 'ok';
  out(`imported pattern ${EVIL}: import + call ${imported.ms.toFixed(0)} ms (${summary})`);
  await close();
}

const scenarios = { unknownToolName, errorAmplification, evilPattern, endlessCursor };

/** `node bench/security-bench.js [scenario…]`: the named scenarios, or all of them. */
async function main() {
  const picked = process.argv.slice(2);
  for (const [name, run] of Object.entries(scenarios)) if (picked.length === 0 || picked.includes(name)) await run();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
