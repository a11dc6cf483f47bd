'use strict';
// `npm run bench`: builds dist/ (see package.json) and runs every benchmark in its own process,
// one after the other so they do not disturb each other. Not part of `npm test`.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const benches = [
  ['core (heap, definitions, toggles)', 'core-bench.js'],
  ['executor (per-call overhead, batches)', 'executor-bench.js'],
  ['argument repair (cost on a valid call, a repaired call, the longest block)', 'repair-bench.js'],
  ['build-time schema generation', 'build-bench.js'],
  ['sessions and skills', 'sessions-bench.js'],
  ['preset redaction', 'secrets-bench.js'],
  ['MCP round trip', 'mcp-bench.js'],
  ['MCP over HTTP: 2026-07-28 vs the SDK v2 McpServer vs 2025-11-25; calls/s with 1 and 2 processes', 'mcp-http-bench.js'],
  ['LangChain adapter (per-call overhead)', 'langchain-bench.js'],
  ['OpenAI Agents SDK adapter (per-call overhead)', 'openai-agents-bench.js'],
  ['streamToolLoop (overhead per event over the raw openai SDK stream, same local server)', 'stream-bench.js'],
  ['AI SDK adapter (per-call overhead over the SDK plain tool path + view.callTool)', 'ai-sdk-bench.js'],
  ['NestJS module (start-up: discovery and registration)', 'nestjs-bench.js'],
  ['MCP HTTP limits (session flood, slow reader)', 'mcp-http-limits.js'],
  ['BullMQ worker fleet (toolwright/bullmq vs bare BullMQ, 1/2/4 worker processes; needs Redis)', 'bullmq-bench.js'],
  ['human approval with each store (ms per hold and per decision, approvals/s; needs Redis and PostgreSQL)', 'approval-stores-bench.js'],
  ['hostile input bounds', 'security-bench.js'],
  ['MCP import of a large catalogue (time, longest block, heap, first call, refresh)', 'mcp-import-bench.js'],
  ['validation time per 100 KB of hostile input (string formats, uniqueItems)', 'format-bench.js'],
  ['install footprint and cold require (packs and installs from the registry)', 'footprint-bench.js'],
];

let failed = 0;
for (const [title, file] of benches) {
  const script = path.join(__dirname, file);
  if (!fs.existsSync(script)) continue;
  process.stdout.write(`\n=== ${title} (${file}) ===\n`);
  const run = spawnSync(process.execPath, ['--expose-gc', script], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
