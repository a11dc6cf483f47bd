'use strict';
// What importing a large hostile MCP catalogue costs (SECURITY.md, "no input blocks the process"):
// 1,000 tools whose definitions are about 96 KB each, imported with the default limits and with
// maxCatalogBytes and maxSchemaNodes raised: the import's time, its longest event-loop block, the
// heap it keeps, the first call of one tool (its validator is compiled then), and a refresh after
// the server changed every description. The server answers over the SDK's in-memory transport in
// pages of 25 tools (PAGE=n to change); the SDK's own parsing of one page is measured apart: toolwright
// cannot cut it into slices. Run through
// `npm run bench` (builds dist/ first); `node bench/mcp-import-bench.js` after `npm run build`.
const { performance } = require('node:perf_hooks');
const { Toolkit } = require('../dist/index.js');
const { importMcpTools } = require('../dist/mcp/index.js');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { InMemoryTransport } = require('@modelcontextprotocol/sdk/inMemory.js');
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { ListToolsRequestSchema, CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const { heapUsed } = require('./heap.js');

const TOOLS = 1000;
const PAGE = Number(process.env.PAGE ?? 25);
const out = (line) => process.stdout.write(`${line}\n`);
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** 300 string properties with long descriptions: ~96 KB, ~300 objects (within maxSchemaBytes and maxSchemaNodes). */
function wideSchema(tool) {
  const properties = {};
  for (let p = 0; p < 300; p++) properties[`field_${p}`] = { type: 'string', maxLength: 50, description: `Field ${p} of tool ${tool}: `.padEnd(260, 'x') };
  return { type: 'object', properties };
}

/** 380 nested objects with long descriptions: ~96 KB, ~1,500 objects (past maxSchemaNodes' default). */
function nestedSchema(tool) {
  const properties = {};
  for (let p = 0; p < 380; p++) {
    properties[`field_${p}`] = {
      type: 'object',
      description: `Field ${p} of tool ${tool} `.padEnd(120, 'x'),
      properties: { a: { type: 'string', maxLength: 50 }, b: { type: 'integer', minimum: 0 } },
    };
  }
  return { type: 'object', properties };
}

async function catalogueServer(schemaOf) {
  let version = 0;
  const schemas = Array.from({ length: TOOLS }, (_, i) => schemaOf(i));
  const tools = () => schemas.map((inputSchema, i) => ({ name: `tool_${i}`, description: `Tool ${i}, version ${version}`, inputSchema }));
  const server = new Server({ name: 'catalogue', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const all = tools();
    return { tools: all.slice(start, start + PAGE), ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, tools, bump: () => version++, close: async () => { await client.close(); await server.close(); } };
}

/** The longest stretch the event loop was blocked while `run` ran (a 1 ms interval's lateness). */
async function blocked(run) {
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  const start = performance.now();
  try {
    const value = await run();
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    return { value, ms: now - start, longest };
  } finally {
    clearInterval(probe);
  }
}

async function scenario(label, schemaOf, options) {
  const { client, bump, close } = await catalogueServer(schemaOf);
  const toolkit = new Toolkit();
  const imported = await blocked(() => importMcpTools(client, toolkit, { followListChanged: false, ...options }));
  const handle = imported.value;
  const skipped = new Map();
  for (const { code } of handle.skipped) skipped.set(code, (skipped.get(code) ?? 0) + 1);
  out(`${label}: import ${imported.ms.toFixed(0)} ms, longest block ${imported.longest.toFixed(0)} ms; ` +
    `${handle.tools.length} imported, skipped ${JSON.stringify(Object.fromEntries(skipped))}`);
  const call = async (name, id) => {
    const { value, ms } = await blocked(() => toolkit.callTool({ id, name, arguments: {} }));
    return `${ms.toFixed(1)} ms (${value.isError ? value.error.code : 'ok'})`;
  };
  const [one, two] = handle.tools.map((t) => t.name);
  if (two !== undefined) {
    out(`  first call ${await call(one, 'c1')} (the toolkit loads Ajv), first call of another tool ${await call(two, 'c2')}, second call ${await call(two, 'c3')}`);
  }
  bump();
  const refreshed = await blocked(() => handle.refresh());
  out(`  refresh with every description changed: ${refreshed.ms.toFixed(0)} ms, longest block ${refreshed.longest.toFixed(0)} ms; ${handle.tools.length} imported`);
  const count = handle.tools.length;
  const held = heapUsed();
  await handle.close();
  const kept = held - heapUsed();
  out(`  heap held by the import: ${mb(kept)}${count > 0 ? ` (${(kept / count / 1024).toFixed(0)} KB per imported tool)` : ''}`);
  await close();
}

async function sdkPage() {
  const { client, tools, close } = await catalogueServer(wideSchema);
  const listed = await blocked(() => client.listTools());
  out(`SDK alone, client.listTools() of one page (${listed.value.tools.length} of ${tools().length} tools, ~9.6 MB): ${listed.ms.toFixed(0)} ms, longest block ${listed.longest.toFixed(0)} ms`);
  await close();
}

async function main() {
  await sdkPage();
  await scenario('1,000 tools x 96 KB, wide (300 nodes each), default limits', wideSchema, {});
  await scenario('1,000 tools x 96 KB, wide, maxCatalogBytes raised to 200 MB', wideSchema, { maxCatalogBytes: 200 * 1024 * 1024 });
  await scenario('1,000 tools x 96 KB, nested (1,500 nodes each), default limits', nestedSchema, {});
  await scenario('1,000 tools x 96 KB, nested, maxSchemaNodes 2,000 and maxCatalogBytes 200 MB', nestedSchema, { maxSchemaNodes: 2000, maxCatalogBytes: 200 * 1024 * 1024 });
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  },
);
